//! The quiescence search at the alpha-beta leaves: the static value stands unless a chain of
//! fours changes it.
//!
//! A leaf judged by its static value alone misses what a four does: it forces the block, so
//! a sequence of fours is played out before the position is quiet. The side to move may
//! stand on the static value ("stand pat") or play a four near its own last stone; the
//! opponent, facing the five, only blocks. Bare fours are tried for the first
//! [`Params::qs_plain`](super::Params::qs_plain) attacker plies only, then only fours that
//! make something more, so the search stays small while every VCF it walks is exact.

use super::Worker;
use crate::search::gomoku::threats::Tactics;
use crate::search::score::{from_tt, mate_in, mated_in, to_tt, INFINITE};
use crate::search::tt::Bound;

impl<G: Tactics> Worker<'_, G> {
    /// The quiescence value of the position at `ply` inside `(alpha, beta)`; `qply` counts
    /// the attacker's fours played since the leaf.
    pub(super) fn qsearch(&mut self, ply: u32, mut alpha: i32, mut beta: i32, qply: u32) -> i32 {
        if let Some(v) = self.enter(ply) {
            return v;
        }
        let p = ply as usize;
        if self.game.facing_five() {
            return self.qdefend(ply, alpha, beta, qply);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = self.game.key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
            tt_move = e.mv;
        }
        let stand = self.game.evaluate();
        if stand >= beta || qply >= self.params.qs_max {
            return stand;
        }
        let alpha0 = alpha;
        alpha = alpha.max(stand);
        let mut list = std::mem::take(&mut self.fours[p]);
        list.clear();
        self.game
            .quiet_fours(qply < self.params.qs_plain, &mut list);
        if let Some(i) = tt_move.and_then(|m| list.iter().position(|&(f, _)| f == m)) {
            list[..=i].rotate_right(1);
        }
        let mut best = stand;
        let mut best_move = None;
        for &(m, _) in list.iter() {
            self.play(m);
            let s = -self.qsearch(ply + 1, -beta, -alpha, qply + 1);
            self.game.undo();
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = Some(m);
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.fours[p] = list;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, to_tt(best, ply), 0, bound);
        best
    }

    /// The side to move faces a five: it blocks (every block, in case there are two, which
    /// lose), and the attack goes on.
    fn qdefend(&mut self, ply: u32, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        let p = ply as usize;
        let mut list = std::mem::take(&mut self.moves[p]);
        list.clear();
        self.game.candidates(&mut list);
        let mut best = -INFINITE;
        for m in list.iter().map(|s| s.mv) {
            self.play(m);
            let s = -self.qsearch(ply + 1, -beta, -alpha, qply);
            self.game.undo();
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[p] = list;
        if self.aborted {
            return 0;
        }
        if best == -INFINITE {
            // No legal block (renju black with only fouls): the five comes next.
            return mated_in(ply + 1);
        }
        best
    }
}
