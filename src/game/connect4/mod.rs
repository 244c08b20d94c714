//! Connect Four: gravity on any width × height board (4..=16 each), k in a row (default 4).
//!
//! [`Connect4`] is the protocol-facing game: a plain cell array with a move history, because
//! it must accept any board size and any k, answer `check_move` with precise errors and undo
//! exactly. Thinking happens elsewhere (`crate::search::connect4`): its `think` converts the
//! position to the bitboards of [`position`] in the narrowest integer that holds W·(H+1)
//! bits (`u64` for 7×6, `u128` for 12×6, [`bits::Wide`] beyond) and runs the player the
//! `c4_player` option names, the exact solver by default, falling back to a heuristic search
//! when the position cannot be solved inside the limits. The static evaluation is the
//! alignment count of [`windows`], with the zugzwang verdict of [`zugzwang`].

pub mod bits;
pub mod eval_weights;
pub mod ntuple;
pub mod position;
pub mod windows;
pub mod zugzwang;

use super::{Color, Game, Move, MoveError, Outcome, ScoredMove};
use crate::base::score::DRAW;
use bits::{Bits, Wide};
use parking_lot::Mutex;
use position::{Geometry, Position};
use std::sync::Arc;
use windows::Windows;

/// A search's cache kept with the game between moves and shared by its clones. The game
/// never looks inside: the Connect Four solver keeps its transposition table here, whose
/// entries are exact facts about positions of this geometry.
pub(crate) type SearchCache = Arc<Mutex<Option<Box<dyn std::any::Any + Send>>>>;

/// Smallest and largest width and height accepted.
pub const MIN_SIZE: usize = 4;
pub const MAX_SIZE: usize = 16;
/// The standard win length.
pub const DEFAULT_K: usize = 4;
/// Why a board cannot be created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    Width(usize),
    Height(usize),
    /// k must be at least 2 (k = 1 would make the first stone win).
    WinLength(usize),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::Width(w) => write!(f, "width {w} outside {MIN_SIZE}..={MAX_SIZE}"),
            SizeError::Height(h) => write!(f, "height {h} outside {MIN_SIZE}..={MAX_SIZE}"),
            SizeError::WinLength(k) => write!(f, "win length {k} must be 2..={MAX_SIZE}"),
        }
    }
}

impl std::error::Error for SizeError {}

/// A Connect Four game on a W × H board with k in a row to win.
#[derive(Clone)]
pub struct Connect4 {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) k: usize,
    /// Row-major (`y · width + x`), y = 0 is the top row.
    cells: Vec<Option<Color>>,
    /// Stones per column.
    heights: Vec<usize>,
    history: Vec<Move>,
    /// The outcome after each move of `history` (None while the game goes on).
    outcomes: Vec<Option<Outcome>>,
    pub(crate) key: u64,
    zobrist: Arc<Vec<u64>>,
    /// The solver's table, shared by clones and kept between moves: its entries are exact
    /// facts about positions of this geometry, so reuse is sound and saves work.
    pub(crate) tt: SearchCache,
    /// The midgame search's table, kept between moves like the solver's: its entries are
    /// heuristic scores at a depth, as good on the next move as they were on this one.
    pub(crate) mid_tt: SearchCache,
}

impl std::fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Connect4 {}x{} k={} moves={}",
            self.width,
            self.height,
            self.k,
            self.columns_string()
        )
    }
}

