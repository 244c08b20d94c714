//! The vocabulary every layer shares: players and moves, the score scale with its mate
//! arithmetic, and what bounds and stops a search. It imports nothing from the crate, so
//! rules, searches, the engine, the protocol and the arena can all speak it.

pub mod limits;
pub mod score;

pub use limits::{Limits, StallMeter, Stop};

use std::fmt;

/// A player. Black moves first in every mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How boards are drawn for people: `X` black, `O` white, `.` empty (as Piskvork's logs do).
pub fn stone_char(stone: Option<Color>) -> char {
    match stone {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// A cell, as the protocol names it: `x` is the column (0 = left), `y` the row (0 = top).
/// Connect Four moves are cells too: the landing cell of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub x: u8,
    pub y: u8,
}

impl Move {
    pub const fn new(x: u8, y: u8) -> Move {
        Move { x, y }
    }
}

impl fmt::Display for Move {
    /// The protocol's `X,Y` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}
