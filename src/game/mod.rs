//! The vocabulary every rule mode shares, and the one trait the engine and the search see.
//!
//! Each mode (gomoku under one of its rules, Connect Four, m,n,k) is a concrete type that
//! implements [`Game`]. [`AnyGame`] wraps them for the one runtime choice made where the
//! protocol meets the engine; past that point code is generic over `G: Game` and
//! monomorphised, so nothing in the search branches on the mode.

pub mod any;
pub mod connect4;
pub mod gomoku;
pub mod mnk;

pub use crate::base::{stone_char, Color, Move};
pub use any::{AnyGame, CaptureRule, GameKind, GomokuRule, NewGameError};

use std::fmt;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Why a move cannot be played. The protocol turns these into `ERROR` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    OffBoard,
    Occupied,
    /// Connect Four: the cell is not where a stone dropped in that column would land.
    NotLandingCell,
    ColumnFull,
    GameOver,
    /// Renju: the move is forbidden for black (only reported where the caller asks for it).
    Forbidden,
    /// Setting up a position the mode cannot represent (e.g. a pass in Connect Four).
    Unsupported,
    /// Ninuki: the move makes two free threes at once without capturing.
    DoubleThree,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            MoveError::OffBoard => "coordinates off the board",
            MoveError::Occupied => "cell is occupied",
            MoveError::NotLandingCell => "not the landing cell of that column",
            MoveError::ColumnFull => "column is full",
            MoveError::GameOver => "the game is already over",
            MoveError::Forbidden => "forbidden move for black",
            MoveError::Unsupported => "not supported in this game",
            MoveError::DoubleThree => "forbidden: two free threes at once without a capture",
        };
        f.write_str(s)
    }
}

impl std::error::Error for MoveError {}

/// A candidate move with its ordering score (higher = searched first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    pub mv: Move,
    pub score: i32,
}

/// A game position with play and undo. Implementations keep their derived state (hash,
/// pattern codes, influence) incrementally: `play` and `undo` touch only what a move changes.
pub trait Game: Clone + Send + Sync + 'static {
    /// Board width (number of columns, x range).
    fn width(&self) -> usize;
    /// Board height (number of rows, y range).
    fn height(&self) -> usize;
    /// The player to move.
    fn side_to_move(&self) -> Color;
    /// Stones on the board plus passes played since the empty board.
    fn ply(&self) -> usize;
    /// What stands on a cell that is on the board.
    fn stone_at(&self, m: Move) -> Option<Color>;
    /// The last move played, if any (None after a pass).
    fn last_move(&self) -> Option<Move>;
    /// Whether the side to move may play `m` now. Renju forbidden moves are legal here
    /// (playing one loses; see [`Game::is_forbidden`]); the engine never chooses one.
    fn check_move(&self, m: Move) -> Result<(), MoveError>;
    /// Plays a move that [`Game::check_move`] accepted.
    fn play(&mut self, m: Move);
    /// Passes the turn without a stone, to set up positions with unequal stone counts.
    /// Returns `false` where the mode has no pass (the state is then unchanged).
    fn pass(&mut self) -> bool;
    /// Takes back the last `play` or `pass`. Does nothing on the empty board.
    fn undo(&mut self);
    /// The result if the game is over: decided by the last move, or a full board.
    fn outcome(&self) -> Option<Outcome>;
    /// Zobrist key of the position including the side to move.
    fn key(&self) -> u64;
    /// The [`Game::key`] the position will have after `m`, where the mode knows it without
    /// playing (a stone and the side to move: no captures). Only a hint: the search asks the
    /// memory for the child's table entry while `play` does its work.
    fn key_after(&self, _m: Move) -> Option<u64> {
        None
    }
    /// Renju: whether `m` is forbidden for the side to move (always false for other modes).
    fn is_forbidden(&self, _m: Move) -> bool {
        false
    }
    /// Candidate moves for the search, best first by the mode's ordering. Never an occupied,
    /// off-board or forbidden cell. Empty only when the game is over or no move exists.
    fn candidates(&self, out: &mut Vec<ScoredMove>);
    /// The same moves and scores as [`Game::candidates`], in any order: the search picks
    /// them best first itself and rarely needs more than the first few, so a mode whose
    /// list is long may skip the sort.
    fn candidates_unsorted(&self, out: &mut Vec<ScoredMove>) {
        self.candidates(out);
    }
    /// Static evaluation from the side to move's point of view, in centi-stones-ish units
    /// where [`crate::base::score::WIN`] bounds any static value.
    fn evaluate(&self) -> i32;

    /// Plays `m` after checking it; on error the position is unchanged.
    fn try_play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_move(m)?;
        self.play(m);
        Ok(())
    }

    /// Puts a stone for the side to move as part of setting up a position (`BOARD`): like
    /// [`Game::try_play`], except that modes where a move does more than add its stone
    /// (captures) only add the stone, since the position given is the one to reach.
    fn place(&mut self, m: Move) -> Result<(), MoveError> {
        self.try_play(m)
    }

    /// Pairs captured so far by black and white, in modes with captures (None otherwise).
    fn captures(&self) -> Option<[u8; 2]> {
        None
    }

    /// Every move `check_move` accepts, in row-major order.
    fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        if self.outcome().is_some() {
            return v;
        }
        for y in 0..self.height() {
            for x in 0..self.width() {
                let m = Move::new(x as u8, y as u8);
                if self.check_move(m).is_ok() {
                    v.push(m);
                }
            }
        }
        v
    }

    /// Counts leaf positions `depth` plies ahead over all legal moves (finished games are
    /// leaves). Used to test play/undo consistency.
    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 || self.outcome().is_some() {
            return 1;
        }
        let mut n = 0;
        for m in self.legal_moves() {
            self.play(m);
            n += self.perft(depth - 1);
            self.undo();
        }
        n
    }
}
