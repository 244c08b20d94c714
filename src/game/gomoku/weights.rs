//! The evaluation weights the build uses, written by `pbrain-wuzi tune` (see
//! `src/tune.rs`); a person may edit them, but a tuning run overwrites this file.
//!
//! Role 0 is the side to move, role 1 the side waiting: the same open three is worth more
//! to the side that can play it next. Units are eval points (see `params`).
//!
//! Source: 4019 game(s) from selfplay1/games.jsonl, selfplay2/games.jsonl; 99597 training positions, K = 872.5; held-out loss 0.193453 -> 0.156244.

/// Eval points per empty cell and direction, by role and [`super::Pattern`] index.
pub const PATTERN: [[i32; 10]; 2] = [
    [0, 0, 3, 16, 21, 42, 106, 149, 131, 600],
    [0, 0, 5, 18, 22, 50, 96, 149, 138, 637],
];

/// Extra eval points per empty cell for its combined [`super::Code`], by role and code index.
pub const CODE: [[i32; 14]; 2] = [
    [0, 0, -7, -33, -35, -16, 17, 15, 111, 57, 258, 297, 281, 0],
    [0, 0, -14, -39, -44, -21, 10, 2, 120, 47, 259, 297, 288, 37],
];

/// Eval points for having the move.
pub const TEMPO: i32 = 30;

/// Eval points when the side to move has a threat the opponent cannot stop (see
/// `Board::tempo_threat`).
pub const THREAT_WIN: i32 = 6000;

/// Eval points when the side to move can make a double three the opponent cannot answer.
pub const DOUBLE_THREE_NEXT: i32 = 1502;
