//! The search-side Connect Four position: two bitboards in Pascal Pons' layout.
//!
//! Bit `col·(H+1) + row` is the cell of column `col`, `row` counted from the bottom; the spare
//! bit on top of each column is always empty. `mask` holds every stone and `current` the
//! stones of the side to move, so playing is two operations and the landing cell of every
//! column at once is `(mask + bottom) & board`. The key `current + mask` is unique per
//! position. Geometry (sizes, k, the masks and the four shift strides) lives apart in
//! [`Geometry`] so that a position stays a small `Copy` value the solver can copy per node.

use super::bits::Bits;

/// Board dimensions, win length and the masks derived from them.
#[derive(Clone, Debug)]
pub struct Geometry<B: Bits> {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// The bottom cell of every column.
    pub bottom: B,
    /// Every playable cell.
    pub board: B,
    /// Column masks, index = column.
    columns: Vec<B>,
    /// Column masks with the spare bit on top (where a key `current + mask` may carry).
    stripes: Vec<B>,
}

impl<B: Bits> Geometry<B> {
    /// `None` when the board does not fit in `B`.
    pub fn new(width: usize, height: usize, k: usize) -> Option<Geometry<B>> {
        if width == 0 || height == 0 || width * (height + 1) > B::CAPACITY {
            return None;
        }
        let mut bottom = B::ZERO;
        let mut board = B::ZERO;
        let mut columns = Vec::with_capacity(width);
        let mut stripes = Vec::with_capacity(width);
        for c in 0..width {
            let mut col = B::ZERO;
            for r in 0..height {
                col = col | B::bit(c * (height + 1) + r);
            }
            bottom = bottom | B::bit(c * (height + 1));
            board = board | col;
            columns.push(col);
            stripes.push(col | B::bit(c * (height + 1) + height));
        }
        Some(Geometry {
            width,
            height,
            k,
            bottom,
            board,
            columns,
            stripes,
        })
    }

    #[inline]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    #[inline]
    pub fn column_mask(&self, col: usize) -> B {
        self.columns[col]
    }

    /// The bit of a cell, `row` counted from the bottom.
    #[inline]
    pub fn cell(&self, col: usize, row: usize) -> B {
        B::bit(col * (self.height + 1) + row)
    }

    /// The column a single-bit move belongs to.
    pub fn column_of(&self, mv: B) -> Option<usize> {
        (0..self.width).find(|&c| !(mv & self.columns[c]).is_zero())
    }

    /// The row (from the bottom) of a single-bit move in column `col`.
    pub fn row_of(&self, mv: B, col: usize) -> usize {
        (0..self.height)
            .find(|&r| !(mv & self.cell(col, r)).is_zero())
            .unwrap_or(0)
    }

    /// The bits of `b` seen in a mirror (column c ↔ W−1−c). Within a column the bits keep
    /// their rows, so it applies to the key `current + mask` as well as to each bitboard.
    #[inline]
    pub fn mirror(&self, b: B) -> B {
        let stride = self.height + 1;
        let mut out = B::ZERO;
        for c in 0..self.width {
            let m = self.width - 1 - c;
            let col = b & self.stripes[c];
            out = out
                | if m >= c {
                    col.shl((m - c) * stride)
                } else {
                    col.shr((c - m) * stride)
                };
        }
        out
    }

    /// Empty cells where one more stone of `stones` would complete k in a row.
    #[inline]
    pub fn winning_cells(&self, stones: B, mask: B) -> B {
        let r = if self.k == 4 {
            self.winning4(stones)
        } else {
            self.winning_k(stones)
        };
        r & (self.board ^ mask)
    }

    /// Pons' unrolled k = 4 case: for each direction, three stones on one side or split
    /// around the cell.
    #[inline]
    fn winning4(&self, p: B) -> B {
        let h = self.height;
        let mut r = p.shl(1) & p.shl(2) & p.shl(3);
        for s in [h + 1, h, h + 2] {
            let a = p.shl(s) & p.shl(2 * s);
            r = r | (a & p.shl(3 * s)) | (a & p.shr(s));
            let b = p.shr(s) & p.shr(2 * s);
            r = r | (b & p.shl(s)) | (b & p.shr(3 * s));
        }
        r
    }

