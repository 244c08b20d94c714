//! Capture geometry on row bitboards: which pairs a move flanks, every cell where a colour
//! can capture, and whether a five survives the removal of some stones.
//!
//! The functions are pure over [`Rows`] (one `u32` mask per row and colour, bit `x` = column
//! `x`), so they serve play/undo, the evaluation, the threat search and the tests alike.
//! Finding all capture cells of a colour is a handful of shifts per row and direction, cheap
//! enough for every static evaluation.

use crate::game::gomoku::MAX_SIZE;
use crate::game::{Color, Move};

/// The eight directions a capture may run in, as `(dx, dy)`; bit `i` of a capture mask
/// stands for `DIRS8[i]`.
pub const DIRS8: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// The stones of a board as row masks, with its size.
#[derive(Clone, Copy, Debug)]
pub struct Rows<'a> {
    pub black: &'a [u32; MAX_SIZE],
    pub white: &'a [u32; MAX_SIZE],
    /// Cells blocked for both players: never empty, never a stone.
    pub walls: &'a [u32; MAX_SIZE],
    pub width: usize,
    pub height: usize,
}

impl Rows<'_> {
    #[inline]
    fn of(&self, c: Color) -> &[u32; MAX_SIZE] {
        match c {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    #[inline]
    fn full(&self) -> u32 {
        if self.width == 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }

    /// Whether `(x, y)` is on the board and holds a stone of `c`.
    #[inline]
    pub fn has(&self, c: Color, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.of(c)[y as usize] & (1 << x) != 0
    }

    /// Row `y` of `rows` moved so that bit `x` tells about the cell `k` steps from `(x, y)`
    /// along `(dx, dy)`; cells past the board edge read as empty.
    #[inline]
    fn shifted(&self, rows: &[u32; MAX_SIZE], y: usize, d: (i32, i32), k: i32) -> u32 {
        let ry = y as i32 + k * d.1;
        if ry < 0 || ry as usize >= self.height {
            return 0;
        }
        let row = rows[ry as usize];
        match d.0 {
            1 => row >> k,
            -1 => (row << k) & self.full(),
            _ => row,
        }
    }

    /// The directions (bit `i` for [`DIRS8`]`[i]`) in which `c` playing the empty cell `m`
    /// captures: the next two cells hold the opponent's stones and the third one `c`'s.
    pub fn capture_mask(&self, c: Color, m: Move) -> u8 {
        let opp = c.opponent();
        let (x, y) = (m.x as i32, m.y as i32);
        let mut mask = 0;
        for (i, &(dx, dy)) in DIRS8.iter().enumerate() {
            if self.has(opp, x + dx, y + dy)
                && self.has(opp, x + 2 * dx, y + 2 * dy)
                && self.has(c, x + 3 * dx, y + 3 * dy)
            {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The empty cells (row masks) of the board.
    pub fn empty(&self) -> [u32; MAX_SIZE] {
        let mut e = [0u32; MAX_SIZE];
        for (y, r) in e.iter_mut().enumerate().take(self.height) {
            *r = !(self.black[y] | self.white[y] | self.walls[y]) & self.full();
        }
        e
    }

    /// Every empty cell `q` that, in some direction `d`, has `first` at `q + d`, `second` at
    /// `q + 2d` and `third` at `q + 3d` (row masks), and how many (cell, direction) matches
    /// there are in all.
    pub fn line_pattern(
        &self,
        first: &[u32; MAX_SIZE],
        second: &[u32; MAX_SIZE],
        third: &[u32; MAX_SIZE],
    ) -> ([u32; MAX_SIZE], u32) {
        let empty = self.empty();
        let mut cells = [0u32; MAX_SIZE];
        let mut count = 0;
        for y in 0..self.height {
            if empty[y] == 0 {
                continue;
            }
            let mut here = 0;
            for &d in DIRS8.iter() {
                let hit = empty[y]
                    & self.shifted(first, y, d, 1)
                    & self.shifted(second, y, d, 2)
                    & self.shifted(third, y, d, 3);
                count += hit.count_ones();
                here |= hit;
            }
            cells[y] = here;
        }
        (cells, count)
    }

    /// Every empty cell where `c` would capture (row masks), and how many pairs those
    /// captures take in all (a cell that flanks two pairs counts twice).
    pub fn capture_cells(&self, c: Color) -> ([u32; MAX_SIZE], u32) {
        let opp = self.of(c.opponent());
        self.line_pattern(opp, opp, self.of(c))
    }

    /// Whether `c` has five or more in a row on one of the four lines through `at`, within
    /// five steps of it, when the cells in `removed` are taken as empty. Every five of a
    /// colour contains the stone that made it, so this window around that stone sees all of
    /// them, even when the stone itself is among the removed ones.
    pub fn five_near(&self, c: Color, at: Move, removed: &[Move]) -> bool {
        let (x, y) = (at.x as i32, at.y as i32);
        // Every other entry of DIRS8 is one of the four lines.
        for &(dx, dy) in DIRS8.iter().step_by(2) {
            let mut run = 0;
            for o in -5..=5 {
                let (qx, qy) = (x + o * dx, y + o * dy);
                let gone = removed.iter().any(|r| r.x as i32 == qx && r.y as i32 == qy);
                if self.has(c, qx, qy) && !gone {
                    run += 1;
                    if run >= 5 {
                        return true;
                    }
                } else {
                    run = 0;
                }
            }
        }
        false
    }
}

/// The two cells a capture in direction `i` from `m` removes.
#[inline]
pub fn captured_cells(m: Move, i: usize) -> [Move; 2] {
    let (dx, dy) = DIRS8[i];
    let at = |k: i32| Move::new((m.x as i32 + k * dx) as u8, (m.y as i32 + k * dy) as u8);
    [at(1), at(2)]
}

/// Iterates over the set cells of row masks, row-major.
pub fn cells_of(rows: &[u32; MAX_SIZE], height: usize) -> impl Iterator<Item = Move> + '_ {
    rows.iter().take(height).enumerate().flat_map(|(y, &row)| {
        let mut r = row;
        std::iter::from_fn(move || {
            (r != 0).then(|| {
                let x = r.trailing_zeros();
                r &= r - 1;
                Move::new(x as u8, y as u8)
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_WALLS: [u32; MAX_SIZE] = [0; MAX_SIZE];

    /// Row masks from a picture (`X` black, `O` white, anything else empty).
    fn rows(pic: &str) -> ([u32; MAX_SIZE], [u32; MAX_SIZE], usize, usize) {
        let lines: Vec<&str> = pic
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let mut b = [0u32; MAX_SIZE];
        let mut w = [0u32; MAX_SIZE];
        for (y, l) in lines.iter().enumerate() {
            for (x, ch) in l.chars().enumerate() {
                match ch {
                    'X' => b[y] |= 1 << x,
                    'O' => w[y] |= 1 << x,
                    _ => {}
                }
            }
        }
        (b, w, lines[0].len(), lines.len())
    }

    #[test]
    fn a_flanked_pair_is_captured_in_each_direction_only_when_it_is_exactly_two() {
        let (b, w, width, height) = rows(
            "
            .......
            .OO.OOX
            .......
            ",
        );
        let r = Rows {
            black: &b,
            white: &w,
            walls: &NO_WALLS,
            width,
            height,
        };
        // 3,1 flanks the pair 4,1 5,1 against the black stone at 6,1.
        assert_eq!(r.capture_mask(Color::Black, Move::new(3, 1)), 1 << 0);
        // 0,1 sees O O then empty: no capture.
        assert_eq!(r.capture_mask(Color::Black, Move::new(0, 1)), 0);
        // White never captures its own stones.
        assert_eq!(r.capture_mask(Color::White, Move::new(3, 1)), 0);
        let (cells, pairs) = r.capture_cells(Color::Black);
        assert_eq!(
            cells_of(&cells, height).collect::<Vec<_>>(),
            vec![Move::new(3, 1)]
        );
        assert_eq!(pairs, 1);
    }

    #[test]
    fn three_in_a_row_is_not_captured_and_diagonals_are() {
        let (b, w, width, height) = rows(
            "
            X.....
            .O....
            ..O...
            ...X..
            OOOX..
            ",
        );
        let r = Rows {
            black: &b,
            white: &w,
            walls: &NO_WALLS,
            width,
            height,
        };
        // Diagonal X O O X is already closed: the capture happens only by playing an end,
        // and both ends are taken, so no cell captures it.
        let (_, pairs) = r.capture_cells(Color::Black);
        assert_eq!(pairs, 0);
        // Removing the corner black stone makes 0,0 a capture along (1,1).
        let mut b2 = b;
        b2[0] = 0;
        let r2 = Rows {
            black: &b2,
            white: &w,
            walls: &NO_WALLS,
            width,
            height,
        };
        assert_eq!(r2.capture_mask(Color::Black, Move::new(0, 0)), 1 << 4);
        let (cells, pairs) = r2.capture_cells(Color::Black);
        assert_eq!(
            cells_of(&cells, height).collect::<Vec<_>>(),
            vec![Move::new(0, 0)]
        );
        assert_eq!(pairs, 1);
    }

    #[test]
    fn capture_cells_agree_with_capture_mask_everywhere() {
        let (b, w, width, height) = rows(
            "
            .XOO.X..
            OX..XO.O
            O.OX.OO.
            X.XO.X..
            .OO.X.OX
            X..O..O.
            ",
        );
        let r = Rows {
            black: &b,
            white: &w,
            walls: &NO_WALLS,
            width,
            height,
        };
        for c in [Color::Black, Color::White] {
            let (cells, pairs) = r.capture_cells(c);
            let mut n = 0;
            for (y, row) in cells.iter().enumerate().take(height) {
                for x in 0..width {
                    let m = Move::new(x as u8, y as u8);
                    let empty = !r.has(Color::Black, x as i32, y as i32)
                        && !r.has(Color::White, x as i32, y as i32);
                    let mask = if empty { r.capture_mask(c, m) } else { 0 };
                    assert_eq!(row & (1 << x) != 0, mask != 0, "{c:?} {m}");
                    n += mask.count_ones();
                }
            }
            assert_eq!(pairs, n);
        }
    }

    #[test]
    fn five_near_sees_runs_through_and_beside_a_removed_stone() {
        let (b, w, width, height) = rows(
            "
            ........
            XXXXXX..
            ........
            ",
        );
        let r = Rows {
            black: &b,
            white: &w,
            walls: &NO_WALLS,
            width,
            height,
        };
        let at = Move::new(5, 1);
        assert!(r.five_near(Color::Black, at, &[]));
        // Without the stone that made it, an overline of six is still a five.
        assert!(r.five_near(Color::Black, at, &[at]));
        // Taking an inner stone breaks it.
        assert!(!r.five_near(Color::Black, at, &[Move::new(2, 1)]));
        assert!(!r.five_near(Color::White, at, &[]));
    }
}
