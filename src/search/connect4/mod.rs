//! The Connect Four searches: the move chooser the engine calls ([`think`]), the exact
//! [`solver`], the [`midgame`] search the default player uses for positions the solver
//! cannot finish in time, the classic beam search ([`heuristic`], `c4_player beam`), the
//! classic [`players`] (random, greedy, Monte-Carlo, UCT). The midgame and beam searches
//! deepen through one loop (`deepen`). The `solve` subcommand's driver, the book builder and
//! the n-tuple training are tools on top ([`crate::solve`], [`crate::train`]).

pub mod book;
pub mod data_source;
mod deepen;
pub mod heuristic;
pub mod midgame;
pub mod parallel;
pub mod players;
pub mod shipped_book;
pub mod shipped_ntuple;
pub mod solver;

use crate::base::score::{mate_in, DRAW, WIN};
use crate::game::connect4::bits::{Bits, Wide};
use crate::game::connect4::position::{Geometry, Position};
use crate::game::connect4::windows::Windows;
use crate::game::connect4::{with_bits, Connect4};
use crate::game::{Game, Move};
use crate::search::{Iteration, Limits, SearchResult, ThinkContext};
use heuristic::BeamSearch;
use solver::{Solver, TransTable};
use std::time::{Duration, Instant};

/// Solver table entries for `think` (about 50 MB, allocated on first use, then reused).
const THINK_TT_ENTRIES: usize = solver::DEFAULT_TT_ENTRIES;
/// Smallest solver table `think` makes.
const MIN_THINK_TT_ENTRIES: usize = 1 << 16;
/// Solver speed assumed when sizing the table for a time budget: above what it reaches
/// (4-5M nodes/s on 7×6), so the table is never what limits it.
const SIZING_NODES_PER_SEC: f64 = 8e6;
/// Within reach of a solve, the share of the time to the optimum (or of the node budget)
/// for the heuristic search that runs first; the solver then runs to [`solver_deadline_near`].
const NEAR_BEAM_SHARE: f64 = 0.3;
/// Out of reach (early play on large boards) and past [`BAND_CELLS`] beyond it, the share of
/// the time to the optimum (or of the node budget) the solver gets before the heuristic
/// search, which needs the rest.
const FAR_SOLVER_SHARE: f64 = 0.2;
/// Just beyond the solver's reach (up to this many empty cells past it), the solver's share
/// instead: there a weak solve often ends in a few hundred milliseconds, and a win it proves
/// is a game the heuristic search may still throw away (two of 23 losses at 1 s on 12×6
/// were won positions at ply 33 played into a loss; see `scripts/lab/c4-losses.py`).
const BAND_SOLVER_SHARE: f64 = 0.5;
const BAND_CELLS: usize = 8;
const _: () = assert!(FAR_SOLVER_SHARE < BAND_SOLVER_SHARE && BAND_SOLVER_SHARE < 1.0);
/// Empty cells up to which a 7-wide position counts as within reach of the solver; see
/// [`solver_reach`] for other widths.
const SOLVER_REACH: usize = 42;
/// Board width the reach above is measured on.
const REACH_WIDTH: usize = 7;
/// Solver nodes when neither a deadline nor a node budget is given.
const SOLVER_NODES_UNTIMED: u64 = 20_000_000;
/// Beam depth when neither a deadline, a node budget nor a depth is given.
const BEAM_DEPTH_UNTIMED: u32 = 10;
/// Depth the heuristic searches reach whatever the soft limit says (only the hard limit stops
/// it before): a few milliseconds on 7×6, and enough to see the two-move double threats
/// that a late start (a move request read long before it is served) would otherwise miss.
const MIN_BEAM_DEPTH: u32 = 6;
/// The midgame search stops this share of the way from the start to the hard limit, per
/// mille, not at the limit itself: it spends every turn up to its stop, so on a loaded
/// machine the time after it (unwinding, freeing its table, writing the move, the OS
/// scheduling us late) pushed 134 of 4,436 moves of a 1 s/move match past the hard limit,
/// up to 935 ms. 940 ‰ of a 1000 ms turn stops 53 ms earlier.
const MID_STOP_PERMILLE: u32 = 940;
/// Default share of the moves the beam search keeps below the root, in percent.
const DEFAULT_BEAM_PERCENT: u32 = 60;
/// Default playouts per move for Monte-Carlo (UCT gets as many in total per column).
const DEFAULT_PLAYOUTS: u64 = 400;
/// Default UCT exploration constant.
const DEFAULT_UCT_C: f64 = 1.4;
/// Which player `think` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Random,
    Greedy,
    MonteCarlo,
    Uct,
    /// The classic beam alpha-beta player: the beam search alone, leaves scored by the
    /// alignment utility, `c4_beam` percent of the moves kept below the root.
    Beam,
    Solver,
}

