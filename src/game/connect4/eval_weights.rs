//! The default player's leaf evaluation weights for four in a row, one per term of
//! `windows::FEATURE_NAMES`, fitted to solved positions by
//! `scripts/lab/c4-fit-eval.py` (which rewrites this file; see docs/tuning.md).
//! Fitted: none kept. These are the hand-set evaluation's weights (`evaluate_zugzwang`);
//!  the fit to 4,243 solved 12x6 positions (held-out log loss 0.651 -> 0.542) did not play
//!  better at 1 s a move (docs/techniques.md, with the five terms it added).

/// The win length the weights were fitted for.
pub const K: usize = 4;

/// One weight per feature, in evaluation units.
pub const WEIGHTS: [i32; 7] = [4, 21, 72, 120, 50, 1500, 1500];
