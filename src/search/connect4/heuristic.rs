//! The classic beam alpha-beta search of Connect Four: the search of `c4_player beam`, the
//! opponent the default player is measured against on large boards (the default player's
//! own search for positions the solver cannot finish is [`super::midgame`]).
//!
//! Iterative-deepening negamax with alpha-beta on the same bitboards as the solver, with
//! the solver's safety rules (take an immediate win, never play a move that lets the
//! opponent win at once, a single forced block is the only move) and a beam: below the root
//! only the best `beam_percent` % of the moves (by threats created, then by the alignment
//! value of the landing cell) are searched. Leaves are scored by the alignment utility
//! ([`Windows::alignment`]): every window of k cells that one side can still fill is worth
//! stones² / (cells still to fill + 1) to that side.

use crate::base::score::{mate_in, mated_in};
use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position, Threats};
use crate::game::connect4::windows::Windows;

pub use super::deepen::BeamResult;
use super::deepen::{deepen, Iterated};

/// The rules every node of the heuristic searches applies before it searches: a full board
/// is a draw, a win on the next move is taken, no move that does not lose is a loss, and a
/// board with one move left for each side is a draw. Otherwise the moves that do not lose at
/// once (the only ones worth searching), or the node's settled score.
pub(super) fn node_moves<B: Bits>(g: &Geometry<B>, p: &Position<B>, ply: u32) -> Result<B, i32> {
    node_moves_given(g, p, ply, &p.threats(g))
}

/// [`node_moves`] with the node's threats already known.
pub(super) fn node_moves_given<B: Bits>(
    g: &Geometry<B>,
    p: &Position<B>,
    ply: u32,
    t: &Threats<B>,
) -> Result<B, i32> {
    if p.moves >= g.cells() {
        return Err(0);
    }
    if !(t.mine & p.possible(g)).is_zero() {
        return Err(mate_in(ply + 1));
    }
    let nl = p.non_losing_given(g, t.theirs);
    if nl.is_zero() {
        return Err(mated_in(ply + 2));
    }
    if p.moves + 2 >= g.cells() {
        return Err(0);
    }
    Ok(nl)
}

/// Nodes between two polls of the clock and the stop flag.
const POLL_INTERVAL: u64 = 2048;

/// The beam search over one geometry.
pub struct BeamSearch<'a, B: Bits> {
    g: &'a Geometry<B>,
    win: &'a Windows<B>,
    beam_percent: u32,
    pub nodes: u64,
    node_limit: Option<u64>,
    should_stop: &'a dyn Fn() -> bool,
    aborted: bool,
}

