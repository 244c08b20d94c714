//! The searches, above the rules, one folder per game: [`gomoku`] (the alpha-beta with its
//! threat solver, for every gomoku rule and the capture variants), [`connect4`] (the exact
//! solver, the opening book, the heuristic players) and [`mnk`]; beside them the parts they
//! share (the transposition table [`tt`], the [`time`] manager's clock, the [`busy`] table of
//! positions a thread is in) and what every mode's move chooser reports. Scores, limits and the stop flag are
//! the crate's vocabulary (`crate::base`), re-exported here for the searches' callers.
//!
//! The search never reads stdin or prints: it gets a [`Limits`] and a [`Stop`] from the
//! engine and hands back a [`SearchResult`]; progress goes out through a reporter callback
//! that the protocol layer turns into `MESSAGE` lines.

pub mod busy;
pub mod connect4;
pub mod gomoku;
pub mod mnk;
mod table_memory;
pub mod time;
pub mod tt;

pub use crate::base::score;
pub use crate::base::{Limits, StallMeter, Stop};

use crate::game::Move;

/// Progress of a search after each finished iteration, for `MESSAGE` lines and GUIs.
#[derive(Clone, Debug, Default)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Move>,
}

/// What a finished search returns. `best` is always a legal move of the position searched
/// (when one exists).
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The callback a search reports finished iterations to.
pub type Reporter<'a> = &'a mut dyn FnMut(&Iteration);

/// Everything a mode's move chooser gets besides the position: its limits, the stop flag,
/// the progress callback and the protocol's `INFO` options (raw key → value, keys in lower
/// case) so that a mode can read its own keys (e.g. `c4_player`) without the protocol
/// layer knowing them.
pub struct ThinkContext<'a> {
    pub limits: Limits,
    pub stop: Stop,
    pub report: Reporter<'a>,
    pub options: &'a std::collections::HashMap<String, String>,
}

impl ThinkContext<'_> {
    /// Whether the search must stop now: flag set or hard deadline passed.
    #[inline]
    pub fn should_stop(&self) -> bool {
        self.stop.is_set() || self.limits.past_maximum()
    }
}
