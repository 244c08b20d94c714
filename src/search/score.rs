//! Score scale shared by every mode. Integer scores; mate scores encode the distance in
//! plies so that the fastest win and the slowest loss are preferred.

/// A won position at the root, before the ply adjustment.
pub const WIN: i32 = 30_000;
/// Anything at or above this (or at or below its negative) is a proven result.
pub const WIN_MIN: i32 = WIN - 1_000;
/// A score larger than every real one, for open windows.
pub const INFINITE: i32 = WIN + 1;
pub const DRAW: i32 = 0;

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: u32) -> i32 {
    WIN - ply as i32
}

/// The score of losing `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: u32) -> i32 {
    -WIN + ply as i32
}

/// Whether a score is a proven win or loss.
#[inline]
pub const fn is_decisive(s: i32) -> bool {
    s >= WIN_MIN || s <= -WIN_MIN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_score_higher() {
        assert!(mate_in(1) > mate_in(3));
        assert!(mated_in(2) < mated_in(4));
        assert!(is_decisive(mate_in(10)) && is_decisive(mated_in(10)));
        assert!(!is_decisive(500));
    }
}
