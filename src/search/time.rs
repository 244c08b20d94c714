//! The time manager: turns the protocol's clock information into a soft target (`optimum`,
//! no new iteration after it) and a hard limit (`maximum`, the move must be out by then).
//!
//! Managers forfeit a late move, so every figure leaves a reserve for the time spent outside
//! the search (reading the command, writing the reply, the OS scheduling us late on a busy
//! machine). The clock starts when the command's line was read, not when the search starts.

use crate::base::Move;
use std::time::Duration;

/// `INFO time_left` / `timeout_match` value meaning "no limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;
/// Per-move limit when the manager gives none at all.
pub const DEFAULT_TURN_MS: i64 = 5_000;
/// Smallest reserve kept back from the match clock, ms.
pub const MIN_RESERVE_MS: i64 = 50;
/// Largest reserve, ms: beyond this the reserve only wastes thinking time.
pub const MAX_RESERVE_MS: i64 = 1000;
/// Match-clock reserve as a fraction of the time left, per mille.
pub const RESERVE_PERMILLE: i64 = 120;
/// What a per-move limit always keeps back, ms: the reply's way out and the manager's
/// reading of it. Measured well under 1 ms on a quiet machine; see [`Lateness`] for the
/// rest.
pub const TURN_RESERVE_FLOOR_MS: i64 = 8;
/// A per-move limit also keeps back this share of itself, per mille: on long turns a
/// little more costs nothing.
pub const TURN_RESERVE_PERMILLE: i64 = 10;
/// Each ms by which searches were lately seen to overrun their hard limit keeps this many
/// ms back from the next per-move limit.
pub const LATE_FACTOR: i64 = 2;
/// The overrun assumed before any was measured, ms (a loaded 2-core machine showed up to
/// 6 ms).
pub const FIRST_LATE_MS: f64 = 10.0;
/// How much of the overrun estimate a search that overran less keeps (the estimate follows
/// the machine's load down, slowly, and up at once).
pub const LATE_DECAY: f64 = 0.75;
/// Time for a "move now" answer (time already out): enough to pick a sensible move.
pub const PANIC_MS: i64 = 15;
/// With a fixed turn limit, the soft target's share of it, per mille. The alpha-beta search
/// with a per-move clock only deepens until the hard limit instead (time saved there is
/// lost, not banked); the soft target still paces the root threat searches and the swap
/// steps.
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

/// The match clock's reserve: the time outside the searches adds up over a game.
fn reserve(limit: i64) -> i64 {
    (limit * RESERVE_PERMILLE / 1000).clamp(MIN_RESERVE_MS, MAX_RESERVE_MS)
}

/// A per-move limit's reserve when searches were lately seen `late_ms` past their hard
/// limit: never more than half the turn.
fn turn_reserve(turn: i64, late_ms: i64) -> i64 {
    (TURN_RESERVE_FLOOR_MS + turn * TURN_RESERVE_PERMILLE / 1000 + LATE_FACTOR * late_ms)
        .min(MAX_RESERVE_MS)
        .min(turn / 2)
}

/// How late the engine's searches could lately have been ready: the larger of how far past
/// its hard limit a search answered (unwinding, and on a loaded machine, waiting to be
/// scheduled at all) and the longest its main thread went without the processor
/// ([`crate::base::StallMeter`]: such a stall can come just at the deadline). A per-move limit
/// keeps a multiple of it back, so the reserve is as large as the machine needs and no
/// larger.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lateness {
    estimate_ms: f64,
}

impl Default for Lateness {
    fn default() -> Self {
        Lateness {
            estimate_ms: FIRST_LATE_MS,
        }
    }
}

impl Lateness {
    /// Records a search that could have been ready `overrun` after its hard limit.
    pub fn observe(&mut self, overrun: Duration) {
        let ms = overrun.as_secs_f64() * 1000.0;
        self.estimate_ms = ms.max(self.estimate_ms * LATE_DECAY);
    }

    /// The estimate in whole ms, rounded up.
    pub fn ms(&self) -> i64 {
        self.estimate_ms.ceil() as i64
    }
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(1) as u64)
}

