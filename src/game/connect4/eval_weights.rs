//! The default player's leaf evaluation weights for four in a row, one per term of
//! [`super::windows::FEATURE_NAMES`], fitted to solved positions by
//! `scripts/c4-fit-eval.py` (which rewrites this file; see README, "Connect Four").
//! Fitted: 3836 positions (407 held out, log loss 0.65108 -> 0.54164), scale 2581.2.

/// The win length the weights were fitted for.
pub const K: usize = 4;

/// One weight per feature, in evaluation units (a stacked pair of threats was worth 1500 in
/// the hand-set evaluation).
pub const WEIGHTS: [i32; super::windows::FEATURES] = [
    49, 340, -568, 238, 342, -696, 2033, 213, 175, -91, 1748, 142,
];
