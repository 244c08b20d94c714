//! Opening decisions: the answers to `SWAP2BOARD` (swap2 and swap1), each a few short
//! searches that share one move's time.

use super::{Engine, EngineError};
use crate::game::{AnyGame, Game, GameKind, Move};
use crate::opening::{self, Choice, OpeningRule};
use crate::search::{Iteration, Limits, SearchResult, Stop};
use std::time::Instant;

impl Engine {
    /// One sub-search of a swap request, step `i` of `n` of `plan`: the best move and the
    /// settled score ([`opening::settled_score`]) for the side to move. `None` when the plan
    /// leaves no time to start it (the hard deadline is near, or `stop` is set) or when it was
    /// cut before its first iteration finished: the depth-0 fallback move carries no score,
    /// and a 0 taken for "balanced" would pick exactly the openings nobody looked at.
    fn swap_search(
        &mut self,
        g: &AnyGame,
        plan: &SwapPlan,
        (i, n): (usize, usize),
        stop: &Stop,
    ) -> Option<SearchResult> {
        if stop.is_set() {
            return None;
        }
        let limits = plan.step(i, n, Instant::now())?;
        self.ensure_resources(limits.threads);
        let mut iterations = Vec::new();
        let mut sink = |it: &Iteration| iterations.push((it.depth, it.score));
        let r = self.search_game(g, &limits, stop, &mut sink)?;
        let settled = opening::settled_score(&iterations);
        log::debug!(
            "swap2 step {i}/{n}: depth {} score {} settled {settled:?} at {} ms \
             (step max {} ms, move max {} ms)",
            r.depth,
            r.score,
            plan.elapsed_ms(Instant::now()),
            limits.maximum.map_or(0, |t| plan.elapsed_ms(t)),
            plan.limits.maximum.map_or(0, |t| plan.elapsed_ms(t)),
        );
        if r.depth == 0 {
            return None;
        }
        Some(SearchResult {
            score: settled.unwrap_or(r.score),
            ..r
        })
    }

    /// Answers `SWAP2BOARD` (and swap1 under `INFO opening_rule swap1`) for `stones`, the
    /// opening placed so far in move order (black, white, black, …). The engine's own board
    /// is left alone: after the opening phase the manager sends the agreed position.
    ///
    /// Every sub-search shares the move's one hard deadline (`SwapPlan`); when time runs
    /// out the answer is built from the searches that finished, and from the static
    /// evaluation only when none did.
    pub fn swap2(
        &mut self,
        stones: &[Move],
        limits: Limits,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        if let Some(e) = self.take_pending_error() {
            return Err(e);
        }
        if !matches!(self.kind, GameKind::Gomoku(_)) {
            return Err(EngineError::Swap("only gomoku has swap openings".into()));
        }
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let mut pos = AnyGame::new(self.kind, g.width(), g.height())
            .map_err(|e| EngineError::BadSize(e.0))?;
        for &m in stones {
            Self::check_on_board(&pos, m)?;
            pos.try_play(m).map_err(|e| EngineError::Move(m, e))?;
        }
        let swap1 = self.settings.opening == OpeningRule::Swap1;
        let plan = SwapPlan::new(limits);
        match stones.len() {
            0 => self.propose_three(&pos, &plan, stop),
            3 => {
                // The choice takes a third of the time: adding two stones needs the rest.
                let r = self
                    .swap_search(&pos, &plan, (0, 3), stop)
                    .or_else(|| static_result(&pos))
                    .ok_or(EngineError::NoMove)?;
                match opening::choose_after_three(r.score, !swap1) {
                    Choice::Swap => Ok(SwapAnswer::Swap),
                    Choice::PlayWhite => Ok(SwapAnswer::Move(r.best)),
                    Choice::AddTwo => self.add_two(&pos, r.best, &plan, stop),
                }
            }
            5 => {
                let r = self
                    .swap_search(&pos, &plan, (0, 1), stop)
                    .or_else(|| static_result(&pos))
                    .ok_or(EngineError::NoMove)?;
                match opening::choose_after_five(r.score) {
                    Choice::PlayWhite | Choice::AddTwo => Ok(SwapAnswer::Move(r.best)),
                    Choice::Swap => Ok(SwapAnswer::Swap),
                }
            }
            k => Err(EngineError::Swap(format!(
                "{k} stones given; swap answers need 0, 3 or 5"
            ))),
        }
    }

