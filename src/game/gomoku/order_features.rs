//! The move ordering as a linear function of counted features, for the tuner.
//!
//! A candidate's ordering score (the cell's `Cell::order` ranks plus influence) is a fixed
//! part (the code's and combination's eval value to the side that would play it, half of it
//! to the opponent) plus six groups of fitted weights: the attack and defence rank by code,
//! the attack and defence rank by pattern combination, the rank of each of the four line
//! shapes (once for the side to move, half for the opponent's that the move blocks), and the
//! influence rank times the cell's influence. Listing, for a position, every candidate with
//! the indices of those weights lets the tuner fit them to the moves a stronger engine chose
//! (`crate::tune::order`) without knowing the board.
//!
//! The engine halves the opponent's part in integers ([`super::board`]'s `with_shapes`), so
//! a feature score can differ from the engine's by up to half a point; the test below holds
//! them within that.

use super::board::Board;
use super::pattern::{combo_class, Code, NUM_CODES, NUM_COMBOS};
use super::rules::Rule;
use super::shape::{Shape, NUM_SHAPES};
use super::weights;
use crate::game::{Game, Move, ScoredMove};

/// Index of the first attack-by-code weight in an ordering weight vector.
const CODE_ATTACK: usize = 0;
/// Index of the first defence-by-code weight.
const CODE_DEFEND: usize = CODE_ATTACK + NUM_CODES;
/// Index of the first attack-by-combination weight.
const COMBO_ATTACK: usize = CODE_DEFEND + NUM_CODES;
/// Index of the first defence-by-combination weight.
const COMBO_DEFEND: usize = COMBO_ATTACK + NUM_COMBOS;
/// Index of the first shape weight.
const SHAPE: usize = COMBO_DEFEND + NUM_COMBOS;
/// Index of the influence weight.
pub const INFLUENCE_INDEX: usize = SHAPE + NUM_SHAPES;
/// Length of an ordering weight vector.
pub const NUM_ORDER_FEATURES: usize = INFLUENCE_INDEX + 1;

/// One candidate move as the ordering sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderCandidate {
    pub mv: Move,
    /// The part of the score that is not fitted here (eval values).
    pub fixed: f64,
    /// The indices of the code and combination weights, which apply once each; a renju foul
    /// has neither combination nor shapes, so only the first `counted` count.
    pub index: [u16; 4],
    /// How many of the four indices count (renju fouls: 2 or 3).
    pub counted: u8,
    /// The side to move's four shapes on the cell (weight 1 each) and the opponent's (one
    /// half each); `None` where that side's code is a foul.
    pub shapes: [Option<[Shape; 4]>; 2],
    /// Influence of both colours on the cell.
    pub influence: u16,
}

impl OrderCandidate {
    /// The code and combination weights, which apply once each.
    pub fn weights(&self) -> &[u16] {
        &self.index[..usize::from(self.counted)]
    }

    /// Calls `f(weight index, coefficient)` for every fitted weight the score uses.
    pub fn for_each_weight(&self, mut f: impl FnMut(usize, f64)) {
        for &k in self.weights() {
            f(usize::from(k), 1.0);
        }
        for (side, coef) in [(0, 1.0), (1, 0.5)] {
            if let Some(shapes) = self.shapes[side] {
                for s in shapes {
                    f(SHAPE + s as usize, coef);
                }
            }
        }
        f(INFLUENCE_INDEX, f64::from(self.influence));
    }

    /// The ordering score under the weights `w` (the layout of [`current_order_weights`]).
    pub fn score(&self, w: &[f64]) -> f64 {
        let mut s = self.fixed;
        self.for_each_weight(|i, x| s += w[i] * x);
        s
    }
}

/// The build's ordering weights in the layout the features index.
pub fn current_order_weights() -> Vec<f64> {
    let mut w = Vec::with_capacity(NUM_ORDER_FEATURES);
    w.extend(weights::ORDER_CODE_ATTACK.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_CODE_DEFEND.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_ATTACK.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_DEFEND.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_SHAPE.iter().map(|&x| f64::from(x)));
    w.push(f64::from(weights::ORDER_INFLUENCE));
    w
}

/// The slices of an ordering weight vector, for writing it out: attack and defence by code,
/// attack and defence by combination, shape, influence.
pub fn split_order_weights(w: &[f64]) -> [&[f64]; 6] {
    [
        &w[CODE_ATTACK..CODE_DEFEND],
        &w[CODE_DEFEND..COMBO_ATTACK],
        &w[COMBO_ATTACK..COMBO_DEFEND],
        &w[COMBO_DEFEND..SHAPE],
        &w[SHAPE..INFLUENCE_INDEX],
        &w[INFLUENCE_INDEX..],
    ]
}

