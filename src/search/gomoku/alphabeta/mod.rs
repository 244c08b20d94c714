//! Iterative-deepening negamax with principal-variation search over any [`Game`](crate::game::Game).
//!
//! Every node searches only the mode's candidate moves (the board already applies the
//! forced-move rules: win now, block a five threat, answer open threes and four-threes),
//! cut to a beam of the best [`Params::beam`] by ordering score. The transposition-table
//! move goes first, then killers, then candidates by their ordering score plus history. A
//! node with a single candidate is a forced reply and is not counted against the depth,
//! which extends sequences of fours and their blocks for free in every mode. The leaves
//! run a quiescence search of fours (`qsearch.rs`) where the mode has one.
//!
//! Pruning follows the chess engines', adapted to what a gomoku threat allows: a node that
//! must answer a threat is never pruned on its static value; elsewhere late moves are
//! reduced logarithmically, reverse futility cuts shallow nodes far above beta, a likely
//! cut node searches its quiet moves a ply shallower, and a singular table move gets a ply
//! more. Each is tuned by a field of [`Params`]; the ideas screened and not kept are listed
//! in `docs/techniques.md`.
//!
//! Lazy SMP: several threads run this same search on their own copy of the position and
//! share only the transposition table; helpers start at staggered depths so they fill the
//! table with different subtrees. Only the main thread looks at the clock; it raises a shared
//! flag when time is up or when it finishes, and its own result is the one played.

mod qsearch;

pub use super::params::{ParamError, Params};
use super::root::{fallback, parallel_vct, root_threats, safety_check};
use super::threats::{Solver, Tactics, ThreatLimits, ThreatWin};
use crate::game::gomoku::{Code, Verdict};
use crate::game::{Move, Outcome, ScoredMove};
use crate::search::busy::BusyTable;
use crate::search::score::{
    self, from_tt, is_decisive, mate_in, mated_in, to_tt, DRAW, INFINITE, WIN_MIN,
};
use crate::search::time::Pacing;
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{Iteration, Limits, SearchResult, Stop};
use std::sync::Arc;
use std::time::Instant;

/// Deepest ply a search may reach (extensions included).
pub const MAX_PLY: usize = 96;
/// Nodes between two clock reads on the main thread. A clock read costs tens of ns, while a
/// node of the capture games on 19×19 can take ~100 µs: at 512 nodes their moves ran up to
/// 100 ms past the hard limit under load.
const CLOCK_INTERVAL: u64 = 64;
/// The key salt of a node searched without move `m` (singular-extension tests).
#[inline]
fn excluded_salt(m: Move) -> u64 {
    (u64::from(m.x) << 8 | u64::from(m.y) | 1 << 16).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The unit of search depth: a ply is this many units, so that a reduction can be a
/// fraction of a ply ([`Params::lmr_cut`] is in sixteenths). The other parameters and the
/// table's depths are in whole plies.
const ONE_PLY: i32 = 16;

/// Whole plies in `depth` units, rounded down.
#[inline]
fn plies(depth: i32) -> i32 {
    depth.div_euclid(ONE_PLY)
}

/// Marks a ply whose node had no static value (it faced a threat, or was not reached).
const NO_EVAL: i32 = i32::MIN;

/// Per-thread search state.
struct Worker<'a, G: Tactics> {
    game: G,
    tt: &'a TranspositionTable,
    limits: &'a Limits,
    stop: &'a Stop,
    /// Raised by the main thread when it is done, to end the helpers.
    done: &'a Stop,
    /// The positions the threads are in (with more than one thread and
    /// [`Params::smp_busy_depth`] on).
    busy: Option<&'a BusyTable>,
    main: bool,
    params: Params,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    killers: Vec<[Option<Move>; 2]>,
    /// History score by cell, per side to move.
    history: Vec<i32>,
    /// The last cutoff move played in reply to a stone, indexed like `history` by the side
    /// to move and the opponent's last cell (see [`Params::counter_bonus`]).
    counters: Vec<Option<Move>>,
    moves: Vec<Vec<ScoredMove>>,
    /// Moves a node put off because another thread was searching their positions, by ply.
    deferred: Vec<Vec<ScoredMove>>,
    /// Moves put off so far (each searched later all the same).
    deferrals: u64,
    /// The move a singular-extension test leaves out, by ply.
    excluded: Vec<Option<Move>>,
    /// The quiescence search's four moves, by ply.
    fours: Vec<Vec<(Move, Code)>>,
    /// Static value by ply (`NO_EVAL` where the node did not evaluate), for "improving".
    evals: Vec<i32>,
    width: usize,
    /// Node count at which the main thread reads the clock next.
    next_check: u64,
    /// When the main thread last read the clock (for [`Limits::stalls`]).
    last_clock: Option<Instant>,
    /// When the main thread stops searching (at or before the hard limit).
    end: Option<Instant>,
    solver: Solver,
    /// Root moves of the last finished iteration, best score first.
    root_order: Vec<Move>,
    /// Root moves with their scores in the iteration under way.
    root_scores: Vec<(i32, Move)>,
    /// How settled the finished iterations are, for the time manager.
    pacing: Pacing,
    /// Times the root's best move changed in the iteration under way.
    root_changes: u32,
    /// Root moves the last root search could play (not excluded, not forbidden).
    root_playable: usize,
}