impl Clock {
    /// The budget for the next move, when the engine may still have to make `moves_left`
    /// moves (half the empty cells, rounded up) before the board is full and its searches
    /// were lately ready `late_ms` after their hard limits ([`Lateness`]).
    pub fn budget(&self, moves_left: i64, late_ms: i64) -> Budget {
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
                let m = t - turn_reserve(t, late_ms);
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

/// How far the soft target of a match-clock search moves with what its iterations show:
/// the weights of [`Pacing::scale`], per mille (the `time_*` search parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaceWeights {
    /// Share of the soft target a settled search uses: the clock a quiet move leaves
    /// goes to the moves that need it.
    pub base: i64,
    /// Added per evaluation point the score fell since this side's previous search.
    pub fall: i64,
    /// Taken off (as a divisor) per finished iteration the best move has stayed the same.
    pub stable: i64,
    /// Added per best-move change, changes counted half as much each older iteration.
    pub unstable: i64,
}

/// The least and the most of the soft target a search is scaled to, per mille.
pub const PACE_MIN_PERMILLE: i64 = 250;
pub const PACE_MAX_PERMILLE: i64 = 2000;
/// However unclear the move, no new iteration starts after this share of the hard limit,
/// per mille: one started later would be cut off before it finishes.
pub const PACE_HARD_PERMILLE: i64 = 750;

/// What the finished iterations of one search have shown about how settled its choice is:
/// how often the best move changed (older iterations counting less) and for how many
/// iterations it has stood. A search that keeps its move and its score stops early; one
/// whose move changes or whose score falls goes on, up to a share of the hard limit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pacing {
    changes: f64,
    best: Option<Move>,
    stable: i64,
}

