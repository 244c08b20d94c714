//! The hand-set weights of the capture-aware evaluation and move ordering, in one place.
//!
//! Units as in [`crate::game::gomoku::params`]: evaluation weights in eval points (a lone
//! open three of the side to move is worth about 100), ordering weights are ranks compared
//! with the gomoku ordering's (an open three ranks 1 200, a four 8 000, a five 1 000 000).
//! Tables are indexed by a captured-pair count, 0..=4 (five pairs end the game).

/// Eval points for holding this many captured pairs: steeper near the fifth, where every
/// capture threat becomes a five threat.
pub const PAIR_VALUE: [i32; 5] = [0, 70, 170, 320, 600];

/// Share (per cent) of the next pair's value that a capture the side to move can make now
/// is worth: it is not taken yet, and the opponent's reply may cost something back.
pub const CAPTURE_NOW_PERCENT: i32 = 70;

/// Share (per cent) of the next pair's value each pair the opponent threatens costs the
/// side to move: it can save one, so a single threat costs little, several add up.
pub const THREATENED_PERCENT: i32 = 30;

/// Eval points when the opponent, holding four pairs, threatens two or more captures: the
/// side to move cannot stop both.
pub const LOSS_NEXT: i32 = 15_000;

/// Eval points when the side to move, holding four pairs, can capture now (it wins).
pub const WIN_NEXT: i32 = 20_000;

/// Ordering rank of a move that captures, by the mover's pair count after it.
pub const CAPTURE_ORDER: [i32; 6] = [0, 1_600, 2_400, 3_600, 7_000, 1_000_000];

/// Ordering rank of a move onto a cell where the opponent would capture, by the opponent's
/// pair count after that capture.
pub const BLOCK_CAPTURE_ORDER: [i32; 6] = [0, 900, 1_400, 2_200, 5_000, 400_000];

/// Ordering rank lost per pair of ours a move leaves flanked on one side by the opponent
/// and open on the other (a capture the opponent can make next).
pub const EXPOSE_ORDER: i32 = 700;

/// Captured pairs from which the opponent's capture cells become candidates even when the
/// gomoku rules would force another reply: one more pair wins.
pub const PAIRS_CAPTURE_IS_FORCING: u8 = 4;