impl Player {
    /// Parses the `c4_player` option; unknown names give `None`.
    pub fn parse(s: &str) -> Option<Player> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Player::Random),
            "greedy" | "biased" => Some(Player::Greedy),
            "mc" | "montecarlo" | "monte-carlo" => Some(Player::MonteCarlo),
            "uct" | "mcts" => Some(Player::Uct),
            "beam" => Some(Player::Beam),
            "solver" | "perfect" => Some(Player::Solver),
            _ => None,
        }
    }
}

fn option<T: std::str::FromStr>(ctx: &ThinkContext, key: &str) -> Option<T> {
    ctx.options.get(key).and_then(|v| v.trim().parse().ok())
}

/// The engine's move chooser for this mode: reads `ctx.options["c4_player"]` (default
/// "solver"), respects ctx.limits (maximum = hard deadline, max_depth, max_nodes) and ctx.stop
/// at all times, reports iterations via (ctx.report)(&Iteration{..}).
///
/// Other options: `c4_beam` (percent of moves kept below the root by the beam search,
/// default 60), `c4_playouts` (Monte-Carlo playouts per move, default 400; UCT gets
/// `c4_playouts` × width iterations unless `c4_iterations` says otherwise), `c4_uct_c`
/// (exploration constant, default 1.4), `c4_seed` (random seed; the clock otherwise).
///
/// The solver player answers a position of its opening book at once (`c4_book`: the path of
/// another book file, or `none`; the built-in 7×6 book by default, see [`shipped_book`]).
pub fn think(game: &Connect4, ctx: &mut ThinkContext) -> SearchResult {
    if let Some(r) = book_move(game, ctx) {
        return r;
    }
    with_bits!(game.width, game.height, think_with(game, ctx))
}

/// The player the `c4_player` option names (the solver by default).
fn player_of(ctx: &ThinkContext) -> Player {
    ctx.options
        .get("c4_player")
        .and_then(|s| Player::parse(s))
        .unwrap_or(Player::Solver)
}

/// The book's move and exact score, when the solver player stands on a book position.
fn book_move(game: &Connect4, ctx: &mut ThinkContext) -> Option<SearchResult> {
    if player_of(ctx) != Player::Solver || game.outcome().is_some() {
        return None;
    }
    let start = ctx.limits.start.unwrap_or_else(Instant::now);
    let book = shipped_book::book_for(ctx.options.get("c4_book").map(String::as_str))?;
    let found = book.lookup(game)?;
    let best = game.landing(found.column)?;
    let cells = game.width * game.height;
    let score = solver::to_engine_score(found.score, cells, game.ply());
    let depth = (cells - game.ply()) as u32;
    (ctx.report)(&Iteration {
        depth,
        seldepth: depth,
        score,
        nodes: 0,
        elapsed_ms: start.elapsed().as_millis() as u64,
        pv: vec![best],
    });
    Some(SearchResult {
        best,
        score,
        depth,
        nodes: 0,
        pv: vec![best],
    })
}

fn think_with<B: Bits>(game: &Connect4, ctx: &mut ThinkContext) -> SearchResult {
    let fallback = (0..game.width).find_map(|c| game.landing(c));
    let mut result = SearchResult {
        best: fallback.unwrap_or(Move::new(0, 0)),
        score: DRAW,
        depth: 0,
        nodes: 0,
        pv: fallback.into_iter().collect(),
    };
    let Some(g) = Geometry::<B>::new(game.width, game.height, game.k) else {
        return result;
    };
    if fallback.is_none() || game.outcome().is_some() {
        return result;
    }
    let p = game.position(&g);
    let player = player_of(ctx);
    let start = ctx.limits.start.unwrap_or_else(Instant::now);
    let mut rng = match option::<u64>(ctx, "c4_seed") {
        Some(seed) => players::Rng::new(seed ^ game.key),
        None => players::Rng::from_clock(),
    };
    let to_move = |col: usize| game.landing(col);
    let chosen = match player {
        Player::Random => players::random_move(&g, &p, &mut rng).map(|c| (c, DRAW, 1, 0)),
        Player::Greedy => players::greedy_move(&g, &p, &mut rng).map(|c| (c, DRAW, 1, 0)),
        Player::MonteCarlo | Player::Uct => {
            let playouts = option::<u64>(ctx, "c4_playouts").unwrap_or(DEFAULT_PLAYOUTS);
            let cap = ctx.limits.max_nodes;
            let soft = ctx.limits.optimum.or(ctx.limits.maximum);
            let stop = ctx.stop.clone();
            let hard = ctx.limits.maximum;
            let should_stop = move |done: u64| {
                stop.is_set()
                    || cap.is_some_and(|c| done >= c)
                    || soft.is_some_and(|t| Instant::now() >= t)
                    || hard.is_some_and(|t| Instant::now() >= t)
            };
            let choice = if player == Player::MonteCarlo {
                players::monte_carlo(&g, &p, playouts, &mut rng, &should_stop)
            } else {
                let iterations =
                    option::<u64>(ctx, "c4_iterations").unwrap_or(playouts * game.width as u64);
                let c = option::<f64>(ctx, "c4_uct_c").unwrap_or(DEFAULT_UCT_C);
                players::uct(&g, &p, iterations, c, &mut rng, &should_stop)
            };
            choice.map(|ch| {
                let score = ((ch.value - 0.5) * 2000.0) as i32;
                (ch.col, score, 1, ch.playouts)
            })
        }
        Player::Beam => beam_player(game, &g, &p, ctx, start),
        Player::Solver => solver_player(game, &g, &p, ctx, start),
    };
    if let Some((col, score, depth, nodes)) = chosen {
        if let Some(m) = to_move(col) {
            result.best = m;
            result.pv = vec![m];
        }
        result.score = score;
        result.depth = depth;
        result.nodes = nodes;
    }
    if !matches!(player, Player::Solver | Player::Beam) {
        (ctx.report)(&Iteration {
            depth: result.depth,
            seldepth: result.depth,
            score: result.score,
            nodes: result.nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: result.pv.clone(),
        });
    }
    result
}

