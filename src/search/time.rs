//! The time manager: turns the protocol's clock information into a soft target (`optimum`,
//! no new iteration after it) and a hard limit (`maximum`, the move must be out by then).
//!
//! Managers forfeit a late move, so every figure leaves a reserve for the time spent outside
//! the search (reading the command, writing the reply, the OS scheduling us late on a busy
//! machine). The clock starts when the command's line was read, not when the search starts.

use std::time::Duration;

/// `INFO time_left` / `timeout_match` value meaning "no limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;
/// Per-move limit when the manager gives none at all.
pub const DEFAULT_TURN_MS: i64 = 5_000;
/// Smallest reserve kept back from any limit, ms.
pub const MIN_RESERVE_MS: i64 = 50;
/// Largest reserve, ms: beyond this the reserve only wastes thinking time.
pub const MAX_RESERVE_MS: i64 = 1000;
/// Reserve as a fraction of the limit, per mille.
pub const RESERVE_PERMILLE: i64 = 120;
/// Time for a "move now" answer (time already out): enough to pick a sensible move.
pub const PANIC_MS: i64 = 15;
/// With a fixed turn limit, no new iteration starts after this share of it, per mille: an
/// iteration started later rarely finishes, though a better root move it finds on the way
/// is still played.
pub const TURN_OPTIMUM_PERMILLE: i64 = 700;
/// Match time is shared as if this many moves were still to come.
pub const MOVES_TO_GO: i64 = 22;
/// Never spend more than 1/this of the remaining match time on one move.
pub const MAX_SHARE_DIVISOR: i64 = 5;
/// Match time kept back for each move the engine may still have to make. Sharing the clock
/// as if 22 moves were to come makes it shrink geometrically, and a game that fills the
/// board (15×15 freestyle, 107 moves a side) was seen ending with 29 ms of 120 s left: a
/// few more moves at the panic pace would have lost on time. With this floor the last
/// moves still have their share when the board fills up.
pub const MOVE_FLOOR_MS: i64 = 20;
/// Moves counted for [`MOVE_FLOOR_MS`] at most: no game on a huge board lasts longer, and
/// counting all its cells would hold back most of the match.
pub const MAX_FLOOR_MOVES: i64 = 200;

/// The clock information the protocol has received (`INFO` keys), in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn`: None = not given; Some(0) = play as fast as possible.
    pub turn: Option<i64>,
    /// `timeout_match`: None or 0 = unlimited.
    pub matches: Option<i64>,
    /// `time_left`: None = not given; `UNLIMITED_MS` = unlimited; <= 0 = move now.
    pub left: Option<i64>,
}

/// The time budget for one move, as durations from the moment its command was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub optimum: Duration,
    pub maximum: Duration,
    /// Only a per-move limit binds (no match clock): time a move saves is lost, not
    /// banked for later moves.
    pub per_move: bool,
}

fn reserve(limit: i64) -> i64 {
    (limit * RESERVE_PERMILLE / 1000).clamp(MIN_RESERVE_MS, MAX_RESERVE_MS)
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(1) as u64)
}