impl Connect4 {
    pub fn new(width: usize, height: usize, k: usize) -> Result<Connect4, SizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) {
            return Err(SizeError::Width(width));
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(SizeError::Height(height));
        }
        if !(2..=MAX_SIZE).contains(&k) {
            return Err(SizeError::WinLength(k));
        }
        let mut seed = 0x5eed_c4c4_u64 ^ ((width as u64) << 8) ^ height as u64;
        let zobrist = (0..2 * width * height + 1)
            .map(|_| {
                seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                bits::mix64(seed)
            })
            .collect();
        Ok(Connect4 {
            width,
            height,
            k,
            cells: vec![None; width * height],
            heights: vec![0; width],
            history: Vec::new(),
            outcomes: Vec::new(),
            key: 0,
            zobrist: Arc::new(zobrist),
            tt: Arc::new(Mutex::new(None)),
            mid_tt: Arc::new(Mutex::new(None)),
        })
    }

    /// The standard 7 × 6 board, four in a row.
    pub fn standard() -> Connect4 {
        Connect4::new(7, 6, DEFAULT_K).expect("7x6 is a valid size")
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// The landing cell of a column, if it is not full.
    pub fn landing(&self, col: usize) -> Option<Move> {
        (col < self.width && self.heights[col] < self.height)
            .then(|| Move::new(col as u8, (self.height - 1 - self.heights[col]) as u8))
    }

    /// The moves so far in the common notation (1-based columns, `a` = 10).
    pub fn columns_string(&self) -> String {
        self.history
            .iter()
            .map(|m| position::column_to_char(m.x as usize))
            .collect()
    }

    /// Plays a column (convenience for tools and tests).
    pub fn play_column(&mut self, col: usize) -> Result<(), MoveError> {
        let m = self.landing(col).ok_or(if col < self.width {
            MoveError::ColumnFull
        } else {
            MoveError::OffBoard
        })?;
        self.try_play(m)
    }

    #[inline]
    fn idx(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Stones of `c` in a line through (x, y) along (dx, dy), the cell itself included
    /// as if it held `c`.
    fn run_through(&self, x: usize, y: usize, dx: i64, dy: i64, c: Color) -> usize {
        let mut n = 1;
        for sign in [1i64, -1] {
            let (mut cx, mut cy) = (x as i64 + sign * dx, y as i64 + sign * dy);
            while cx >= 0
                && cy >= 0
                && (cx as usize) < self.width
                && (cy as usize) < self.height
                && self.cells[self.idx(cx as usize, cy as usize)] == Some(c)
            {
                n += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        n
    }

    fn longest_run(&self, x: usize, y: usize, c: Color) -> usize {
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .map(|&(dx, dy)| self.run_through(x, y, dx, dy, c))
            .max()
            .unwrap_or(1)
    }

    /// The bitboard position of this game (the geometry must be of the same size).
    pub(crate) fn position<B: Bits>(&self, g: &Geometry<B>) -> Position<B> {
        let mut p = Position::empty();
        for m in &self.history {
            p.play_col(g, m.x as usize);
        }
        p
    }

    fn zobrist_index(&self, m: Move, c: Color) -> usize {
        2 * (m.y as usize * self.width + m.x as usize) + c.index()
    }

    fn side_key(&self) -> u64 {
        self.zobrist[2 * self.width * self.height]
    }
}

/// Runs `$f::<B>(args)` with the narrowest bit type that holds a `$w × $h` board.
macro_rules! with_bits {
    ($w:expr, $h:expr, $f:ident ( $($arg:expr),* )) => {{
        let need = $w * ($h + 1);
        if need <= 64 {
            $f::<u64>($($arg),*)
        } else if need <= 128 {
            $f::<u128>($($arg),*)
        } else {
            $f::<Wide>($($arg),*)
        }
    }};
}
pub(crate) use with_bits;

impl Game for Connect4 {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    fn side_to_move(&self) -> Color {
        if self.history.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
    fn stone_at(&self, m: Move) -> Option<Color> {
        let (x, y) = (m.x as usize, m.y as usize);
        if x < self.width && y < self.height {
            self.cells[self.idx(x, y)]
        } else {
            None
        }
    }
    fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let (x, y) = (m.x as usize, m.y as usize);
        if x >= self.width || y >= self.height {
            return Err(MoveError::OffBoard);
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if self.heights[x] >= self.height {
            return Err(MoveError::ColumnFull);
        }
        if self.cells[self.idx(x, y)].is_some() {
            return Err(MoveError::Occupied);
        }
        if y != self.height - 1 - self.heights[x] {
            return Err(MoveError::NotLandingCell);
        }
        Ok(())
    }
    fn play(&mut self, m: Move) {
        let (x, y) = (m.x as usize, m.y as usize);
        let c = self.side_to_move();
        let i = self.idx(x, y);
        self.cells[i] = Some(c);
        self.heights[x] += 1;
        self.key ^= self.zobrist[self.zobrist_index(m, c)] ^ self.side_key();
        self.history.push(m);
        let outcome = if self.longest_run(x, y, c) >= self.k {
            Some(Outcome::Win(c))
        } else if self.history.len() == self.width * self.height {
            Some(Outcome::Draw)
        } else {
            None
        };
        self.outcomes.push(outcome);
    }
    fn pass(&mut self) -> bool {
        false
    }
    fn undo(&mut self) {
        let Some(m) = self.history.pop() else { return };
        self.outcomes.pop();
        let c = self.side_to_move();
        let i = self.idx(m.x as usize, m.y as usize);
        self.cells[i] = None;
        self.heights[m.x as usize] -= 1;
        self.key ^= self.zobrist[self.zobrist_index(m, c)] ^ self.side_key();
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcomes.last().copied().flatten()
    }
    fn key(&self) -> u64 {
        self.key
    }
    /// Landing cells: immediate wins first, then blocks, then by the lines the cell extends
    /// for either side, centre first on ties.
    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let me = self.side_to_move();
        for col in 0..self.width {
            let Some(m) = self.landing(col) else { continue };
            let (x, y) = (m.x as usize, m.y as usize);
            let mut score = 0;
            let mine = self.longest_run(x, y, me);
            let theirs = self.longest_run(x, y, me.opponent());
            if mine >= self.k {
                score += 1_000_000;
            }
            if theirs >= self.k {
                score += 500_000;
            }
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let a = self.run_through(x, y, dx, dy, me) as i32;
                let b = self.run_through(x, y, dx, dy, me.opponent()) as i32;
                score += 10 * (a * a + b * b);
            }
            score -= (2 * col as i32 - (self.width as i32 - 1)).abs();
            out.push(ScoredMove { mv: m, score });
        }
        out.sort_by(|a, b| b.score.cmp(&a.score).then(a.mv.cmp(&b.mv)));
    }
    fn evaluate(&self) -> i32 {
        fn eval<B: Bits>(game: &Connect4) -> i32 {
            match Geometry::<B>::new(game.width, game.height, game.k) {
                Some(g) => Windows::new(&g).evaluate(&g, &game.position(&g)),
                None => DRAW,
            }
        }
        with_bits!(self.width, self.height, eval(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Connect4::new(3, 6, 4).err(), Some(SizeError::Width(3)));
        assert_eq!(Connect4::new(7, 17, 4).err(), Some(SizeError::Height(17)));
        assert_eq!(Connect4::new(7, 6, 1).err(), Some(SizeError::WinLength(1)));
        assert!(Connect4::new(16, 16, 4).is_ok());
    }

    #[test]
    fn gravity_and_errors() {
        let mut g = Connect4::standard();
        assert_eq!(
            g.check_move(Move::new(3, 4)),
            Err(MoveError::NotLandingCell)
        );
        assert_eq!(g.check_move(Move::new(7, 5)), Err(MoveError::OffBoard));
        assert_eq!(g.try_play(Move::new(3, 5)), Ok(()));
        assert_eq!(g.check_move(Move::new(3, 5)), Err(MoveError::Occupied));
        assert_eq!(g.landing(3), Some(Move::new(3, 4)));
        for _ in 0..5 {
            g.play_column(3).unwrap();
        }
        assert_eq!(g.check_move(Move::new(3, 0)), Err(MoveError::ColumnFull));
        assert_eq!(g.play_column(3), Err(MoveError::ColumnFull));
        assert!(!g.pass());
        assert_eq!(g.ply(), 6);
    }

    #[test]
    fn wins_draws_and_undo() {
        let mut g = Connect4::standard();
        let key0 = g.key();
        for c in [0, 1, 0, 1, 0, 1] {
            g.play_column(c).unwrap();
        }
        assert_eq!(g.outcome(), None);
        let k6 = g.key();
        g.play_column(0).unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
        assert_eq!(g.play_column(2), Err(MoveError::GameOver));
        g.undo();
        assert_eq!(g.outcome(), None);
        assert_eq!(g.key(), k6);
        while g.ply() > 0 {
            g.undo();
        }
        assert_eq!(g.key(), key0);
        // k = 5 is not won by four.
        let mut g5 = Connect4::new(7, 6, 5).unwrap();
        for c in [0, 1, 0, 1, 0, 1, 0] {
            g5.play_column(c).unwrap();
        }
        assert_eq!(g5.outcome(), None);
    }

    #[test]
    fn perft_counts_match_connect4_references() {
        // Known Connect Four perft on 7x6: 7, 49, 343, 2401, 16807 (no wins before ply 7).
        let mut g = Connect4::standard();
        assert_eq!(g.perft(4), 2401);
        assert_eq!(g.perft(5), 16807);
    }

    #[test]
    fn candidates_put_wins_and_blocks_first() {
        let mut g = Connect4::standard();
        for c in [0, 1, 0, 1, 0] {
            g.play_column(c).unwrap();
        }
        // White to move must block column 0.
        let mut v = Vec::new();
        g.candidates(&mut v);
        assert_eq!(v[0].mv, Move::new(0, 2));
        assert_eq!(v.len(), 7);
    }
}
