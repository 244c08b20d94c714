//! Who would win the zugzwang at the end of a Connect Four game, from the threats on the
//! board (in the spirit of Allis' threat rules: odd and even threats, useless threats).
//!
//! A threat is an empty cell that would complete k in a row for its owner; only the lowest
//! threat of each column counts (a threat above the other side's lower threat is
//! normally worthless: the column is decided below it). The model: every column without a
//! threat gets filled, and nobody plays right under the other side's threat. When no such
//! neutral cell is left, the side to move must give up one of its own threats (play under
//! it; the other side blocks) or, with none left, play under a threat of the other side and
//! lose. Who is to move then follows from parity alone: a column whose lowest threat is at
//! row `i` (0 = bottom) still has `height − i + 1` empty cells at that point (the cell
//! under the threat, the threat and everything above), all other columns are full. Giving a
//! threat up turns its column neutral, which changes who meets the next zugzwang when that
//! count is odd. So the outcome depends only on four counts (each side's threat columns with
//! an odd or even count of empty cells) and the parity of the board, and is worked out once
//! into a table ([`verdict`]). On 7×6 and 12×6 this is the rule of thumb: the first player
//! wants threats on odd rows (1, 3, 5 from the bottom), the second on even rows.
//!
//! It is a model: the stones played while the board fills make new threats. The search uses
//! it as one term of its leaf evaluation.

use super::bits::Bits;
use super::position::{Geometry, Position};
use std::sync::OnceLock;

/// Threat columns of one kind counted up to this (the widest board has 16 columns).
const MAX_COUNT: usize = 16;
const SIDE: usize = MAX_COUNT + 1;

/// The threat columns of both sides, by the parity of the column's empty cells at the
/// zugzwang point (see the module notes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatColumns {
    pub first_odd: usize,
    pub first_even: usize,
    pub second_odd: usize,
    pub second_even: usize,
}

/// Outcome tables for boards of even and odd cell count: +1 the first player wins the
/// zugzwang, −1 the second, 0 nobody (the board fills).
fn tables() -> &'static [Vec<i8>; 2] {
    static TABLES: OnceLock<[Vec<i8>; 2]> = OnceLock::new();
    TABLES.get_or_init(|| [build(false), build(true)])
}

fn index(c: ThreatColumns) -> usize {
    ((c.first_odd * SIDE + c.first_even) * SIDE + c.second_odd) * SIDE + c.second_even
}

/// The table for one board parity, filled in order of the total number of threat columns
/// (giving a threat up always leads to a smaller total).
fn build(odd_cells: bool) -> Vec<i8> {
    let mut t = vec![0i8; SIDE * SIDE * SIDE * SIDE];
    let mut states: Vec<ThreatColumns> = Vec::new();
    for a in 0..SIDE {
        for b in 0..SIDE {
            for c in 0..SIDE {
                for d in 0..SIDE {
                    states.push(ThreatColumns {
                        first_odd: a,
                        first_even: b,
                        second_odd: c,
                        second_even: d,
                    });
                }
            }
        }
    }
    states.sort_by_key(|s| s.first_odd + s.first_even + s.second_odd + s.second_even);
    for s in states {
        t[index(s)] = solve_state(s, odd_cells, &t);
    }
    t
}

/// One state, its smaller successors already in `t`.
fn solve_state(s: ThreatColumns, odd_cells: bool, t: &[i8]) -> i8 {
    // Empty cells at the zugzwang point: odd iff an odd number of odd columns; the first
    // player moves when the stones played are even.
    let empty_odd = (s.first_odd + s.second_odd) % 2 == 1;
    let first_to_move = empty_odd == odd_cells;
    let (own_odd, own_even, theirs) = if first_to_move {
        (s.first_odd, s.first_even, s.second_odd + s.second_even)
    } else {
        (s.second_odd, s.second_even, s.first_odd + s.first_even)
    };
    let sign: i8 = if first_to_move { 1 } else { -1 };
    if own_odd + own_even == 0 {
        // Nothing to give up: lose under the other side's threat, or the board fills.
        return if theirs > 0 { -sign } else { 0 };
    }
    let mut best = i8::MIN;
    for odd in [true, false] {
        let mut n = s;
        let slot = match (first_to_move, odd) {
            (true, true) => &mut n.first_odd,
            (true, false) => &mut n.first_even,
            (false, true) => &mut n.second_odd,
            (false, false) => &mut n.second_even,
        };
        if *slot == 0 {
            continue;
        }
        *slot -= 1;
        best = best.max(sign * t[index(n)]);
    }
    sign * best
}

/// +1 when the first player wins the zugzwang of these threat columns, −1 the second, 0
/// when the board fills; `odd_cells` is the parity of the board's cell count.
pub fn verdict(c: ThreatColumns, odd_cells: bool) -> i8 {
    let clamp = |n: usize| {
        if n <= MAX_COUNT {
            n
        } else {
            // Keep the parity: it decides who meets the zugzwang.
            MAX_COUNT - (n - MAX_COUNT) % 2
        }
    };
    let c = ThreatColumns {
        first_odd: clamp(c.first_odd),
        first_even: clamp(c.first_even),
        second_odd: clamp(c.second_odd),
        second_even: clamp(c.second_even),
    };
    tables()[usize::from(odd_cells)][index(c)]
}

