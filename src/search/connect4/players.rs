//! The classic Connect Four players, so that the arena can measure the solver against them:
//! uniform random, a biased random that wins or blocks at once when it can, flat
//! Monte-Carlo (N biased playouts per move) and UCT (a tree grown by upper confidence bounds,
//! with biased playouts from its leaves).
//!
//! All run on the solver's bitboards. The random source is a small splitmix64 generator
//! (no crate for it): seeded from the `c4_seed` option when given, so games can be replayed,
//! otherwise from the clock. Budgets are counted in playouts so that Monte-Carlo and UCT get
//! the same work for a fair comparison, and every loop also polls the caller's stop test.

use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position};

pub use crate::rng::Rng;

/// A uniformly chosen column among the set bits of `moves`.
pub fn random_column<B: Bits>(g: &Geometry<B>, moves: B, rng: &mut Rng) -> Option<usize> {
    let n = Position::columns_in(g, moves).count();
    if n == 0 {
        return None;
    }
    Position::columns_in(g, moves).nth(rng.below(n))
}

/// Uniform random among legal columns.
pub fn random_move<B: Bits>(g: &Geometry<B>, p: &Position<B>, rng: &mut Rng) -> Option<usize> {
    random_column(g, p.possible(g), rng)
}

/// The biased random policy: win at once if possible, else block the opponent's immediate
/// win, else uniform random.
pub fn greedy_move<B: Bits>(g: &Geometry<B>, p: &Position<B>, rng: &mut Rng) -> Option<usize> {
    let possible = p.possible(g);
    let wins = p.winning(g) & possible;
    if !wins.is_zero() {
        return random_column(g, wins, rng);
    }
    let blocks = p.opponent_winning(g) & possible;
    if !blocks.is_zero() {
        return random_column(g, blocks, rng);
    }
    random_column(g, possible, rng)
}

/// Plays the biased policy to the end. Returns 1.0 if the side to move at `p` wins, 0.0 if
/// it loses, 0.5 for a draw.
pub fn playout<B: Bits>(g: &Geometry<B>, p: &Position<B>, rng: &mut Rng) -> f64 {
    let mut q = *p;
    loop {
        let Some(col) = greedy_move(g, &q, rng) else {
            return 0.5;
        };
        if q.is_winning_col(g, col) {
            return if (q.moves - p.moves).is_multiple_of(2) {
                1.0
            } else {
                0.0
            };
        }
        q.play_col(g, col);
    }
}

/// What a Monte-Carlo or UCT player decided, with the playouts spent.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub col: usize,
    /// Estimated winning rate of the chosen move for the mover, in [0, 1].
    pub value: f64,
    pub playouts: u64,
}

/// Flat Monte-Carlo: `per_move` playouts after each legal move (round-robin over the moves,
/// so a stop leaves every move with about the same count), then the best mean.
pub fn monte_carlo<B: Bits>(
    g: &Geometry<B>,
    p: &Position<B>,
    per_move: u64,
    rng: &mut Rng,
    should_stop: &dyn Fn(u64) -> bool,
) -> Option<Choice> {
    let possible = p.possible(g);
    let wins = p.winning(g) & possible;
    if let Some(col) = Position::columns_in(g, wins).next() {
        return Some(Choice {
            col,
            value: 1.0,
            playouts: 0,
        });
    }
    let cols: Vec<usize> = Position::columns_in(g, possible).collect();
    if cols.is_empty() {
        return None;
    }
    let mut sums = vec![0.0; cols.len()];
    let mut count = 0u64;
    let mut playouts = 0u64;
    while count < per_move.max(1) {
        if count > 0 && should_stop(playouts) {
            break;
        }
        for (i, &c) in cols.iter().enumerate() {
            let mut q = *p;
            q.play_col(g, c);
            // The playout scores for the opponent, who moves next.
            sums[i] += 1.0 - playout(g, &q, rng);
            playouts += 1;
        }
        count += 1;
    }
    let (i, best) =
        sums.iter().enumerate().fold(
            (0, f64::MIN),
            |acc, (i, &s)| if s > acc.1 { (i, s) } else { acc },
        );
    Some(Choice {
        col: cols[i],
        value: best / count as f64,
        playouts,
    })
}

struct Node {
    /// Column played to reach this node (unused at the root).
    col: usize,
    parent: usize,
    children: Vec<usize>,
    /// Columns not expanded yet.
    untried: Vec<usize>,
    visits: f64,
    /// Sum of results for the player who moved into this node.
    wins: f64,
    /// Set when the move into this node won the game.
    terminal_win: bool,
}

