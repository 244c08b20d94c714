//! Test helpers shared by the gomoku modules' unit tests.

use super::board::Board;
use super::rules::Rule;
use crate::game::Game;

/// Plays a pseudo-random game (xorshift from `seed`, each move among the first `breadth`
/// candidates) of at most `plies` moves, calling `visit` on each position before its move.
pub(super) fn random_walk<R: Rule>(
    seed: u64,
    plies: usize,
    breadth: usize,
    mut visit: impl FnMut(&Board<R>),
) {
    let mut b = Board::<R>::new(15, 15).unwrap();
    let mut rng = seed;
    let mut list = Vec::new();
    for _ in 0..plies {
        if b.outcome().is_some() {
            break;
        }
        visit(&b);
        Game::candidates(&b, &mut list);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let k = (rng % list.len().min(breadth) as u64) as usize;
        b.play(list[k].mv);
    }
}
