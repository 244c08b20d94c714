//! Renju fouls for black: overline, double four (across lines or two fours on one line) and
//! double three, where a three counts only if it is *real*: it can become a straight four by
//! a move that is itself not forbidden.
//!
//! The directional patterns already answer overline and four counts exactly (they are
//! computed with black's exact-five rule), so only a possible double three needs a search:
//! put the stone down, and for each open-three direction look for a straight-four point on
//! that line whose four contains the stone and which is not itself forbidden, recursively,
//! up to `params::FORBIDDEN_DEPTH` levels (beyond it a point is assumed playable). The
//! search works on the board with `put`/`take`, which leave it exactly as it was; callers
//! holding only `&self` pay one clone, and only when the cheap tests cannot decide.

use super::board::{stone_bits, Board, DIRS};
use super::params;
use super::pattern::{Counts, Pattern};
use super::rules::Rule;
use crate::game::{Color, Move};

impl<R: Rule> Board<R> {
    /// Renju: whether black playing the empty cell `m` would be a foul, whoever is to move.
    /// False for other rules, occupied or off-board cells, and any move that makes a five.
    pub fn is_forbidden_black(&self, m: Move) -> bool {
        let mut scratch = None;
        match self.coords(m) {
            Some((x, y)) => self.forbidden_with(&mut scratch, x, y),
            None => false,
        }
    }

    /// The foul test with a lazily made scratch copy, so that a caller testing many cells
    /// clones at most once.
    pub(super) fn forbidden_with(
        &self,
        scratch: &mut Option<Board<R>>,
        x: usize,
        y: usize,
    ) -> bool {
        match quick_verdict::<R>(self, x, y) {
            Some(v) => v,
            None => scratch.get_or_insert_with(|| self.clone()).forbidden_at(
                x,
                y,
                params::FORBIDDEN_DEPTH,
            ),
        }
    }

    /// The full foul test on a mutable board (left unchanged).
    pub(super) fn forbidden_at(&mut self, x: usize, y: usize, depth: u32) -> bool {
        if let Some(v) = quick_verdict::<R>(self, x, y) {
            return v;
        }
        let pats = self.cells[self.idx(x, y)].pat[Color::Black.index()];
        let black = stone_bits(Color::Black);
        self.put_saved(x, y, black);
        let mut real = 0;
        for (d, &p) in pats.iter().enumerate() {
            if p == Pattern::OpenThree && self.three_is_real(x, y, d, depth) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.unput(x, y, black);
        real >= 2
    }

    /// With a black stone on `(x, y)`: whether its open three along `d` can become a straight
    /// four through `(x, y)` by a move that is not itself forbidden.
    fn three_is_real(&mut self, x: usize, y: usize, d: usize, depth: u32) -> bool {
        let (dx, dy) = DIRS[d];
        for o in (-3i32..0).chain(1..=3) {
            let (ex, ey) = (x as i32 + o * dx, y as i32 + o * dy);
            if !self.on_board(ex, ey) {
                continue;
            }
            let (ex, ey) = (ex as usize, ey as usize);
            if !self.is_empty_xy(ex, ey)
                || self.cells[self.idx(ex, ey)].pat[Color::Black.index()][d] != Pattern::OpenFour
            {
                continue;
            }
            // The straight four must contain our stone: every cell in between is black.
            let step = o.signum();
            let joined = (1..o.abs()).all(|k| {
                let (bx, by) = (x as i32 + step * k * dx, y as i32 + step * k * dy);
                self.color_at(bx as usize, by as usize) == Some(Color::Black)
            });
            if !joined {
                continue;
            }
            if depth == 0 || !self.forbidden_at(ex, ey, depth - 1) {
                return true;
            }
        }
        false
    }
}

/// The answer when the patterns alone decide it; None when a double three must be searched.
fn quick_verdict<R: Rule>(b: &Board<R>, x: usize, y: usize) -> Option<bool> {
    if !R::RENJU || !b.is_empty_xy(x, y) {
        return Some(false);
    }
    let counts = Counts::of(&b.cells[b.idx(x, y)].pat[Color::Black.index()]);
    if counts.fives > 0 {
        return Some(false);
    }
    if counts.surely_forbidden() {
        return Some(true);
    }
    if !counts.maybe_double_three() {
        return Some(false);
    }
    None
}