/// UCT: select by wins/visits + c·√(ln N / n), expand one move, play out with the biased
/// policy, back up. Returns the most visited root move after `iterations`.
pub fn uct<B: Bits>(
    g: &Geometry<B>,
    p: &Position<B>,
    iterations: u64,
    c: f64,
    rng: &mut Rng,
    should_stop: &dyn Fn(u64) -> bool,
) -> Option<Choice> {
    let possible = p.possible(g);
    let wins = p.winning(g) & possible;
    if let Some(col) = Position::columns_in(g, wins).next() {
        return Some(Choice {
            col,
            value: 1.0,
            playouts: 0,
        });
    }
    let root_moves: Vec<usize> = Position::columns_in(g, possible).collect();
    if root_moves.is_empty() {
        return None;
    }
    let mut nodes = vec![Node {
        col: usize::MAX,
        parent: usize::MAX,
        children: Vec::new(),
        untried: root_moves,
        visits: 0.0,
        wins: 0.0,
        terminal_win: false,
    }];
    let mut done = 0u64;
    while done < iterations.max(1) {
        if done > 0 && should_stop(done) {
            break;
        }
        let mut q = *p;
        let mut n = 0;
        // Selection.
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() && !nodes[n].terminal_win
        {
            let ln = nodes[n].visits.max(1.0).ln();
            let mut best = nodes[n].children[0];
            let mut best_v = f64::MIN;
            for &ch in &nodes[n].children {
                let node = &nodes[ch];
                let v = node.wins / node.visits + c * (ln / node.visits).sqrt();
                if v > best_v {
                    best_v = v;
                    best = ch;
                }
            }
            q.play_col(g, nodes[best].col);
            n = best;
        }
        // Expansion.
        let mut result_for_mover_into_n;
        if nodes[n].terminal_win {
            result_for_mover_into_n = 1.0;
        } else if nodes[n].untried.is_empty() {
            result_for_mover_into_n = 0.5; // full board
        } else {
            let i = rng.below(nodes[n].untried.len());
            let col = nodes[n].untried.swap_remove(i);
            let won = q.is_winning_col(g, col);
            q.play_col(g, col);
            let untried = if won {
                Vec::new()
            } else {
                Position::columns_in(g, q.possible(g)).collect()
            };
            nodes.push(Node {
                col,
                parent: n,
                children: Vec::new(),
                untried,
                visits: 0.0,
                wins: 0.0,
                terminal_win: won,
            });
            let child = nodes.len() - 1;
            nodes[n].children.push(child);
            n = child;
            // Simulation: the playout scores for the side to move at q, the opponent of
            // the player who moved into n.
            result_for_mover_into_n = if won { 1.0 } else { 1.0 - playout(g, &q, rng) };
        }
        // Back-propagation, flipping the point of view at each level.
        let mut m = n;
        loop {
            nodes[m].visits += 1.0;
            nodes[m].wins += result_for_mover_into_n;
            if nodes[m].parent == usize::MAX {
                break;
            }
            m = nodes[m].parent;
            result_for_mover_into_n = 1.0 - result_for_mover_into_n;
        }
        done += 1;
    }
    let root = &nodes[0];
    let best = root
        .children
        .iter()
        .copied()
        .max_by(|&a, &b| nodes[a].visits.total_cmp(&nodes[b].visits))?;
    Some(Choice {
        col: nodes[best].col,
        value: nodes[best].wins / nodes[best].visits.max(1.0),
        playouts: done,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    fn g7() -> Geometry<u64> {
        Geometry::new(7, 6, 4).unwrap()
    }

    #[test]
    fn rng_is_reproducible_and_spread() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<usize> = (0..1000).map(|_| a.below(7)).collect();
        assert!(xs
            .iter()
            .zip((0..1000).map(|_| b.below(7)))
            .all(|(x, y)| *x == y));
        for v in 0..7 {
            let n = xs.iter().filter(|&&x| x == v).count();
            assert!((90..200).contains(&n), "value {v} drawn {n} times");
        }
    }

    #[test]
    fn greedy_wins_then_blocks() {
        let g = g7();
        let mut rng = Rng::new(1);
        // X to move with three in column 1: wins there.
        let p = parse_sequence(&g, "121212").unwrap();
        assert_eq!(greedy_move(&g, &p, &mut rng), Some(0));
        // O to move must block column 1.
        let p = parse_sequence(&g, "12121").unwrap();
        for _ in 0..20 {
            assert_eq!(greedy_move(&g, &p, &mut rng), Some(0));
        }
    }

    #[test]
    fn playouts_score_from_the_movers_view() {
        let g = g7();
        let mut rng = Rng::new(3);
        // X to move with three stacked: the biased policy always wins at once.
        let p = parse_sequence(&g, "121212").unwrap();
        assert!((0..50).all(|_| playout(&g, &p, &mut rng) == 1.0));
        // O to move facing an open three on the bottom row: O always loses.
        let p = parse_sequence(&g, "3141516").unwrap_err();
        assert_eq!(
            p,
            crate::game::connect4::position::SequenceError::GameOver { index: 7 }
        );
        let p = parse_sequence(&g, "31415").unwrap();
        assert!((0..50).all(|_| playout(&g, &p, &mut rng) == 0.0));
        // From the empty board every result is a win, a draw or a loss.
        let e = Position::empty();
        assert!((0..50).all(|_| [0.0, 0.5, 1.0].contains(&playout(&g, &e, &mut rng))));
    }

    #[test]
    fn monte_carlo_and_uct_see_a_double_threat() {
        let g = g7();
        // X: 4,5 on the bottom row, O elsewhere; X to move makes an open three at 3 or 6.
        let p = parse_sequence(&g, "4151").unwrap();
        let never = |_| false;
        let mut rng = Rng::new(5);
        let mc = monte_carlo(&g, &p, 300, &mut rng, &never).unwrap();
        assert!(mc.col == 2 || mc.col == 5, "MC played {}", mc.col);
        let mut rng = Rng::new(5);
        let u = uct(&g, &p, 3000, 1.4, &mut rng, &never).unwrap();
        assert!(u.col == 2 || u.col == 5, "UCT played {}", u.col);
        assert_eq!(u.playouts, 3000);
    }
}
