//! Candidate moves and the static evaluation, both read from the incremental per-cell codes.
//!
//! Candidates follow the forced-move rules a threat-aware search wants, strongest first:
//! 1. the side to move can make five: those moves only;
//! 2. the opponent has a five point: only the blocks (renju black: forbidden blocks are
//!    dropped; if every block is forbidden black is lost anyway and the ordinary list is
//!    returned, so the search still has legal non-foul moves to try);
//! 3. the opponent can make an open four or double four next move (it has a three): the
//!    cells that leave it no such move (found by trying each cell on the threat lines), plus
//!    every move of ours that makes a four (it forces a reply, and may win). If no single
//!    cell stops every threat, all tried cells are kept;
//! 4. otherwise the empty cells within `params::NEAR` of a stone (the centre on an empty
//!    board).
//!
//! Renju black never gets a forbidden cell; should every legal cell be forbidden (black has
//! only losing moves) the legal cells are returned so the search is never left moveless.
//! Ordering: the fitted ranks of `weights` (by code and pattern combination, ours to
//! attack and the opponent's to defend) plus influence; ties keep row-major order, so the
//! list is deterministic.

use super::board::{stone_bits, Board, DIRS};
use super::params;
use super::pattern::{combine, slot, table, Code, Pattern, HALF};
use super::rules::Rule;
use super::weights;
use crate::base::score;
use crate::game::{Color, Game, Move, ScoredMove};

impl<R: Rule> Board<R> {
    /// Fills `out` with the candidate moves and their ordering scores, in row-major order
    /// within each forced-move case (see the module documentation).
    pub(super) fn generate(&self, out: &mut Vec<ScoredMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        let mut scratch: Option<Board<R>> = None;
        let renju_black = R::RENJU && me == Color::Black;
        let drop_fouls = |out: &mut Vec<ScoredMove>, scratch: &mut Option<Board<R>>| {
            if renju_black {
                out.retain(|s| !self.forbidden_with(scratch, s.mv.x as usize, s.mv.y as usize));
            }
        };

        if self.code_count(me, Code::Five) > 0 {
            self.push_five_points(me, self.own_last_move(), out);
        } else if self.code_count(opp, Code::Five) > 0 {
            self.push_five_points(opp, self.last_move(), out);
            drop_fouls(out, &mut scratch);
        } else if self.code_count(opp, Code::OpenFour) + self.code_count(opp, Code::DoubleFour) > 0
        {
            self.defend_three(out);
            drop_fouls(out, &mut scratch);
        } else if self.code_count(opp, Code::FourThree) > 0 && self.defend_four_three(out) {
            drop_fouls(out, &mut scratch);
        }
        if out.is_empty() {
            self.push_near(out);
            drop_fouls(out, &mut scratch);
        }
        if out.is_empty() {
            // Only fouls are left (or no stone is near anything): every legal cell.
            self.push_cells_with(out, |_, _, _| true);
        }
        for s in out.iter_mut() {
            s.score = self.order_score(s.mv, me);
        }
    }

    #[inline]
    fn code_xy(&self, x: usize, y: usize, c: Color) -> Code {
        self.cells[self.idx(x, y)].code[c.index()]
    }

    /// Appends `c`'s five points: read off the lines through `from` (`c`'s last stone) when
    /// they hold all of them, as they do when that stone made the four; else by a scan of
    /// the board. Forcing lines of fours go through here at every ply, and a scan costs a
    /// pass over every empty cell.
    fn push_five_points(&self, c: Color, from: Option<Move>, out: &mut Vec<ScoredMove>) {
        let want = self.code_count(c, Code::Five);
        if let Some(m) = from {
            self.for_each_five_point_around(m, c, |p| {
                if !out.iter().any(|s| s.mv == p) {
                    out.push(ScoredMove { mv: p, score: 0 });
                }
            });
            if out.len() == want {
                // Row-major, as a scan would list them.
                out.sort_by_key(|s| (s.mv.y, s.mv.x));
                return;
            }
            out.clear();
        }
        self.push_cells_with(out, |b, x, y| b.code_xy(x, y, c) == Code::Five);
    }