/// Solver table entries for a `max_memory` (bytes, 0 = unlimited): a third of it at most,
/// as Gomocup measures the whole process.
fn tt_entries(max_memory: Option<u64>) -> usize {
    match max_memory {
        Some(m) if m > 0 => {
            let fit = (m / 3 / solver::TransTable::ENTRY_BYTES as u64) as usize;
            fit.clamp(1 << 12, THINK_TT_ENTRIES)
        }
        _ => THINK_TT_ENTRIES,
    }
}

/// The instant `share` of the way from `start` to the soft limit (the optimum, or the hard
/// limit without one; never past the hard limit). `None` when untimed.
fn soft_share(
    start: Instant,
    optimum: Option<Instant>,
    maximum: Option<Instant>,
    share: f64,
) -> Option<Instant> {
    let soft = match (optimum, maximum) {
        (Some(o), Some(m)) => o.min(m),
        (o, m) => o.or(m)?,
    };
    let span = soft.saturating_duration_since(start);
    Some(start + span.mul_f64(share.clamp(0.0, 1.0)))
}

/// The solver's deadline within reach of a solve: halfway from the optimum to the hard
/// limit. An exact result is worth more than anything the heuristic search finds in the same
/// time, and the solver is one long search rather than iterations that might start late,
/// so it may run past the optimum; the other half stays in reserve for the clock.
fn solver_deadline_near(optimum: Option<Instant>, maximum: Option<Instant>) -> Option<Instant> {
    match (optimum, maximum) {
        (Some(o), Some(m)) if o < m => Some(o + (m - o) / 2),
        (Some(o), Some(m)) => Some(o.min(m)),
        (o, m) => o.or(m),
    }
}

/// What the solver phase settled.
pub enum Solved {
    /// A column with its engine score (exact, or a proven bound).
    Move(usize, i32),
    /// Nothing usable in the budget (or a proven loss without its length): search on.
    Open,
}

/// The solver phase: first the sign of the position (several times cheaper than the exact
/// score), then, with the budget left, the exact score for the fastest win or slowest loss.
/// A proven win or draw is played even when the exact score does not fit: its move keeps the
/// value, and a won game on a finite board ends anyway.
pub fn decide<B: Bits>(s: &mut Solver<'_, B>, g: &Geometry<B>, p: &Position<B>) -> Solved {
    let remaining = g.cells() - p.moves;
    let Some((sign, weak_col)) = s.best_move_weak(p) else {
        return Solved::Open;
    };
    if sign == 0 {
        // A draw's exact score is 0: the weak answer is already exact.
        return weak_col.map_or(Solved::Open, |c| Solved::Move(c, DRAW));
    }
    if let Some((score, Some(col))) = s.best_move(p) {
        return Solved::Move(col, solver::to_engine_score(score, g.cells(), p.moves));
    }
    match (sign > 0, weak_col) {
        // Won in at most `remaining` plies: a lower bound on the score.
        (true, Some(c)) => Solved::Move(c, mate_in(remaining as u32)),
        // Lost, but how slowly is unknown: the heuristic search picks the most stubborn move.
        _ => Solved::Open,
    }
}

/// Solver table entries worth having for one move's budget (time or nodes), within
/// `cap`: about two per node the solver can search. A fresh table's pages are zeroed by the
/// kernel on first touch, and with random slots nearly every node touches a new page: on a
/// 50 MB table the faults cost a short move (100 ms) most of its solver time, so short moves
/// get a table their search can fill, and longer ones grow it.
fn wanted_entries(budget: Option<Duration>, nodes: Option<u64>, cap: usize) -> usize {
    let by_time = budget.map(|d| (d.as_secs_f64() * SIZING_NODES_PER_SEC) as u64);
    let want = match (by_time, nodes) {
        (Some(t), Some(n)) => t.min(n),
        (t, n) => match t.or(n) {
            Some(x) => x,
            None => return cap,
        },
    };
    let want = usize::try_from(want.saturating_mul(2)).unwrap_or(usize::MAX);
    want.clamp(MIN_THINK_TT_ENTRIES.min(cap), cap)
}

