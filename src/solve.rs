//! `pbrain-wuzi solve` and the tools built on the exact solvers: the drivers that read
//! positions a line and print their values ([`connect4`], [`mnk`]) and the Connect Four
//! opening book's builder ([`book`]). The solvers themselves are the search layer's
//! ([`crate::search::connect4::solver`], [`crate::search::mnk`]); these modules own only the
//! text in and out, the option checks and the long offline runs.

pub mod book;
pub mod connect4;
pub mod mnk;