impl<'a, G: Tactics> Worker<'a, G> {
    fn new(
        game: G,
        tt: &'a TranspositionTable,
        limits: &'a Limits,
        stop: &'a Stop,
        done: &'a Stop,
        main: bool,
        params: Params,
    ) -> Self {
        let width = game.width();
        let cells = width * game.height();
        Worker {
            game,
            tt,
            limits,
            stop,
            done,
            busy: None,
            main,
            params,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * cells],
            counters: vec![None; 2 * cells],
            moves: vec![Vec::new(); MAX_PLY + 1],
            deferred: vec![Vec::new(); MAX_PLY + 1],
            deferrals: 0,
            excluded: vec![None; MAX_PLY + 1],
            fours: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 2],
            width,
            next_check: CLOCK_INTERVAL,
            last_clock: None,
            end: limits.maximum,
            solver: Solver::new(1 << 14),
            root_order: Vec::new(),
            root_scores: Vec::new(),
            pacing: Pacing::default(),
            root_changes: 0,
            root_playable: 0,
        }
    }

    /// The worker, sharing the threads' busy table (when there is one and
    /// [`Params::smp_busy_depth`] is on).
    fn sharing(mut self, busy: Option<&'a BusyTable>) -> Self {
        self.busy = busy.filter(|_| self.params.smp_busy_depth > 0);
        self
    }

    /// Where the counter move to the opponent's last stone is kept, if the counter moves
    /// are on and there is a last stone.
    fn counter_index(&self) -> Option<usize> {
        if self.params.counter_bonus == 0 {
            return None;
        }
        self.game.last_move().map(|last| self.hist_index(last))
    }

    fn counter_move(&self) -> Option<Move> {
        self.counter_index().and_then(|i| self.counters[i])
    }

    fn hist_index(&self, m: Move) -> usize {
        let side = self.game.side_to_move().index();
        side * (self.history.len() / 2) + m.y as usize * self.width + m.x as usize
    }

    /// Plays a move of the tree, with the child's table bucket requested first: the probe
    /// that starts the child then finds it in cache instead of waiting on memory.
    #[inline]
    fn play(&mut self, m: Move) {
        if let Some(k) = self.game.key_after(m) {
            self.tt.prefetch(k);
        }
        self.game.play(m);
    }

    /// Polls the stop conditions; only the main thread reads the clock.
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let clock_due = self.main && self.nodes >= self.next_check;
        let mut past_end = false;
        if clock_due {
            self.next_check = self.nodes + CLOCK_INTERVAL;
            let now = Instant::now();
            if let (Some(meter), Some(last)) = (&self.limits.stalls, self.last_clock) {
                meter.note(now.saturating_duration_since(last));
            }
            self.last_clock = Some(now);
            past_end = self.end.is_some_and(|t| now >= t);
        }
        self.aborted = self.stop.is_set()
            || self.done.is_set()
            || (clock_due && (past_end || self.limits.max_nodes.is_some_and(|n| self.nodes >= n)));
        self.aborted
    }

    /// Score of a finished game for the side to move at `ply`.
    fn terminal(&self, o: Outcome, ply: u32) -> i32 {
        match o {
            Outcome::Draw => DRAW,
            Outcome::Win(c) if c == self.game.side_to_move() => mate_in(ply),
            Outcome::Win(_) => mated_in(ply),
        }
    }

    /// Scores the node's candidates in `self.moves[ply]` (ordering score, table move, killers,
    /// history), unsorted: [`Worker::pick`] takes them best first, and most nodes cut off
    /// after a few, so a full sort would mostly order moves never searched.
    fn score_moves(&mut self, ply: usize, tt_move: Option<Move>) {
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        self.game.candidates_unsorted(&mut list);
        let killers = self.killers[ply];
        let counter = self.counter_move();
        for sm in list.iter_mut() {
            let bonus = if Some(sm.mv) == tt_move {
                1 << 28
            } else if Some(sm.mv) == killers[0] {
                1 << 20
            } else if Some(sm.mv) == killers[1] {
                1 << 19
            } else if Some(sm.mv) == counter {
                self.params.counter_bonus
            } else {
                0
            };
            let h = self.history[self.hist_index(sm.mv)] >> self.params.hist_shift;
            sm.score = sm
                .score
                .saturating_mul(8)
                .saturating_add(bonus)
                .saturating_add(h);
        }
        self.moves[ply] = list;
    }

    /// Moves the best-scored of `moves[ply][i..]` to index `i` and returns it (the first of
    /// equals, so the order is deterministic). The moves before `i` stay the ones picked.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize) -> ScoredMove {
        let list = &mut self.moves[ply];
        let mut best = i;
        for j in i + 1..list.len() {
            if list[j].score > list[best].score {
                best = j;
            }
        }
        list.swap(i, best);
        list[i]
    }

    /// Orders the node's candidates in `self.moves[ply]`, best first, cut to `beam` (the
    /// root, which walks its whole list every iteration).
    fn order(&mut self, ply: usize, tt_move: Option<Move>, beam: usize) {
        self.score_moves(ply, tt_move);
        // Stable sort keeps the board's own (deterministic) order among equals.
        self.moves[ply].sort_by_key(|s| std::cmp::Reverse(s.score));
        self.moves[ply].truncate(beam);
    }

    /// The node's value, with the node marked busy for the other threads while a deep
    /// enough one is searched (see [`Params::smp_busy_depth`]).
    fn negamax(&mut self, depth: i32, ply: u32, alpha: i32, beta: i32, pv: bool, cut: bool) -> i32 {
        let marked = match self.busy {
            Some(b)
                if depth >= self.params.smp_busy_depth * ONE_PLY
                    && self.excluded.get(ply as usize) == Some(&None) =>
            {
                let key = self.game.key();
                b.enter(key).then_some((b, key))
            }
            _ => None,
        };
        let v = self.node(depth, ply, alpha, beta, pv, cut);
        if let Some((b, key)) = marked {
            b.leave(key);
        }
        v
    }

    /// What every node of the alpha-beta and of the leaf search does first: count itself, and
    /// end at once on a finished game, a stop, the ply limit or a position the codes decide
    /// (no list to build, no table to read).
    fn enter(&mut self, ply: u32) -> Option<i32> {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = self.game.outcome() {
            return Some(self.terminal(o, ply));
        }
        if self.check_abort() {
            return Some(0);
        }
        if ply as usize >= MAX_PLY {
            return Some(self.game.evaluate());
        }
        self.game.decided().map(|v| match v {
            Verdict::Win(n) => mate_in(ply + n),
            Verdict::Loss(n) => mated_in(ply + n),
        })
    }

    fn node(
        &mut self,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        pv: bool,
        cut: bool,
    ) -> i32 {
        if depth <= 0 && G::FOUR_QUIESCENCE {
            return self.qsearch(ply, alpha, beta, 0);
        }
        if let Some(v) = self.enter(ply) {
            return v;
        }
        let p = ply as usize;
        self.evals[p] = NO_EVAL;
        let mut depth = depth;
        let quiescence = depth <= 0;
        if quiescence {
            if self.game.facing_five() {
                // Quiescence: a five threat is answered (its blocks only, no extension)
                // before the position is judged.
                depth = ONE_PLY;
            } else {
                if let Some(w) = self.leaf_vcf() {
                    return mate_in(ply + w.plies);
                }
                return self.game.evaluate();
            }
        }
        // Mate-distance pruning: no line from here beats a win already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension test searches this node without one move: its results get
        // their own key so that they never stand for the whole node's.
        let skip = self.excluded[p];
        let key = match skip {
            Some(m) => self.game.key() ^ excluded_salt(m),
            None => self.game.key(),
        };
        let mut tt_move = None;
        let mut tt_entry = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            tt_entry = Some(e);
            let s = from_tt(e.score, ply);
            if !pv && i32::from(e.depth) * ONE_PLY >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // The static value, where the node has a choice: a node that must answer a five or an
        // open four's threat has none, and its value is what the answers give.
        let threatened = self.game.facing_threat();
        let improving = if !threatened && !quiescence {
            let eval = self.game.evaluate();
            self.evals[p] = eval;
            p < 2 || self.evals[p - 2] == NO_EVAL || eval > self.evals[p - 2]
        } else {
            false
        };
        let eval = self.evals[p];
        if !pv && skip.is_none() && eval != NO_EVAL && !is_decisive(alpha) && !is_decisive(beta) {
            // Reverse futility: far enough above beta that the few plies left will not
            // bring it back. Also where the opponent can make a four: the static value's
            // threat table counts what its fours threaten, and a VCF it does hold is found
            // by the leaf search of fours below the sibling that lets it through. Refusing
            // those nodes (as before) cost more proofs than it saved: docs/results/tactics.md.
            let margin = self.params.rfp_margin
                * (depth - ONE_PLY * i32::from(improving && self.params.rfp_improving))
                / ONE_PLY;
            if depth <= self.params.rfp_depth * ONE_PLY && eval - margin >= beta {
                return eval;
            }
        }

        let likely_fail_high = self.params.fhr_margin > 0
            && !pv
            && cut
            && eval != NO_EVAL
            && !is_decisive(beta)
            && eval >= beta + self.params.fhr_margin * depth / ONE_PLY;
        // A ply less for every move but a four where the node is likely to fail high.
        let fhr = |four: bool| ONE_PLY * i32::from(likely_fail_high && !four);

        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        // Staged: the table move goes first, before the candidates are generated, so that
        // its cutoff saves the generation. Not where a five must be blocked: there the
        // candidate count decides the single-reply extension.
        let staged = tt_move.filter(|&m| {
            !quiescence
                && Some(m) != skip
                && !self.game.facing_five()
                && self.game.check_move(m).is_ok()
                && !self.game.is_forbidden(m)
        });
        if let Some(m) = staged {
            // Singular extension: when the table move was good enough to cut here before
            // and no other move comes near its score in a shallower search without it, the
            // node hangs on that one move, which gets a ply more.
            let mut ext = 0;
            if let Some(e) = tt_entry.filter(|e| {
                self.params.se_depth > 0
                    && p > 0
                    && skip.is_none()
                    && depth >= self.params.se_depth * ONE_PLY
                    && e.bound != Bound::Upper
                    && i32::from(e.depth) * ONE_PLY >= depth - 3 * ONE_PLY
                    && !is_decisive(from_tt(e.score, ply))
            }) {
                let sbeta = from_tt(e.score, ply) - self.params.se_margin * depth / ONE_PLY;
                self.excluded[p] = Some(m);
                let half = (plies(depth) - 1) / 2 * ONE_PLY;
                let v = self.negamax(half, ply, sbeta - 1, sbeta, false, cut);
                self.excluded[p] = None;
                if self.aborted {
                    return 0;
                }
                if v < sbeta {
                    ext = ONE_PLY;
                } else if sbeta >= beta {
                    // Multi-cut: another move beats beta as well.
                    return sbeta;
                }
            }
            let ext = ext - fhr(self.game.move_codes(m)[0].is_four());
            self.play(m);
            let s = -self.negamax(
                depth - ONE_PLY + ext,
                ply + 1,
                -beta,
                -alpha,
                pv,
                !cut && !pv,
            );
            self.game.undo();
            if self.aborted {
                return 0;
            }
            best = s;
            best_move = Some(m);
            if s > alpha {
                alpha = s;
                if s >= beta {
                    self.on_cutoff(p, m, plies(depth));
                    self.tt.store(
                        key,
                        best_move,
                        to_tt(best, ply),
                        plies(depth).clamp(0, 255) as u8,
                        Bound::Lower,
                    );
                    return best;
                }
            }
        }
        let beam = self.params.beam_at(plies(depth));
        self.score_moves(p, tt_move);
        let all = self.moves[p].len();
        let mut n = all.min(beam);
        if n == 0 {
            return if best_move.is_some() { best } else { DRAW };
        }
        // A lone candidate is a forced reply: search it without spending depth.
        let ext = if n == 1 && !quiescence { ONE_PLY } else { 0 };
        let mut searched = usize::from(staged.is_some());
        let mut next = 0;
        // Deferral only where the children are deep enough to be marked busy.
        let busy = self
            .busy
            .filter(|_| depth - ONE_PLY + ext >= self.params.smp_busy_depth * ONE_PLY);
        self.deferred[p].clear();
        let mut next_deferred = 0;
        loop {
            let (
                ScoredMove {
                    mv: m,
                    score: order,
                },
                was_deferred,
            ) = if next < n {
                next += 1;
                (self.pick(p, next - 1), false)
            } else if next_deferred < self.deferred[p].len() {
                next_deferred += 1;
                (self.deferred[p][next_deferred - 1], true)
            } else if n < all && best <= -WIN_MIN && self.params.beam_proof {
                // The beam cut the list and every move searched loses: that is no proof of a
                // loss while a move is left, so the rest are searched too. A mate score must
                // never come from moves the beam left out: it would be played as a forced
                // win that is not one.
                n = all;
                continue;
            } else {
                break;
            };
            if Some(m) == staged || Some(m) == skip {
                continue;
            }
            searched += 1;
            let four = self.game.move_codes(m)[0].is_four();
            let reduced = fhr(four);
            self.play(m);
            // Another thread is in this child: search the other moves first and come back,
            // when its result is likely in the table. Never the node's first move.
            if let Some(b) = busy {
                if !was_deferred && searched > 1 && b.is_busy(self.game.key()) {
                    self.game.undo();
                    searched -= 1;
                    self.deferrals += 1;
                    self.deferred[p].push(ScoredMove {
                        mv: m,
                        score: order,
                    });
                    continue;
                }
            }
            let d = depth - ONE_PLY + ext - reduced;
            let mut s;
            if searched == 1 {
                s = -self.negamax(d, ply + 1, -beta, -alpha, pv, !cut && !pv);
            } else {
                let r = self.reduction(searched - 1, depth, order, pv, cut, improving);
                s = -self.negamax(d - r, ply + 1, -alpha - 1, -alpha, false, true);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(d, ply + 1, -alpha - 1, -alpha, false, !cut);
                }
                if pv && s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(d, ply + 1, -beta, -alpha, true, false);
                }
            }
            self.game.undo();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        self.on_cutoff(p, m, plies(depth));
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            plies(depth).clamp(0, 255) as u8,
            bound,
        );
        best
    }

    /// Killer, counter-move and history credit for a move that caused a beta cutoff.
    fn on_cutoff(&mut self, p: usize, m: Move, depth: i32) {
        let k = &mut self.killers[p];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if let Some(ci) = self.counter_index() {
            self.counters[ci] = Some(m);
        }
        let hi = self.hist_index(m);
        self.history[hi] += depth * depth;
    }

    /// Depth units by which the `i`-th move searched (from 0; ordering score `order`) is
    /// searched shallower first: logarithmic in both depth and move number, as in the chess
    /// engines; tactical moves and PV nodes less, cut nodes and nodes not improving more. A
    /// late four is reduced like any late move: it forces the block, but a four the ordering
    /// put late rarely leads anywhere, and the leaf search still plays out the fours below.
    #[inline]
    fn reduction(
        &self,
        i: usize,
        depth: i32,
        order: i32,
        pv: bool,
        cut: bool,
        improving: bool,
    ) -> i32 {
        if depth < 2 * ONE_PLY {
            return 0;
        }
        let p = &self.params;
        let base =
            (depth as f32 / ONE_PLY as f32).ln() * ((i + 1) as f32).ln() * p.lmr_log as f32 / 100.0;
        let mut r = base as i32 * ONE_PLY;
        if !pv && !improving && r >= ONE_PLY {
            r += ONE_PLY;
        }
        if pv {
            r -= ONE_PLY;
        }
        if cut {
            r += p.lmr_cut;
        }
        if order >= p.lmr_tactical {
            r -= ONE_PLY;
        }
        r.clamp(0, depth - ONE_PLY)
    }

    /// A cheap VCF probe for the side to move at a leaf; its nodes count as search nodes.
    fn leaf_vcf(&mut self) -> Option<ThreatWin> {
        if self.params.leaf_vcf_depth == 0 || !self.game.can_four() {
            return None;
        }
        let limits = ThreatLimits::nodes(self.params.leaf_vcf_nodes);
        let r = self
            .game
            .find_vcf(&mut self.solver, self.params.leaf_vcf_depth, &limits);
        self.nodes += self.solver.nodes();
        r
    }

    /// Searches the root to `depth` inside the window; returns the score and best move, or
    /// `None` when aborted before any root move finished.
    fn root(&mut self, depth: i32, alpha0: i32, beta: i32) -> Option<(i32, Move)> {
        self.nodes += 1;
        let mut alpha = alpha0;
        let key = self.game.key();
        let tt_move = self.tt.probe(key).and_then(|e| e.mv);
        self.order(0, tt_move, self.params.root_beam);
        let limits = self.limits;
        self.moves[0].retain(|s| !limits.exclude.contains(&s.mv));
        let n = self.moves[0].len();
        let mut best: Option<(i32, Move)> = None;
        self.root_scores.clear();
        self.root_playable = 0;
        for i in 0..n {
            let m = self.moves[0][i].mv;
            // Inside the tree a renju black left with fouls only plays one and loses; at the
            // root the engine never answers a foul (the caller reports "no legal move").
            if self.game.is_forbidden(m) {
                continue;
            }
            self.root_playable += 1;
            self.play(m);
            let mut s;
            if best.is_none() {
                s = -self.negamax(depth - ONE_PLY, 1, -beta, -alpha, true, false);
            } else {
                s = -self.negamax(depth - ONE_PLY, 1, -alpha - 1, -alpha, false, true);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(depth - ONE_PLY, 1, -beta, -alpha, true, false);
                }
            }
            self.game.undo();
            if self.aborted {
                break;
            }
            match best {
                Some((b, _)) if s > b => {
                    self.root_changes += 1;
                    best = Some((s, m));
                }
                None => best = Some((s, m)),
                _ => {}
            }
            self.root_scores.push((s, m));
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
        if let Some((s, m)) = best {
            if !self.aborted {
                let bound = if s >= beta {
                    Bound::Lower
                } else if s > alpha0 {
                    Bound::Exact
                } else {
                    Bound::Upper
                };
                // After a fail low every score is an upper bound and the "best" move is only
                // the one whose bound came out highest: it must not displace the previous
                // best as the table move the next pass searches first.
                let mv = (bound != Bound::Upper).then_some(m);
                self.tt
                    .store(key, mv, s, plies(depth).clamp(0, 255) as u8, bound);
            }
        }
        best
    }

    /// The principal variation read back from the transposition table.
    fn pv_line(&mut self, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        self.game.play(first);
        let mut played = 1;
        while line.len() < max && self.game.outcome().is_none() {
            let Some(m) = self.tt.probe(self.game.key()).and_then(|e| e.mv) else {
                break;
            };
            if self.game.check_move(m).is_err() {
                break;
            }
            self.game.play(m);
            played += 1;
            line.push(m);
        }
        for _ in 0..played {
            self.game.undo();
        }
        line
    }

    /// Whether the next iteration must not start: past the soft target. With a per-move
    /// clock only, never: the time a move leaves is lost, not banked, so the search deepens
    /// until the hard limit cuts it (an unfinished iteration still counts, see
    /// [`Worker::iterate`]). With a match clock and [`Params::time_pace`], the target moves
    /// with how settled the search is (`score`: the last iteration's), and a single playable
    /// root move ends it.
    fn past_soft_limit(&self, start: Instant, score: i32) -> bool {
        let l = self.limits;
        let soft = match (l.per_move, l.maximum) {
            (true, Some(_)) => return false,
            _ => {
                let Some(opt) = l.optimum else {
                    return false;
                };
                // A soft target at the hard limit asks for the whole time (analysis).
                let paced = self.params.time_pace && l.optimum != l.maximum;
                if !paced {
                    opt
                } else if self.root_playable == 1 {
                    return true;
                } else {
                    let drop = l
                        .prev_score
                        .filter(|_| !is_decisive(score))
                        .map_or(0, |p| i64::from(p) - i64::from(score));
                    let opt = opt.saturating_duration_since(start);
                    let max = l.maximum.map_or(opt.saturating_mul(2), |m| {
                        m.saturating_duration_since(start)
                    });
                    let w = self.params.pace_weights();
                    start + self.pacing.soft_target(&w, drop, opt, max)
                }
            }
        };
        let soft = l.maximum.map_or(soft, |m| soft.min(m));
        Instant::now() >= soft
    }

    /// Iterative deepening. Returns the best move of the deepest finished iteration (or of
    /// an unfinished one whose first moves were searched) and reports each iteration.
    fn iterate(
        &mut self,
        first_depth: u32,
        report: &mut dyn FnMut(&Iteration),
        start: Instant,
    ) -> Option<SearchResult> {
        let max_depth = self
            .limits
            .max_depth
            .unwrap_or(self.params.max_depth)
            .min(self.params.max_depth)
            .max(1);
        let mut result: Option<SearchResult> = None;
        let mut prev = 0;
        let mut depth = first_depth.min(max_depth);
        while depth <= max_depth {
            self.seldepth = 0;
            let mut delta = self.params.aspiration;
            let (mut lo, mut hi) = if depth >= 4 && !is_decisive(prev) {
                (prev - delta, prev + delta)
            } else {
                (-INFINITE, INFINITE)
            };
            let found = loop {
                let r = self.root(depth as i32 * ONE_PLY, lo, hi);
                if self.aborted {
                    break r;
                }
                match r {
                    Some((s, _)) if s <= lo && lo > -INFINITE => {
                        lo = (s - delta).max(-INFINITE);
                    }
                    Some((s, _)) if s >= hi && hi < INFINITE => {
                        hi = (s + delta).min(INFINITE);
                    }
                    _ => break r,
                }
                delta *= 3;
                if delta > 2000 {
                    lo = -INFINITE;
                    hi = INFINITE;
                }
            };
            let Some((s, m)) = found else { break };
            if self.aborted {
                if let Some(r) = result.as_mut() {
                    if let Some(m) = unfinished_best(r.best, (s, m), lo, &self.root_scores) {
                        log::debug!(
                            "unfinished depth {depth}: {m:?} ({s}) replaces {:?}",
                            r.best
                        );
                        r.best = m;
                        r.score = s;
                        r.nodes = self.nodes;
                        r.pv = vec![m];
                    }
                    break;
                }
            }
            prev = s;
            let pv = self.pv_line(m, depth as usize + 4);
            let it = Iteration {
                depth,
                seldepth: self.seldepth,
                score: s,
                nodes: self.nodes,
                elapsed_ms: start.elapsed().as_millis() as u64,
                pv: pv.clone(),
            };
            if self.main {
                report(&it);
            }
            result = Some(SearchResult {
                best: m,
                score: s,
                depth,
                nodes: self.nodes,
                pv,
            });
            self.pacing.iteration_done(m, self.root_changes);
            self.root_changes = 0;
            if !self.aborted {
                let mut scored = self.root_scores.clone();
                scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
                self.root_order = scored.into_iter().map(|(_, m)| m).collect();
            }
            if self.aborted || s >= score::mate_in(depth) || s <= -WIN_MIN {
                // A proven result does not change with more depth.
                break;
            }
            if self.main && self.past_soft_limit(start, s) {
                break;
            }
            depth += 1;
        }
        result
    }
}

