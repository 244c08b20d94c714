//! Search vocabulary shared by every mode's move chooser: scores, limits, the stop flag and
//! what a finished search reports.
//!
//! The search never reads stdin or prints: it gets a [`Limits`] and a [`Stop`] from the
//! engine and hands back a [`SearchResult`]; progress goes out through a reporter callback
//! that the protocol layer turns into `MESSAGE` lines.

pub mod alphabeta;
pub mod score;
pub mod threats;
pub mod time;
pub mod tt;

use crate::game::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What bounds one search. `None` fields are unbounded.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// When the search started; all durations are measured from here.
    pub start: Option<Instant>,
    /// Soft target: do not start a new iteration after this.
    pub optimum: Option<Instant>,
    /// Hard stop: the move must be ready by then, whatever the search is doing.
    pub maximum: Option<Instant>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// Search threads (Lazy SMP helpers included); 0 means one.
    pub threads: usize,
    /// Root moves the search must not play (`YXBLOCK`, multi-PV, opening rules).
    pub exclude: Vec<Move>,
}

impl Limits {
    /// Limits that only bound the depth: deterministic single-thread search (bench, tests).
    pub fn depth(d: u32) -> Limits {
        Limits {
            max_depth: Some(d),
            threads: 1,
            ..Limits::default()
        }
    }

    /// Whether the hard deadline has passed.
    #[inline]
    pub fn past_maximum(&self) -> bool {
        self.maximum.is_some_and(|t| Instant::now() >= t)
    }

    /// Whether the soft target has passed.
    #[inline]
    pub fn past_optimum(&self) -> bool {
        self.optimum.is_some_and(|t| Instant::now() >= t)
    }
}

/// A shared flag that asks a running search to stop and return its best move now
/// (`YXSTOP`, `END`, the deadline watchdog).
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }
    #[inline]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed)
    }
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed)
    }
}

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
