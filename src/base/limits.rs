//! What bounds one search (depth, nodes, the soft and hard deadlines, threads, excluded root
//! moves) and the flag that stops it.

use crate::base::Move;
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
    /// Only a per-move limit binds (no match clock): time saved on this move is not
    /// banked, so a search may keep deepening towards `maximum` past `optimum`.
    pub per_move: bool,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// Search threads (Lazy SMP helpers included); 0 means one.
    pub threads: usize,
    /// Root moves the search must not play (`YXBLOCK`, multi-PV, opening rules).
    pub exclude: Vec<Move>,
    /// The score of this side's previous search, two plies back in the same game, when
    /// there was one: a score that fell since makes the time manager think longer.
    pub prev_score: Option<i32>,
    /// Where the search notes the longest it went between two of its clock reads: how long
    /// the machine took the processor away (see [`StallMeter`]).
    pub stalls: Option<Arc<StallMeter>>,
}

/// The longest gap seen between two clock reads of a search's main thread, in µs. A search
/// reads the clock every few dozen nodes (tens of µs in gomoku); a gap of milliseconds
/// means the thread was not running, which can happen just as well at the deadline: the
/// per-move reserve is sized from it ([`crate::search::time::Lateness`]).
#[derive(Debug, Default)]
pub struct StallMeter(std::sync::atomic::AtomicU64);

impl StallMeter {
    /// Notes a gap between two clock reads.
    pub fn note(&self, gap: std::time::Duration) {
        let us = u64::try_from(gap.as_micros()).unwrap_or(u64::MAX);
        self.0.fetch_max(us, Ordering::Relaxed);
    }

    /// The longest gap noted since the last call, and a fresh start.
    pub fn take(&self) -> std::time::Duration {
        std::time::Duration::from_micros(self.0.swap(0, Ordering::Relaxed))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The meter keeps the longest gap since it was last read, and starts afresh.
    #[test]
    fn the_stall_meter_keeps_the_longest_gap_until_read() {
        let m = StallMeter::default();
        m.note(Duration::from_micros(70));
        m.note(Duration::from_millis(3));
        m.note(Duration::from_millis(1));
        assert_eq!(m.take(), Duration::from_millis(3));
        assert_eq!(m.take(), Duration::ZERO);
    }
}
