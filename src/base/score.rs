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

/// A score as a transposition table stores it: mate scores count plies from the root in the
/// search but from the stored position in the table, so the same entry serves any ply.
#[inline]
pub const fn to_tt(s: i32, ply: u32) -> i32 {
    if s >= WIN_MIN {
        s + ply as i32
    } else if s <= -WIN_MIN {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of [`to_tt`]: a stored score seen from `ply` plies below the root.
#[inline]
pub const fn from_tt(s: i32, ply: u32) -> i32 {
    if s >= WIN_MIN {
        s - ply as i32
    } else if s <= -WIN_MIN {
        s + ply as i32
    } else {
        s
    }
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
        for (s, ply) in [(mate_in(7), 3), (mated_in(9), 4), (123, 5)] {
            assert_eq!(from_tt(to_tt(s, ply), ply), s);
        }
        assert_eq!(
            to_tt(mate_in(7), 3),
            mate_in(4),
            "stored relative to the entry"
        );
    }
}
