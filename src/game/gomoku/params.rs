//! The hand-set weights of the gomoku board: the decisive evaluation terms, influence and
//! candidate radius, in one place so that a person changes numbers without reading code. The
//! fitted evaluation and ordering weights live in [`super::weights`].
//!
//! Units: evaluation weights are in "eval points", the unit of [`crate::game::Game::evaluate`]
//! (a lone open three of the side to move is worth about 100); influence is in "stone weights" (see
//! [`INFLUENCE`]).

/// Eval points when the side to move can make five at once (the search sees it first; this
/// keeps a static value consistent with that).
pub const WIN_NEXT: i32 = 20_000;

/// Eval points when the opponent has two or more five points and the side to move none.
pub const LOSS_NEXT: i32 = 15_000;

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