/// The move an unfinished iteration plays instead of `prev`, the last finished iteration's
/// best: the unfinished root's best `found` (score, move), only where that root finished
/// searching `prev` (`searched`: the root moves whose search finished, with their scores)
/// and `found` then beat it inside the window (above `lo`: at or below it a score is only
/// an upper bound). The root searches its table move first, and after a failed aspiration
/// pass that is not always `prev`: a move searched before `prev` was reached proves nothing
/// against it. (Taking it anyway once played a move the search scored −29,974, lost, over
/// one at −214.)
fn unfinished_best(
    prev: Move,
    found: (i32, Move),
    lo: i32,
    searched: &[(i32, Move)],
) -> Option<Move> {
    let (s, m) = found;
    let prev_score = searched.iter().find(|&&(_, pm)| pm == prev)?.0;
    (m != prev && s > lo && s > prev_score).then_some(m)
}

/// The answer for a win the root threat search proved: reported as a one-ply iteration
/// with its mate score and line.
fn threat_result(
    (w, nodes, line): (ThreatWin, u64, Vec<Move>),
    start: Instant,
    report: &mut dyn FnMut(&Iteration),
) -> SearchResult {
    let it = Iteration {
        depth: 1,
        seldepth: w.plies,
        score: mate_in(w.plies),
        nodes,
        elapsed_ms: start.elapsed().as_millis() as u64,
        pv: if line.first() == Some(&w.mv) {
            line
        } else {
            vec![w.mv]
        },
    };
    report(&it);
    SearchResult {
        best: w.mv,
        score: it.score,
        depth: 1,
        nodes,
        pv: it.pv,
    }
}

