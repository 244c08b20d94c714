//! The m,n,k searches: the exact solver with its symmetry-folded table, the engine's move
//! chooser ([`think`]) and the `solve` subcommand's driver.

mod cli;
mod search;
mod tt;

pub use cli::{
    bench_known_values, bench_values, parse_position, solve_cli, KnownValue, SolveOptions,
    KNOWN_VALUES,
};
pub use search::{solve, think, Solution, SolveError, SolveLimits, Value};