    /// Whether `stones` hold k in a row anywhere.
    #[inline]
    pub fn has_line(&self, stones: B) -> bool {
        let h = self.height;
        [1, h + 1, h, h + 2].into_iter().any(|s| {
            let mut t = stones;
            for j in 1..self.k {
                t = t & stones.shr(j * s);
            }
            !t.is_zero()
        })
    }

    /// Any k: `before[j]` = cells with j own stones right before them along the direction,
    /// `after[j]` the same the other way; a cell wins when some split a + b = k − 1 holds.
    fn winning_k(&self, p: B) -> B {
        let k = self.k;
        if k <= 1 {
            return !B::ZERO;
        }
        let h = self.height;
        let mut r = B::ZERO;
        let mut before = vec![!B::ZERO; k];
        let mut after = vec![!B::ZERO; k];
        for s in [1, h + 1, h, h + 2] {
            for j in 1..k {
                before[j] = before[j - 1] & p.shl(j * s);
                after[j] = after[j - 1] & p.shr(j * s);
            }
            for a in 0..k {
                r = r | (before[a] & after[k - 1 - a]);
            }
        }
        r
    }
}

/// The winning cells ([`Geometry::winning_cells`]) of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threats<B: Bits> {
    pub mine: B,
    pub theirs: B,
}

/// A position: the side to move's stones, all stones, and the number of stones played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<B: Bits> {
    pub current: B,
    pub mask: B,
    pub moves: usize,
}

impl<B: Bits> Position<B> {
    pub fn empty() -> Position<B> {
        Position {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
        }
    }

    /// Unique key of the position (both colours and the side to move follow from it).
    #[inline]
    pub fn key(&self) -> B {
        self.current.wrapping_add(self.mask)
    }

    /// The landing cell of every column that is not full.
    #[inline]
    pub fn possible(&self, g: &Geometry<B>) -> B {
        self.mask.wrapping_add(g.bottom) & g.board
    }

    #[inline]
    pub fn can_play(&self, g: &Geometry<B>, col: usize) -> bool {
        !(self.possible(g) & g.column_mask(col)).is_zero()
    }

    /// Plays a single-bit move that is a landing cell.
    #[inline]
    pub fn play(&mut self, mv: B) {
        self.current = self.current ^ self.mask;
        self.mask = self.mask | mv;
        self.moves += 1;
    }

    /// Plays in a column that is not full.
    #[inline]
    pub fn play_col(&mut self, g: &Geometry<B>, col: usize) {
        let mv = self.possible(g) & g.column_mask(col);
        self.play(mv);
    }

    #[inline]
    pub fn winning(&self, g: &Geometry<B>) -> B {
        g.winning_cells(self.current, self.mask)
    }

    #[inline]
    pub fn opponent_winning(&self, g: &Geometry<B>) -> B {
        g.winning_cells(self.current ^ self.mask, self.mask)
    }

    /// Whether the side to move wins with its next stone.
    #[inline]
    pub fn can_win_next(&self, g: &Geometry<B>) -> bool {
        !(self.winning(g) & self.possible(g)).is_zero()
    }

    /// Whether playing `col` wins at once.
    #[inline]
    pub fn is_winning_col(&self, g: &Geometry<B>, col: usize) -> bool {
        !(self.winning(g) & self.possible(g) & g.column_mask(col)).is_zero()
    }

    /// Both sides' winning cells, worked out once for a node that needs them twice (its
    /// move rules and its evaluation).
    #[inline]
    pub fn threats(&self, g: &Geometry<B>) -> Threats<B> {
        Threats {
            mine: self.winning(g),
            theirs: self.opponent_winning(g),
        }
    }

    /// Moves that do not let the opponent win at once; zero when every move loses next turn.
    /// Only meaningful when the side to move cannot win at once.
    #[inline]
    pub fn non_losing_moves(&self, g: &Geometry<B>) -> B {
        self.non_losing_given(g, self.opponent_winning(g))
    }

