//! What the alpha-beta search does at the root around its iterations: the threat searches
//! before them, the safety check of the chosen move after them, and a fallback move when
//! there was no time for even one iteration.

use super::params::Params;
use super::threats::{Solver, Tactics, ThreatLimits, ThreatWin};
use crate::game::{Game, Move};
use crate::search::score::is_decisive;
use crate::search::{Limits, SearchResult, Stop};
use std::time::Instant;

/// Replaces a best move after which the opponent has a VCT by the next root move that
/// leaves it none (trying at most `params.safety_moves`, while time lasts). A proven win or
/// loss is kept: the main search already knows the answer there.
pub(super) fn safety_check<G: Tactics>(
    game: &G,
    r: SearchResult,
    root_order: &[Move],
    limits: &Limits,
    stop: &Stop,
    params: &Params,
) -> SearchResult {
    if params.safety_vct_nodes == 0 || params.root_vct_depth == 0 || is_decisive(r.score) {
        return r;
    }
    let mut g = game.clone();
    let mut solver = Solver::new(1 << 16);
    let tl = ThreatLimits {
        max_nodes: params.safety_vct_nodes,
        deadline: limits.maximum,
        stop: Some(stop.clone()),
    };
    let order = std::iter::once(r.best).chain(root_order.iter().copied().filter(|&m| m != r.best));
    for m in order
        .filter(|m| !limits.exclude.contains(m))
        .take(params.safety_moves)
    {
        if stop.is_set() || limits.past_maximum() {
            break;
        }
        g.play(m);
        let lost = g.find_vct(
            &mut solver,
            params.root_vct_depth,
            params.vct_vcf_depth,
            &tl,
        );
        g.undo();
        // Not found (a bound ran out included): not proven lost, so playable.
        if lost.is_none() {
            if m == r.best {
                return r;
            }
            log::debug!("safety: {m:?} replaces {:?} ({})", r.best, r.score);
            return SearchResult {
                best: m,
                pv: vec![m],
                ..r
            };
        }
    }
    r
}

/// Whether a threat win found at the root may be played: moves the engine was told not
/// to play (`YXBLOCK`, n-best exclusions) and renju fouls are no wins.
fn playable<G: Tactics>(g: &G, w: ThreatWin, limits: &Limits) -> bool {
    g.check_move(w.mv).is_ok() && !g.is_forbidden(w.mv) && !limits.exclude.contains(&w.mv)
}

/// The instant `permille` of the way from the search's start to its soft target, never
/// past the hard limit (the hard limit alone when there is no soft target).
fn share_of_soft_target(limits: &Limits, permille: u32) -> Option<Instant> {
    match (limits.start, limits.optimum) {
        (Some(start), Some(opt)) => {
            let t = start + opt.saturating_duration_since(start) * permille / 1000;
            Some(limits.maximum.map_or(t, |m| m.min(t)))
        }
        _ => limits.maximum,
    }
}

/// The threat searches run once before the main search: a VCF, then (when `with_vct`) a
/// VCT, together on a share of the soft time target. A proven win is played at once; the
/// answer is the win, the threat nodes spent and the line (the whole VCF; the first move of
/// a VCT).
pub(super) fn root_threats<G: Tactics>(
    game: &G,
    limits: &Limits,
    stop: &Stop,
    params: &Params,
    with_vct: bool,
) -> Option<(ThreatWin, u64, Vec<Move>)> {
    let mut g = game.clone();
    let mut solver = Solver::new(1 << 18);
    let mut tl = ThreatLimits {
        max_nodes: params.root_vcf_nodes,
        deadline: share_of_soft_target(limits, params.root_vct_time_permille),
        stop: Some(stop.clone()),
    };
    if let Some(w) = g.find_vcf(&mut solver, params.root_vcf_depth, &tl) {
        if playable(&g, w, limits) {
            return Some((w, solver.total_nodes, solver.vcf_line()));
        }
    }
    if !with_vct {
        return None;
    }
    tl.max_nodes = params.root_vct_nodes;
    root_vct(&mut g, &mut solver, limits, params, &tl)
}

/// The root VCT within `tl`, its win when it is playable.
fn root_vct<G: Tactics>(
    g: &mut G,
    solver: &mut Solver,
    limits: &Limits,
    params: &Params,
    tl: &ThreatLimits,
) -> Option<(ThreatWin, u64, Vec<Move>)> {
    if params.root_vct_depth == 0 {
        return None;
    }
    let w = g.find_vct(solver, params.root_vct_depth, params.vct_vcf_depth, tl)?;
    playable(g, w, limits).then_some((w, solver.total_nodes, vec![w.mv]))
}

/// The root VCT as a helper thread runs it beside the main search (see
/// [`Params::smp_vct_permille`]): a larger share of the soft target and of nodes than the
/// sequential one gets, since the main search does not wait for it. `stop` ends it early.
pub(super) fn parallel_vct<G: Tactics>(
    game: &G,
    limits: &Limits,
    stop: &Stop,
    params: &Params,
) -> Option<(ThreatWin, u64, Vec<Move>)> {
    let tl = ThreatLimits {
        max_nodes: params.smp_vct_nodes,
        deadline: share_of_soft_target(limits, params.smp_vct_permille),
        stop: Some(stop.clone()),
    };
    let mut solver = Solver::new(1 << 18);
    root_vct(&mut game.clone(), &mut solver, limits, params, &tl)
}

/// A move when the search had no time for even one iteration (or every root candidate is
/// excluded): the best-ordered allowed candidate, else the first allowed legal move.
pub(super) fn fallback<G: Game>(game: &G, exclude: &[Move]) -> Option<SearchResult> {
    let mut list = Vec::new();
    game.candidates(&mut list);
    // Renju: a forbidden cell is legal but loses at once; with only those left there is
    // no move to give, and the engine reports that instead of choosing one.
    let best = list
        .iter()
        .filter(|s| !exclude.contains(&s.mv) && !game.is_forbidden(s.mv))
        .max_by_key(|s| s.score)
        .map(|s| s.mv)
        .or_else(|| {
            game.legal_moves()
                .into_iter()
                .find(|&m| !exclude.contains(&m) && !game.is_forbidden(m))
        })?;
    Some(SearchResult {
        best,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![best],
    })
}