/// The perfect player. Within reach of a solve ([`solver_reach`]) a short [`midgame`]
/// search first secures a sound move (it sees the short double threats), then the solver gets
/// the rest of the budget; a proven result replaces the search's move. Out of reach (early on
/// large boards) the solver only gets a small share, for a quick proof, and the midgame
/// search the rest of the turn. Returns (column, engine score, depth, nodes).
fn solver_player<B: Bits>(
    game: &Connect4,
    g: &Geometry<B>,
    p: &Position<B>,
    ctx: &mut ThinkContext,
    start: Instant,
) -> Option<(usize, i32, u32, u64)> {
    let limits = ctx.limits.clone();
    let timed = limits.maximum.is_some();
    let remaining = g.cells() - p.moves;
    let share = |n: u64, s: f64| (n as f64 * s) as u64;
    let (beam, nodes) = if remaining <= solver_reach(g.width) {
        let beam_soft = soft_share(start, limits.optimum, limits.maximum, NEAR_BEAM_SHARE);
        let beam_nodes = limits.max_nodes.map(|n| share(n, NEAR_BEAM_SHARE));
        let (beam, beam_used) = mid_phase(game, g, p, ctx, start, beam_soft, beam_nodes, 0);
        let solver_nodes = match (limits.max_nodes, timed) {
            (Some(n), _) => Some(n.saturating_sub(beam_used).max(1)),
            (None, true) => None,
            (None, false) => Some(SOLVER_NODES_UNTIMED),
        };
        let deadline = solver_deadline_near(limits.optimum, limits.maximum);
        let (solved, nodes) =
            solver_phase(game, g, p, ctx, start, deadline, solver_nodes, beam_used);
        if let Solved::Move(col, score) = solved {
            return Some((col, score, remaining as u32, nodes));
        }
        (beam, nodes)
    } else {
        let solver_share = far_solver_share(remaining, g.width);
        let deadline = soft_share(start, limits.optimum, limits.maximum, solver_share);
        let solver_nodes = match (limits.max_nodes, timed) {
            (Some(n), _) => Some(share(n, solver_share)),
            (None, true) => None,
            (None, false) => Some(SOLVER_NODES_UNTIMED),
        };
        let (solved, used) = solver_phase(game, g, p, ctx, start, deadline, solver_nodes, 0);
        if let Solved::Move(col, score) = solved {
            return Some((col, score, remaining as u32, used));
        }
        let search_nodes = limits.max_nodes.map(|n| n.saturating_sub(used).max(1));
        let soft = deepen_until(&limits, start);
        mid_phase(game, g, p, ctx, start, soft, search_nodes, used)
    };
    let found = beam.or_else(|| any_safe_move(g, p))?;
    let score = found.score.clamp(-WIN, WIN);
    Some((found.col, score, found.depth, nodes))
}

/// Empty cells up to which a position of this width counts as within reach of the solver:
/// one cell fewer per column beyond 7 (more moves a ply). On 12×6 that is 37, ply 35, where
/// exact solves took 0.29 s on average (0.63 s at most) against 2.3 s at ply 30.
fn solver_reach(width: usize) -> usize {
    SOLVER_REACH.saturating_sub(width.saturating_sub(REACH_WIDTH))
}

/// The solver's share of a move out of its reach: larger in the band just beyond it.
fn far_solver_share(remaining: usize, width: usize) -> f64 {
    if remaining <= solver_reach(width) + BAND_CELLS {
        BAND_SOLVER_SHARE
    } else {
        FAR_SOLVER_SHARE
    }
}

/// When not even depth 1 finished: a move that does not lose at once, if any.
fn any_safe_move<B: Bits>(g: &Geometry<B>, p: &Position<B>) -> Option<heuristic::BeamResult> {
    let nl = p.non_losing_moves(g);
    let pool = if nl.is_zero() { p.possible(g) } else { nl };
    Position::columns_in(g, pool)
        .next()
        .map(|col| heuristic::BeamResult {
            col,
            score: DRAW,
            depth: 0,
            nodes: 0,
        })
}

/// The classic beam player: the beam search alone to the soft limit, leaves scored by the
/// alignment utility. Returns (column, score, depth, nodes).
fn beam_player<B: Bits>(
    game: &Connect4,
    g: &Geometry<B>,
    p: &Position<B>,
    ctx: &mut ThinkContext,
    start: Instant,
) -> Option<(usize, i32, u32, u64)> {
    let limits = ctx.limits.clone();
    let soft = limits.optimum.or(limits.maximum);
    let (beam, nodes) = beam_phase(game, g, p, ctx, start, soft, limits.max_nodes, 0);
    let found = beam.or_else(|| any_safe_move(g, p))?;
    Some((found.col, found.score.clamp(-WIN, WIN), found.depth, nodes))
}