    /// [`Position::non_losing_moves`] with the opponent's winning cells already known.
    #[inline]
    pub fn non_losing_given(&self, g: &Geometry<B>, opp_win: B) -> B {
        let mut possible = self.possible(g);
        let forced = possible & opp_win;
        if !forced.is_zero() {
            if forced.has_several() {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !opp_win.shr(1)
    }

    /// Move-ordering score: how many winning cells the mover has after playing `mv`.
    #[inline]
    pub fn move_score(&self, g: &Geometry<B>, mv: B) -> u32 {
        g.winning_cells(self.current | mv, self.mask).count_ones()
    }

    /// The columns of the set bits of a move mask, left to right.
    pub fn columns_in(g: &Geometry<B>, moves: B) -> impl Iterator<Item = usize> + '_ {
        (0..g.width).filter(move |&c| !(moves & g.column_mask(c)).is_zero())
    }

    /// The position seen in a mirror (column c ↔ W−1−c).
    pub fn mirrored(&self, g: &Geometry<B>) -> Position<B> {
        Position {
            current: g.mirror(self.current),
            mask: g.mirror(self.mask),
            moves: self.moves,
        }
    }
}

/// Why a column sequence cannot be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceError {
    /// A character that is not a column of this board (1-based index in the string).
    BadColumn { index: usize },
    /// The column is already full.
    ColumnFull { index: usize },
    /// The game was already won before this move (or by the previous move).
    GameOver { index: usize },
}

impl std::fmt::Display for SequenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SequenceError::BadColumn { index } => write!(f, "move {index}: not a column"),
            SequenceError::ColumnFull { index } => write!(f, "move {index}: column is full"),
            SequenceError::GameOver { index } => {
                write!(f, "move {index}: the game is already won")
            }
        }
    }
}

impl std::error::Error for SequenceError {}

/// Column index of a notation character: `1`–`9` then `a`, `b`, … for 10, 11, …
pub fn column_from_char(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '1' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize + 9),
        'A'..='Z' => Some(c as usize - 'A' as usize + 9),
        _ => None,
    }
}

/// The notation character of a column (inverse of [`column_from_char`]).
pub fn column_to_char(col: usize) -> char {
    if col < 9 {
        (b'1' + col as u8) as char
    } else {
        (b'a' + (col - 9) as u8) as char
    }
}