    fn push_cells_with(
        &self,
        out: &mut Vec<ScoredMove>,
        keep: impl Fn(&Self, usize, usize) -> bool,
    ) {
        self.for_each_empty(|b, x, y| {
            if keep(b, x, y) {
                out.push(ScoredMove {
                    mv: Move::new(x as u8, y as u8),
                    score: 0,
                });
            }
        });
    }

    fn push_near(&self, out: &mut Vec<ScoredMove>) {
        if !self.has_stones() {
            let (x, y) = (self.width() / 2, self.height() / 2);
            if self.is_empty_xy(x, y) {
                out.push(ScoredMove {
                    mv: Move::new(x as u8, y as u8),
                    score: 0,
                });
                return;
            }
        }
        let near = self.near_mask();
        for (y, &row) in near.iter().enumerate().take(self.height()) {
            let mut m = row;
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(ScoredMove {
                    mv: Move::new(x as u8, y as u8),
                    score: 0,
                });
            }
        }
    }

    /// Case 3: the opponent threatens an open four. Cells that stop every such threat, plus
    /// our fours. Whether a cell stops the threats is worked out from the line keys alone
    /// (see [`Board::stops_all`]), without playing it: this runs at every node that faces
    /// a three, so it must not cost a make/undo per tried cell.
    fn defend_three(&self, out: &mut Vec<ScoredMove>) {
        let me = self.side_to_move();
        let opp = me.opponent();
        // The threat points, and the cells on their threat lines.
        let mut threats: Vec<(usize, usize)> = Vec::new();
        let mut tried = vec![false; self.width() * self.height()];
        let mut tries: Vec<(usize, usize)> = Vec::new();
        self.for_each_empty(|b, x, y| {
            if !b.code_xy(x, y, opp).is_double_five_threat() {
                return;
            }
            threats.push((x, y));
            let pats = b.cells[b.idx(x, y)].pat[opp.index()];
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                if pats[d] < Pattern::Four {
                    continue;
                }
                for o in -HALF..=HALF {
                    let (qx, qy) = (x as i32 + o * dx, y as i32 + o * dy);
                    if !b.on_board(qx, qy) || !b.is_empty_xy(qx as usize, qy as usize) {
                        continue;
                    }
                    let (qx, qy) = (qx as usize, qy as usize);
                    let q = b.idx(qx, qy);
                    if !tried[q] {
                        tried[q] = true;
                        tries.push((qx, qy));
                    }
                }
            }
        });
        let stops: Vec<(usize, usize)> = tries
            .iter()
            .copied()
            .filter(|&q| self.stops_all(q, &threats, me, Code::is_double_five_threat))
            .collect();
        let keep = if stops.is_empty() { &tries } else { &stops };
        let mut chosen = tried;
        chosen.iter_mut().for_each(|c| *c = false);
        for &(x, y) in keep {
            chosen[self.idx(x, y)] = true;
        }
        self.for_each_empty(|b, x, y| {
            if b.code_xy(x, y, me).is_four() {
                chosen[b.idx(x, y)] = true;
            }
        });
        self.push_cells_with(out, |b, x, y| chosen[b.idx(x, y)]);
    }

    /// Case 3b: the opponent can make a four-three (a four and an open three in one move),
    /// which wins unless answered now: the four must be blocked, then the three becomes a
    /// straight four. The answers are the cells that leave it no four-three (found like
    /// [`Board::defend_three`]'s, from the line keys), the cells that would make the block
    /// of its four a four of ours (the block then counters), and our own fours. Returns false
    /// (no restriction) where the block is already a four of ours, where no answer is found,
    /// and for renju black's threats, whose threes may be fakes.
    fn defend_four_three(&self, out: &mut Vec<ScoredMove>) -> bool {
        let me = self.side_to_move();
        let opp = me.opponent();
        if R::RENJU && opp == Color::Black {
            return false;
        }
        let table = table(if opp == Color::Black {
            R::BLACK
        } else {
            R::WHITE
        });
        let opp_bits = stone_bits(opp);
        let mut threats: Vec<(usize, usize)> = Vec::new();
        let mut tried = vec![false; self.width() * self.height()];
        let mut tries: Vec<(usize, usize)> = Vec::new();
        let mut counters: Vec<(usize, usize)> = Vec::new();
        let mut countered = false;
        self.for_each_empty(|b, x, y| {
            if countered || b.code_xy(x, y, opp) != Code::FourThree {
                return;
            }
            threats.push((x, y));
            let pats = b.cells[b.idx(x, y)].pat[opp.index()];
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                if pats[d] < Pattern::Three {
                    continue;
                }
                for o in -HALF..=HALF {
                    let (qx, qy) = (x as i32 + o * dx, y as i32 + o * dy);
                    if b.on_board(qx, qy) && b.is_empty_xy(qx as usize, qy as usize) {
                        let q = b.idx(qx as usize, qy as usize);
                        if !tried[q] {
                            tried[q] = true;
                            tries.push((qx as usize, qy as usize));
                        }
                    }
                }
                if pats[d] != Pattern::Four {
                    continue;
                }
                // The cell that would block the four: where the opponent makes five once
                // this point is filled.
                for o in (-4..0).chain(1..=4) {
                    let (bx, by) = (x as i32 + o * dx, y as i32 + o * dy);
                    if !b.on_board(bx, by) || !b.is_empty_xy(bx as usize, by as usize) {
                        continue;
                    }
                    let (bx, by) = (bx as usize, by as usize);
                    let key = b.cells[b.idx(bx, by)].key[d] ^ (opp_bits << (2 * slot(-o)));
                    if table.get(key, opp) != Pattern::Five {
                        continue;
                    }
                    if b.code_xy(bx, by, me).is_four() {
                        countered = true;
                        return;
                    }
                    // Our stones that would make that block a four of ours.
                    for (d2, &(ex, ey)) in DIRS.iter().enumerate() {
                        for o2 in (-4..0).chain(1..=4) {
                            let (cx, cy) = (bx as i32 + o2 * ex, by as i32 + o2 * ey);
                            if !b.on_board(cx, cy) || !b.is_empty_xy(cx as usize, cy as usize) {
                                continue;
                            }
                            let (cx, cy) = (cx as usize, cy as usize);
                            if b.cells[b.idx(cx, cy)].pat[me.index()][d2] >= Pattern::Three {
                                counters.push((cx, cy));
                            }
                        }
                    }
                }
            }
        });
        if countered {
            return false;
        }
        let still = |c: Code| matches!(c, Code::FourThree | Code::DoubleFour | Code::OpenFour);
        let mut chosen = vec![false; self.width() * self.height()];
        let mut any = false;
        for &q in tries
            .iter()
            .filter(|&&q| self.stops_all(q, &threats, me, still))
        {
            chosen[self.idx(q.0, q.1)] = true;
            any = true;
        }
        if !any {
            return false;
        }
        for &(x, y) in &counters {
            chosen[self.idx(x, y)] = true;
        }
        self.for_each_empty(|b, x, y| {
            if b.code_xy(x, y, me).is_four() {
                chosen[b.idx(x, y)] = true;
            }
        });
        self.push_cells_with(out, |b, x, y| chosen[b.idx(x, y)]);
        true
    }

    /// Whether a stone of `me` on the empty cell `q` leaves the opponent none of its
    /// threat points in `threats` (a point is still a threat when `still` holds for its
    /// code). A stone changes a cell's pattern only on the one line they share, so each
    /// threat point's patterns are recomputed from its line keys with `q` filled in; a stone
    /// of ours never gives the opponent a new threat point.
    fn stops_all(
        &self,
        q: (usize, usize),
        threats: &[(usize, usize)],
        me: Color,
        still: impl Fn(Code) -> bool,
    ) -> bool {
        let opp = me.opponent();
        let table = table(if opp == Color::Black {
            R::BLACK
        } else {
            R::WHITE
        });
        let bits = stone_bits(me);
        for &(tx, ty) in threats {
            if (tx, ty) == q {
                continue;
            }
            let cell = &self.cells[self.idx(tx, ty)];
            let mut pats = cell.pat[opp.index()];
            let (ddx, ddy) = (q.0 as i32 - tx as i32, q.1 as i32 - ty as i32);
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                // q = t + o * (dx, dy) for some o in ±1..=±HALF?
                let o = if dx != 0 { ddx / dx } else { ddy / dy };
                if o == 0 || o.abs() > HALF || o * dx != ddx || o * dy != ddy {
                    continue;
                }
                let key = cell.key[d] ^ (bits << (2 * slot(o)));
                pats[d] = table.get(key, opp);
            }
            let renju_black = R::RENJU && opp == Color::Black;
            if still(combine(&pats, renju_black)) {
                return false;
            }
        }
        true
    }

    /// Ordering score of `m` for the side `me`: its attack rank for us, its defence rank
    /// against the opponent (see [`super::board::Cell::order`]) and the influence around it.
    #[inline]
    fn order_score(&self, m: Move, me: Color) -> i32 {
        let i = self.idx(m.x as usize, m.y as usize);
        let cell = &self.cells[i];
        let infl = i32::from(self.influence[i][0]) + i32::from(self.influence[i][1]);
        cell.order[me.index()][0]
            + cell.order[me.opponent().index()][1]
            + infl * weights::ORDER_INFLUENCE
    }

    /// Static evaluation for the side to move: the difference of the two colours' sums of
    /// per-cell values, a tempo bonus, a large term when a five is on for one move, and
    /// otherwise the threat table's entry for what each side can make next (a four-three
    /// with the move against no four wins; `super::initiative`).
    pub(super) fn static_eval(&self) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        let mut v = self.eval_total(me, true) - self.eval_total(opp, false) + weights::TEMPO;
        if self.code_count(me, Code::Five) > 0 {
            v += params::WIN_NEXT;
        } else if self.code_count(opp, Code::Five) >= 2 {
            v -= params::LOSS_NEXT;
        } else {
            v += weights::THREAT[usize::from(self.threat_mask(me, opp))];
        }
        v.clamp(-(score::WIN_MIN - 1), score::WIN_MIN - 1)
    }
}

