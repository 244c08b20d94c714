//! Move choice for m,n,k: an exact solver where the board is small, a beam search where not.
//!
//! Both are one negamax with alpha-beta and principal-variation search over the mate scale
//! of [`crate::base::score`] (fastest win, slowest loss), sharing one symmetry-folded
//! transposition table. Every node first applies the sound k-in-a-row rules: a side that can
//! complete a line does so; a side facing two completion cells has lost; facing one, the
//! block is the only move; a side with no window left free of opponent stones can do no
//! better than a draw. In *exact* mode every empty cell is searched (a far move can matter on
//! a small board, so nearness only orders moves), which makes every score that reaches the
//! bottom of the tree a proof. In *beam* mode (large boards) only cells near stones are
//! tried, the best few by threat value, and leaves get the window evaluation.
//!
//! [`solve`] deepens a *truncated* game: at depth d, a line the search has not finished
//! within d plies counts as a draw, so the root value is a win exactly when a forced win in
//! at most d plies exists. The first depth that shows a win (or loss) is therefore the
//! distance with perfect play, and the full depth proves a draw. Each node also knows how
//! many stones each side still lacks in its fullest open window, which bounds how soon it
//! can win: beyond the horizon that is no win at all, which prunes most of a shallow
//! iteration. [`think`] runs that within part of its time and falls back to iterative
//! deepening with the window evaluation at the leaves.

use super::tt::{Bound, Tt, BUCKET_BYTES};
use crate::base::score::{is_decisive, mate_in, mated_in, DRAW, INFINITE};
use crate::game::mnk::{Mnk, ALL_CELLS_MAX};
use crate::game::{Game, Move, Outcome};
use crate::search::{Iteration, SearchResult, Stop, ThinkContext};
use std::fmt;
use std::time::{Duration, Instant};

/// Moves kept at an inner node of the beam search (large boards only).
const BEAM_WIDTH: usize = 14;
/// Nodes between two looks at the clock and the stop flag: a node costs microseconds
/// (scoring every empty cell), so 256 of them could carry a search several milliseconds
/// past its deadline on a loaded machine; a clock read costs tens of nanoseconds.
const CHECK_EVERY: u64 = 32;
/// Search speed assumed when sizing the table for a time budget: above what the search
/// reaches (a few hundred thousand nodes per second on 7×7), so the table never limits it.
const SIZING_NODES_PER_SEC: f64 = 1.5e6;
/// Share of the time to the soft target that [`think`] gives the exact solver (percent).
const SOLVE_SHARE_PCT: u32 = 60;

/// The game-theoretic value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

/// A solved position.
#[derive(Clone, Debug)]
pub struct Solution {
    pub value: Value,
    /// Plies to the end of the game with perfect play (fastest win, slowest loss; a draw
    /// fills the board).
    pub plies: u32,
    /// A move that achieves the value with the fastest win / slowest loss; `None` when the
    /// game is already over.
    pub best: Option<Move>,
    pub nodes: u64,
}

/// Why [`solve`] gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The deadline passed, the stop flag was set or the node budget ran out.
    Stopped,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("search stopped before the position was solved")
    }
}

impl std::error::Error for SolveError {}

/// What bounds a [`solve`].
#[derive(Clone, Debug, Default)]
pub struct SolveLimits {
    pub deadline: Option<Instant>,
    pub stop: Option<Stop>,
    pub max_nodes: Option<u64>,
    /// Transposition-table size in bytes.
    pub tt_bytes: usize,
}

/// Solves `game` exactly: its value for the side to move, the distance to the end with
/// perfect play and a move that keeps both.
pub fn solve(game: &Mnk, limits: &SolveLimits) -> Result<Solution, SolveError> {
    let mut tt = Tt::with_bytes(limits.tt_bytes);
    let mut s = Searcher::new(game, &mut tt, true);
    s.deadline = limits.deadline;
    s.stop = limits.stop.clone();
    s.max_nodes = limits.max_nodes;
    s.solve()
}

