//! The move ordering as a linear function of counted features, for the tuner.
//!
//! A candidate's ordering score (the cell's `Cell::order` ranks plus influence) is a fixed
//! part (the cell's eval value to the side that would play it, half of it to the opponent)
//! plus five fitted weights: the attack and defence rank by code, the attack and defence rank
//! by pattern combination, and the influence rank times the cell's influence. Listing, for a
//! position, every candidate with the indices of those weights lets the tuner fit them to the
//! moves that a search chose (`crate::tune::order`) without knowing the board.

use super::board::Board;
use super::pattern::{combo_class, Code, NUM_CODES, NUM_COMBOS};
use super::rules::Rule;
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
/// Index of the influence weight.
pub const INFLUENCE_INDEX: usize = COMBO_DEFEND + NUM_COMBOS;
/// Length of an ordering weight vector.
pub const NUM_ORDER_FEATURES: usize = INFLUENCE_INDEX + 1;

/// One candidate move as the ordering sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderCandidate {
    pub mv: Move,
    /// The part of the score that is not fitted here (eval values).
    pub fixed: i32,
    /// The indices of the weights that apply once each (code and combination ranks); a
    /// renju foul has no combination rank, and repeats its code index instead with a count
    /// of 0 (see [`OrderCandidate::weights`]).
    pub index: [u16; 4],
    /// How many of the four indices count (renju fouls: 2 or 3).
    pub counted: u8,
    /// Influence of both colours on the cell.
    pub influence: u16,
}

impl OrderCandidate {
    /// The weights that apply once each.
    pub fn weights(&self) -> &[u16] {
        &self.index[..usize::from(self.counted)]
    }

    /// The ordering score under the weights `w` (the layout of [`current_order_weights`]).
    pub fn score(&self, w: &[f64]) -> f64 {
        let once: f64 = self.weights().iter().map(|&i| w[usize::from(i)]).sum();
        f64::from(self.fixed) + once + f64::from(self.influence) * w[INFLUENCE_INDEX]
    }
}

/// The build's ordering weights in the layout the features index.
pub fn current_order_weights() -> Vec<f64> {
    let mut w = Vec::with_capacity(NUM_ORDER_FEATURES);
    w.extend(weights::ORDER_CODE_ATTACK.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_CODE_DEFEND.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_ATTACK.iter().map(|&x| f64::from(x)));
    w.extend(weights::ORDER_DEFEND.iter().map(|&x| f64::from(x)));
    w.push(f64::from(weights::ORDER_INFLUENCE));
    w
}

/// The slices of an ordering weight vector, for writing it out: attack and defence by code,
/// attack and defence by combination, influence.
pub fn split_order_weights(w: &[f64]) -> [&[f64]; 5] {
    [
        &w[CODE_ATTACK..CODE_DEFEND],
        &w[CODE_DEFEND..COMBO_ATTACK],
        &w[COMBO_ATTACK..COMBO_DEFEND],
        &w[COMBO_DEFEND..INFLUENCE_INDEX],
        &w[INFLUENCE_INDEX..],
    ]
}

/// Whether an ordering weight may be fitted. Five points are played or blocked before
/// anything else by the candidate rules, so their ranks only need to stay on top; the
/// "nothing" combination is the baseline.
pub fn is_order_fitted(i: usize) -> bool {
    let five = Code::Five as usize;
    let forbidden = Code::Forbidden as usize;
    !(i == CODE_ATTACK + five
        || i == CODE_DEFEND + five
        || i == CODE_ATTACK + forbidden
        || i == CODE_DEFEND + forbidden
        || i == COMBO_ATTACK
        || i == COMBO_DEFEND)
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
                let cell = &self.cells[self.idx(s.mv.x as usize, s.mv.y as usize)];
                let mut index = [0u16; 4];
                let mut counted = 0;
                let mut push = |i: usize| {
                    index[counted] = i as u16;
                    counted += 1;
                };
                push(CODE_ATTACK + cell.code[me] as usize);
                push(CODE_DEFEND + cell.code[opp] as usize);
                if cell.code[me] != Code::Forbidden {
                    push(COMBO_ATTACK + combo_class(&cell.pat[me]));
                }
                if cell.code[opp] != Code::Forbidden {
                    push(COMBO_DEFEND + combo_class(&cell.pat[opp]));
                }
                OrderCandidate {
                    mv: s.mv,
                    fixed: cell.value[me][0] + cell.value[opp][0] / 2,
                    index,
                    counted: counted as u8,
                    influence: {
                        let i = self.influence[self.idx(s.mv.x as usize, s.mv.y as usize)];
                        i[0] + i[1]
                    },
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

    /// The features under the build's weights give exactly the scores the search orders by,
    /// in the same order.
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
                assert_eq!(f64::from(s.score), f.score(&w), "{:?}\n{b:?}", s.mv);
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
}