/// The lowest threat of each column, sorted into the four counts. `odd_empty` holds the cells
/// whose column has an odd number of empty cells at the zugzwang point when its lowest threat
/// is there (rows `i` with `height − i` even), see [`odd_empty_cells`].
pub fn threat_columns<B: Bits>(g: &Geometry<B>, p: &Position<B>, odd_empty: B) -> ThreatColumns {
    let me = p.current;
    let opp = p.current ^ p.mask;
    let mine = g.winning_cells(me, p.mask);
    let theirs = g.winning_cells(opp, p.mask);
    let all = mine | theirs;
    let mut out = ThreatColumns::default();
    if all.is_zero() {
        return out;
    }
    let me_first = p.moves.is_multiple_of(2);
    for c in 0..g.width {
        let col = all & g.column_mask(c);
        if col.is_zero() {
            continue;
        }
        let lowest = col & B::ZERO.wrapping_sub(col);
        // The lowest threat is the first player's when it is mine and I moved first, or not
        // mine and I did not.
        let first = (lowest & mine).is_zero() != me_first;
        let odd = !(lowest & odd_empty).is_zero();
        match (first, odd) {
            (true, true) => out.first_odd += 1,
            (true, false) => out.first_even += 1,
            (false, true) => out.second_odd += 1,
            (false, false) => out.second_even += 1,
        }
    }
    out
}

/// The cells where a lowest threat leaves its column an odd number of empty cells at the
/// zugzwang point: row `i` (0 = bottom) with `height − i + 1` odd.
pub fn odd_empty_cells<B: Bits>(g: &Geometry<B>) -> B {
    let mut m = B::ZERO;
    for c in 0..g.width {
        for r in 0..g.height {
            if (g.height - r + 1) % 2 == 1 {
                m = m | g.cell(c, r);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    fn cols(a: usize, b: usize, c: usize, d: usize) -> ThreatColumns {
        ThreatColumns {
            first_odd: a,
            first_even: b,
            second_odd: c,
            second_even: d,
        }
    }

    /// The rules of thumb on an even board (7×6, 12×6): an odd threat wins for the first
    /// player, an even one for the second, and the first player's odd threat beats the
    /// second's even threat in another column.
    #[test]
    fn rules_of_thumb_on_an_even_board() {
        assert_eq!(verdict(cols(0, 0, 0, 0), false), 0);
        assert_eq!(verdict(cols(1, 0, 0, 0), false), 1);
        assert_eq!(verdict(cols(0, 1, 0, 0), false), 0);
        assert_eq!(verdict(cols(0, 0, 0, 1), false), -1);
        assert_eq!(verdict(cols(0, 0, 1, 0), false), 0);
        assert_eq!(verdict(cols(1, 0, 0, 1), false), 1);
        // One odd threat each: the first player must give his up first, then the second
        // gives up his: nobody wins the zugzwang.
        assert_eq!(verdict(cols(1, 0, 1, 0), false), 0);
        // Two odd threats against one: the first player wins.
        assert_eq!(verdict(cols(2, 0, 1, 0), false), 1);
        // Counts past the table keep their parity.
        assert_eq!(
            verdict(cols(19, 0, 0, 0), false),
            verdict(cols(1, 0, 0, 0), false)
        );
    }

    /// On a board of odd cell count (7×7) the roles swap: the second player's odd-count
    /// threat is the good one.
    #[test]
    fn odd_board_swaps_the_roles() {
        assert_eq!(verdict(cols(0, 0, 1, 0), true), -1);
        assert_eq!(verdict(cols(0, 1, 0, 0), true), 1);
    }

    #[test]
    fn columns_are_read_from_the_lowest_threat() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let odd = odd_empty_cells(&g);
        // Bottom, third and fifth rows (0-based 0, 2, 4) on a 6-high board.
        assert!(!(odd & g.cell(0, 2)).is_zero() && (odd & g.cell(0, 1)).is_zero());
        // X 2, O 2, X 3, O 3, X 4, O 4, X 7: X holds the bottom row of columns 2-4 and
        // threatens both ends of it (odd); O's threats on row 2 at the same ends lie above
        // X's lower ones and do not count.
        let p = parse_sequence(&g, "2233447").unwrap();
        let t = threat_columns(&g, &p, odd);
        assert_eq!(t, cols(2, 0, 0, 0));
        // X 2, O 1, X 3, O 5, X 4, O 2, X 7, O 3, X 7, O 4: X's bottom three is shut in, O
        // holds row 2 of columns 2-4 and threatens both its ends (even: the second player's).
        let p = parse_sequence(&g, "2135427374").unwrap();
        let t = threat_columns(&g, &p, odd);
        assert_eq!(t, cols(0, 0, 0, 2));
        assert_eq!(verdict(t, false), -1);
    }
}
