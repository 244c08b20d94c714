//! Gomoku with captures: Pente and Ninuki-renju on any board the gomoku modes accept.
//!
//! A move that flanks exactly two opponent stones in a line (in any of the eight
//! directions, the moving stone at one end and one of the mover's at the other) removes
//! them; the cells are free again. Five in a row or five captured pairs win. Ninuki adds
//! endgame capture (a five must survive the opponent's next move) and forbids a move that
//! makes two free threes unless it captures. The pieces: `rules` (the variant types),
//! `lines` (capture geometry on row bitboards), `board` (the position over a freestyle
//! gomoku board, play/undo with exact captures, the outcome, the `Game` impl), `eval`
//! (candidates and evaluation) and `params` (their weights). The threat search that knows
//! captures break fours, and the `Tactics` impl the alpha-beta search uses, live one layer
//! up in `crate::search::gomoku::capture`.

mod board;
mod eval;
pub(crate) mod lines;
pub mod params;
mod rules;
#[cfg(test)]
mod tests;

pub use board::{CaptureBoard, PairCountError};
pub use rules::{Ninuki, Pente, Variant, PAIRS_TO_WIN};
