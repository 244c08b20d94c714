//! Gomoku on bitboards with incremental pattern codes, under freestyle, standard, renju and
//! caro.
//!
//! [`Board`] is generic over a [`Rule`] so that everything rule-dependent (what a five is,
//! renju fouls) is a compile-time constant in the hot paths. The pieces:
//! `rules` (the rule types), `pattern` (line keys, pattern tables, cell codes), `board`
//! (stones and every incremental structure, play/undo, the `Game` impl), `forbidden`
//! (renju fouls), `movegen` (candidates with forced-move rules, static evaluation),
//! `initiative` (the threat mask that indexes the evaluation's threat table),
//! `params` (hand-set weights), `weights` (fitted weights), `features` (the evaluation as
//! features for the tuner) and `bench` (a make/undo speed measurement).

mod bench;
mod board;
pub mod capture;
mod decided;
pub mod features;
mod forbidden;
pub mod initiative;
mod movegen;
pub mod params;
pub mod pattern;
mod rules;
#[cfg(test)]
mod testing;
pub mod weights;

pub use bench::bench_make_undo;
pub use board::{AsciiError, Board, SizeError, DIRS, MAX_SIZE, MIN_SIZE};
pub use decided::Verdict;
pub use pattern::{Code, Pattern};
pub use rules::{Caro, CaroExact, FiveRule, Freestyle, Renju, Rule, Standard};
