//! The iterative-deepening loop of the two heuristic searches ([`super::heuristic`], the
//! beam player's, and [`super::midgame`], the default player's): depth 1, 2, … up to a cap,
//! each finished iteration handed to the caller, which may stop the deepening (its soft time
//! limit), and the deepening ends at a decisive score. The searches differ only in one
//! iteration ([`Deepening::iterate`]) and in whether an iteration cut short still counts.

use crate::base::score::is_decisive;
use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::Position;

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct BeamResult {
    pub col: usize,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// One iteration of a heuristic search at the root.
pub(super) trait Deepening<B: Bits> {
    /// Nodes searched so far, every iteration's.
    fn nodes(&self) -> u64;

    /// Searches `p` to `depth`, the previous iteration's best column given: the score and
    /// the best column, `None` when the iteration has nothing to count (stopped before its
    /// first move ended, or no move), and whether it ran to its end.
    fn iterate(
        &mut self,
        p: &Position<B>,
        depth: u32,
        previous: Option<usize>,
    ) -> (Option<(i32, usize)>, bool);
}

/// Iterative deepening of `search` from depth 1 up to `max_depth` (at most the `empty`
/// cells): `on_iteration` sees every iteration that counts and returns false to stop
/// deepening; an iteration cut short, or a decisive score, is the last. `None` only when not
/// even depth 1 counted.
pub(super) fn deepen<B: Bits>(
    search: &mut dyn Deepening<B>,
    p: &Position<B>,
    empty: u32,
    max_depth: u32,
    on_iteration: &mut dyn FnMut(&BeamResult) -> bool,
) -> Option<BeamResult> {
    let mut best: Option<BeamResult> = None;
    for depth in 1..=max_depth.clamp(1, empty.max(1)) {
        let (found, ended) = search.iterate(p, depth, best.as_ref().map(|b| b.col));
        let Some((score, col)) = found else { break };
        let r = BeamResult {
            col,
            score,
            depth,
            nodes: search.nodes(),
        };
        best = Some(r.clone());
        if !ended || !on_iteration(&r) || is_decisive(score) {
            break;
        }
    }
    best
}
