//! Candidate moves and the static evaluation of a capture position.
//!
//! Both start from the inner gomoku board's (its forced-move rules, its pattern
//! evaluation), which is all the plain search sees. The capture-aware search adds what
//! captures change: every capture the side to move can make is a candidate (it may break a
//! four, or win by the fifth pair), so are the cells that stop the opponent's fifth pair;
//! ordering ranks captures and blocked captures and penalises moves that expose a pair; the
//! evaluation adds the captured pairs and the capture threats of both sides. Ninuki's
//! forbidden double threes are removed in both searches: that is legality, not judgement.

use super::board::CaptureBoard;
use super::lines::{cells_of, DIRS8};
use super::params;
use super::rules::{Variant, PAIRS_TO_WIN};
use crate::base::score;
use crate::game::{Game, Move, ScoredMove};

/// Index into the per-pair tables, clamped to the tables' range.
#[inline]
fn at(table: &[i32], pairs: u32) -> i32 {
    table[(pairs as usize).min(table.len() - 1)]
}

impl<V: Variant> CaptureBoard<V> {
    /// Fills `out` with the candidate moves, best first (see the module documentation).
    pub(super) fn generate(&self, out: &mut Vec<ScoredMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        // After a five that must be broken the inner board calls the game won and lists
        // nothing; the captures below are then the whole list.
        self.board.candidates(out);
        if self.aware {
            self.add_capture_moves(out);
        }
        if V::NO_DOUBLE_THREE {
            out.retain(|s| !self.is_double_three(s.mv));
        }
        if out.is_empty() {
            // Nothing the gomoku rules call useful: any legal move, so the search always
            // has one.
            out.extend(
                self.legal_moves()
                    .into_iter()
                    .map(|mv| ScoredMove { mv, score: 0 }),
            );
        }
        if self.aware {
            for s in out.iter_mut() {
                s.score = s.score.saturating_add(self.capture_order(s.mv));
            }
            // Stable: equal scores keep the inner board's order.
            out.sort_by_key(|s| std::cmp::Reverse(s.score));
        }
    }

    /// Adds the side to move's captures and, when the opponent is one pair from winning,
    /// the cells where it would capture.
    fn add_capture_moves(&self, out: &mut Vec<ScoredMove>) {
        let me = self.side_to_move();
        let opp = me.opponent();
        let rows = self.rows();
        let h = self.height();
        let (mine, _) = rows.capture_cells(me);
        let add = |m: Move, out: &mut Vec<ScoredMove>| {
            if !out.iter().any(|s| s.mv == m) {
                out.push(ScoredMove { mv: m, score: 0 });
            }
        };
        for m in cells_of(&mine, h) {
            add(m, out);
        }
        if self.captured_pairs(opp) >= params::PAIRS_CAPTURE_IS_FORCING {
            let (theirs, _) = rows.capture_cells(opp);
            for m in cells_of(&theirs, h) {
                add(m, out);
            }
        }
    }

    /// The capture part of a move's ordering rank for the side to move.
    fn capture_order(&self, m: Move) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        let rows = self.rows();
        let mut rank = 0;
        let took = rows.capture_mask(me, m).count_ones();
        if took > 0 {
            let after = u32::from(self.captured_pairs(me)) + took;
            rank += at(&params::CAPTURE_ORDER, after);
        }
        let lost = rows.capture_mask(opp, m).count_ones();
        if lost > 0 {
            let after = u32::from(self.captured_pairs(opp)) + lost;
            rank += at(&params::BLOCK_CAPTURE_ORDER, after);
        }
        // Our new stone beside one of ours, the pair flanked by the opponent on one side
        // and open on the other: the opponent captures next.
        let (x, y) = (m.x as i32, m.y as i32);
        for &(dx, dy) in DIRS8.iter() {
            if !rows.has(me, x + dx, y + dy) {
                continue;
            }
            let behind = (x - dx, y - dy);
            let beyond = (x + 2 * dx, y + 2 * dy);
            let empty = |(qx, qy): (i32, i32)| {
                qx >= 0
                    && qy >= 0
                    && (qx as usize) < self.width()
                    && (qy as usize) < self.height()
                    && self.board.is_empty(Move::new(qx as u8, qy as u8))
            };
            let theirs = |(qx, qy): (i32, i32)| rows.has(opp, qx, qy);
            if (theirs(behind) && empty(beyond)) || (empty(behind) && theirs(beyond)) {
                rank -= params::EXPOSE_ORDER;
            }
        }
        rank
    }

    /// The static evaluation from the side to move's point of view: the inner gomoku value,
    /// plus (capture-aware) the captured pairs and both sides' capture threats.
    pub(super) fn static_eval(&self) -> i32 {
        let base = self.board.evaluate();
        if !self.aware {
            return base;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        let rows = self.rows();
        let (_, mine) = rows.capture_cells(me);
        let (_, theirs) = rows.capture_cells(opp);
        let (pm, po) = (
            u32::from(self.captured_pairs(me)),
            u32::from(self.captured_pairs(opp)),
        );
        let next = |p: u32| at(&params::PAIR_VALUE, p + 1) - at(&params::PAIR_VALUE, p);
        let mut v = base + at(&params::PAIR_VALUE, pm) - at(&params::PAIR_VALUE, po);
        if mine > 0 {
            if pm + 1 >= u32::from(PAIRS_TO_WIN) {
                v += params::WIN_NEXT;
            } else {
                v += next(pm) * params::CAPTURE_NOW_PERCENT / 100;
            }
        }
        if theirs > 0 {
            if po + 1 >= u32::from(PAIRS_TO_WIN) && theirs >= 2 && mine == 0 {
                v -= params::LOSS_NEXT;
            } else if po + 1 < u32::from(PAIRS_TO_WIN) {
                v -= next(po) * params::THREATENED_PERCENT / 100 * theirs as i32;
            } else {
                v -= next(po - 1) * theirs as i32;
            }
        }
        v.clamp(-(score::WIN_MIN - 1), score::WIN_MIN - 1)
    }
}
