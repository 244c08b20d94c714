//! The depth-limited Connect Four search, for positions the exact solver cannot finish in
//! time (early play on large boards such as 12×6, or huge boards).
//!
//! Iterative-deepening negamax with alpha-beta on the same bitboards as the solver, with
//! the solver's safety rules (take an immediate win, never play a move that lets the
//! opponent win at once, a single forced block is the only move) and a beam: below the root
//! only the best `beam_percent` % of the moves (by threats created, then by the alignment
//! value of the landing cell) are searched. Leaves are scored by an alignment evaluation:
//! every window of k cells that one side can still fill is worth stones² / (cells still to
//! fill + 1) to that side, and a pending threat (a cell that would complete k) adds a bonus
//! that is larger on the rows where zugzwang favours its owner (odd rows from the bottom for
//! the first player, even rows for the second).

use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position};
use crate::base::score::{mate_in, mated_in, WIN_MIN};

/// Alignment weight: a window's value is `ALIGN_UNIT · s² / (k − s + 1)`.
const ALIGN_UNIT: i32 = 16;
/// Threat (a cell completing k that cannot be played yet) on the owner's good rows.
const THREAT_GOOD_ROW: i32 = 120;
/// Threat on the other rows.
const THREAT_OTHER_ROW: i32 = 50;
/// Two threats of one side stacked in a column (one cell right above the other): whoever
/// fills the column up to the lower one, the owner gets one of them, so the pair wins
/// unless the other side is faster. A few moves deep, beyond a beam's horizon.
const STACKED_THREATS: i32 = 1500;
/// Nodes between two polls of the clock and the stop flag.
const POLL_INTERVAL: u64 = 2048;

/// The windows of a geometry: every line of k cells, and per cell the windows through it.
pub struct Windows<B: Bits> {
    pub all: Vec<B>,
    /// Indexed by `col · height + row`.
    through: Vec<Vec<usize>>,
    /// Rows (from the bottom) with even index, i.e. odd rows in 1-based counting.
    odd_rows: B,
}

