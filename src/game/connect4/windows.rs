//! The alignment evaluation of a Connect Four position: every window of k cells that one
//! side can still fill is worth stones² / (cells still to fill + 1) to that side, and a
//! pending threat (a cell that would complete k) adds a bonus that is larger on the rows
//! where zugzwang favours its owner (odd rows from the bottom for the first player, even
//! rows for the second).

use super::bits::Bits;
use super::eval_weights as fitted;
use super::position::{Geometry, Position, Threats};
use super::zugzwang;
use crate::base::score::WIN_MIN;

/// Alignment weight: a window's value is `ALIGN_UNIT · s² / (k − s + 1)`.
const ALIGN_UNIT: i32 = 16;
/// Threat (a cell completing k that cannot be played yet) on the owner's good rows.
const THREAT_GOOD_ROW: i32 = 120;
/// Threat on the other rows.
const THREAT_OTHER_ROW: i32 = 50;
/// Two threats of one side stacked in a column (one cell right above the other): whoever
/// fills the column up to the lower one, the owner gets one of them, so the pair wins
/// unless the other side is faster. A few moves deep, beyond a beam's horizon.
pub(crate) const STACKED_THREATS: i32 = 1500;
/// The side that wins the zugzwang by the threats on the board ([`zugzwang::verdict`]): as
/// much as a stacked pair. On 12×6 at 300 ms/move, 1500 beat 800 by 59.5% over 100 games;
/// 300 lost to 800 (43.0%) and 3000 only drew with it (50.0%).
pub(crate) const ZUGZWANG_WIN: i32 = 1500;

/// The terms of [`Windows::features`], in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "windows1",
    "windows2",
    "windows3",
    "threats_good_row",
    "threats_other_row",
    "stacked_threats",
    "zugzwang",
];
/// Terms in [`Windows::features`].
pub const FEATURES: usize = 7;
/// Bit planes of a per-cell stone count in [`Windows::open_windows`]: k is at most 16.
const COUNT_PLANES: usize = 5;
const _: () = assert!(1 << COUNT_PLANES > super::MAX_SIZE);
const _: () = assert!(fitted::WEIGHTS.len() == FEATURES);

/// The windows of a geometry: every line of k cells, and per cell the windows through it.
pub struct Windows<B: Bits> {
    pub all: Vec<B>,
    /// Indexed by `col · height + row`.
    through: Vec<Vec<usize>>,
    /// Per direction with windows: the bit shift from a cell to the next one along it, and
    /// the cells where a window starts (its other cells lie one, two… shifts above).
    lines: Vec<(usize, B)>,
    /// Rows (from the bottom) with even index, i.e. odd rows in 1-based counting.
    odd_rows: B,
    /// See [`zugzwang::odd_empty_cells`].
    odd_empty: B,
}