    /// Swap2 step 1: the three-stone opening whose score for white is nearest zero, so
    /// that neither colour is the better choice for the opponent. The static evaluation
    /// first keeps the most balanced few of the candidate shapes, so the searches fit the
    /// time; the searched scores then decide, and the static ones only if no search
    /// finished.
    fn propose_three(
        &mut self,
        empty: &AnyGame,
        plan: &SwapPlan,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        let mut shapes: Vec<([Move; 3], i32)> = Vec::new();
        for o in opening::swap2_candidates(empty.width(), empty.height()) {
            let mut p = empty.clone();
            if o.iter().all(|&m| p.try_play(m).is_ok()) {
                shapes.push((o, p.evaluate()));
            }
        }
        shapes.sort_by_key(|&(o, v)| (v.abs(), o));
        shapes.truncate(SWAP_SEARCHED_SHAPES);
        let n = shapes.len();
        let mut searched = Vec::new();
        for (i, &(o, _)) in shapes.iter().enumerate() {
            if plan.enough(&searched, Instant::now()) {
                break;
            }
            let mut p = empty.clone();
            for m in o {
                p.play(m);
            }
            match self.swap_search(&p, plan, (i, n), stop) {
                Some(r) => searched.push((o, r.score)),
                // No time to start another: the rest would not be searched either.
                None if plan.too_late(Instant::now()) || stop.is_set() => break,
                None => {}
            }
        }
        let pool = if searched.is_empty() {
            &shapes
        } else {
            &searched
        };
        let (o, _) = opening::most_balanced(pool).ok_or(EngineError::NoMove)?;
        Ok(SwapAnswer::Stones(o.to_vec()))
    }

    /// Swap2 step 2, balanced case: white's best stone, then the black stone among black's
    /// best candidates that leaves white's score nearest zero (searched scores when any
    /// search finished, static ones otherwise).
    fn add_two(
        &mut self,
        three: &AnyGame,
        white: Move,
        plan: &SwapPlan,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        let mut p = three.clone();
        p.try_play(white).map_err(|e| EngineError::Move(white, e))?;
        let mut cands = Vec::new();
        p.candidates(&mut cands);
        let mut blacks: Vec<(Move, i32)> = Vec::new();
        for c in cands {
            if blacks.len() == SWAP_SEARCHED_SHAPES {
                break;
            }
            if p.is_forbidden(c.mv) || p.check_move(c.mv).is_err() {
                continue;
            }
            let mut q = p.clone();
            q.play(c.mv);
            blacks.push((c.mv, q.evaluate()));
        }
        let n = blacks.len();
        let mut searched = Vec::new();
        for (i, &(b, _)) in blacks.iter().enumerate() {
            if plan.enough(&searched, Instant::now()) {
                break;
            }
            let mut q = p.clone();
            q.play(b);
            match self.swap_search(&q, plan, (3 + i, 3 + n), stop) {
                Some(r) => searched.push((b, r.score)),
                None if plan.too_late(Instant::now()) || stop.is_set() => break,
                None => {}
            }
        }
        let pool = if searched.is_empty() {
            &blacks
        } else {
            &searched
        };
        let (black, _) = opening::most_balanced(pool).ok_or(EngineError::NoMove)?;
        Ok(SwapAnswer::Stones(vec![white, black]))
    }
}

/// How many opening shapes (swap2 step 1) or black stones (step 2) get a short search.
const SWAP_SEARCHED_SHAPES: usize = 6;

/// An answer to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwapAnswer {
    /// Stones to add: three (step 1) or a white and a black one (step 2).
    Stones(Vec<Move>),
    /// Take black; the opponent moves next as white.
    Swap,
    /// Take white and play this move.
    Move(Move),
}

/// The clock of one swap request. Every sub-search runs against the move's own hard
/// deadline (`maximum`, counted from when the request's line arrived), never a later one,
/// so the answer is never later than a move would be. The time up to it is shared out
/// among the steps still to run ([`SwapPlan::step`]), and no step starts once less than
/// [`SwapPlan::guard`] is left: a search that cannot finish its first iteration answers
/// nothing useful and only makes the reply later.
struct SwapPlan {
    limits: Limits,
    start: Instant,
}