impl<B: Bits> Windows<B> {
    pub fn new(g: &Geometry<B>) -> Windows<B> {
        let (w, h, k) = (g.width as i64, g.height as i64, g.k.max(1) as i64);
        let mut all = Vec::new();
        let mut through = vec![Vec::new(); g.cells()];
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + dc * (k - 1), r + dr * (k - 1));
                    if ec >= w || er < 0 || er >= h {
                        continue;
                    }
                    let mut mask = B::ZERO;
                    let idx = all.len();
                    for i in 0..k {
                        let (cc, rr) = ((c + dc * i) as usize, (r + dr * i) as usize);
                        mask = mask | g.cell(cc, rr);
                        through[cc * g.height + rr].push(idx);
                    }
                    all.push(mask);
                }
            }
        }
        let mut odd_rows = B::ZERO;
        for c in 0..g.width {
            for r in (0..g.height).step_by(2) {
                odd_rows = odd_rows | g.cell(c, r);
            }
        }
        Windows {
            all,
            through,
            odd_rows,
        }
    }

    #[inline]
    fn window_value(k: usize, stones: u32) -> i32 {
        let s = stones as i32;
        ALIGN_UNIT * s * s / (k as i32 - s + 1).max(1)
    }

    /// The alignment evaluation from the side to move's point of view.
    pub fn evaluate(&self, g: &Geometry<B>, p: &Position<B>) -> i32 {
        let me = p.current;
        let opp = p.current ^ p.mask;
        let mut v = 0;
        for &w in &self.all {
            let (a, b) = ((me & w).count_ones(), (opp & w).count_ones());
            if b == 0 && a > 0 {
                v += Self::window_value(g.k, a);
            } else if a == 0 && b > 0 {
                v -= Self::window_value(g.k, b);
            }
        }
        // The first player is the one to move when an even number of stones is down.
        let me_first = p.moves.is_multiple_of(2);
        let (my_good, opp_good) = if me_first {
            (self.odd_rows, !self.odd_rows)
        } else {
            (!self.odd_rows, self.odd_rows)
        };
        let mine = g.winning_cells(me, p.mask);
        let theirs = g.winning_cells(opp, p.mask);
        v += THREAT_GOOD_ROW * (mine & my_good).count_ones() as i32
            + THREAT_OTHER_ROW * (mine & !my_good).count_ones() as i32;
        v -= THREAT_GOOD_ROW * (theirs & opp_good).count_ones() as i32
            + THREAT_OTHER_ROW * (theirs & !opp_good).count_ones() as i32;
        if !(mine & mine.shl(1)).is_zero() {
            v += STACKED_THREATS;
        }
        if !(theirs & theirs.shl(1)).is_zero() {
            v -= STACKED_THREATS;
        }
        v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    /// Σ over the windows through a cell still open for `stones`' owner of s² / (to fill + 1),
    /// counting the cell as filled: the value of playing there (or of denying it).
    pub fn cell_value(&self, g: &Geometry<B>, stones: B, others: B, col: usize, row: usize) -> i32 {
        self.through[col * g.height + row]
            .iter()
            .map(|&i| {
                let w = self.all[i];
                if (others & w).is_zero() {
                    Self::window_value(g.k, (stones & w).count_ones() + 1)
                } else {
                    0
                }
            })
            .sum()
    }
}

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct BeamResult {
    pub col: usize,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

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

    /// Iterative deepening up to `max_depth`; `on_iteration` sees every finished iteration
    /// and returns false to stop deepening (soft time limit). `None` only when the first
    /// iteration could not finish or the position has no move.
    pub fn run(
        &mut self,
        p: &Position<B>,
        max_depth: u32,
        on_iteration: &mut dyn FnMut(&BeamResult) -> bool,
    ) -> Option<BeamResult> {
        let mut best: Option<BeamResult> = None;
        let remaining = (self.g.cells() - p.moves) as u32;
        let mut first = None;
        for depth in 1..=max_depth.clamp(1, remaining.max(1)) {
            let (score, col) = self.root(p, depth, first);
            if self.aborted {
                break;
            }
            let Some(col) = col else { break };
            first = Some(col);
            let r = BeamResult {
                col,
                score,
                depth,
                nodes: self.nodes,
            };
            best = Some(r.clone());
            if !on_iteration(&r) || score.abs() >= WIN_MIN {
                break;
            }
        }
        best
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
        if p.moves >= g.cells() {
            return 0;
        }
        if p.can_win_next(g) {
            return mate_in(ply + 1);
        }
        let nl = p.non_losing_moves(g);
        if nl.is_zero() {
            return mated_in(ply + 2);
        }
        if p.moves + 2 >= g.cells() {
            return 0;
        }
        if depth == 0 {
            return self.win.evaluate(g, p);
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
    use crate::game::connect4::position::parse_sequence;
    use super::*;

    #[test]
    fn window_count_7x6() {
        // The classic 69 winning lines of Connect Four.
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        assert_eq!(Windows::new(&g).all.len(), 69);
    }

    #[test]
    fn evaluation_is_antisymmetric_on_mirrored_colours() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let w = Windows::new(&g);
        assert_eq!(w.evaluate(&g, &Position::empty()), 0);
        // After 4 (X in centre), O to move: O is worse.
        let p = parse_sequence(&g, "4").unwrap();
        assert!(w.evaluate(&g, &p) < 0);
        // The centre cell is worth more than the corner on an empty board.
        let e = Position::<u64>::empty();
        assert!(
            w.cell_value(&g, e.current, e.mask, 3, 0) > w.cell_value(&g, e.current, e.mask, 0, 0)
        );
    }

    /// From a 12×6 game the engine lost as the first player: White's stone at column 4
    /// makes a threat right above another one in column 5, which wins.
    #[test]
    fn stacked_threats_count() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let w = Windows::new(&g);
        let before = parse_sequence(&g, "6487823774468874").unwrap();
        let opp = before.current ^ before.mask;
        let theirs = g.winning_cells(opp, before.mask);
        assert!(
            !(theirs & theirs.shl(1)).is_zero(),
            "White's stacked pair in column 5"
        );
        assert!(w.evaluate(&g, &before) <= -STACKED_THREATS + 500);
        // Black to move before 7 and 4: column 7 (the game's move) allows the pair.
        let p = parse_sequence(&g, "64878237744688").unwrap();
        let never = || false;
        let mut s = BeamSearch::new(&g, &w, 60, Some(300_000), &never);
        let r = s.run(&p, 8, &mut |_| true).unwrap();
        assert_ne!(r.col, 6, "column 7 lets White stack two threats");
    }

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
