//! The static evaluation as a linear function of counted features, for the tuner.
//!
//! `Board::static_eval` sums per-cell values that are themselves sums of weights
//! (`weights::PATTERN` per direction, `weights::CODE` per cell, by role), plus a tempo term
//! and one entry of the threat table (`super::initiative`). Counting how often each weight
//! is used in a position gives a feature vector whose dot product with the weights is that
//! evaluation exactly (before clamping), so a tuner can fit the weights by regression
//! without knowing the board (`crate::tune`). Positions whose evaluation is a fixed
//! decisive term (the side to move has a five point, or the opponent has two) have no
//! features: there is nothing to fit.

use super::board::Board;
pub use super::initiative::NUM_THREATS;
use super::pattern::combo_class;
use super::pattern::Code;
pub use super::pattern::{NUM_CODES, NUM_COMBOS};
use super::rules::Rule;
use super::weights;
use crate::game::Game;

/// Number of directional pattern kinds ([`super::Pattern`]).
pub const NUM_PATTERNS: usize = 10;
/// Features per role: the directional patterns, the codes, the pattern combinations.
const PER_ROLE: usize = NUM_PATTERNS + NUM_CODES + NUM_COMBOS;

/// Length of a feature (and weight) vector: patterns, codes and combinations for both roles,
/// then tempo, then the threat table.
pub const NUM_FEATURES: usize = 2 * PER_ROLE + 1 + NUM_THREATS;

/// Index of the tempo entry in a feature vector.
pub const TEMPO_INDEX: usize = 2 * PER_ROLE;

/// Index of the threat table's first entry (mask 0) in a feature vector.
pub const THREAT_INDEX: usize = TEMPO_INDEX + 1;

/// Index of a role's first pattern weight; its codes follow, then its combinations.
pub const fn role_base(role: usize) -> usize {
    role * PER_ROLE
}

/// How often each evaluation weight is used in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFeatures {
    /// Directional patterns on empty cells, by role (0: side to move, 1: waiting) and
    /// pattern index. Renju black's certain fouls count nothing (they are worth nothing).
    pub pattern: [[u32; NUM_PATTERNS]; 2],
    /// Cell codes of empty cells, by role and code index.
    pub code: [[u32; NUM_CODES]; 2],
    /// Pattern combinations ([`combo_class`]) of empty cells, by role; fouls count nothing.
    pub combo: [[u32; NUM_COMBOS]; 2],
    /// The threat mask ([`Board::threat_mask`]): which entry of the threat table counts.
    pub threat: u16,
}

impl Default for EvalFeatures {
    fn default() -> Self {
        EvalFeatures {
            pattern: [[0; NUM_PATTERNS]; 2],
            code: [[0; NUM_CODES]; 2],
            combo: [[0; NUM_COMBOS]; 2],
            threat: 0,
        }
    }
}

impl EvalFeatures {
    /// The nonzero entries `(index, count)` of the vector whose dot product with
    /// [`current_weights`] is the evaluation: the waiting side's counts enter negated.
    pub fn sparse(&self) -> Vec<(u16, f32)> {
        let mut v = Vec::new();
        let mut push = |i: usize, x: f32| {
            if x != 0.0 {
                v.push((i as u16, x));
            }
        };
        for role in 0..2 {
            let sign = if role == 0 { 1.0 } else { -1.0 };
            let base = role_base(role);
            for p in 0..NUM_PATTERNS {
                push(base + p, sign * self.pattern[role][p] as f32);
            }
            for c in 0..NUM_CODES {
                push(base + NUM_PATTERNS + c, sign * self.code[role][c] as f32);
            }
            for k in 0..NUM_COMBOS {
                push(
                    base + NUM_PATTERNS + NUM_CODES + k,
                    sign * self.combo[role][k] as f32,
                );
            }
        }
        push(TEMPO_INDEX, 1.0);
        push(THREAT_INDEX + usize::from(self.threat), 1.0);
        v
    }
}