/// The solver phase under a deadline and a node budget, on the game's kept table (sized to
/// the budget). Reports a settled move. Returns what it settled and the nodes so far
/// (`nodes_before` included).
#[allow(clippy::too_many_arguments)]
fn solver_phase<B: Bits>(
    game: &Connect4,
    g: &Geometry<B>,
    p: &Position<B>,
    ctx: &mut ThinkContext,
    start: Instant,
    deadline: Option<Instant>,
    node_cap: Option<u64>,
    nodes_before: u64,
) -> (Solved, u64) {
    let remaining = g.cells() - p.moves;
    let stop = ctx.stop.clone();
    let solver_stop = move || stop.is_set() || deadline.is_some_and(|t| Instant::now() >= t);
    let (solved, used) = {
        let mut guard = game.tt.lock();
        let entries = wanted_entries(
            deadline.map(|t| t.saturating_duration_since(Instant::now())),
            node_cap,
            tt_entries(option::<u64>(ctx, "max_memory")),
        );
        // Grow only: a larger table from an earlier, longer move serves a short one as well.
        // (The game keeps the slot without knowing its type: only this search fills it.)
        if guard.as_ref().is_some_and(|t| {
            t.downcast_ref::<TransTable>()
                .is_none_or(|t| t.entries() < entries)
        }) {
            *guard = None;
        }
        let tt = guard
            .get_or_insert_with(|| Box::new(TransTable::new(entries)))
            .downcast_mut::<TransTable>()
            .expect("only the solver fills the game's search cache");
        let mut s = Solver::new(g, tt)
            .with_node_limit(node_cap)
            .with_stop(&solver_stop);
        (decide(&mut s, g, p), s.nodes)
    };
    let nodes = nodes_before + used;
    if let Solved::Move(col, engine_score) = solved {
        let m = game.landing(col);
        (ctx.report)(&Iteration {
            depth: remaining as u32,
            seldepth: remaining as u32,
            score: engine_score,
            nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: m.into_iter().collect(),
        });
    }
    (solved, nodes)
}

/// The default player's heuristic phase ([`midgame`]): iterative deepening that starts no
/// new iteration past `soft` (once [`MIN_BEAM_DEPTH`] is reached) and is cut short a little
/// before the hard limit ([`mid_stop`]), where the unfinished iteration's best move still
/// counts. Within `node_cap`.
/// Returns the result and the nodes so far (`nodes_before` included).
#[allow(clippy::too_many_arguments)]
fn mid_phase<B: Bits>(
    game: &Connect4,
    g: &Geometry<B>,
    p: &Position<B>,
    ctx: &mut ThinkContext,
    start: Instant,
    soft: Option<Instant>,
    node_cap: Option<u64>,
    nodes_before: u64,
) -> (Option<heuristic::BeamResult>, u64) {
    let limits = &ctx.limits;
    let remaining = g.cells() - p.moves;
    let max_depth = iteration_cap(limits, remaining);
    let stop = ctx.stop.clone();
    let hard = mid_stop(start, limits.maximum);
    let search_stop = move || stop.is_set() || hard.is_some_and(|t| Instant::now() >= t);
    let windows = Windows::new(g);
    let entries = mid_entries(option::<u64>(ctx, "max_memory"));
    let mut guard = game.mid_tt.lock();
    // The game keeps the slot without knowing its type: only this search fills it.
    if guard.as_ref().is_some_and(|t| {
        t.downcast_ref::<midgame::Table>()
            .is_none_or(|t| t.entries() != entries)
    }) {
        *guard = None;
    }
    let table = guard
        .get_or_insert_with(|| Box::new(midgame::Table::new(entries)))
        .downcast_mut::<midgame::Table>()
        .expect("only the midgame search fills the game's midgame cache");
    table.next_generation();
    let nt = shipped_ntuple::network_for(
        ctx.options.get("c4_ntuple").map(String::as_str),
        g.width,
        g.height,
        g.k,
    );
    let mut search =
        midgame::MidSearch::new(g, &windows, nt.as_deref(), table, node_cap, &search_stop);
    let report = &mut ctx.report;
    let found = search.run(p, max_depth, &mut |r| {
        let m = game.landing(r.col);
        report(&Iteration {
            depth: r.depth,
            seldepth: r.depth,
            score: r.score,
            nodes: nodes_before + r.nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: m.into_iter().collect(),
        });
        r.depth < MIN_BEAM_DEPTH || soft.is_none_or(|t| Instant::now() < t)
    });
    (found, nodes_before + search.nodes)
}