impl Clock {
    /// The budget for the next move, when the engine may still have to make `moves_left`
    /// moves (half the empty cells, rounded up) before the board is full.
    pub fn budget(&self, moves_left: i64) -> Budget {
        let match_limited = matches!(self.matches, Some(m) if m > 0 && m < UNLIMITED_MS)
            || matches!(self.left, Some(l) if l < UNLIMITED_MS);
        // Per-move cap: the turn limit when given; the default only when no clock at all.
        let turn = match self.turn {
            Some(t) if t <= 0 => Some(PANIC_MS),
            Some(t) => Some(t),
            None if match_limited => None,
            None => Some(DEFAULT_TURN_MS),
        };
        let (mut opt, mut max) = match turn {
            Some(t) if t == PANIC_MS => (PANIC_MS / 2, PANIC_MS),
            Some(t) => {
                let m = t - reserve(t);
                (m * TURN_OPTIMUM_PERMILLE / 1000, m)
            }
            None => (i64::MAX, i64::MAX),
        };
        if match_limited {
            let left = match self.left {
                Some(l) if l < UNLIMITED_MS => l,
                _ => self.matches.unwrap_or(UNLIMITED_MS),
            };
            if left <= 0 {
                return Budget {
                    optimum: ms(PANIC_MS / 2),
                    maximum: ms(PANIC_MS),
                    per_move: false,
                };
            }
            let floor = moves_left.clamp(0, MAX_FLOOR_MOVES) * MOVE_FLOOR_MS;
            let usable = left - reserve(left).max(floor);
            let share = (usable / MAX_SHARE_DIVISOR).max(PANIC_MS);
            max = max.min(share);
            opt = opt.min((usable / MOVES_TO_GO).max(PANIC_MS / 2));
        }
        let max = max.max(1);
        Budget {
            optimum: ms(opt.min(max)),
            maximum: ms(max),
            per_move: !match_limited,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(turn: Option<i64>, matches: Option<i64>, left: Option<i64>) -> (u128, u128) {
        let bu = Clock {
            turn,
            matches,
            left,
        }
        .budget(0);
        (bu.optimum.as_millis(), bu.maximum.as_millis())
    }

    /// Only a clock without match time is per-move: there the search may spend the turn.
    #[test]
    fn per_move_only_without_a_match_clock() {
        let per_move = |turn, matches, left| {
            Clock {
                turn,
                matches,
                left,
            }
            .budget(0)
            .per_move
        };
        assert!(per_move(Some(1000), None, None));
        assert!(per_move(Some(1000), Some(0), Some(UNLIMITED_MS)));
        assert!(per_move(None, None, None));
        assert!(!per_move(Some(5000), Some(120_000), None));
        assert!(!per_move(Some(5000), Some(120_000), Some(60_000)));
        assert!(!per_move(None, None, Some(30_000)));
        assert!(!per_move(Some(1000), Some(0), Some(0)));
    }

    #[test]
    fn nothing_given_means_five_seconds() {
        let (opt, max) = b(None, None, None);
        assert!((4000..5000).contains(&max), "{max}");
        assert!(opt <= max);
    }

    #[test]
    fn turn_limit_is_never_reached() {
        for t in [1, 10, 100, 1000, 5000, 30000, 300000] {
            let (opt, max) = b(Some(t), Some(0), Some(UNLIMITED_MS));
            assert!((max as i64) < t.max(PANIC_MS + 1), "turn {t}: max {max}");
            assert!(opt <= max);
        }
    }

    #[test]
    fn zero_turn_means_as_fast_as_possible() {
        let (_, max) = b(Some(0), None, None);
        assert!(max as i64 <= PANIC_MS);
    }

    #[test]
    fn time_left_bounds_the_move() {
        // 120 s match, 6 s left, 5 s per move: at most a fifth of what is left.
        let (opt, max) = b(Some(5000), Some(120_000), Some(6000));
        assert!(max <= 1200, "{max}");
        assert!(opt <= max);
        let (_, max) = b(Some(5000), Some(120_000), Some(120_000));
        assert!((4000..5000).contains(&(max as i64)), "{max}");
    }

    #[test]
    fn no_time_left_answers_at_once() {
        for left in [0, -5, -100000] {
            let (_, max) = b(Some(5000), Some(120_000), Some(left));
            assert!(max as i64 <= PANIC_MS);
        }
    }

    /// A game that fills a 15×15 board, every move spending its whole hard limit: the
    /// floor keeps time for the last moves, where sharing alone ran the clock to zero.
    #[test]
    fn a_full_board_game_keeps_time_for_its_last_moves() {
        let play = |floor: bool| {
            let mut left = 120_000i64;
            let mut last = i64::MAX;
            for moves_left in (1..=113).rev() {
                let clock = Clock {
                    turn: Some(5000),
                    matches: Some(120_000),
                    left: Some(left),
                };
                let used = clock.budget(if floor { moves_left } else { 0 }).maximum;
                // The manager also counts the time outside the search.
                left -= used.as_millis() as i64 + 2;
                last = last.min(used.as_millis() as i64);
            }
            (left, last)
        };
        let (left, last) = play(true);
        assert!(left > 0, "the clock ran out: {left} ms");
        assert!(last >= PANIC_MS, "a last move got {last} ms");
        let (left, _) = play(false);
        assert!(left < 0, "without the floor the clock runs out ({left} ms)");
    }

    /// Early in the game the floor changes the budget by a few per cent at most.
    #[test]
    fn the_floor_costs_little_early() {
        let clock = Clock {
            turn: Some(5000),
            matches: Some(120_000),
            left: Some(120_000),
        };
        let with = clock.budget(113).optimum.as_millis() as f64;
        let without = clock.budget(0).optimum.as_millis() as f64;
        assert!(with / without > 0.97, "{with} vs {without}");
        // A huge board counts at most MAX_FLOOR_MOVES moves.
        assert_eq!(clock.budget(5000), clock.budget(MAX_FLOOR_MOVES));
    }

    #[test]
    fn match_only_clock_uses_a_share() {
        let (opt, max) = b(None, Some(180_000), Some(180_000));
        assert!(max <= 36_000 && opt <= 9_000, "{opt} {max}");
    }
}
