//! The Connect Four searches: the exact solver, the beam search for positions it cannot
//! finish, the classic players (random, greedy, Monte-Carlo, UCT), and the `solve`
//! subcommand's driver.

pub mod heuristic;
pub mod players;
pub mod solve_cli;
pub mod solver;

pub use solve_cli::{bench_sets, solve_cli, SetStats, SolveOptions};