impl<B: Bits> Windows<B> {
    pub fn new(g: &Geometry<B>) -> Windows<B> {
        let (w, h, k) = (g.width as i64, g.height as i64, g.k.max(1) as i64);
        let mut all = Vec::new();
        let mut through = vec![Vec::new(); g.cells()];
        // Bit `col · (h + 1) + row`: one column over is h + 1 bits, one row up 1.
        let directions = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let mut starts = [B::ZERO; 4];
        for c in 0..w {
            for r in 0..h {
                for (d, (dc, dr)) in directions.into_iter().enumerate() {
                    let (ec, er) = (c + dc * (k - 1), r + dr * (k - 1));
                    if ec >= w || er < 0 || er >= h {
                        continue;
                    }
                    starts[d] = starts[d] | g.cell(c as usize, r as usize);
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
        let lines = directions
            .iter()
            .zip(starts)
            .filter(|(_, s)| !s.is_zero())
            .map(|(&(dc, dr), s)| (((h + 1) * dc + dr) as usize, s))
            .collect();
        Windows {
            all,
            through,
            lines,
            odd_rows,
            odd_empty: zugzwang::odd_empty_cells(g),
        }
    }

    #[inline]
    fn window_value(k: usize, stones: u32) -> i32 {
        let s = stones as i32;
        ALIGN_UNIT * s * s / (k as i32 - s + 1).max(1)
    }

    /// The windows alone (no threat terms), from the side to move's point of view: the
    /// utility of the classic beam player.
    pub fn alignment(&self, g: &Geometry<B>, p: &Position<B>) -> i32 {
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
        v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    /// For n = 1..=N: the windows that hold exactly n of `stones` and none of `others`,
    /// then the same with the roles swapped. Every window of a direction at once:
    /// bit-sliced adders sum the k cells of each window into count planes at its start
    /// cell (a fraction of the time of a loop over the windows: on 12×6 that loop was a
    /// third of the midgame search).
    fn open_windows<const N: usize>(&self, k: usize, stones: B, others: B) -> [[i32; N]; 2] {
        if k < 8 {
            self.open_windows_planes::<N, 3>(k, stones, others)
        } else {
            self.open_windows_planes::<N, COUNT_PLANES>(k, stones, others)
        }
    }

    /// [`Windows::open_windows`] with counts of up to 2^P − 1 stones (a fixed number of
    /// planes keeps them in registers).
    fn open_windows_planes<const N: usize, const P: usize>(
        &self,
        k: usize,
        stones: B,
        others: B,
    ) -> [[i32; N]; 2] {
        let mut out = [[0; N]; 2];
        for &(step, starts) in &self.lines {
            let mut open = [starts; 2];
            let mut planes = [[B::ZERO; P]; 2];
            for i in 0..k {
                let cells = [stones.shr(i * step), others.shr(i * step)];
                open[0] = open[0] & !cells[1];
                open[1] = open[1] & !cells[0];
                for (side, mut carry) in cells.into_iter().enumerate() {
                    for plane in &mut planes[side] {
                        let next = *plane & carry;
                        *plane = *plane ^ carry;
                        carry = next;
                    }
                }
            }
            for side in 0..2 {
                for (n, count) in (1..=k).zip(out[side].iter_mut()) {
                    let exact = (0..P).fold(open[side], |acc, bit| {
                        if n >> bit & 1 == 1 {
                            acc & planes[side][bit]
                        } else {
                            acc & !planes[side][bit]
                        }
                    });
                    *count += exact.count_ones() as i32;
                }
            }
        }
        out
    }

    /// Whether the side to move moved first, and the rows that favour it and the other side
    /// at the zugzwang point.
    fn good_rows(&self, p: &Position<B>) -> (bool, B, B) {
        // The first player is the one to move when an even number of stones is down.
        let me_first = p.moves.is_multiple_of(2);
        if me_first {
            (me_first, self.odd_rows, !self.odd_rows)
        } else {
            (me_first, !self.odd_rows, self.odd_rows)
        }
    }

    /// The alignment evaluation with the threat terms, from the side to move's point of view.
    pub fn evaluate(&self, g: &Geometry<B>, p: &Position<B>) -> i32 {
        let mut v = self.alignment(g, p);
        let (_, my_good, opp_good) = self.good_rows(p);
        let Threats { mine, theirs } = p.threats(g);
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

    /// [`Windows::evaluate`] plus the zugzwang verdict of the threats on the board, from
    /// the side to move's point of view: the hand-set evaluation, still the default player's
    /// on boards where k is not 4 ([`Windows::evaluate_leaf`]).
    pub fn evaluate_zugzwang(&self, g: &Geometry<B>, p: &Position<B>) -> i32 {
        let v = self.evaluate(g, p);
        let first = i32::from(self.zugzwang_first(g, p));
        let me_first = p.moves.is_multiple_of(2);
        let mine = if me_first { first } else { -first };
        (v + ZUGZWANG_WIN * mine).clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    fn zugzwang_first(&self, g: &Geometry<B>, p: &Position<B>) -> i8 {
        let cols = zugzwang::threat_columns(g, p, self.odd_empty);
        zugzwang::verdict(cols, g.cells() % 2 == 1)
    }

    /// The default player's leaf evaluation: the weights fitted to solved positions
    /// ([`fitted`]) on four in a row, the hand-set [`Windows::evaluate_zugzwang`] otherwise.
    /// `t` holds the position's threats.
    pub fn evaluate_leaf(&self, g: &Geometry<B>, p: &Position<B>, t: &Threats<B>) -> i32 {
        if g.k != fitted::K {
            return self.evaluate_zugzwang(g, p);
        }
        let f = self.features_given(g, p, t);
        let v: i32 = f.iter().zip(fitted::WEIGHTS).map(|(x, w)| x * w).sum();
        v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    /// The terms of the evaluation ([`FEATURE_NAMES`]), from the side to move's point of
    /// view: each is the side to move's count minus the other side's, except the zugzwang
    /// verdict's sign.
    pub fn features(&self, g: &Geometry<B>, p: &Position<B>) -> [i32; FEATURES] {
        self.features_given(g, p, &p.threats(g))
    }

    /// [`Windows::features`] with the position's threats already known.
    fn features_given(&self, g: &Geometry<B>, p: &Position<B>, t: &Threats<B>) -> [i32; FEATURES] {
        let me = p.current;
        let opp = p.current ^ p.mask;
        let mut f = [0i32; FEATURES];
        let [mine_open, theirs_open] = self.open_windows::<3>(g.k, me, opp);
        for (n, term) in f[..3].iter_mut().enumerate() {
            *term = mine_open[n] - theirs_open[n];
        }
        let (me_first, my_good, opp_good) = self.good_rows(p);
        let Threats { mine, theirs } = *t;
        let count = |b: B| b.count_ones() as i32;
        f[3] = count(mine & my_good) - count(theirs & opp_good);
        f[4] = count(mine & !my_good) - count(theirs & !opp_good);
        f[5] = i32::from(!(mine & mine.shl(1)).is_zero())
            - i32::from(!(theirs & theirs.shl(1)).is_zero());
        let sign = if me_first { 1 } else { -1 };
        let cols = zugzwang::threat_columns(g, p, self.odd_empty);
        f[6] = sign * i32::from(zugzwang::verdict(cols, g.cells() % 2 == 1));
        f
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::bits::Wide;
    use crate::game::connect4::position::parse_sequence;

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

    /// The zugzwang verdict counts in full, from the side to move's point of view, and
    /// weighs as much as a stacked pair of threats.
    #[test]
    fn zugzwang_verdict_weighs_in() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let w = Windows::new(&g);
        // X holds the bottom row of columns 2-4 with both ends open (odd threats for the
        // first player): X wins the zugzwang, and O is to move.
        let p = parse_sequence(&g, "2233447").unwrap();
        assert_eq!(
            w.evaluate_zugzwang(&g, &p),
            w.evaluate(&g, &p) - ZUGZWANG_WIN
        );
        const { assert!(ZUGZWANG_WIN >= STACKED_THREATS) };
        assert_eq!(w.evaluate_zugzwang(&g, &Position::empty()), 0);
    }

    /// The features weighted as the hand-set evaluation weighs them give that evaluation
    /// back, on both players' turns and with threats, stacks and a zugzwang on the board.
    #[test]
    fn features_rebuild_the_hand_set_evaluation() {
        let hand = [4, 21, 72, 120, 50, STACKED_THREATS, ZUGZWANG_WIN];
        for (w, h, seqs) in [
            (7, 6, ["", "4", "2233447", "41516", "4455", "3344557"]),
            (12, 6, ["", "6", "45678", "4a5b6c", "556677a", "1122335"]),
        ] {
            let g = Geometry::<u128>::new(w, h, 4).unwrap();
            let win = Windows::new(&g);
            for seq in seqs {
                let p = parse_sequence(&g, seq).unwrap();
                let f = win.features(&g, &p);
                let v: i32 = f.iter().zip(hand).map(|(x, w)| x * w).sum();
                assert_eq!(v, win.evaluate_zugzwang(&g, &p), "{w}x{h} {seq}: {f:?}");
                // Mirroring the colours' roles is not possible, but mirroring the board
                // must not change a single term.
                assert_eq!(win.features(&g, &p.mirrored(&g)), f, "{w}x{h} {seq}");
            }
        }
    }

    /// The threat terms and the zugzwang's sign, on a position where both sides have
    /// threats on their good rows, X's below O's, and the second player is to move.
    #[test]
    fn threat_terms_count_per_side() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let w = Windows::new(&g);
        // X: 2, 3, 4 on the bottom row (threats at 1 and 5, both on X's odd row 1); O to
        // move, the second player. O holds 2, 3, 4 on the second row: two threats there
        // (O's good, even row), right above X's; each side has two windows of three.
        let p = parse_sequence(&g, "2233447").unwrap();
        let f = w.features(&g, &p);
        assert_eq!((f[2], f[3], f[4], f[5]), (0, 0, 0, 0));
        // Only the lowest threat of a column counts, and both are X's, on its parity.
        assert_eq!(f[6], -1, "X wins the zugzwang");
    }

    /// The bit-sliced window counts agree with a count window by window, on random
    /// positions of boards of every bitboard type and several k.
    #[test]
    fn open_windows_count_every_window() {
        fn check<B: Bits>(w: usize, h: usize, k: usize) {
            let g = Geometry::<B>::new(w, h, k).unwrap();
            let win = Windows::new(&g);
            let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (w * 100 + h * 10 + k) as u64;
            for _ in 0..40 {
                let mut p = Position::<B>::empty();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let plies = (seed >> 33) as usize % (g.cells() + 1);
                for _ in 0..plies {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let free: Vec<usize> = (0..w).filter(|&c| p.can_play(&g, c)).collect();
                    p.play_col(&g, free[(seed >> 33) as usize % free.len()]);
                }
                let (me, opp) = (p.current, p.current ^ p.mask);
                let mut want = [[0; 5]; 2];
                for &line in &win.all {
                    let (a, b) = (
                        (me & line).count_ones() as usize,
                        (opp & line).count_ones() as usize,
                    );
                    if b == 0 && (1..=5).contains(&a) {
                        want[0][a - 1] += 1;
                    } else if a == 0 && (1..=5).contains(&b) {
                        want[1][b - 1] += 1;
                    }
                }
                let got = win.open_windows::<5>(k, me, opp);
                assert_eq!(got, want, "{w}x{h} k={k} after {plies} plies");
            }
        }
        check::<u64>(7, 6, 4);
        check::<u64>(4, 4, 3);
        check::<u64>(5, 9, 6);
        check::<u128>(12, 6, 4);
        check::<u128>(8, 7, 5);
        check::<u128>(11, 9, 2);
        check::<Wide>(16, 16, 16);
        check::<Wide>(16, 16, 4);
        check::<Wide>(14, 15, 9);
    }

    /// The alignment part ignores threats; the full evaluation adds them.
    #[test]
    fn alignment_leaves_out_the_threat_terms() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let w = Windows::new(&g);
        // X has 4,5,6 on the bottom row after O's two stones on column 1; X to move has
        // two winning cells (3 and 7): the threats weigh in the full evaluation only.
        let p = parse_sequence(&g, "41516").unwrap();
        let full = w.evaluate(&g, &p);
        let plain = w.alignment(&g, &p);
        assert!(plain < 0 && full < plain, "plain {plain}, full {full}");
        assert_eq!(w.alignment(&g, &Position::empty()), 0);
    }
}
