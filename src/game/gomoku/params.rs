//! The hand-set weights of the gomoku move ordering and the decisive evaluation terms, in
//! one place so that a person changes numbers without reading code. The fitted evaluation
//! weights live in [`super::weights`].
//!
//! Units: evaluation weights are in "eval points", the unit of [`crate::game::Game::evaluate`]
//! (a lone open three of the side to move is worth about 100); ordering weights are unitless
//! ranks only compared with each other; influence is in "stone weights" (see
//! [`INFLUENCE`]).

use super::pattern::NUM_CODES;

/// Eval points when the side to move can make five at once (the search sees it first; this
/// keeps a static value consistent with that).
pub const WIN_NEXT: i32 = 20_000;

/// Eval points when the opponent has two or more five points and the side to move none.
pub const LOSS_NEXT: i32 = 15_000;

/// Ordering rank of a cell by the code the side to move gets by playing it.
pub const ATTACK: [i32; NUM_CODES] = [
    0, 0, 40, 120, 250, 200, 300, 1_200, 4_000, 1_500, 8_000, 20_000, 20_000, 1_000_000,
];

/// Ordering rank of a cell by the code the opponent would get there (blocking value).
pub const DEFEND: [i32; NUM_CODES] = [
    0, 0, 20, 60, 150, 100, 180, 800, 2_500, 700, 5_000, 10_000, 10_000, 500_000,
];

/// Ordering rank per unit of influence (own plus opponent) on a cell.
pub const INFLUENCE_ORDER: i32 = 4;

/// Influence a stone spreads to the cells around it, indexed by `[dy + 2][dx + 2]`: cells on
/// its lines weigh more than knight-move cells; its own cell gets nothing.
pub const INFLUENCE: [[u16; 5]; 5] = [
    [2, 1, 2, 1, 2],
    [1, 3, 3, 3, 1],
    [2, 3, 0, 3, 2],
    [1, 3, 3, 3, 1],
    [2, 1, 2, 1, 2],
];

/// Candidate moves are the empty cells within this Chebyshev distance of a stone.
pub const NEAR: usize = 2;

/// Renju: how many nested "is the four point itself forbidden?" checks a real-three test
/// makes before it assumes the answer is no.
pub const FORBIDDEN_DEPTH: u32 = 4;