/// Searches `game` within `limits` and returns the move to play, or `None` when the
/// position has no move (game over or no candidate). Uses `limits.threads` threads
/// (Lazy SMP on the given rayon pool, or the calling thread alone when there is no pool).
pub fn search<G: Tactics>(
    game: &G,
    tt: &Arc<TranspositionTable>,
    limits: &Limits,
    stop: &Stop,
    params: Params,
    pool: Option<&rayon::ThreadPool>,
    report: &mut dyn FnMut(&Iteration),
) -> Option<SearchResult> {
    if game.outcome().is_some() {
        return None;
    }
    let start = limits.start.unwrap_or_else(Instant::now);
    let threads = if pool.is_some() {
        limits.threads.max(1)
    } else {
        1
    };
    // With a helper, the root VCT runs in it beside the main search (and may take longer).
    let vct_beside = threads > 1 && params.smp_vct_permille > 0;
    let entered = Instant::now();
    if let Some(win) = root_threats(game, limits, stop, &params, !vct_beside) {
        log::info!(
            "time: a root threat search proved a win at {:.1} ms",
            start.elapsed().as_secs_f64() * 1000.0
        );
        return Some(threat_result(win, start, report));
    }
    let threats_done = Instant::now();
    tt.new_search();
    // `done` ends the helpers once the main thread has its move; `found` ends the main
    // thread when the helper's VCT proves a win, which `vct_win` then holds.
    let (done, found) = (Stop::new(), Stop::new());
    let vct_win = Arc::new(parking_lot::Mutex::new(None));
    let busy = (threads > 1).then(|| Arc::new(BusyTable::default()));
    let run_main = |report: &mut dyn FnMut(&Iteration)| {
        let mut w = Worker::new(game.clone(), tt, limits, stop, &found, true, params)
            .sharing(busy.as_deref());
        let r = w.iterate(1, report, start);
        done.set();
        (r, std::mem::take(&mut w.root_order))
    };
    if let Some(pool) = pool {
        // Helpers own what they use, so the main thread never waits for them: on a busy
        // machine a helper may not run again for a while, and the move must not wait for
        // it to notice `done`. A helper still unwinding when the next search starts only
        // shares the table with it.
        for i in 1..threads {
            let (game, tt, limits) = (game.clone(), Arc::clone(tt), limits.clone());
            let (stop, done, found, busy) =
                (stop.clone(), done.clone(), found.clone(), busy.clone());
            let vct_win = Arc::clone(&vct_win);
            pool.spawn(move || {
                if i == 1 && vct_beside {
                    if let Some(win) = parallel_vct(&game, &limits, &done, &params) {
                        *vct_win.lock() = Some(win);
                        found.set();
                        return;
                    }
                }
                let mut w = Worker::new(game, &tt, &limits, &stop, &done, false, params)
                    .sharing(busy.as_deref());
                let mut sink = |_: &Iteration| {};
                w.iterate(1 + (i as u32 % 2), &mut sink, start);
            });
        }
    }
    let (result, root_order) = run_main(report);
    if let Some(win) = vct_win.lock().take() {
        return Some(threat_result(win, start, report));
    }
    let searched = Instant::now();
    let result = result.map(|r| safety_check(game, r, &root_order, limits, stop, &params));
    // Where the move's time went (`RUST_LOG=info`): scripts/time-use.py sums these lines of
    // a tournament's logs into the alpha-beta's share of the turn.
    let ms = |a: Instant, b: Instant| b.saturating_duration_since(a).as_secs_f64() * 1000.0;
    let checked = Instant::now();
    log::info!(
        "time: before {:.1} ms, threats {:.1} ms, alpha-beta {:.1} ms, safety {:.1} ms, \
         done at {:.1} ms of {:.1} ms",
        ms(start, entered),
        ms(entered, threats_done),
        ms(threats_done, searched),
        ms(searched, checked),
        ms(start, checked),
        limits.maximum.map_or(0.0, |m| ms(start, m)),
    );
    result.or_else(|| fallback(game, &limits.exclude))
}