/// Chooses a move within `ctx.limits`: perfect play when the position is solved in time,
/// otherwise the best move of the deepest finished search. With no legal move (the game is
/// over) it returns cell 0,0 with depth 0.
pub fn think(game: &Mnk, ctx: &mut ThinkContext) -> SearchResult {
    let start = ctx.limits.start.unwrap_or_else(Instant::now);
    let moves = game.legal_moves();
    let Some(&first) = moves.first() else {
        return SearchResult {
            best: Move::new(0, 0),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    };
    let exact = game.cells() <= ALL_CELLS_MAX;
    let budget = ctx
        .limits
        .maximum
        .map(|t| t.saturating_duration_since(Instant::now()));
    let by_memory = memory_cap(ctx.options.get("max_memory").map(String::as_str));
    let mut tt = Tt::with_bytes(tt_bytes_for(game, budget, ctx.limits.max_nodes).min(by_memory));
    let mut s = Searcher::new(game, &mut tt, exact);
    s.heuristic = !exact || ctx.limits.max_depth.is_some();
    s.stop = Some(ctx.stop.clone());
    s.max_nodes = ctx.limits.max_nodes;
    s.deadline = ctx.limits.maximum;

    if exact && ctx.limits.max_depth.is_none() {
        // The solver gets a share of the time to the soft target (all of it if there is none).
        let soft = ctx.limits.optimum.or(ctx.limits.maximum);
        s.deadline = soft.map(|t| {
            let share = t.saturating_duration_since(start) * SOLVE_SHARE_PCT / 100;
            start + share
        });
        let solved = s.solve();
        s.deadline = ctx.limits.maximum;
        s.aborted = false;
        if let Ok(Solution {
            value,
            plies,
            best: Some(best),
            nodes,
        }) = solved
        {
            let score = match value {
                Value::Win => mate_in(plies),
                Value::Loss => mated_in(plies),
                Value::Draw => DRAW,
            };
            let it = Iteration {
                depth: game.empties() as u32,
                seldepth: plies,
                score,
                nodes,
                elapsed_ms: start.elapsed().as_millis() as u64,
                pv: vec![best],
            };
            (ctx.report)(&it);
            return SearchResult {
                best,
                score,
                depth: it.depth,
                nodes,
                pv: it.pv,
            };
        }
        // Not solved in time: a fresh table, since the solver's entries count unfinished
        // lines as draws and would mislead the evaluation below.
        s.tt.clear();
        s.heuristic = true;
    }

    // Iterative deepening: each finished depth replaces the move; the hard deadline aborts.
    let max_depth = ctx
        .limits
        .max_depth
        .unwrap_or(u32::MAX)
        .min(game.empties() as u32)
        .max(1);
    let mut result = SearchResult {
        best: first,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![first],
    };
    for depth in 1..=max_depth {
        let (score, best) = s.root(depth, -INFINITE, INFINITE);
        if s.aborted {
            break;
        }
        let Some(best) = best else { break };
        result = SearchResult {
            best,
            score,
            depth,
            nodes: s.nodes,
            pv: vec![best],
        };
        (ctx.report)(&Iteration {
            depth,
            seldepth: depth,
            score,
            nodes: s.nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: vec![best],
        });
        // In exact mode a decisive score is a proof and the full depth is the whole game.
        if exact && (is_decisive(score) || depth as usize >= game.empties()) {
            break;
        }
        if ctx.limits.past_optimum() || ctx.should_stop() {
            break;
        }
    }
    result.nodes = s.nodes;
    result
}

/// Table size for [`think`]: enough for the board, at most 64 MiB, and no more than the
/// move's budget (time or nodes) can fill, about one bucket per node. The table is fresh
/// for every move and the kernel zeroes its pages on first touch: with random slots almost
/// every node touches a new page, so a 64 MiB table for a 100 ms move spent much of the
/// move in page faults (and its release could push the answer past the deadline).
fn tt_bytes_for(game: &Mnk, budget: Option<Duration>, max_nodes: Option<u64>) -> usize {
    let cap: usize = match game.cells() {
        0..=16 => 1 << 16,
        17..=36 => 1 << 22,
        _ => 1 << 26,
    };
    let by_time = budget.map(|d| (d.as_secs_f64() * SIZING_NODES_PER_SEC) as u64);
    let nodes = match (by_time, max_nodes) {
        (Some(t), Some(n)) => t.min(n),
        (t, n) => match t.or(n) {
            Some(x) => x,
            None => return cap,
        },
    };
    let bytes = usize::try_from(nodes.saturating_mul(BUCKET_BYTES as u64)).unwrap_or(cap);
    bytes.clamp((1 << 16).min(cap), cap)
}

/// The most the table may take under a `max_memory` option (bytes; absent, unreadable or 0:
/// no limit): half of it, the share the Connect Four search keeps its tables within, so the
/// engine sizes both modes alike.
fn memory_cap(max_memory: Option<&str>) -> usize {
    match max_memory.and_then(|v| v.trim().parse::<u64>().ok()) {
        Some(m) if m > 0 => usize::try_from(m / 2).unwrap_or(usize::MAX),
        _ => usize::MAX,
    }
}

struct Searcher<'a> {
    pos: Mnk,
    tt: &'a mut Tt,
    /// Every empty cell is a candidate (sound) rather than the beam near stones.
    exact: bool,
    /// Leaves get the window evaluation; otherwise an unfinished line is a draw (the
    /// truncated game of the solver).
    heuristic: bool,
    nodes: u64,
    deadline: Option<Instant>,
    stop: Option<Stop>,
    max_nodes: Option<u64>,
    aborted: bool,
    /// Move lists per ply, reused to avoid allocating in the tree.
    lists: Vec<Vec<(usize, i32)>>,
    scratch: Vec<usize>,
}