/// Cheap threat queries for the threat-space search (`crate::search::gomoku::threats`): they read
/// the per-cell codes directly and allocate nothing beyond the caller's buffer.
impl<R: Rule> Board<R> {
    /// Appends every empty cell where `c` gets a code of at least `min`, with that code.
    /// `Code::Forbidden` sorts below everything, so renju black's certain fouls never show.
    pub fn threat_cells(&self, c: Color, min: Code, out: &mut Vec<(Move, Code)>) {
        let any = Code::ALL[min as usize..]
            .iter()
            .any(|&k| self.code_count(c, k) > 0);
        if !any {
            return;
        }
        let col = c.index();
        self.for_each_empty(|b, x, y| {
            let code = b.cells[b.idx(x, y)].code[col];
            if code >= min {
                out.push((Move::new(x as u8, y as u8), code));
            }
        });
    }

    /// Whether `c` has any cell whose code is at least `min` (O(1) from the counters).
    #[inline]
    pub fn has_code_at_least(&self, c: Color, min: Code) -> bool {
        Code::ALL[min as usize..]
            .iter()
            .any(|&k| self.code_count(c, k) > 0)
    }

    /// Appends the empty cells where `c` makes five that lie on a line through `m` within
    /// four steps: after `c` plays a four at `m`, exactly the points it threatens.
    pub fn five_points_around(&self, m: Move, c: Color, out: &mut Vec<Move>) {
        self.for_each_five_point_around(m, c, |p| {
            if !out.contains(&p) {
                out.push(p);
            }
        });
    }