#[cfg(test)]
mod tests {
    #[test]
    fn params_are_set_by_name_and_bad_ones_refused() {
        let mut p = Params::default();
        p.set("beam", "12").unwrap();
        p.set("se_margin", " 7").unwrap();
        assert_eq!((p.beam, p.se_margin), (12, 7));
        assert_eq!(
            p.set("beam", "x"),
            Err(ParamError::BadValue("beam".into(), "x".into()))
        );
        assert_eq!(p.set("nope", "1"), Err(ParamError::Unknown("nope".into())));
        assert_eq!(p.beam, 12);
        // The counter move's bonus never passes the second killer's, whatever is asked for.
        p.set("counter_bonus", "99999999").unwrap();
        assert_eq!(p.counter_bonus, 1 << 19);
        // The cut-node reduction in sixteenths stays within four plies, and never extends.
        p.set("lmr_cut", "99").unwrap();
        assert_eq!(p.lmr_cut, 64);
        p.set("lmr_cut", "-5").unwrap();
        assert_eq!(p.lmr_cut, 0);
    }

    #[test]
    fn the_beam_narrows_towards_the_frontier() {
        let mut p = Params {
            beam_min: 40,
            beam_step: 0,
            ..Params::default()
        };
        assert_eq!((p.beam_at(1), p.beam_at(9)), (40, 40));
        p.beam_min = 8;
        p.beam_step = 5;
        assert_eq!(
            (p.beam_at(0), p.beam_at(1), p.beam_at(3), p.beam_at(20)),
            (8, 8, 18, 40)
        );
    }