impl<'a> Searcher<'a> {
    fn new(game: &Mnk, tt: &'a mut Tt, exact: bool) -> Searcher<'a> {
        Searcher {
            pos: game.clone(),
            tt,
            exact,
            heuristic: false,
            nodes: 0,
            deadline: None,
            stop: None,
            max_nodes: None,
            aborted: false,
            lists: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|t| Instant::now() >= t)
            || self.stop.as_ref().is_some_and(|s| s.is_set())
            || self.max_nodes.is_some_and(|n| self.nodes >= n)
    }

    /// Value, distance and best move of the current position by deepening the truncated
    /// game one ply at a time (every empty cell searched).
    fn solve(&mut self) -> Result<Solution, SolveError> {
        let empties = self.pos.empties() as u32;
        if let Some(o) = self.pos.outcome() {
            let value = match o {
                Outcome::Draw => Value::Draw,
                Outcome::Win(c) if c == self.pos.side_to_move() => Value::Win,
                Outcome::Win(_) => Value::Loss,
            };
            return Ok(Solution {
                value,
                plies: 0,
                best: None,
                nodes: self.nodes,
            });
        }
        // Odd depths only: a win of the side to move ends on an odd ply, so the first odd
        // depth that shows one is its exact distance; a loss ends on an even ply, so the
        // first depth d that shows one puts it at the even number d or d − 1, and the best
        // move of the previous depth (which survives that long) is the slowest loss.
        //
        // Each depth costs about twice the one before, so once half the board is covered
        // the search jumps to the full depth: a draw, the common case there, is proven at
        // a third of the cost of the remaining steps. A decisive result of the jump only
        // says that a distance exists past the last step; its table holds true results
        // that would spoil the truncated game, so it is cleared and deepening resumes.
        let mut survivor = None;
        let mut depth = 1.min(empties);
        let mut jumped = false;
        loop {
            let jump = !jumped && depth < empties && 2 * depth >= empties;
            let probe = if jump { empties } else { depth };
            let (score, best) = self.root(probe, -1, 1);
            if self.aborted {
                return Err(SolveError::Stopped);
            }
            if jump {
                jumped = true;
                if score == 0 {
                    return Ok(Solution {
                        value: Value::Draw,
                        plies: empties,
                        best,
                        nodes: self.nodes,
                    });
                }
                self.tt.clear();
                continue;
            }
            let (value, plies) = match score {
                s if s > 0 => (Value::Win, depth),
                s if s < 0 => (Value::Loss, depth & !1),
                _ if depth == empties => (Value::Draw, empties),
                _ => {
                    survivor = best;
                    depth = (depth + 2).min(empties);
                    continue;
                }
            };
            return Ok(Solution {
                value,
                plies,
                best: if value == Value::Loss {
                    survivor.or(best)
                } else {
                    best
                },
                nodes: self.nodes,
            });
        }
    }

    /// Searches every root move (no shortcut may skip the choice of a move) and returns the
    /// score and the move that reached it.
    fn root(&mut self, depth: u32, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        let me = self.pos.side_to_move();
        let mut moves = Vec::new();
        self.pos.threat_cells_of(me, &mut self.scratch);
        if let Some(&c) = self.scratch.first() {
            return (mate_in(1), Some(self.pos.move_of(c)));
        }
        self.generate(0, true, &mut moves);
        let alpha0 = alpha;
        let mut alpha = alpha;
        let mut best = (-INFINITE, None);
        for (i, &(c, _)) in moves.iter().enumerate() {
            let score = self.child(c, depth, 0, alpha, beta, i == 0);
            if self.aborted {
                return (0, None);
            }
            if score > best.0 {
                best = (score, Some(self.pos.move_of(c)));
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        if let Some(m) = best.1 {
            // Kept for the move it names: the next iteration or phase searches it first.
            let (key, s) = self.pos.canonical();
            let stored = self.pos.geo.sym[s][self.pos.cell_of(m)];
            let need = if self.exact {
                depth.min(self.pos.empties() as u32)
            } else {
                depth
            };
            let bound = if best.0 >= beta {
                Bound::Lower
            } else if best.0 > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, 0, best.0, need, bound, Some(stored));
        }
        best
    }

    /// Plays cell `c`, searches the child (PVS: null window after the first move) and undoes.
    fn child(&mut self, c: usize, depth: u32, ply: u32, alpha: i32, beta: i32, first: bool) -> i32 {
        let m = self.pos.move_of(c);
        self.pos.play(m);
        let score = if first {
            -self.negamax(depth - 1, ply + 1, -beta, -alpha)
        } else {
            let s = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha);
            if s > alpha && s < beta && !self.aborted {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha)
            } else {
                s
            }
        };
        self.pos.undo();
        score
    }

