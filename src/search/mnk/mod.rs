//! The m,n,k searches: the exact solver with its symmetry-folded table and the engine's move
//! chooser ([`think`]). The `solve` subcommand's driver is a tool on top
//! ([`crate::solve::mnk`]).

mod search;
mod tt;

pub use search::{solve, think, Solution, SolveError, SolveLimits, Value};