/// Plays a sequence in the common notation; a winning move ends the game, so any move
/// after it (or the winning move itself, as in Pons' solver: the position to solve must
/// still be open) is an error.
pub fn parse_sequence<B: Bits>(g: &Geometry<B>, seq: &str) -> Result<Position<B>, SequenceError> {
    let mut p = Position::empty();
    for (i, ch) in seq.chars().enumerate() {
        let index = i + 1;
        let col = column_from_char(ch)
            .filter(|&c| c < g.width)
            .ok_or(SequenceError::BadColumn { index })?;
        if !p.can_play(g, col) {
            return Err(SequenceError::ColumnFull { index });
        }
        if p.is_winning_col(g, col) {
            return Err(SequenceError::GameOver { index });
        }
        p.play_col(g, col);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g7() -> Geometry<u64> {
        Geometry::new(7, 6, 4).unwrap()
    }

    #[test]
    fn vertical_and_horizontal_threats() {
        let g = g7();
        // X plays column 1 three times, O column 2 twice: X threatens the 4th cell of col 1.
        let p = parse_sequence(&g, "12121").unwrap();
        // O to move: X (opponent) wins at column 0 row 3.
        assert_eq!(p.opponent_winning(&g), g.cell(0, 3));
        // O's only non-losing move is to block.
        assert_eq!(p.non_losing_moves(&g), g.cell(0, 3));
        let q = parse_sequence(&g, "4455").unwrap();
        // X to move, stones at cols 3,4 row 0: no three yet.
        assert!(!q.can_win_next(&g));
        let q = parse_sequence(&g, "445566").unwrap();
        assert!(q.is_winning_col(&g, 2) && q.is_winning_col(&g, 6));
    }

    #[test]
    fn generic_k_matches_unrolled_k4() {
        let g4 = g7();
        let gk = Geometry::<u64>::new(7, 6, 5).unwrap();
        let mut seed = 12345u64;
        for _ in 0..200 {
            let mut p = Position::<u64>::empty();
            for _ in 0..30 {
                seed = super::super::bits::mix64(seed.wrapping_add(1));
                let cols: Vec<usize> = Position::columns_in(&g4, p.possible(&g4)).collect();
                if cols.is_empty() {
                    break;
                }
                p.play_col(&g4, cols[seed as usize % cols.len()]);
                let generic = {
                    let mut g = g4.clone();
                    g.k = 4;
                    g.winning_k(p.current) & (g.board ^ p.mask)
                };
                assert_eq!(generic, p.winning(&g4));
            }
        }
        // A k=5 horizontal four with both ends open gives two winning cells.
        let p = parse_sequence(&gk, "2233445").unwrap();
        assert_eq!(
            p.opponent_winning(&gk) & p.possible(&gk),
            g4.cell(0, 0) | g4.cell(5, 0)
        );
    }

    #[test]
    fn notation_and_errors() {
        let g = g7();
        assert_eq!(column_from_char('a'), Some(9));
        assert_eq!(column_to_char(11), 'c');
        assert_eq!(column_from_char(column_to_char(3)), Some(3));
        assert_eq!(
            parse_sequence(&g, "1111111"),
            Err(SequenceError::ColumnFull { index: 7 })
        );
        assert_eq!(
            parse_sequence(&g, "8"),
            Err(SequenceError::BadColumn { index: 1 })
        );
        assert_eq!(
            parse_sequence(&g, "1212121"),
            Err(SequenceError::GameOver { index: 7 })
        );
    }

    #[test]
    fn mirror_is_an_involution_and_swaps_columns() {
        let g = g7();
        let p = parse_sequence(&g, "112311112").unwrap();
        let m = p.mirrored(&g);
        assert_eq!(m, parse_sequence(&g, "776577776").unwrap());
        assert_eq!(m.mirrored(&g), p);
        // The key of the mirror image is the mirror of the key (no carry leaves a column).
        assert_eq!(g.mirror(p.key()), m.key());
    }

    #[test]
    fn has_line_sees_every_direction_and_no_wrap() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let cells = |list: &[(usize, usize)]| list.iter().fold(0u64, |b, &(c, r)| b | g.cell(c, r));
        assert!(g.has_line(cells(&[(0, 0), (1, 0), (2, 0), (3, 0)])));
        assert!(g.has_line(cells(&[(5, 1), (5, 2), (5, 3), (5, 4)])));
        assert!(g.has_line(cells(&[(1, 0), (2, 1), (3, 2), (4, 3)])));
        assert!(g.has_line(cells(&[(6, 2), (5, 3), (4, 4), (3, 5)])));
        assert!(!g.has_line(cells(&[(0, 0), (1, 0), (2, 0), (4, 0)])));
        // The top of one column and the bottom of the next are not a vertical line.
        assert!(!g.has_line(cells(&[(2, 4), (2, 5), (3, 0), (3, 1)])));
        let g3 = Geometry::<u64>::new(5, 4, 3).unwrap();
        assert!(g3.has_line(g3.cell(0, 0) | g3.cell(1, 1) | g3.cell(2, 2)));
    }

    #[test]
    fn wide_boards_detect_alignments() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let p = parse_sequence(&g, "99aabb").unwrap();
        assert!(p.is_winning_col(&g, 7) && p.is_winning_col(&g, 11));
        let gw = Geometry::<super::super::bits::Wide>::new(16, 16, 4).unwrap();
        let p = parse_sequence(&gw, "ddeeff").unwrap();
        assert!(p.is_winning_col(&gw, 11) && p.is_winning_col(&gw, 15));
    }
}
