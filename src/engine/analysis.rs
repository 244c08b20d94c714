//! Analysis for people and GUIs: the n best lines (`YXNBEST`), the defence search
//! (`YXSEARCHDEFEND`), and the debugging reports (`TRACEBOARD`, `TRACESEARCH`).

use super::{Engine, EngineError};
use crate::game::{Color, Game, Move};
use crate::search::gomoku::threats::{Solver, ThreatLimits, ThreatWin};
use crate::search::score;
use crate::search::{Iteration, Limits, SearchResult, Stop};

impl Engine {
    /// The `n` best root moves, best first (`YXNBEST`): one search per line, each excluding
    /// the blocked moves and the lines found before it, sharing the time of `limits` evenly.
    /// `report(i, iteration)` sees each line's iterations. The best move is then played, as a
    /// manager expects after a move request. Fewer than `n` lines come back when the
    /// position has fewer moves or the stop flag is raised.
    pub fn nbest(
        &mut self,
        n: usize,
        limits: Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
    ) -> Result<Vec<SearchResult>, EngineError> {
        let lines = self.multi_pv(n, &limits, stop, report, |_| true)?;
        let best = lines.first().ok_or(EngineError::NoMove)?.best;
        self.commit_own(best)?;
        Ok(lines)
    }

    /// Defence search (`YXSEARCHDEFEND`): every root move that does not lose by force, up to
    /// [`DEFEND_MAX_LINES`], best first; the lines stop at the first proven loss, which is
    /// returned too so the caller can show it. Plays the best line's move.
    pub fn search_defend(
        &mut self,
        limits: Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
    ) -> Result<Vec<SearchResult>, EngineError> {
        let lines = self.multi_pv(DEFEND_MAX_LINES, &limits, stop, report, |r| {
            r.score > -score::WIN_MIN
        })?;
        let best = lines.first().ok_or(EngineError::NoMove)?.best;
        self.commit_own(best)?;
        Ok(lines)
    }

    /// Up to `n` searches of the current position, each excluding the earlier lines' first
    /// moves; stops after the first line `go_on` rejects (that line is kept).
    fn multi_pv(
        &mut self,
        n: usize,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
        go_on: impl Fn(&SearchResult) -> bool,
    ) -> Result<Vec<SearchResult>, EngineError> {
        if let Some(e) = self.take_pending_error() {
            return Err(e);
        }
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if g.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        let n = n.max(1);
        let mut lines: Vec<SearchResult> = Vec::new();
        let mut exclude = limits.exclude.clone();
        exclude.extend(self.blocked.iter().copied());
        for i in 0..n {
            if i > 0 && stop.is_set() {
                break;
            }
            let now = std::time::Instant::now();
            let share = |t: Option<std::time::Instant>| {
                t.map(|t| now + t.saturating_duration_since(now) / (n - i) as u32)
            };
            let line_limits = Limits {
                start: Some(now),
                optimum: share(limits.optimum),
                maximum: share(limits.maximum),
                exclude: exclude.clone(),
                ..limits.clone()
            };
            let mut rep = |it: &Iteration| report(i, it);
            let r = match self.search_current(&line_limits, stop, &mut rep) {
                Ok(r) => r,
                Err(EngineError::NoMove) if i > 0 => break,
                Err(e) => return Err(e),
            };
            // A mover that ignores exclusions (Connect Four, m,n,k) repeats itself, and a
            // depth-0 answer is the fallback once every root candidate is excluded (the
            // forced-move rules left nothing else worth a line): either ends the list.
            if exclude.contains(&r.best) || (i > 0 && r.depth == 0) {
                break;
            }
            exclude.push(r.best);
            let more = go_on(&r);
            lines.push(r);
            if !more {
                break;
            }
        }
        Ok(lines)
    }