    /// The moves to search at `ply`, into `out`: the forced block if there is one, else the
    /// candidates by ordering score with the table's move first.
    fn generate(&mut self, ply: u32, root: bool, out: &mut Vec<(usize, i32)>) {
        let opp = self.pos.side_to_move().opponent();
        self.pos.threat_cells_of(opp, &mut self.scratch);
        out.clear();
        if let Some(&c) = self.scratch.first() {
            out.push((c, 0));
            return;
        }
        self.pos.scored_cells(!self.exact, out);
        if !self.exact && !root {
            out.truncate(BEAM_WIDTH);
        }
        let (key, s) = self.pos.canonical();
        if let Some(mv) = self.tt.probe(key, ply).and_then(|h| h.mv) {
            let c = self.pos.geo.sym_inv[s][mv as usize] as usize;
            if let Some(i) = out.iter().position(|&(x, _)| x == c) {
                let e = out.remove(i);
                out.insert(0, e);
            }
        }
    }

    fn negamax(&mut self, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.out_of_time() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        match self.pos.outcome() {
            Some(Outcome::Win(_)) => return mated_in(ply),
            Some(Outcome::Draw) => return DRAW,
            None => {}
        }
        if depth == 0 && !self.heuristic {
            return DRAW;
        }
        if self.pos.can_win_now() {
            return mate_in(ply + 1);
        }
        let me = self.pos.side_to_move();
        let opp = me.opponent();
        let empties = self.pos.empties() as u32;
        let k = self.pos.k() as u32;
        // How soon each side can win at the earliest: a side lacking r stones in its fullest
        // open window needs r more moves. Past the horizon (the truncated game) or with no
        // open window, it cannot win and the value is bounded by a draw.
        let horizon = if self.heuristic {
            empties
        } else {
            depth.min(empties)
        };
        let floor = match self.pos.max_count(opp) {
            Some(n) if k - n as u32 <= horizon / 2 => mated_in(ply + 2 * (k - n as u32)),
            _ => DRAW,
        };
        let ceiling = match self.pos.max_count(me) {
            Some(n) if k - n as u32 <= horizon.div_ceil(2) => mate_in(ply + 2 * (k - n as u32) - 1),
            _ => DRAW,
        };
        if floor >= beta {
            return floor;
        }
        if ceiling <= alpha {
            return ceiling;
        }
        if floor == ceiling {
            return floor;
        }
        if self.pos.threat_count(opp) >= 2 {
            return mated_in(ply + 2);
        }
        if depth == 0 {
            return self.pos.evaluate().clamp(floor, ceiling);
        }
        // A depth covering every empty cell means the result is exact (in exact mode).
        let need = if self.exact {
            depth.min(empties)
        } else {
            depth
        };
        let (key, sym) = self.pos.canonical();
        if let Some(hit) = self.tt.probe(key, ply) {
            if hit.depth >= need {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }

        let mut moves = self.lists.pop().unwrap_or_default();
        self.generate(ply, false, &mut moves);
        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_cell = None;
        for (i, &(c, _)) in moves.iter().enumerate() {
            let score = self.child(c, depth, ply, alpha, beta, i == 0);
            if self.aborted {
                self.lists.push(moves);
                return 0;
            }
            if score > best {
                best = score;
                best_cell = Some(c);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists.push(moves);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored = best_cell.map(|c| self.pos.geo.sym[sym][c]);
        self.tt.store(key, ply, best, need, bound, stored);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::score::{WIN, WIN_MIN};
    use crate::search::Limits;
    use std::collections::HashMap;

    fn limits() -> SolveLimits {
        SolveLimits {
            tt_bytes: 1 << 20,
            ..SolveLimits::default()
        }
    }

    fn position(w: usize, h: usize, k: usize, moves: &[(u8, u8)]) -> Mnk {
        let mut g = Mnk::new(w, h, k).unwrap();
        for &(x, y) in moves {
            g.try_play(Move::new(x, y)).unwrap();
        }
        g
    }

    /// Plain minimax over every move, no table, no pruning: the reference the solver must
    /// match, value and distance alike.
    fn minimax(g: &mut Mnk, ply: u32) -> i32 {
        match g.outcome() {
            Some(Outcome::Win(_)) => return mated_in(ply),
            Some(Outcome::Draw) => return DRAW,
            None => {}
        }
        let mut best = -INFINITE;
        for m in g.legal_moves() {
            g.play(m);
            best = best.max(-minimax(g, ply + 1));
            g.undo();
        }
        best
    }

    fn score_of(sol: &Solution) -> i32 {
        match sol.value {
            Value::Win => mate_in(sol.plies),
            Value::Loss => mated_in(sol.plies),
            Value::Draw => DRAW,
        }
    }

    #[test]
    fn solver_matches_plain_minimax_on_random_positions() {
        let mut seed = 0x9e37_79b9_u64;
        let mut rnd = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut checked = 0;
        for &(w, h, k, stones) in &[
            (3, 3, 3, 0),
            (3, 3, 3, 2),
            (4, 3, 3, 4),
            (4, 4, 3, 8),
            (4, 4, 4, 8),
        ] {
            for _ in 0..12 {
                let mut g = Mnk::new(w, h, k).unwrap();
                for _ in 0..stones {
                    if g.outcome().is_some() {
                        break;
                    }
                    let moves = g.legal_moves();
                    g.play(moves[rnd(moves.len())]);
                }
                let sol = solve(&g, &limits()).unwrap();
                let want = minimax(&mut g.clone(), 0);
                assert_eq!(score_of(&sol), want, "{g:?}");
                // The move it names keeps that value: one ply later, the negated score.
                if let Some(m) = sol.best {
                    let mut after = g.clone();
                    after.play(m);
                    assert_eq!(-minimax(&mut after, 1), want, "best move {m} of {g:?}");
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 60);
    }

    #[test]
    fn small_known_values() {
        for (w, h, k, value, plies) in [
            (3, 3, 3, Value::Draw, 9),
            (4, 3, 3, Value::Win, 7),
            (4, 4, 3, Value::Win, 5),
            (4, 4, 4, Value::Draw, 16),
        ] {
            let sol = solve(&Mnk::new(w, h, k).unwrap(), &limits()).unwrap();
            assert_eq!((sol.value, sol.plies), (value, plies), "{w},{h},{k}");
        }
    }

    #[test]
    fn forced_results_have_their_distances() {
        // Black to move completes the row.
        let g = position(5, 5, 3, &[(0, 0), (4, 4), (1, 0), (4, 3)]);
        let sol = solve(&g, &limits()).unwrap();
        assert_eq!((sol.value, sol.plies), (Value::Win, 1));
        assert_eq!(sol.best, Some(Move::new(2, 0)));
        // White faces two completion cells: lost in 2 whatever it does.
        let g = position(5, 5, 3, &[(1, 0), (4, 4), (2, 0)]);
        let sol = solve(&g, &limits()).unwrap();
        assert_eq!((sol.value, sol.plies), (Value::Loss, 2));
        // A finished game is solved with no move.
        let g = position(3, 3, 3, &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]);
        let sol = solve(&g, &limits()).unwrap();
        assert_eq!((sol.value, sol.plies, sol.best), (Value::Loss, 0, None));
    }

    #[test]
    fn a_stopped_solve_says_so() {
        let stop = Stop::new();
        stop.set();
        let l = SolveLimits {
            stop: Some(stop),
            ..limits()
        };
        let r = solve(&Mnk::new(7, 7, 5).unwrap(), &l);
        assert_eq!(r.unwrap_err(), SolveError::Stopped);
        let l = SolveLimits {
            max_nodes: Some(5000),
            ..limits()
        };
        assert!(solve(&Mnk::new(7, 7, 5).unwrap(), &l).is_err());
    }

    fn think_with(g: &Mnk, limits: Limits) -> (SearchResult, usize) {
        let options = HashMap::new();
        let mut reports = 0;
        let mut report = |_: &Iteration| reports += 1;
        let mut ctx = ThinkContext {
            limits,
            stop: Stop::new(),
            report: &mut report,
            options: &options,
        };
        let r = think(g, &mut ctx);
        (r, reports)
    }

    #[test]
    fn table_fits_half_the_memory_option() {
        assert_eq!(memory_cap(Some("8388608")), 4 << 20);
        assert_eq!(memory_cap(Some("0")), usize::MAX);
        assert_eq!(memory_cap(Some("junk")), usize::MAX);
        assert_eq!(memory_cap(None), usize::MAX);
    }

    #[test]
    fn table_fits_the_budget() {
        let g77 = Mnk::new(7, 7, 4).unwrap();
        let g33 = Mnk::new(3, 3, 3).unwrap();
        let ms = Duration::from_millis;
        assert_eq!(tt_bytes_for(&g77, None, None), 1 << 26);
        assert_eq!(tt_bytes_for(&g33, None, None), 1 << 16);
        // 100 ms: 150k nodes, one bucket each.
        assert_eq!(
            tt_bytes_for(&g77, Some(ms(100)), None),
            150_000 * BUCKET_BYTES
        );
        assert_eq!(tt_bytes_for(&g77, Some(ms(100)), Some(1000)), 1 << 16);
        assert_eq!(tt_bytes_for(&g77, Some(ms(100_000)), None), 1 << 26);
        assert_eq!(tt_bytes_for(&g33, Some(ms(100_000)), None), 1 << 16);
    }

    #[test]
    fn think_plays_the_fastest_win_on_a_solved_board() {
        let (r, reports) = think_with(&Mnk::new(7, 7, 4).unwrap(), Limits::default());
        assert_eq!(r.score, mate_in(11));
        assert!(reports >= 1);
        // Black has a threat on either side: it wins at once rather than later.
        let g = position(7, 7, 4, &[(1, 3), (0, 0), (2, 3), (6, 6), (3, 3), (6, 0)]);
        let (r, _) = think_with(&g, Limits::default());
        assert!([Move::new(0, 3), Move::new(4, 3)].contains(&r.best));
        assert_eq!(r.score, WIN - 1);
    }

    #[test]
    fn think_blocks_and_wins_on_a_large_board_within_a_deadline() {
        let now = Instant::now();
        let limits = Limits {
            start: Some(now),
            optimum: Some(now + std::time::Duration::from_millis(150)),
            maximum: Some(now + std::time::Duration::from_millis(400)),
            threads: 1,
            ..Limits::default()
        };
        // 15 × 15, k = 5: white must block black's four.
        let g = position(
            15,
            15,
            5,
            &[(5, 5), (9, 9), (6, 5), (9, 10), (7, 5), (10, 2), (8, 5)],
        );
        let (r, _) = think_with(&g, limits.clone());
        assert!(
            [Move::new(4, 5), Move::new(9, 5)].contains(&r.best),
            "{}",
            r.best
        );
        // With black to move it completes the five.
        let mut g2 = g.clone();
        g2.pass();
        let (r, _) = think_with(&g2, limits);
        assert!([Move::new(4, 5), Move::new(9, 5)].contains(&r.best));
        assert!(r.score >= WIN_MIN);
    }

    #[test]
    fn depth_limited_think_is_deterministic() {
        let g = position(9, 9, 5, &[(4, 4), (5, 5)]);
        let (a, _) = think_with(&g, Limits::depth(3));
        let (b, _) = think_with(&g, Limits::depth(3));
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
        assert_eq!(a.depth, 3);
        assert!(g.check_move(a.best).is_ok());
    }

    #[test]
    fn think_on_a_finished_game_reports_no_depth() {
        let g = position(3, 3, 3, &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]);
        let (r, _) = think_with(&g, Limits::default());
        assert_eq!(r.depth, 0);
    }
}