/// Midgame table entries for a `max_memory` (bytes, 0 = unlimited): a power of two within a
/// sixth of it, as the game keeps the solver's table (a third at most) beside it.
fn mid_entries(max_memory: Option<u64>) -> usize {
    let fit = match max_memory {
        Some(m) if m > 0 => {
            ((m / 6) as usize / midgame::Table::ENTRY_BYTES).clamp(1 << 12, midgame::TABLE_ENTRIES)
        }
        _ => midgame::TABLE_ENTRIES,
    };
    1 << fit.ilog2()
}

/// When the midgame search stops starting iterations: with a per-move clock (time saved is
/// not banked) it deepens up to its stop, its last iteration cut there counting once the
/// previous best move is searched; with a match clock, the soft target.
fn deepen_until(limits: &Limits, start: Instant) -> Option<Instant> {
    if limits.per_move && limits.maximum.is_some() {
        mid_stop(start, limits.maximum)
    } else {
        limits.optimum.or(limits.maximum)
    }
}

/// When the midgame search stops: [`MID_STOP_PERMILLE`] of the way from `start` to the hard
/// limit. `None` when untimed.
fn mid_stop(start: Instant, maximum: Option<Instant>) -> Option<Instant> {
    maximum.map(|m| start + m.saturating_duration_since(start) * MID_STOP_PERMILLE / 1000)
}

/// The deepest iteration of the heuristic searches: the caller's cap, else the cells left
/// when a clock or a node budget ends the search, else a fixed depth.
fn iteration_cap(limits: &Limits, remaining: usize) -> u32 {
    limits
        .max_depth
        .unwrap_or(if limits.maximum.is_some() || limits.max_nodes.is_some() {
            remaining as u32
        } else {
            BEAM_DEPTH_UNTIMED
        })
}