    /// Calls `f` with every empty cell where `c` makes five on a line through `m` within
    /// four steps (a cell on two such lines comes twice).
    fn for_each_five_point_around(&self, m: Move, c: Color, mut f: impl FnMut(Move)) {
        for &(dx, dy) in DIRS.iter() {
            for o in (-4i32..0).chain(1..=4) {
                let (x, y) = (m.x as i32 + o * dx, m.y as i32 + o * dy);
                if !self.on_board(x, y) || !self.is_empty_xy(x as usize, y as usize) {
                    continue;
                }
                let (x, y) = (x as usize, y as usize);
                if self.code_xy(x, y, c) == Code::Five {
                    f(Move::new(x as u8, y as u8));
                }
            }
        }
    }

    /// The side to move's four moves for the quiescence search, strongest first: near
    /// `near` (a 5×5 square around it and four cells out along its lines: where the fours
    /// that continue an attack from that stone lie), or anywhere when `near` is `None`.
    /// With `plain` false only fours that make more than a four (a three, an open two or a
    /// second four on another line) count: a chain of bare fours rarely changes the
    /// value of a position, and trying them all makes the leaves explode. Renju black's
    /// fouls are dropped.
    pub fn quiet_fours(&self, near: Option<Move>, plain: bool, out: &mut Vec<(Move, Code)>) {
        let me = self.side_to_move();
        if !self.has_code_at_least(me, Code::Four) {
            return;
        }
        let col = me.index();
        let keep = |b: &Self, x: usize, y: usize, out: &mut Vec<(Move, Code)>| {
            let cell = &b.cells[b.idx(x, y)];
            let code = cell.code[col];
            if !code.is_four() {
                return;
            }
            if !plain && code == Code::Four {
                let extra = cell.pat[col]
                    .iter()
                    .filter(|&&p| p >= Pattern::OpenTwo && p < Pattern::Four)
                    .count();
                if extra == 0 {
                    return;
                }
            }
            out.push((Move::new(x as u8, y as u8), code));
        };
        match near {
            None => self.for_each_empty(|b, x, y| keep(b, x, y, out)),
            Some(c) => {
                let (cx, cy) = (i32::from(c.x), i32::from(c.y));
                for dy in -4i32..=4 {
                    for dx in -4i32..=4 {
                        let square = dx.abs() <= 2 && dy.abs() <= 2;
                        let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                        if (dx, dy) == (0, 0) || !(square || line) {
                            continue;
                        }
                        let (x, y) = (cx + dx, cy + dy);
                        if self.on_board(x, y) && self.is_empty_xy(x as usize, y as usize) {
                            keep(self, x as usize, y as usize, out);
                        }
                    }
                }
            }
        }
        if R::RENJU && me == Color::Black {
            out.retain(|&(m, code)| code != Code::FourThree || !self.is_forbidden_black(m));
        }
        // Stable: equal codes keep their scan order, so the search stays deterministic.
        out.sort_by_key(|&(_, code)| std::cmp::Reverse(code));
    }