/// The weights of the build in the layout of [`EvalFeatures::sparse`].
pub fn current_weights() -> Vec<f64> {
    let mut w = vec![0f64; NUM_FEATURES];
    for role in 0..2 {
        let base = role_base(role);
        for p in 0..NUM_PATTERNS {
            w[base + p] = f64::from(weights::PATTERN[role][p]);
        }
        for c in 0..NUM_CODES {
            w[base + NUM_PATTERNS + c] = f64::from(weights::CODE[role][c]);
        }
        for k in 0..NUM_COMBOS {
            w[base + NUM_PATTERNS + NUM_CODES + k] = f64::from(weights::COMBO[role][k]);
        }
    }
    w[TEMPO_INDEX] = f64::from(weights::TEMPO);
    for (i, &t) in weights::THREAT.iter().enumerate() {
        w[THREAT_INDEX + i] = f64::from(t);
    }
    w
}

/// Whether a weight may be fitted: the weights of "nothing" (pattern None, code None,
/// renju black's foul, the combination of four Nones) stay 0, since their counts only
/// measure how empty the board is; so does the threat entry of "no threats", which every
/// position without threats has along with the tempo.
pub fn is_fitted(i: usize) -> bool {
    if i >= TEMPO_INDEX {
        return i != THREAT_INDEX;
    }
    let k = i % PER_ROLE;
    if k < NUM_PATTERNS {
        k != 0
    } else if k < NUM_PATTERNS + NUM_CODES {
        let c = k - NUM_PATTERNS;
        c != Code::Forbidden as usize && c != Code::None as usize
    } else {
        k != NUM_PATTERNS + NUM_CODES
    }
}

impl<R: Rule> Board<R> {
    /// The features of the static evaluation, or `None` where it is a fixed decisive term
    /// (or the game is over).
    pub fn eval_features(&self) -> Option<EvalFeatures> {
        if self.outcome().is_some() {
            return None;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        if self.code_count(me, Code::Five) > 0 || self.code_count(opp, Code::Five) >= 2 {
            return None;
        }
        let mut f = EvalFeatures::default();
        for (role, c) in [(0, me), (1, opp)] {
            self.for_each_empty(|b, x, y| {
                let cell = &b.cells[b.idx(x, y)];
                let code = cell.code[c.index()];
                f.code[role][code as usize] += 1;
                if code != Code::Forbidden {
                    let pats = cell.pat[c.index()];
                    for p in pats {
                        f.pattern[role][p as usize] += 1;
                    }
                    f.combo[role][combo_class(&pats)] += 1;
                }
            });
        }
        f.threat = self.threat_mask(me, opp);
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::random_walk;
    use super::*;
    use crate::base::score;
    use crate::game::gomoku::{Freestyle, Renju, Standard};
    use crate::game::Color;

    /// Over pseudo-random games, the features times the build's weights give exactly the
    /// static evaluation wherever it is not a decisive term or clamped.
    fn linear_matches_static<R: Rule>(seed: u64) -> usize {
        let w = current_weights();
        let mut checked = 0;
        random_walk::<R>(seed, 80, 5, |b| {
            let Some(f) = b.eval_features() else { return };
            let lin: f64 = f
                .sparse()
                .iter()
                .map(|&(i, x)| f64::from(x) * w[usize::from(i)])
                .sum();
            let lin = lin as i32;
            if lin.abs() < score::WIN_MIN - 1 {
                assert_eq!(lin, b.static_eval(), "\n{b:?}");
                checked += 1;
            }
        });
        checked
    }

    #[test]
    fn features_reproduce_the_static_evaluation() {
        let mut n = 0;
        for seed in 1..10u64 {
            n += linear_matches_static::<Freestyle>(seed * 0x9E37_79B9);
            n += linear_matches_static::<Standard>(seed * 0x85EB_CA6B);
            n += linear_matches_static::<Renju>(seed * 0xC2B2_AE35);
        }
        assert!(n > 500, "only {n} positions checked");
    }

    #[test]
    fn decided_positions_have_no_features() {
        let b = Board::<Freestyle>::from_ascii("XXXX.\nOOO..\n.....\n.....\n.....\n", Color::Black)
            .unwrap();
        assert!(b.eval_features().is_none());
    }
}