    use super::*;
    use crate::game::gomoku::{Board, Freestyle};
    use crate::game::{Color, Game};

    /// A 15×15 freestyle board with black stones on `black`, white's three in far corners
    /// (so the stone counts allow `to_move`), and `to_move` to play.
    fn freestyle_15(black: &[(usize, usize)], to_move: Color) -> Board<Freestyle> {
        let mut rows = vec![vec!['.'; 15]; 15];
        for &(x, y) in black {
            rows[y][x] = 'X';
        }
        for (x, y) in [(1, 1), (13, 13), (1, 13)] {
            rows[y][x] = 'O';
        }
        let pic: String = rows
            .iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect();
        Board::<Freestyle>::from_ascii(&pic, to_move).unwrap()
    }

    /// One search of `b` within `limits` on a fresh table, one thread, default parameters.
    fn search_once(b: &Board<Freestyle>, limits: &Limits) -> Option<SearchResult> {
        let tt = Arc::new(TranspositionTable::new());
        search(
            b,
            &tt,
            limits,
            &Stop::new(),
            Params::default(),
            None,
            &mut |_| {},
        )
    }

    /// Past the soft target no new iteration starts, unless only a per-move limit binds:
    /// then time saved is lost, and the search deepens towards the hard limit.
    #[test]
    fn a_per_move_clock_spends_the_turn() {
        let b = freestyle_15(&[(5, 7), (9, 9)], Color::White);
        let depth_reached = |per_move: bool| {
            let mut tt = TranspositionTable::new();
            tt.resize(1 << 20);
            let tt = Arc::new(tt);
            let now = Instant::now();
            let limits = Limits {
                start: Some(now),
                optimum: Some(now),
                maximum: Some(now + std::time::Duration::from_millis(400)),
                per_move,
                max_depth: Some(3),
                threads: 1,
                ..Limits::default()
            };
            let r = search(
                &b,
                &tt,
                &limits,
                &Stop::new(),
                Params::default(),
                None,
                &mut |_| {},
            );
            r.unwrap().depth
        };
        assert_eq!(depth_reached(false), 1);
        assert_eq!(depth_reached(true), 3);
    }

