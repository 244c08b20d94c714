//! What the referee judges by: the time control, the faults that lose a game, and the
//! check of one reply against the rules. The game loop (`referee`) and the swap2
//! negotiation (`swap2`) both stand on this module, and it on neither of them.

use crate::game::{Game, Move, MoveError};
use std::fmt;
use std::time::Duration;

/// A Gomocup-style time control, in milliseconds. Zero limits mean unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub turn_ms: u64,
    pub match_ms: u64,
    /// Slack added to every deadline (Piskvork and GomocupJudge use 1000 ms).
    pub tolerance_ms: u64,
    /// How long `START` may take to answer `OK`.
    pub start_ms: u64,
    /// Between `END` and the kill.
    pub grace_ms: u64,
    /// Sent as `INFO max_memory` (bytes; 0 = unlimited). Not measured.
    pub max_memory: u64,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            turn_ms: 5_000,
            match_ms: 120_000,
            tolerance_ms: 1_000,
            start_ms: 5_000,
            grace_ms: 500,
            max_memory: 367_001_600,
        }
    }
}

/// With no limit at all, a silent engine is still given up on after this long.
const UNLIMITED_WAIT: Duration = Duration::from_secs(24 * 3600);

impl TimeControl {
    /// The protocol's "unlimited" `time_left`.
    pub(super) const UNLIMITED_LEFT: i64 = 2_147_483_647;

    /// How long an engine may take for a move with `time_left` on its clock, tolerance
    /// included.
    pub fn move_budget(&self, time_left: i64) -> Duration {
        let mut limit: Option<u64> = (self.turn_ms > 0).then_some(self.turn_ms);
        if self.match_ms > 0 {
            let left = time_left.max(0) as u64;
            limit = Some(limit.map_or(left, |t| t.min(left)));
        }
        match limit {
            Some(ms) => Duration::from_millis(ms + self.tolerance_ms),
            None => UNLIMITED_WAIT,
        }
    }
}

/// Why an engine lost a game it did not lose on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// No move before the deadline (late, or stopped answering).
    Timeout,
    /// The process exited, closed stdout, or could not be started.
    Crash,
    /// A move the rules reject: off the board, occupied, not a landing cell…
    Illegal,
    /// Renju: a forbidden move by black.
    Foul,
    /// A stdout line that is not the protocol.
    Garbage,
    /// `START` not answered with `OK` in time.
    Start,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::Timeout,
        Fault::Crash,
        Fault::Illegal,
        Fault::Foul,
        Fault::Garbage,
        Fault::Start,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::Timeout => "timeout",
            Fault::Crash => "crash",
            Fault::Illegal => "illegal",
            Fault::Foul => "foul",
            Fault::Garbage => "garbage",
            Fault::Start => "start",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What went wrong on one request, before it is turned into a loss.
pub struct Failure {
    pub fault: Fault,
    pub detail: String,
}

impl Failure {
    pub fn new(fault: Fault, detail: impl Into<String>) -> Failure {
        Failure {
            fault,
            detail: detail.into(),
        }
    }
}

/// Per-seat state during one game.
pub struct Player {
    pub time_left: i64,
    /// How many moves of the game (opening included) this engine has been told or played.
    pub synced: usize,
}

/// Checks a reply against the rules: a cell on the board that the side to move may take,
/// and not a renju foul.
pub fn judge<G: Game>(board: &G, (x, y): (i64, i64)) -> Result<Move, Failure> {
    let on_board =
        (0..board.width() as i64).contains(&x) && (0..board.height() as i64).contains(&y);
    if !on_board {
        return Err(Failure::new(
            Fault::Illegal,
            format!("{x},{y}: {}", MoveError::OffBoard),
        ));
    }
    let m = Move::new(x as u8, y as u8);
    board
        .check_move(m)
        .map_err(|e| Failure::new(Fault::Illegal, format!("{m}: {e}")))?;
    if board.is_forbidden(m) {
        return Err(Failure::new(
            Fault::Foul,
            format!("{m}: forbidden for black"),
        ));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_the_tighter_limit_plus_tolerance() {
        let tc = TimeControl {
            turn_ms: 1000,
            match_ms: 10_000,
            tolerance_ms: 200,
            ..TimeControl::default()
        };
        assert_eq!(tc.move_budget(10_000), Duration::from_millis(1200));
        assert_eq!(tc.move_budget(300), Duration::from_millis(500));
        assert_eq!(tc.move_budget(-50), Duration::from_millis(200));
        let none = TimeControl {
            turn_ms: 0,
            match_ms: 0,
            ..tc
        };
        assert_eq!(none.move_budget(0), UNLIMITED_WAIT);
    }
}