impl<'a, B: Bits> BeamSearch<'a, B> {
    pub fn new(
        g: &'a Geometry<B>,
        win: &'a Windows<B>,
        beam_percent: u32,
        node_limit: Option<u64>,
        should_stop: &'a dyn Fn() -> bool,
    ) -> BeamSearch<'a, B> {
        BeamSearch {
            g,
            win,
            beam_percent: beam_percent.clamp(1, 100),
            nodes: 0,
            node_limit,
            should_stop,
            aborted: false,
        }
    }

    /// Iterative deepening up to `max_depth` (the loop both heuristic searches share); `on_iteration` sees every
    /// finished iteration and returns false to stop deepening (soft time limit). An
    /// iteration cut short does not count. `None` only when the first iteration could not
    /// finish or the position has no move.
    pub fn run(
        &mut self,
        p: &Position<B>,
        max_depth: u32,
        on_iteration: &mut dyn FnMut(&BeamResult) -> bool,
    ) -> Option<BeamResult> {
        let empty = (self.g.cells() - p.moves) as u32;
        let mut iterate = |depth, previous| {
            let (score, col) = self.root(p, depth, previous);
            Iterated {
                found: col.filter(|_| !self.aborted).map(|c| (score, c)),
                ended: !self.aborted,
                nodes: self.nodes,
            }
        };
        deepen(empty, max_depth, &mut iterate, on_iteration)
    }

    fn check_abort(&mut self) -> bool {
        if !self.aborted
            && (self.node_limit.is_some_and(|l| self.nodes >= l)
                || (self.nodes.is_multiple_of(POLL_INTERVAL) && (self.should_stop)()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Ordered moves (best first): immediate threat count, then the cell's alignment value
    /// for both sides (attack and defence), then centre.
    fn ordered(&self, p: &Position<B>, moves: B) -> Vec<(B, i32)> {
        let g = self.g;
        let me = p.current;
        let opp = p.current ^ p.mask;
        let mut v: Vec<(B, i32)> = Position::columns_in(g, moves)
            .map(|c| {
                let mv = moves & g.column_mask(c);
                let row = g.row_of(mv, c);
                let centre = g.width as i32 - (2 * c as i32 - (g.width as i32 - 1)).abs();
                let s = 1000 * p.move_score(g, mv) as i32
                    + self.win.cell_value(g, me, opp, c, row)
                    + self.win.cell_value(g, opp, me, c, row)
                    + centre;
                (mv, s)
            })
            .collect();
        v.sort_by_key(|m| std::cmp::Reverse(m.1));
        v
    }

    fn root(&mut self, p: &Position<B>, depth: u32, first: Option<usize>) -> (i32, Option<usize>) {
        let g = self.g;
        self.nodes += 1;
        let possible = p.possible(g);
        if possible.is_zero() {
            return (0, None);
        }
        let wins = p.winning(g) & possible;
        if !wins.is_zero() {
            return (mate_in(1), Position::columns_in(g, wins).next());
        }
        let nl = p.non_losing_moves(g);
        if nl.is_zero() {
            // Every move loses at once: still name one (block one threat if possible).
            let pool = p.opponent_winning(g) & possible;
            let pool = if pool.is_zero() { possible } else { pool };
            return (mated_in(2), Position::columns_in(g, pool).next());
        }
        let mut moves = self.ordered(p, nl);
        if let Some(f) = first {
            if let Some(i) = moves.iter().position(|m| g.column_of(m.0) == Some(f)) {
                let m = moves.remove(i);
                moves.insert(0, m);
            }
        }
        let mut alpha = -crate::base::score::INFINITE;
        let beta = crate::base::score::INFINITE;
        let mut best = None;
        for (mv, _) in moves {
            let mut child = *p;
            child.play(mv);
            let s = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
            if self.aborted {
                return (alpha, best);
            }
            if s > alpha || best.is_none() {
                alpha = alpha.max(s);
                best = g.column_of(mv);
            }
        }
        (alpha, best)
    }

    fn negamax(&mut self, p: &Position<B>, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        let g = self.g;
        let nl = match node_moves(g, p, ply) {
            Ok(nl) => nl,
            Err(score) => return score,
        };
        if depth == 0 {
            return self.win.alignment(g, p);
        }
        let moves = self.ordered(p, nl);
        let keep = ((moves.len() as u32 * self.beam_percent).div_ceil(100) as usize).max(1);
        let mut best = -crate::base::score::INFINITE;
        for &(mv, _) in moves.iter().take(keep) {
            let mut child = *p;
            child.play(mv);
            let s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    #[test]
    fn beam_search_blocks_and_wins() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let w = Windows::new(&g);
        let never = || false;
        // X threatens 3 in a row on the bottom row (cols 3,4,5 with both ends open); O to
        // move must not let it become an open three: any search depth ≥ 2 sees the loss.
        let p = parse_sequence(&g, "4a5b").unwrap();
        let mut s = BeamSearch::new(&g, &w, 50, Some(200_000), &never);
        let r = s.run(&p, 4, &mut |_| true).unwrap();
        assert!(
            r.col == 2 || r.col == 5,
            "must stop the open three, played {}",
            r.col
        );
        // X to move with three in a row: wins at once.
        let p = parse_sequence(&g, "4a5b6c").unwrap();
        let mut s = BeamSearch::new(&g, &w, 50, Some(200_000), &never);
        let r = s.run(&p, 6, &mut |_| true).unwrap();
        assert_eq!(r.score, mate_in(1));
        assert!(r.col == 2 || r.col == 6);
    }
}