impl Pacing {
    /// Records a finished iteration: its best move and how many times the root's best move
    /// changed while it searched.
    pub fn iteration_done(&mut self, best: Move, changes: u32) {
        self.changes = self.changes / 2.0 + f64::from(changes);
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            // A different best at the end of an iteration is a change even when the root
            // never saw two moves trade places within it (an earlier iteration's move lost).
            if self.best.is_some() && changes == 0 {
                self.changes += 1.0;
            }
            self.best = Some(best);
            self.stable = 0;
        }
    }

    /// The share of the soft target (per mille) this search should use, given how much the
    /// score fell (`drop`, evaluation points, ≤ 0 when it rose or is unknown).
    pub fn scale(&self, w: &PaceWeights, drop: i64) -> i64 {
        // A falling score lengthens the search up to 1.5× the target (more if `base` is).
        // Saturating: the weights come from the command line and may be absurd.
        let falling = w
            .base
            .saturating_add(w.fall.saturating_mul(drop.max(0)))
            .min(w.base.max(1500));
        let unstable = 1000i64.saturating_add((w.unstable as f64 * self.changes) as i64);
        let stable = 1000i64.saturating_add(w.stable.saturating_mul(self.stable));
        (falling.saturating_mul(unstable) / stable).clamp(PACE_MIN_PERMILLE, PACE_MAX_PERMILLE)
    }

    /// The soft target scaled by [`Pacing::scale`]: `optimum` and `maximum` are durations
    /// from the search's start; a longer target never passes [`PACE_HARD_PERMILLE`] of
    /// the hard limit (nor shortens the given optimum).
    pub fn soft_target(
        &self,
        w: &PaceWeights,
        drop: i64,
        optimum: Duration,
        maximum: Duration,
    ) -> Duration {
        let permille = self.scale(w, drop);
        let scaled = optimum.mul_f64(permille as f64 / 1000.0);
        if scaled <= optimum {
            return scaled;
        }
        let cap = maximum
            .mul_f64(PACE_HARD_PERMILLE as f64 / 1000.0)
            .max(optimum);
        scaled.min(cap)
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
        .budget(0, FIRST_LATE_MS as i64);
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
            .budget(0, 0)
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

    /// A per-move limit keeps back what the machine was seen to need: on a quiet machine a
    /// 100 ms turn leaves the search ~90 ms; overruns measured under load widen the
    /// reserve at once, and it narrows again, slowly, as searches are ready on time.
    #[test]
    fn the_turn_reserve_follows_measured_lateness() {
        let clock = Clock {
            turn: Some(100),
            ..Clock::default()
        };
        let max = |late: &Lateness| clock.budget(0, late.ms()).maximum.as_millis() as i64;
        let mut late = Lateness::default();
        let first = max(&late);
        for _ in 0..30 {
            late.observe(Duration::from_micros(300));
        }
        let quiet = max(&late);
        assert!(first < quiet && quiet >= 89, "{first} {quiet}");
        late.observe(Duration::from_millis(6));
        let loaded = max(&late);
        assert_eq!(
            loaded,
            quiet - 10,
            "twice the 6 ms less twice the 1 ms before"
        );
        late.observe(Duration::from_micros(300));
        assert!(max(&late) < quiet && max(&late) > loaded);
        // However late the machine, half the turn stays the search's.
        late.observe(Duration::from_secs(10));
        assert_eq!(max(&late), 50);
        // A long turn keeps 1% more, the match clock its own reserve.
        let long = Clock {
            turn: Some(5000),
            ..Clock::default()
        };
        assert_eq!(long.budget(0, 0).maximum.as_millis(), 5000 - 8 - 50);
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
                let used = clock.budget(if floor { moves_left } else { 0 }, 0).maximum;
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
        let with = clock.budget(113, 0).optimum.as_millis() as f64;
        let without = clock.budget(0, 0).optimum.as_millis() as f64;
        assert!(with / without > 0.97, "{with} vs {without}");
        // A huge board counts at most MAX_FLOOR_MOVES moves.
        assert_eq!(clock.budget(5000, 0), clock.budget(MAX_FLOOR_MOVES, 0));
    }

    const W: PaceWeights = PaceWeights {
        base: 550,
        fall: 3,
        stable: 40,
        unstable: 1000,
    };

    fn paced(moves: &[((u8, u8), u32)]) -> Pacing {
        let mut p = Pacing::default();
        for &(m, c) in moves {
            p.iteration_done(Move::new(m.0, m.1), c);
        }
        p
    }

    /// A move that stood through many iterations with a steady score ends well before the
    /// soft target; the longer it stood, the earlier.
    #[test]
    fn a_settled_search_stops_early() {
        let few = paced(&[((7, 7), 0); 4]).scale(&W, 0);
        let many = paced(&[((7, 7), 0); 10]).scale(&W, 0);
        assert!(few < 550 && many < few, "{few} {many}");
        assert!(many >= PACE_MIN_PERMILLE);
    }

    /// A best move that changed in the last iterations, or a falling score, takes longer
    /// than the plain soft target; the hard share caps it.
    #[test]
    fn changes_and_a_falling_score_take_longer() {
        let settled = paced(&[((7, 7), 0); 6]);
        let changing = paced(&[((7, 7), 0), ((8, 7), 1), ((7, 8), 2), ((8, 8), 1)]);
        assert!(changing.scale(&W, 0) > 1000, "{}", changing.scale(&W, 0));
        assert!(settled.scale(&W, 200) > settled.scale(&W, 0));
        assert_eq!(
            settled.scale(&W, -300),
            settled.scale(&W, 0),
            "a rise is no fall"
        );
        let (opt, max) = (Duration::from_millis(3000), Duration::from_millis(4400));
        let t = changing.soft_target(&W, 400, opt, max);
        assert!(t > opt && t <= Duration::from_millis(3300), "{t:?}");
        assert!(settled.soft_target(&W, 0, opt, max) < opt);
        // Weights from the command line may be absurd; the scale stays in its bounds.
        let huge = PaceWeights {
            base: i64::from(u32::MAX),
            fall: i64::from(u32::MAX),
            stable: 0,
            unstable: i64::from(u32::MAX),
        };
        assert_eq!(changing.scale(&huge, 60_000), PACE_MAX_PERMILLE);
    }

    /// A best move that only differs at an iteration's end still counts as a change, and
    /// changes weigh less as iterations pass without new ones.
    #[test]
    fn changes_fade_with_iterations() {
        let switched = paced(&[((7, 7), 0), ((8, 8), 0)]);
        assert!(switched.scale(&W, 0) > paced(&[((7, 7), 0); 2]).scale(&W, 0));
        let then_quiet = paced(&[((7, 7), 0), ((8, 8), 3), ((8, 8), 0), ((8, 8), 0)]);
        let fresh = paced(&[((7, 7), 0), ((8, 8), 0), ((8, 8), 0), ((8, 8), 3)]);
        assert!(then_quiet.scale(&W, 0) < fresh.scale(&W, 0));
    }

    #[test]
    fn match_only_clock_uses_a_share() {
        let (opt, max) = b(None, Some(180_000), Some(180_000));
        assert!(max <= 36_000 && opt <= 9_000, "{opt} {max}");
    }
}