/// Whether an ordering weight may be fitted. Five points are played or blocked before
/// anything else by the candidate rules, so their ranks only need to stay on top; the
/// "nothing" combination and the dead line are the baselines.
pub fn is_order_fitted(i: usize) -> bool {
    let five = Code::Five as usize;
    let forbidden = Code::Forbidden as usize;
    !(i == CODE_ATTACK + five
        || i == CODE_DEFEND + five
        || i == CODE_ATTACK + forbidden
        || i == CODE_DEFEND + forbidden
        || i == COMBO_ATTACK
        || i == COMBO_DEFEND
        || i == SHAPE + Shape::Dead as usize
        || i == SHAPE + Shape::Five as usize)
}

impl<R: Rule> Board<R> {
    /// The candidates of the position as [`Board::candidates`] lists them, each with its
    /// ordering features.
    pub fn order_features(&self) -> Vec<OrderCandidate> {
        let mut list: Vec<ScoredMove> = Vec::new();
        Game::candidates(self, &mut list);
        let me = self.side_to_move().index();
        let opp = 1 - me;
        list.iter()
            .map(|s| {
                let i = self.idx(s.mv.x as usize, s.mv.y as usize);
                let cell = &self.cells[i];
                let mut index = [0u16; 4];
                let mut counted = 0;
                let mut push = |i: usize| {
                    index[counted] = i as u16;
                    counted += 1;
                };
                push(CODE_ATTACK + cell.code[me] as usize);
                push(CODE_DEFEND + cell.code[opp] as usize);
                // The eval value without its shape part: the ordering reads the shapes
                // through its own ranks.
                let mut fixed = 0.0;
                let mut shapes = [None; 2];
                for (side, c, half) in [(0, me, 1.0), (1, opp, 0.5)] {
                    if cell.code[c] == Code::Forbidden {
                        continue;
                    }
                    push([COMBO_ATTACK, COMBO_DEFEND][side] + combo_class(&cell.pat[c]));
                    let eval_shapes: i32 = cell.shape[c]
                        .iter()
                        .map(|&s| weights::SHAPE[0][s as usize])
                        .sum();
                    fixed += half * f64::from(cell.value[c][0] - eval_shapes);
                    shapes[side] = Some(cell.shape[c]);
                }
                OrderCandidate {
                    mv: s.mv,
                    fixed,
                    index,
                    counted: counted as u8,
                    shapes,
                    influence: self.influence[i][0] + self.influence[i][1],
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::random_walk;
    use super::*;
    use crate::game::gomoku::{Freestyle, Renju};

    /// The features under the build's weights give the scores the search orders by, in the
    /// same order, up to the half point the engine's integer halving drops.
    fn features_reproduce_the_ordering<R: Rule>(seed: u64) -> usize {
        let w = current_order_weights();
        let mut checked = 0;
        random_walk::<R>(seed, 60, 5, |b| {
            let mut list = Vec::new();
            b.candidates(&mut list);
            let feats = b.order_features();
            assert_eq!(list.len(), feats.len());
            for (s, f) in list.iter().zip(&feats) {
                assert_eq!(s.mv, f.mv);
                let d = f64::from(s.score) - f.score(&w);
                assert!(
                    d.abs() <= 0.5,
                    "{:?}: {} vs {}\n{b:?}",
                    s.mv,
                    s.score,
                    f.score(&w)
                );
                checked += 1;
            }
        });
        checked
    }

    #[test]
    fn order_features_reproduce_the_candidate_scores() {
        let mut n = 0;
        for seed in 1..6u64 {
            n += features_reproduce_the_ordering::<Freestyle>(seed * 0x9E37_79B9);
            n += features_reproduce_the_ordering::<Renju>(seed * 0xC2B2_AE35);
        }
        assert!(n > 1000, "only {n} candidates checked");
    }

    #[test]
    fn the_layout_round_trips_the_build_weights() {
        let w = current_order_weights();
        assert_eq!(w.len(), NUM_ORDER_FEATURES);
        let [ca, cd, a, d, s, infl] = split_order_weights(&w);
        assert_eq!(ca[3], f64::from(weights::ORDER_CODE_ATTACK[3]));
        assert_eq!(cd[3], f64::from(weights::ORDER_CODE_DEFEND[3]));
        assert_eq!(a[100], f64::from(weights::ORDER_ATTACK[100]));
        assert_eq!(d[100], f64::from(weights::ORDER_DEFEND[100]));
        assert_eq!(s[9], f64::from(weights::ORDER_SHAPE[9]));
        assert_eq!(infl, [f64::from(weights::ORDER_INFLUENCE)]);
    }
}
