//! The iterative-deepening loop of the two heuristic searches ([`super::heuristic`], the
//! beam player's, and [`super::midgame`], the default player's): depth 1, 2, … up to a cap,
//! each finished iteration handed to the caller, which may stop the deepening (its soft time
//! limit), and the deepening ends at a decisive score. The searches differ only in one
//! iteration and in whether an iteration cut short still counts.

use crate::base::score::is_decisive;

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct BeamResult {
    pub col: usize,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

/// What one iteration at the root left.
pub(super) struct Iterated {
    /// The score and best column; `None` when the iteration has nothing to count (stopped
    /// before its first move ended, or no move).
    pub found: Option<(i32, usize)>,
    /// Whether it ran to its end.
    pub ended: bool,
    /// Nodes so far, every iteration's.
    pub nodes: u64,
}

/// Iterative deepening from depth 1 up to `max_depth` (at most the `empty` cells).
/// `iterate(depth, previous best column)` searches one iteration. `on_iteration` sees every iteration that counts and returns false to stop
/// deepening; an iteration cut short, or a decisive score, is the last. `None` only when
/// not even depth 1 counted.
pub(super) fn deepen(
    empty: u32,
    max_depth: u32,
    iterate: &mut dyn FnMut(u32, Option<usize>) -> Iterated,
    on_iteration: &mut dyn FnMut(&BeamResult) -> bool,
) -> Option<BeamResult> {
    let mut best: Option<BeamResult> = None;
    for depth in 1..=max_depth.clamp(1, empty.max(1)) {
        let it = iterate(depth, best.as_ref().map(|b| b.col));
        let Some((score, col)) = it.found else { break };
        let r = BeamResult {
            col,
            score,
            depth,
            nodes: it.nodes,
        };
        best = Some(r.clone());
        if !it.ended || !on_iteration(&r) || is_decisive(score) {
            break;
        }
    }
    best
}
