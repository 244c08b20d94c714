//! The evaluation weights the build uses, written by `pbrain-wuzi tune` (see
//! `src/tune.rs`); a person may edit them, but a tuning run overwrites this file.
//!
//! Role 0 is the side to move, role 1 the side waiting: the same open three is worth more
//! to the side that can play it next. Units are eval points (see `params`).
//!
//! Source: hand-set values (role 0 = role 1), before the first fit.

/// Eval points per empty cell and direction, by role and [`super::Pattern`] index.
pub const PATTERN: [[i32; 10]; 2] = [
    [0, 0, 2, 8, 6, 40, 45, 150, 150, 600],
    [0, 0, 2, 8, 6, 40, 45, 150, 150, 600],
];

/// Extra eval points per empty cell for its combined [`super::Code`], by role and code index.
pub const CODE: [[i32; 14]; 2] = [
    [0, 0, 0, 0, 12, 0, 15, 0, 120, 0, 250, 300, 300, 0],
    [0, 0, 0, 0, 12, 0, 15, 0, 120, 0, 250, 300, 300, 0],
];

/// Eval points for having the move.
pub const TEMPO: i32 = 30;

/// Eval points when the side to move has a threat the opponent cannot stop (see
/// `Board::tempo_threat`).
pub const THREAT_WIN: i32 = 6_000;

/// Eval points when the side to move can make a double three the opponent cannot answer.
pub const DOUBLE_THREE_NEXT: i32 = 1_500;