    /// The main thread notes the gaps between its clock reads where the limits ask for them.
    #[test]
    fn a_search_notes_its_longest_clock_gap() {
        let b = freestyle_15(&[(5, 7), (9, 9), (6, 8)], Color::White);
        let meter = Arc::new(crate::base::StallMeter::default());
        let now = Instant::now();
        let limits = Limits {
            start: Some(now),
            maximum: Some(now + std::time::Duration::from_millis(60)),
            per_move: true,
            threads: 1,
            stalls: Some(Arc::clone(&meter)),
            ..Limits::default()
        };
        assert!(search_once(&b, &limits).is_some());
        // Between two reads of one search: more than nothing, never more than the search.
        let gap = meter.take();
        assert!(
            gap > std::time::Duration::ZERO && gap <= now.elapsed(),
            "{gap:?}"
        );
    }

    /// With a match clock and pacing on, a root whose only playable move is the block of a
    /// four stops after its first iteration: the clock the search would have spent goes to
    /// later moves. Off, the same search deepens to its depth cap.
    #[test]
    fn a_single_root_move_is_played_at_once_under_a_match_clock() {
        let b = freestyle_15(&[(0, 7), (1, 7), (2, 7), (3, 7)], Color::White);
        let run = |time_pace: bool| {
            let tt = Arc::new(TranspositionTable::new());
            let now = Instant::now();
            let limits = Limits {
                start: Some(now),
                optimum: Some(now + std::time::Duration::from_secs(20)),
                maximum: Some(now + std::time::Duration::from_secs(40)),
                per_move: false,
                max_depth: Some(4),
                threads: 1,
                ..Limits::default()
            };
            let params = Params {
                time_pace,
                ..Params::default()
            };
            search(&b, &tt, &limits, &Stop::new(), params, None, &mut |_| {}).unwrap()
        };
        let paced = run(true);
        assert_eq!((paced.best, paced.depth), (Move::new(4, 7), 1));
        let plain = run(false);
        assert_eq!((plain.best, plain.depth), (Move::new(4, 7), 4));
    }

    /// An unfinished iteration's move replaces the last finished one's only where the
    /// unfinished root finished the old move and then beat it inside the window.
    #[test]
    fn an_unfinished_iteration_replaces_the_move_only_after_beating_it() {
        let (prev, other) = (Move::new(7, 10), Move::new(9, 13));
        // The old move's search was cut off: whatever came before it proves nothing (the
        // game that showed it: a lost move, −29,974, played over one at −214).
        assert_eq!(
            unfinished_best(prev, (-29_974, other), -30_001, &[(-29_974, other)]),
            None
        );
        assert_eq!(
            unfinished_best(prev, (40, other), -100, &[(40, other)]),
            None
        );
        // Searched first and beaten inside the window: the better move.
        assert_eq!(
            unfinished_best(prev, (40, other), -100, &[(-20, prev), (40, other)]),
            Some(other)
        );
        // The old move failed low (an upper bound at `lo`), the new one scored above it.
        assert_eq!(
            unfinished_best(prev, (-330, other), -473, &[(-473, prev), (-330, other)]),
            Some(other)
        );
        // Only an upper bound itself, or no better than the old move: kept.
        assert_eq!(
            unfinished_best(prev, (-473, other), -473, &[(-500, prev)]),
            None
        );
        assert_eq!(
            unfinished_best(prev, (-20, other), -100, &[(-20, prev)]),
            None
        );
        assert_eq!(unfinished_best(prev, (50, prev), -100, &[(50, prev)]), None);
    }

    /// Black has an open three. White's far-away move loses to the straight four, so the
    /// safety check replaces it by the next root move, a block.
    #[test]
    fn safety_check_replaces_a_move_that_allows_a_vct() {
        let b = freestyle_15(&[(5, 7), (6, 7), (7, 7)], Color::White);
        let far = Move::new(0, 14);
        let block = Move::new(8, 7);
        let r = SearchResult {
            best: far,
            score: 10,
            depth: 3,
            nodes: 1,
            pv: vec![far],
        };
        let params = Params::default();
        let limits = Limits::depth(3);
        let stop = Stop::new();
        let kept = safety_check(&b, r.clone(), &[far, block], &limits, &stop, &params);
        assert_eq!(kept.best, block);
        // Switched off, the move stands.
        let off = Params {
            safety_vct_nodes: 0,
            ..params
        };
        let kept = safety_check(&b, r, &[far, block], &limits, &stop, &off);
        assert_eq!(kept.best, far);
    }