impl SwapPlan {
    fn new(limits: Limits) -> SwapPlan {
        let start = limits.start.unwrap_or_else(Instant::now);
        SwapPlan { limits, start }
    }

    /// The least time a step needs to be worth starting, and the least it is given.
    fn guard(&self) -> std::time::Duration {
        let total = self.limits.maximum.map_or(std::time::Duration::ZERO, |h| {
            h.saturating_duration_since(self.start)
        });
        (total / SWAP_GUARD_DIVISOR).max(std::time::Duration::from_millis(SWAP_GUARD_MIN_MS))
    }

    /// Whether the hard deadline is too near at `now` for another step.
    fn too_late(&self, now: Instant) -> bool {
        self.limits.maximum.is_some_and(|h| now + self.guard() >= h)
    }

    /// Whether a decision with `searched` results so far should start no more steps at
    /// `now`: past the move's soft target, like a search that starts no new iteration, as
    /// soon as one step has finished (a stall of the machine then ends the request early
    /// rather than running the remaining steps up to the hard deadline).
    fn enough<T>(&self, searched: &[T], now: Instant) -> bool {
        !searched.is_empty() && self.limits.optimum.is_some_and(|o| now >= o)
    }

    /// Milliseconds from the request's arrival to `t` (for the log).
    fn elapsed_ms(&self, t: Instant) -> u128 {
        t.saturating_duration_since(self.start).as_millis()
    }

    /// Limits for step `i` of `n` starting at `now`, or `None` when it must not start. The
    /// time left is shared equally among the steps left (this one included), so a quick
    /// step's leftover and a slow step's overrun spread over the rest; the soft target
    /// leaves every step that starts time for a second iteration (see
    /// [`opening::settled_score`]), the hard one never passes the move's.
    fn step(&self, i: usize, n: usize, now: Instant) -> Option<Limits> {
        if self.too_late(now) {
            return None;
        }
        let left = n.saturating_sub(i).max(1) as u32;
        let guard = self.guard();
        let share = |t: Instant| now + t.saturating_duration_since(now) / left;
        let hard = self.limits.maximum;
        let maximum = hard.map(|h| share(h).max(now + guard).min(h));
        let optimum = self.limits.optimum.map(|o| {
            let o = share(o).max(now + guard / 2);
            maximum.map_or(o, |m| o.min(m))
        });
        Some(Limits {
            start: Some(now),
            optimum,
            maximum,
            max_depth: Some(
                self.limits
                    .max_depth
                    .map_or(SWAP_DEPTH, |d| d.min(SWAP_DEPTH)),
            ),
            ..self.limits.clone()
        })
    }
}

/// Depth cap of the swap searches: openings are quiet, and several searches share a move's
/// time.
const SWAP_DEPTH: u32 = 8;
/// A swap step needs at least 1/this of the move's hard time left to start.
const SWAP_GUARD_DIVISOR: u32 = 25;
/// … and never less than this, ms.
const SWAP_GUARD_MIN_MS: u64 = 10;