    /// Appends every empty cell where `c` makes five (a board scan, skipped when the counter
    /// says there is none).
    pub fn five_points(&self, c: Color, out: &mut Vec<Move>) {
        if self.code_count(c, Code::Five) == 0 {
            return;
        }
        let col = c.index();
        self.for_each_empty(|b, x, y| {
            if b.cells[b.idx(x, y)].code[col] == Code::Five {
                out.push(Move::new(x as u8, y as u8));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::random_walk;
    use super::*;
    use crate::game::gomoku::{Freestyle, Renju, Standard};

    /// The key-only stop test agrees with actually playing the cell, over the three-facing
    /// positions of pseudo-random games.
    fn stops_match_playing<R: Rule>(seed: u64) -> usize {
        let mut checked = 0;
        random_walk::<R>(seed, 60, 4, |b| {
            let me = b.side_to_move();
            let opp = me.opponent();
            let mut threats = Vec::new();
            b.for_each_empty(|b, x, y| {
                if b.code_xy(x, y, opp).is_double_five_threat() {
                    threats.push((x, y));
                }
            });
            if threats.is_empty() {
                return;
            }
            let mut work = b.clone();
            b.for_each_empty(|b, x, y| {
                let bits = stone_bits(me);
                work.put(x, y, bits);
                let played = work.code_count(opp, Code::OpenFour)
                    + work.code_count(opp, Code::DoubleFour)
                    == 0;
                work.take(x, y, bits);
                assert_eq!(
                    b.stops_all((x, y), &threats, me, Code::is_double_five_threat),
                    played,
                    "{x},{y}\n{b:?}"
                );
                checked += 1;
            });
        });
        checked
    }

    /// Where the opponent threatens a four-three, every near cell the answer list leaves
    /// out loses to a VCF (the four-three itself), over pseudo-random games; returns the
    /// number of left-out cells checked.
    fn left_out_moves_lose<R: Rule>(seed: u64) -> usize {
        use crate::search::gomoku::threats::{Solver, ThreatLimits};
        let mut checked = 0;
        let mut solver = Solver::new(1 << 12);
        random_walk::<R>(seed, 70, 5, |b| {
            let me = b.side_to_move();
            let opp = me.opponent();
            let higher = b.code_count(me, Code::Five)
                + b.code_count(opp, Code::Five)
                + b.code_count(opp, Code::OpenFour)
                + b.code_count(opp, Code::DoubleFour);
            if higher > 0 || b.code_count(opp, Code::FourThree) == 0 {
                return;
            }
            let mut answers = Vec::new();
            if !b.defend_four_three(&mut answers) {
                return;
            }
            assert!(!answers.is_empty());
            let mut near = Vec::new();
            b.push_near(&mut near);
            let mut work = b.clone();
            for m in near.iter().map(|s| s.mv) {
                if answers.iter().any(|a| a.mv == m) {
                    continue;
                }
                work.play(m);
                let win = solver.vcf(&mut work, 10, &ThreatLimits::nodes(200_000));
                work.undo();
                assert!(win.is_some(), "{m:?} is left out but does not lose\n{b:?}");
                checked += 1;
            }
        });
        checked
    }

    #[test]
    fn four_three_answers_leave_out_only_lost_moves() {
        let mut n = 0;
        for seed in 1..40u64 {
            n += left_out_moves_lose::<Freestyle>(seed * 0x9E37_79B9);
            n += left_out_moves_lose::<Standard>(seed * 0x85EB_CA6B);
        }
        assert!(n > 200, "only {n} left-out cells checked");
    }

    #[test]
    fn quiet_fours_near_the_last_stone_and_bare_fours_only_when_asked() {
        // Black (to move) makes a bare four on row 2 at 1 or 5, and on column 10 a four at
        // 9 (with an open two on row 9, through the stone at (8,9)) or a bare one at 10.
        let pic = "
            ...............
            ...............
            O.XXX.O........
            ...............
            ...............
            ..........O....
            ..........X....
            ..........X....
            ..........X....
            ........X......
            ...............
            ...............
            ...............
            ...............
            ...............";
        let b = Board::<Freestyle>::from_ascii(pic, Color::Black).unwrap();
        let mut all = Vec::new();
        b.quiet_fours(None, true, &mut all);
        let cells: Vec<Move> = all.iter().map(|&(m, _)| m).collect();
        for m in [
            Move::new(1, 2),
            Move::new(5, 2),
            Move::new(10, 9),
            Move::new(10, 10),
        ] {
            assert!(cells.contains(&m), "{m:?} missing from {cells:?}");
        }
        let mut rich = Vec::new();
        b.quiet_fours(None, false, &mut rich);
        let rich: Vec<Move> = rich.iter().map(|&(m, _)| m).collect();
        assert_eq!(
            rich,
            vec![Move::new(10, 9)],
            "only the four with an open two"
        );
        let mut near = Vec::new();
        b.quiet_fours(Some(Move::new(3, 2)), true, &mut near);
        let near: Vec<Move> = near.iter().map(|&(m, _)| m).collect();
        assert_eq!(near, vec![Move::new(1, 2), Move::new(5, 2)]);
    }

    #[test]
    fn key_only_stop_test_matches_playing() {
        let mut n = 0;
        for seed in 1..12u64 {
            n += stops_match_playing::<Freestyle>(seed * 0x9E37_79B9);
            n += stops_match_playing::<Standard>(seed * 0x85EB_CA6B);
            n += stops_match_playing::<Renju>(seed * 0xC2B2_AE35);
        }
        assert!(n > 1000, "only {n} cells checked");
    }
}