/// The beam search phase: iterative deepening that starts no new iteration past `soft`
/// (once [`MIN_BEAM_DEPTH`] is reached), stops at the hard limit, within `node_cap`.
/// Returns the deepest finished iteration and the nodes so far (`nodes_before` included).
#[allow(clippy::too_many_arguments)]
fn beam_phase<B: Bits>(
    game: &Connect4,
    g: &Geometry<B>,
    p: &Position<B>,
    ctx: &mut ThinkContext,
    start: Instant,
    soft: Option<Instant>,
    node_cap: Option<u64>,
    nodes_before: u64,
) -> (Option<heuristic::BeamResult>, u64) {
    let limits = &ctx.limits;
    let remaining = g.cells() - p.moves;
    let beam_percent = option::<u32>(ctx, "c4_beam").unwrap_or(DEFAULT_BEAM_PERCENT);
    let max_depth = iteration_cap(limits, remaining);
    let stop = ctx.stop.clone();
    let hard = limits.maximum;
    let beam_stop = move || stop.is_set() || hard.is_some_and(|t| Instant::now() >= t);
    let windows = Windows::new(g);
    let mut search = BeamSearch::new(g, &windows, beam_percent, node_cap, &beam_stop);
    let report = &mut ctx.report;
    let iter_start = Instant::now();
    let found = search.run(p, max_depth, &mut |r| {
        let m = game.landing(r.col);
        report(&Iteration {
            depth: r.depth,
            seldepth: r.depth,
            score: r.score,
            nodes: nodes_before + r.nodes,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: m.into_iter().collect(),
        });
        // Soft limit: past it, or the next iteration (a few times longer than all so far)
        // would not end before the hard limit.
        let now = Instant::now();
        let past_soft = soft.is_some_and(|t| now >= t);
        let no_room = hard.is_some_and(|t| now + (now - iter_start) * 3 >= t);
        r.depth < MIN_BEAM_DEPTH || !(past_soft || no_room)
    });
    (found, nodes_before + search.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, Stop};
    use std::collections::HashMap;

    fn think_with_options(game: &Connect4, limits: Limits, opts: &[(&str, &str)]) -> SearchResult {
        let options: HashMap<String, String> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut report = |_: &Iteration| {};
        let mut ctx = ThinkContext {
            limits,
            stop: Stop::new(),
            report: &mut report,
            options: &options,
        };
        think(game, &mut ctx)
    }

    #[test]
    fn shareable_and_memory_bounded() {
        fn assert_send_sync<T: Clone + Send + Sync>() {}
        assert_send_sync::<Connect4>();
        assert_eq!(tt_entries(None), THINK_TT_ENTRIES);
        assert_eq!(tt_entries(Some(0)), THINK_TT_ENTRIES);
        // 70 MB allows about 2.9M entries of 8 bytes in a third of it.
        assert_eq!(tt_entries(Some(70_000_000)), 70_000_000 / 3 / 8);
        assert_eq!(tt_entries(Some(1000)), 1 << 12);
    }

    #[test]
    fn table_fits_the_budget() {
        let cap = THINK_TT_ENTRIES;
        // 50 ms of solver time: about 0.4M nodes, two entries each.
        assert_eq!(
            wanted_entries(Some(Duration::from_millis(50)), None, cap),
            800_000
        );
        assert_eq!(wanted_entries(None, Some(1000), cap), MIN_THINK_TT_ENTRIES);
        assert_eq!(
            wanted_entries(Some(Duration::from_secs(1)), Some(100_000), cap),
            200_000
        );
        assert_eq!(
            wanted_entries(Some(Duration::from_secs(60)), None, cap),
            cap
        );
        assert_eq!(wanted_entries(None, None, cap), cap);
        assert_eq!(wanted_entries(None, Some(10), 5000), 5000);
    }

    #[test]
    fn solver_player_wins_fastest() {
        let mut g = Connect4::standard();
        for c in [3, 0, 3, 0, 3, 0] {
            g.play_column(c).unwrap();
        }
        let r = think_with_options(&g, Limits::depth(4), &[]);
        // Column 3 (0-based) wins at once; column 0 would merely block.
        assert_eq!(r.best, Move::new(3, 2));
        assert_eq!(r.score, crate::base::score::mate_in(1));
    }

    #[test]
    fn every_player_answers_a_landing_cell() {
        let mut g = Connect4::new(12, 6, 4).unwrap();
        for c in [5, 6, 5] {
            g.play_column(c).unwrap();
        }
        for name in ["random", "greedy", "mc", "uct", "beam", "solver"] {
            let limits = Limits {
                max_nodes: Some(20_000),
                max_depth: Some(4),
                ..Limits::default()
            };
            let r = think_with_options(
                &g,
                limits,
                &[("c4_player", name), ("c4_seed", "9"), ("c4_playouts", "20")],
            );
            assert_eq!(g.check_move(r.best), Ok(()), "{name} played {:?}", r.best);
        }
        // The big board goes through the 320-bit path.
        let g = Connect4::new(16, 16, 4).unwrap();
        let r = think_with_options(
            &g,
            Limits {
                max_nodes: Some(5_000),
                max_depth: Some(2),
                ..Limits::default()
            },
            &[],
        );
        assert_eq!(g.check_move(r.best), Ok(()));
    }

    #[test]
    fn midgame_table_fits_beside_the_solvers() {
        assert_eq!(mid_entries(None), midgame::TABLE_ENTRIES);
        assert_eq!(mid_entries(Some(0)), midgame::TABLE_ENTRIES);
        // 60 MB: a sixth is 10 MB, 625,000 entries of 16 bytes, rounded down to 2^19.
        assert_eq!(mid_entries(Some(60_000_000)), 1 << 19);
        assert_eq!(mid_entries(Some(1000)), 1 << 12);
        let e = mid_entries(Some(60_000_000));
        assert_eq!(midgame::Table::new(e).entries(), e);
    }

    #[test]
    fn midgame_table_is_kept_between_moves() {
        let mut g = Connect4::new(12, 6, 4).unwrap();
        let limits = || Limits {
            max_nodes: Some(20_000),
            ..Limits::default()
        };
        let table_at = |g: &Connect4| {
            g.mid_tt
                .lock()
                .as_ref()
                .and_then(|t| t.downcast_ref::<midgame::Table>())
                .map(|t| t as *const midgame::Table as usize)
        };
        assert_eq!(table_at(&g), None);
        let r = think_with_options(&g, limits(), &[]);
        let first = table_at(&g);
        assert!(first.is_some());
        g.play(r.best);
        let r = think_with_options(&g, limits(), &[]);
        g.play(r.best);
        think_with_options(&g, limits(), &[]);
        assert_eq!(table_at(&g), first);
    }

    #[test]
    fn midgame_stops_short_of_the_hard_limit() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        // A 1000 ms turn: hard limit 880 ms, the midgame search stops at 827.2 ms.
        let stop = mid_stop(t0, Some(t0 + ms(880))).unwrap();
        assert_eq!(stop, t0 + ms(827) + Duration::from_micros(200));
        assert!(stop > t0 + ms(800) && stop < t0 + ms(880));
        assert_eq!(mid_stop(t0, None), None);
        // A limit already past leaves no time rather than wrapping.
        assert_eq!(mid_stop(t0 + ms(5), Some(t0)), Some(t0 + ms(5)));
    }

    #[test]
    fn a_per_move_clock_deepens_up_to_the_stop() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let limits = |per_move| Limits {
            start: Some(t0),
            optimum: Some(t0 + ms(616)),
            maximum: Some(t0 + ms(880)),
            per_move,
            ..Limits::default()
        };
        // Time saved on a per-move clock is lost: deepen until the search's own stop.
        assert_eq!(
            deepen_until(&limits(true), t0),
            mid_stop(t0, Some(t0 + ms(880)))
        );
        // A match clock banks it: the soft target ends the deepening.
        assert_eq!(deepen_until(&limits(false), t0), Some(t0 + ms(616)));
        let untimed = Limits {
            per_move: true,
            ..Limits::default()
        };
        assert_eq!(deepen_until(&untimed, t0), None);
    }

    #[test]
    fn reach_shrinks_on_wide_boards() {
        assert_eq!(solver_reach(7), 42);
        assert_eq!(solver_reach(4), 42);
        assert_eq!(solver_reach(12), 37);
    }

    #[test]
    fn the_solver_gets_more_just_beyond_its_reach() {
        // 12×6: reach 37 empty cells; the band runs to 45 (ply 27).
        assert_eq!(far_solver_share(38, 12), BAND_SOLVER_SHARE);
        assert_eq!(far_solver_share(45, 12), BAND_SOLVER_SHARE);
        assert_eq!(far_solver_share(46, 12), FAR_SOLVER_SHARE);
    }

    #[test]
    fn phases_leave_room_for_each_other() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        // The clock's split for a 300 ms turn: optimum 125 ms, maximum 250 ms.
        let (opt, max) = (Some(t0 + ms(125)), Some(t0 + ms(250)));
        let beam_soft = soft_share(t0, opt, max, NEAR_BEAM_SHARE);
        assert_eq!(beam_soft, Some(t0 + ms(125).mul_f64(NEAR_BEAM_SHARE)));
        let solver_end = solver_deadline_near(opt, max);
        assert_eq!(solver_end, Some(t0 + ms(187) + Duration::from_micros(500)));
        assert!(beam_soft < opt && solver_end < max);
        // Out of reach the solver stops early and the beam search has until the optimum.
        let far = soft_share(t0, opt, max, FAR_SOLVER_SHARE);
        assert_eq!(far, Some(t0 + ms(25)));
        assert_eq!(
            soft_share(t0, None, Some(t0 + ms(100)), 0.2),
            Some(t0 + ms(20))
        );
        assert_eq!(soft_share(t0, None, None, 0.5), None);
        assert_eq!(solver_deadline_near(None, None), None);
        // An optimum past the maximum (never from the clock) is capped by the maximum.
        assert_eq!(
            soft_share(t0, Some(t0 + ms(400)), Some(t0 + ms(200)), 0.5),
            Some(t0 + ms(100))
        );
        assert_eq!(
            solver_deadline_near(Some(t0 + ms(400)), Some(t0 + ms(200))),
            Some(t0 + ms(200))
        );
    }

    /// Black has two adjacent stones on the bottom row with both ends open: unless White
    /// takes a cell beside them now, Black makes an open three and wins. The engine used to
    /// stack on the centre here (as White, 300 ms per move).
    #[test]
    fn open_two_on_the_bottom_row_is_blocked() {
        let mut g = Connect4::standard();
        for m in [Move::new(3, 5), Move::new(3, 4), Move::new(2, 5)] {
            g.try_play(m).unwrap();
        }
        for nodes in [5_000, 50_000] {
            let limits = Limits {
                max_nodes: Some(nodes),
                ..Limits::default()
            };
            let r = think_with_options(&g, limits, &[]);
            assert!(
                r.best == Move::new(1, 5) || r.best == Move::new(4, 5),
                "{nodes} nodes: played {:?}",
                r.best
            );
        }
        // The mirror image (Black on 3,5 and 4,5): block at 2,5 or 5,5.
        let mut g = Connect4::standard();
        for m in [Move::new(3, 5), Move::new(3, 4), Move::new(4, 5)] {
            g.try_play(m).unwrap();
        }
        let limits = Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        };
        let r = think_with_options(&g, limits, &[]);
        assert!(
            r.best == Move::new(2, 5) || r.best == Move::new(5, 5),
            "{:?}",
            r.best
        );
        // A request served late (read while the previous move was thought about): the
        // optimum has passed before thinking starts, yet the search still goes deep enough.
        let now = Instant::now();
        let limits = Limits {
            start: now.checked_sub(Duration::from_millis(200)),
            optimum: now.checked_sub(Duration::from_millis(100)),
            maximum: Some(now + Duration::from_secs(20)),
            max_nodes: Some(200_000),
            ..Limits::default()
        };
        let r = think_with_options(&g, limits, &[]);
        assert!(r.depth >= MIN_BEAM_DEPTH, "depth {}", r.depth);
        assert!(
            r.best == Move::new(2, 5) || r.best == Move::new(5, 5),
            "{:?}",
            r.best
        );
    }

    #[test]
    fn deadline_is_respected_on_an_unsolvable_board() {
        let g = Connect4::new(12, 6, 4).unwrap();
        let start = Instant::now();
        let limits = Limits {
            start: Some(start),
            optimum: Some(start + Duration::from_millis(100)),
            maximum: Some(start + Duration::from_millis(200)),
            ..Limits::default()
        };
        let r = think_with_options(&g, limits, &[]);
        assert_eq!(g.check_move(r.best), Ok(()));
        assert!(r.depth >= 1);
    }
}