/// A depth-0 answer for the side to move of `g` from the static evaluation alone: the best
/// ordered candidate that is not a renju foul. For swap answers when no search finished.
fn static_result(g: &AnyGame) -> Option<SearchResult> {
    let mut list = Vec::new();
    g.candidates(&mut list);
    let best = list
        .iter()
        .filter(|c| g.check_move(c.mv).is_ok() && !g.is_forbidden(c.mv))
        .max_by_key(|c| c.score)?
        .mv;
    Some(SearchResult {
        best,
        score: g.evaluate(),
        depth: 0,
        nodes: 0,
        pv: vec![best],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::tests::mv;

    fn swap_limits(start: Instant, opt_ms: u64, max_ms: u64) -> Limits {
        use std::time::Duration;
        Limits {
            start: Some(start),
            optimum: Some(start + Duration::from_millis(opt_ms)),
            maximum: Some(start + Duration::from_millis(max_ms)),
            threads: 1,
            ..Limits::default()
        }
    }

    #[test]
    fn swap_steps_share_the_moves_one_hard_deadline() {
        use std::time::Duration;
        let t0 = Instant::now();
        let plan = SwapPlan::new(swap_limits(t0, 440, 880));
        let hard = t0 + Duration::from_millis(880);
        let guard = plan.guard();
        assert_eq!(guard, Duration::from_millis(880) / 25);
        // Steps starting at any time: never past the move's hard deadline, never started
        // within the guard of it, soft target within the hard one.
        for at in (0..900).step_by(7) {
            let now = t0 + Duration::from_millis(at);
            for (i, n) in [(0, 6), (3, 6), (5, 6), (0, 1), (8, 9), (9, 9)] {
                match plan.step(i, n, now) {
                    Some(l) => {
                        assert!(now + guard < hard, "step {i}/{n} started at {at} ms");
                        let (opt, max) = (l.optimum.unwrap(), l.maximum.unwrap());
                        assert!(max <= hard && opt <= max && max >= now + guard);
                        assert_eq!(l.max_depth, Some(SWAP_DEPTH));
                    }
                    None => assert!(now + guard >= hard, "step {i}/{n} refused at {at} ms"),
                }
            }
        }
        // The first of six steps gets a sixth of the time; the last one all that is left.
        let first = plan.step(0, 6, t0).unwrap();
        assert_eq!(first.maximum, Some(t0 + Duration::from_millis(880) / 6));
        let now = t0 + Duration::from_millis(500);
        assert_eq!(plan.step(5, 6, now).unwrap().maximum, Some(hard));
        // Past the soft target a step still aims at a second iteration.
        let late = plan.step(4, 6, now).unwrap();
        assert_eq!(late.optimum, Some(now + guard / 2));
        // Past the move's soft target a decision starts no more steps once one finished.
        assert!(!plan.enough(&[0], t0 + Duration::from_millis(439)));
        assert!(plan.enough(&[0], t0 + Duration::from_millis(440)));
        assert!(!plan.enough::<i32>(&[], t0 + Duration::from_millis(800)));
        // No deadline at all: the steps are bounded by depth only.
        let free = SwapPlan::new(Limits::depth(20));
        let l = free.step(3, 6, Instant::now()).unwrap();
        assert!(l.maximum.is_none() && l.optimum.is_none());
        assert_eq!(l.max_depth, Some(SWAP_DEPTH));
    }

    fn swap_engine() -> Engine {
        let mut e = Engine::new();
        e.set_info("hash_size", "1024");
        e.start(15, 15).unwrap();
        e
    }

    fn assert_fresh_cells(cells: &[Move], taken: &[Move], k: usize) {
        assert_eq!(cells.len(), k, "{cells:?}");
        for (i, c) in cells.iter().enumerate() {
            assert!(c.x < 15 && c.y < 15 && !taken.contains(c), "{c} taken");
            assert!(!cells[..i].contains(c), "{c} twice");
        }
    }

    #[test]
    fn swap_answers_with_no_time_left_come_from_the_static_evaluation() {
        let mut e = swap_engine();
        let stop = Stop::new();
        // The deadline has passed already: no step may start, yet each case answers.
        let gone = swap_limits(Instant::now(), 0, 0);
        match e.swap2(&[], gone.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &[], 3),
            a => panic!("{a:?}"),
        }
        let three = [mv(7, 7), mv(8, 7), mv(9, 9)];
        match e.swap2(&three, gone.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &three, 2),
            SwapAnswer::Move(m) => assert_fresh_cells(&[m], &three, 1),
            SwapAnswer::Swap => {}
        }
        // Black's open three: even the static evaluation sees that black is better.
        let five = [mv(7, 7), mv(0, 0), mv(8, 7), mv(14, 14), mv(9, 7)];
        assert_eq!(e.swap2(&five, gone, &stop).unwrap(), SwapAnswer::Swap);
        assert_eq!(e.tt.bytes(), 0, "a search ran although the time was up");
    }

    #[test]
    fn swap_answers_are_searched_and_legal_within_depth_limits() {
        let mut e = swap_engine();
        let stop = Stop::new();
        let l = Limits::depth(2);
        match e.swap2(&[], l.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &[], 3),
            a => panic!("{a:?}"),
        }
        assert!(e.tt.bytes() > 0, "the proposals were not searched");
        let five = [mv(7, 7), mv(0, 0), mv(8, 7), mv(14, 14), mv(9, 7)];
        assert_eq!(e.swap2(&five, l, &stop).unwrap(), SwapAnswer::Swap);
    }
}
