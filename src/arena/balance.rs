//! Balanced opening generation: random openings of a few stones near the centre, kept only
//! where the engine's own static evaluation calls the position nearly level, and only once
//! per symmetry class.
//!
//! Generic over [`Game`] so the same code serves every rule and board size, and is tested
//! with any small board. The evaluation is the side to move's [`Game::evaluate`]; the bound
//! is in its units. Symmetric duplicates are dropped by comparing a canonical form (the
//! smallest of the eight transformed stone lists, colours kept apart), because an opening
//! and its mirror image test the same thing.

use super::opening::{symmetry_count, transform};
use super::tournament::SplitMix;
use crate::game::{Game, Move};
use std::collections::HashSet;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalanceSpec {
    pub count: usize,
    pub min_stones: usize,
    pub max_stones: usize,
    /// Stones fall within this many cells of the centre (Chebyshev distance).
    pub radius: usize,
    /// Keep openings whose evaluation is within `±max_eval`.
    pub max_eval: i32,
    /// Give up after this many random tries, returning what was found.
    pub max_tries: usize,
    pub seed: u64,
}

/// The symmetry-independent form of an opening: per colour, the sorted stones, minimised
/// over the board's symmetries.
pub fn canonical(moves: &[Move], width: usize, height: usize) -> Vec<Move> {
    (0..symmetry_count(width, height))
        .map(|s| {
            let t: Vec<Move> = moves
                .iter()
                .map(|&m| transform(m, s, width, height))
                .collect();
            let mut black: Vec<Move> = t.iter().step_by(2).copied().collect();
            let mut white: Vec<Move> = t.iter().skip(1).step_by(2).copied().collect();
            black.sort();
            white.sort();
            black.extend(white);
            black
        })
        .min()
        .unwrap_or_default()
}

/// One random opening of `n` stones around the centre, played on a fresh board; `None`
/// when a stone is rejected or the game ends.
fn random_opening<G: Game>(
    empty: &G,
    n: usize,
    radius: usize,
    rng: &mut SplitMix,
) -> Option<(G, Vec<Move>)> {
    let (w, h) = (empty.width(), empty.height());
    let (cx, cy) = (w / 2, h / 2);
    let (x0, y0) = (cx.saturating_sub(radius), cy.saturating_sub(radius));
    let (x1, y1) = ((cx + radius).min(w - 1), (cy + radius).min(h - 1));
    let mut g = empty.clone();
    let mut moves = Vec::with_capacity(n);
    for _ in 0..n {
        let x = x0 + rng.below((x1 - x0 + 1) as u64) as usize;
        let y = y0 + rng.below((y1 - y0 + 1) as u64) as usize;
        let m = Move::new(x as u8, y as u8);
        if g.check_move(m).is_err() || g.is_forbidden(m) {
            return None;
        }
        g.play(m);
        if g.outcome().is_some() {
            return None;
        }
        moves.push(m);
    }
    Some((g, moves))
}

/// Generates up to `spec.count` distinct near-level openings, each with its evaluation.
pub fn generate<G: Game>(empty: &G, spec: &BalanceSpec) -> Vec<(Vec<Move>, i32)> {
    let mut rng = SplitMix::new(spec.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let (w, h) = (empty.width(), empty.height());
    if w == 0 || h == 0 || spec.min_stones > spec.max_stones {
        return out;
    }
    let span = (spec.max_stones - spec.min_stones + 1) as u64;
    for _ in 0..spec.max_tries {
        if out.len() >= spec.count {
            break;
        }
        let n = spec.min_stones + rng.below(span) as usize;
        let Some((g, moves)) = random_opening(empty, n, spec.radius, &mut rng) else {
            continue;
        };
        let eval = g.evaluate();
        if eval.abs() > spec.max_eval {
            continue;
        }
        if seen.insert(canonical(&moves, w, h)) {
            out.push((moves, eval));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_form_ignores_symmetry_but_not_colour() {
        let a = [Move::new(7, 7), Move::new(8, 7), Move::new(7, 9)];
        let b: Vec<Move> = a.iter().map(|&m| transform(m, 5, 15, 15)).collect();
        assert_eq!(canonical(&a, 15, 15), canonical(&b, 15, 15));
        let swapped = [Move::new(8, 7), Move::new(7, 7), Move::new(7, 9)];
        assert_ne!(canonical(&a, 15, 15), canonical(&swapped, 15, 15));
    }
}