    /// A win by three fours is seen at depth 1 with every threat solver switched off: the
    /// quiescence search plays the fours out at the leaves, or the cell codes decide it.
    #[test]
    fn quiescence_finds_a_vcf_behind_a_one_ply_search() {
        let pic = "
            ............O..
            ...........X...
            ..........X....
            ........OX.....
            ...............
            ........X......
            ........X......
            ...OXXX........
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............";
        let b = Board::<Freestyle>::from_ascii(pic, Color::Black).unwrap();
        let no_solvers = Params {
            root_vcf_depth: 0,
            root_vct_depth: 0,
            leaf_vcf_depth: 0,
            ..Params::default()
        };
        let run = |params: Params| {
            let tt = Arc::new(TranspositionTable::new());
            search(
                &b,
                &tt,
                &Limits::depth(1),
                &Stop::new(),
                params,
                None,
                &mut |_| {},
            )
            .unwrap()
        };
        let r = run(no_solvers);
        assert!(r.score >= WIN_MIN, "{r:?}");
        // With no quiescence moves at all the search still answers the five threat at the
        // leaf, and behind the block the codes decide the rest (a double four): the same
        // win, found without a single quiescence four.
        let r = run(Params {
            qs_max: 0,
            ..no_solvers
        });
        assert_eq!(r.score, mate_in(5), "{r:?}");
    }

    #[test]
    fn search_finds_a_double_three_win_and_reports_a_mate_score() {
        let b = freestyle_15(&[(6, 7), (7, 7), (8, 5), (8, 6)], Color::Black);
        let tt = Arc::new(TranspositionTable::new());
        let mut seen = Vec::new();
        let mut report = |it: &Iteration| seen.push(it.clone());
        let r = search(
            &b,
            &tt,
            &Limits::depth(4),
            &Stop::new(),
            Params::default(),
            None,
            &mut report,
        )
        .unwrap();
        assert_eq!(r.best, Move::new(8, 7));
        assert!(r.score >= WIN_MIN);
        assert_eq!(seen.last().map(|it| it.pv[0]), Some(Move::new(8, 7)));
    }

    /// With two threads the root VCT runs in the helper beside the main search, not before
    /// it; the win it proves ends the main search and is played.
    #[test]
    fn two_threads_play_the_helpers_vct_win() {
        let b = freestyle_15(&[(6, 7), (7, 7), (8, 5), (8, 6)], Color::Black);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let now = Instant::now();
        let limits = Limits {
            start: Some(now),
            optimum: Some(now + std::time::Duration::from_secs(10)),
            maximum: Some(now + std::time::Duration::from_secs(20)),
            per_move: false,
            threads: 2,
            ..Limits::default()
        };
        let params = Params {
            leaf_vcf_depth: 0,
            qs_max: 0,
            ..Params::default()
        };
        let tt = Arc::new(TranspositionTable::new());
        let mut seen = Vec::new();
        let mut report = |it: &Iteration| seen.push(it.clone());
        let r = search(
            &b,
            &tt,
            &limits,
            &Stop::new(),
            params,
            Some(&pool),
            &mut report,
        )
        .unwrap();
        // Which thread proves the win first depends on scheduling (on a loaded machine the
        // main search may reach depth 5 before the helper runs): both must play it.
        assert_eq!(r.best, Move::new(8, 7), "{r:?}");
        assert!(r.score >= WIN_MIN, "{r:?}");
        assert_eq!(seen.last().map(|it| it.score), Some(r.score));
        // The helper's part alone proves it.
        let (w, _, line) = parallel_vct(&b, &limits, &Stop::new(), &params).unwrap();
        assert_eq!((w.mv, line), (Move::new(8, 7), vec![Move::new(8, 7)]));
    }

    /// A thread that finds the positions after its moves busy (another thread in them)
    /// puts those moves off, yet searches every one in the end. With everything that makes
    /// the tree depend on the move order turned off (reductions, pruning, the beam, the
    /// table), a fixed-depth search has one value whatever the order: marking every position
    /// two plies down busy must change the order, never the value or the best move.
    #[test]
    fn busy_children_are_deferred_and_still_searched() {
        let pic = "
            ...............
            ...............
            ...............
            ...............
            ...............
            ......O........
            .....XXO.......
            ......XO.......
            .....X.X.......
            ....O..........
            ...............
            ...............
            ...............
            ...............
            ...............";
        let b = Board::<Freestyle>::from_ascii(pic, Color::White).unwrap();
        let busy = BusyTable::default();
        let mut g = b.clone();
        let (mut moves, mut replies) = (Vec::new(), Vec::new());
        g.candidates(&mut moves);
        for m in moves.iter().map(|s| s.mv) {
            g.play(m);
            g.candidates(&mut replies);
            for m2 in replies.iter().map(|s| s.mv) {
                g.play(m2);
                busy.enter(g.key());
                g.undo();
            }
            g.undo();
        }
        let params = Params {
            smp_busy_depth: 1,
            root_vcf_depth: 0,
            root_vct_depth: 0,
            safety_vct_nodes: 0,
            beam: 1000,
            root_beam: 1000,
            beam_min: 1000,
            lmr_log: 0,
            lmr_cut: 0,
            rfp_depth: 0,
            ..Params::default()
        };
        let tt = TranspositionTable::new();
        let limits = Limits::depth(3);
        let (stop, done) = (Stop::new(), Stop::new());
        let run = |busy: Option<&BusyTable>| {
            let mut w =
                Worker::new(b.clone(), &tt, &limits, &stop, &done, true, params).sharing(busy);
            let r = w.iterate(1, &mut |_| {}, Instant::now()).unwrap();
            (r.score, r.best, w.deferrals)
        };
        let (score, best, none) = run(None);
        let (busy_score, busy_best, deferred) = run(Some(&busy));
        assert_eq!(none, 0);
        assert!(deferred > 10, "only {deferred} moves deferred");
        assert_eq!((busy_score, busy_best), (score, best));
    }
}