    /// The debugging report of the current position (`TRACEBOARD`): side to move, static
    /// evaluation, and the mode's best candidates with their ordering score and the static
    /// evaluation after each (for the side that played it).
    pub fn trace(&self) -> Result<Trace, EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let mut list = Vec::new();
        g.candidates(&mut list);
        list.truncate(TRACE_CANDIDATES);
        let mut scratch = g.clone();
        let candidates = list
            .iter()
            .map(|c| {
                scratch.play(c.mv);
                let after = -scratch.evaluate();
                scratch.undo();
                (c.mv, c.score, after)
            })
            .collect();
        Ok(Trace {
            to_move: g.side_to_move(),
            ply: g.ply(),
            eval: g.evaluate(),
            outcome: g.outcome(),
            candidates,
            blocked: self.blocked.clone(),
        })
    }

    /// A short analysis of the current position that plays nothing (`TRACESEARCH`): the
    /// `n` best lines, each searched to `depth` plies at most within `limits`.
    pub fn analyse(
        &mut self,
        n: usize,
        depth: u32,
        limits: Limits,
        stop: &Stop,
    ) -> Result<Vec<SearchResult>, EngineError> {
        // A person asked: use the whole move time (not the soft target) up to the depth cap.
        let limits = Limits {
            max_depth: Some(limits.max_depth.map_or(depth, |d| d.min(depth))),
            optimum: limits.maximum,
            ..limits
        };
        let mut sink = |_: usize, _: &Iteration| {};
        self.multi_pv(n, &limits, stop, &mut sink, |_| true)
    }
    /// The threat solver's own verdict for the side to move (`TRACESEARCH`): a VCF search,
    /// then a VCT search, on the current position with the budgets the search's root threat
    /// step uses (`params.root_vcf_*`, `params.root_vct_*`), bounded also by `limits`'
    /// hard deadline and `stop`. Blocked moves and renju fouls are not filtered: this is
    /// what the solver itself answers. `Ok(None)` for modes without a threat solver.
    pub fn threats(&self, limits: &Limits, stop: &Stop) -> Result<Option<Threats>, EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if g.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        let p = self.params;
        let mut tl = ThreatLimits {
            max_nodes: p.root_vcf_nodes,
            deadline: limits.maximum,
            stop: Some(stop.clone()),
        };
        let cut = || stop.is_set() || limits.past_maximum();
        let report = crate::with_gomoku!(g, b => {
            let mut b = b.clone();
            let mut solver = Solver::new(1 << 18);
            let vcf = solver.vcf(&mut b, p.root_vcf_depth, &tl);
            let vcf = ThreatVerdict {
                line: vcf.map(|w| {
                    let line = solver.vcf_line();
                    if line.first() == Some(&w.mv) { line } else { vec![w.mv] }
                }),
                win: vcf,
                nodes: solver.nodes(),
                budget: tl.max_nodes,
                timed_out: vcf.is_none() && cut(),
            };
            tl.max_nodes = p.root_vct_nodes;
            let vct = solver.vct(&mut b, p.root_vct_depth, p.vct_vcf_depth, &tl);
            let vct = ThreatVerdict {
                line: vct.map(|w| vec![w.mv]),
                win: vct,
                nodes: solver.nodes(),
                budget: tl.max_nodes,
                timed_out: vct.is_none() && cut(),
            };
            Some(Threats { vcf, vct })
        }, _ => None);
        Ok(report)
    }
}

/// Most lines `YXSEARCHDEFEND` lists.
pub const DEFEND_MAX_LINES: usize = 8;
/// Candidates `TRACEBOARD` lists.
const TRACE_CANDIDATES: usize = 10;

/// One threat search's answer: the win it proved (first move and plies to the five), its
/// line (the whole VCF; the first move of a VCT, the solver keeps no VCT line), the nodes
/// spent out of the budget, and whether the deadline or the stop flag cut it short (a search
/// that spent its budget or ran out of time may have missed a win).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatVerdict {
    pub win: Option<ThreatWin>,
    pub line: Option<Vec<Move>>,
    pub nodes: u64,
    pub budget: u64,
    pub timed_out: bool,
}

/// The threat solver's verdicts for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threats {
    pub vcf: ThreatVerdict,
    pub vct: ThreatVerdict,
}

/// What `TRACEBOARD` reports.
#[derive(Clone, Debug)]
pub struct Trace {
    pub to_move: Color,
    pub ply: usize,
    /// Static evaluation for the side to move.
    pub eval: i32,
    pub outcome: Option<crate::game::Outcome>,
    /// (move, ordering score, static evaluation after it for the side that played it).
    pub candidates: Vec<(Move, i32, i32)>,
    pub blocked: Vec<Move>,
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::tests::mv;
    use crate::engine::Stone;

    #[test]
    fn threat_verdicts_come_from_the_solver_on_the_current_position() {
        let mut e = Engine::new();
        let stop = Stop::new();
        let limits = crate::search::Limits::depth(1);
        assert_eq!(e.threats(&limits, &stop), Err(EngineError::NoGame));
        e.start(15, 15).unwrap();
        // Black has an open three on row 7: the straight four it makes wins (a VCF).
        let own: Vec<(Move, Stone)> = (5..8).map(|x| (mv(x, 7), Stone::Own)).collect();
        let opp = [(mv(0, 0), Stone::Opponent), (mv(14, 14), Stone::Opponent)];
        let list: Vec<(Move, Stone)> = own.into_iter().chain(opp).collect();
        e.set_board(&list).unwrap();
        let before = e.game().unwrap().key();
        let t = e
            .threats(&limits, &stop)
            .unwrap()
            .expect("gomoku has a solver");
        let line = t.vcf.line.expect("an open three is a VCF");
        assert_eq!(Some(line[0]), t.vcf.win.map(|w| w.mv));
        assert!(t.vcf.nodes > 0 && t.vct.win.is_some());
        assert_eq!(e.game().unwrap().key(), before, "the position is untouched");
        e.set_info("game", "connect4");
        e.start(7, 6).unwrap();
        assert_eq!(e.threats(&limits, &stop), Ok(None));
    }
}
