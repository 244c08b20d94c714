//! Opening rules: the Pro and Long-Pro placement rules, swap1 and swap2, as pure functions
//! of the board geometry and of search scores.
//!
//! The engine asks the search for scores and feeds them here; nothing in this module runs a
//! search, so every rule and every swap decision is a small function with unit tests. Scores
//! are always from white's point of view (white is the side to move after three or five
//! opening stones), which keeps the decision rules one comparison each.

use crate::game::Move;
use crate::search::score;
use std::fmt;

/// Which opening rule `INFO opening_rule` selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningRule {
    #[default]
    None,
    /// First stone on the centre; black's second stone (the third move) at least
    /// [`PRO_DISTANCE`] intersections from the first.
    Pro,
    /// As Pro with [`LONG_PRO_DISTANCE`].
    LongPro,
    /// Swap1: `SWAP2BOARD` with three stones may only be answered `SWAP` or a move.
    Swap1,
}

/// Pro rule: the third move is outside the 5×5 square around the first stone.
pub const PRO_DISTANCE: u32 = 3;
/// Long-Pro rule: the third move is outside the 7×7 square around the first stone.
pub const LONG_PRO_DISTANCE: u32 = 4;

impl OpeningRule {
    /// Reads the `INFO opening_rule` value (`none`, `pro`, `longpro`/`long_pro`, `swap1`).
    pub fn parse(s: &str) -> Option<OpeningRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "0" | "" => Some(OpeningRule::None),
            "pro" => Some(OpeningRule::Pro),
            "longpro" | "long_pro" | "long-pro" => Some(OpeningRule::LongPro),
            "swap1" => Some(OpeningRule::Swap1),
            _ => None,
        }
    }

    /// The minimum distance of the third move from the first stone, for the Pro rules.
    pub fn third_move_distance(self) -> Option<u32> {
        match self {
            OpeningRule::Pro => Some(PRO_DISTANCE),
            OpeningRule::LongPro => Some(LONG_PRO_DISTANCE),
            OpeningRule::None | OpeningRule::Swap1 => None,
        }
    }
}

/// Why a move breaks the opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningViolation {
    /// The first stone must be on the centre.
    NotCentre { centre: Move },
    /// The third move is closer than `min` to the first stone.
    TooClose { min: u32 },
}

impl fmt::Display for OpeningViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningViolation::NotCentre { centre } => {
                write!(f, "the first stone must be on the centre {centre}")
            }
            OpeningViolation::TooClose { min } => write!(
                f,
                "black's second stone must be at least {min} intersections from the first"
            ),
        }
    }
}

/// The centre cell the Pro rules use (the lower-right one on even sizes, as Piskvork's).
pub fn centre(width: usize, height: usize) -> Move {
    Move::new((width / 2) as u8, (height / 2) as u8)
}

/// Chebyshev distance: how many intersections apart two cells are along a line or square.
pub fn distance(a: Move, b: Move) -> u32 {
    let dx = (a.x as i32 - b.x as i32).unsigned_abs();
    let dy = (a.y as i32 - b.y as i32).unsigned_abs();
    dx.max(dy)
}

/// Checks move number `ply` (0 = the first stone) against `rule`, given the first stone.
pub fn check_move(
    rule: OpeningRule,
    width: usize,
    height: usize,
    ply: usize,
    first: Option<Move>,
    m: Move,
) -> Result<(), OpeningViolation> {
    let Some(min) = rule.third_move_distance() else {
        return Ok(());
    };
    match (ply, first) {
        (0, _) => {
            let c = centre(width, height);
            if m != c {
                return Err(OpeningViolation::NotCentre { centre: c });
            }
        }
        (2, Some(f)) if distance(f, m) < min => return Err(OpeningViolation::TooClose { min }),
        _ => {}
    }
    Ok(())
}

/// The cells a Pro-rule third move may take, nearest first: empty cells at distance `min`
/// or `min + 1` from the first stone (farther ones only weaken black, so they are not
/// offered), in row-major order within each ring.
pub fn third_move_cells(
    width: usize,
    height: usize,
    first: Move,
    min: u32,
    empty: impl Fn(Move) -> bool,
) -> Vec<Move> {
    let mut out = Vec::new();
    for ring in [min, min + 1] {
        for y in 0..height {
            for x in 0..width {
                let m = Move::new(x as u8, y as u8);
                if distance(first, m) == ring && empty(m) {
                    out.push(m);
                }
            }
        }
    }
    out
}

/// Three-stone openings (black, white, black) to try for swap2's first step: black on the
/// centre, white touching it (straight or diagonal: the rest are symmetric), and the second
/// black stone anywhere within two of the centre. Openings off a small board are dropped.
pub fn swap2_candidates(width: usize, height: usize) -> Vec<[Move; 3]> {
    let c = centre(width, height);
    let at = |dx: i32, dy: i32| -> Option<Move> {
        let x = c.x as i32 + dx;
        let y = c.y as i32 + dy;
        (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
            .then(|| Move::new(x as u8, y as u8))
    };
    let mut out = Vec::new();
    for (wx, wy) in [(1, 0), (1, 1)] {
        let Some(w) = at(wx, wy) else { continue };
        for dy in -2..=2 {
            for dx in -2..=2 {
                let Some(b) = at(dx, dy) else { continue };
                if b != c && b != w {
                    out.push([c, w, b]);
                }
            }
        }
    }
    out
}

/// The score a swap decision trusts from a search's iterations (`(depth, score)` in the
/// order they finished): the mean of the last two. A shallow gomoku search swings by
/// hundreds of units between odd and even depths (the side that moved last at the horizon
/// looks better), so a single iteration's score says more about when the search stopped
/// than about the opening, and comparing or thresholding it would choose by the clock. A
/// decisive last score (a win found) stands alone. `None` without iterations.
pub fn settled_score(iterations: &[(u32, i32)]) -> Option<i32> {
    let &(_, last) = iterations.last()?;
    if score::is_decisive(last) || iterations.len() < 2 {
        return Some(last);
    }
    let (_, prev) = iterations[iterations.len() - 2];
    if score::is_decisive(prev) {
        return Some(last);
    }
    Some(((i64::from(prev) + i64::from(last)) / 2) as i32)
}

/// The entry whose score is nearest zero (the first of equals): the opening, or the added
/// stone, that leaves neither colour the better choice.
pub fn most_balanced<T: Copy>(scored: &[(T, i32)]) -> Option<(T, i32)> {
    scored
        .iter()
        .copied()
        .min_by_key(|&(_, v)| v.unsigned_abs())
}

/// Scores within this of zero (white's view, evaluation units) count as balanced: swap2's
/// second player then adds two stones instead of choosing a colour.
pub const BALANCED_MARGIN: i32 = 120;

/// What the player choosing a colour does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Take black; the opponent moves next as white.
    Swap,
    /// Take white and play the move.
    PlayWhite,
    /// Swap2's second step only: add a white and a black stone and let the opponent choose.
    AddTwo,
}

/// The choice after three stones (swap2's second step, or swap1 when `may_add` is false),
/// from the position's score for white to move.
pub fn choose_after_three(white_score: i32, may_add: bool) -> Choice {
    if may_add && white_score.abs() <= BALANCED_MARGIN {
        Choice::AddTwo
    } else {
        choose_after_five(white_score)
    }
}

/// The choice after five stones (swap2's last step): the better colour; a dead-even position
/// is taken as white, who moves next.
pub fn choose_after_five(white_score: i32) -> Choice {
    if white_score >= 0 {
        Choice::PlayWhite
    } else {
        Choice::Swap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pro_rule_rejects_and_accepts_the_right_cells() {
        let c = Move::new(7, 7);
        let check = |rule, ply, m| check_move(rule, 15, 15, ply, Some(c), m);
        assert_eq!(
            check(OpeningRule::Pro, 0, Move::new(6, 7)),
            Err(OpeningViolation::NotCentre { centre: c })
        );
        assert_eq!(check(OpeningRule::Pro, 0, c), Ok(()));
        // White's first stone is free.
        assert_eq!(check(OpeningRule::Pro, 1, Move::new(0, 0)), Ok(()));
        assert_eq!(
            check(OpeningRule::Pro, 2, Move::new(9, 9)),
            Err(OpeningViolation::TooClose { min: 3 })
        );
        assert_eq!(check(OpeningRule::Pro, 2, Move::new(10, 7)), Ok(()));
        assert_eq!(check(OpeningRule::Pro, 2, Move::new(4, 4)), Ok(()));
        assert_eq!(
            check(OpeningRule::LongPro, 2, Move::new(10, 7)),
            Err(OpeningViolation::TooClose { min: 4 })
        );
        assert_eq!(check(OpeningRule::LongPro, 2, Move::new(11, 5)), Ok(()));
        // Later moves and other rules are unrestricted.
        assert_eq!(check(OpeningRule::Pro, 3, Move::new(7, 8)), Ok(()));
        assert_eq!(check(OpeningRule::None, 2, Move::new(7, 8)), Ok(()));
        assert_eq!(check(OpeningRule::Swap1, 0, Move::new(0, 0)), Ok(()));
    }

    #[test]
    fn third_move_cells_are_rings_at_the_minimum_distance() {
        let first = Move::new(7, 7);
        let cells = third_move_cells(15, 15, first, 3, |m| m != Move::new(10, 10));
        // Ring 3 has 24 cells, ring 4 has 32; one is taken.
        assert_eq!(cells.len(), 24 + 32 - 1);
        assert!(cells.iter().all(|&m| (3..=4).contains(&distance(first, m))));
        assert_eq!(distance(first, cells[0]), 3);
        // Near a corner, only the cells on the board are offered.
        let corner = third_move_cells(5, 5, Move::new(0, 0), 3, |_| true);
        assert_eq!(corner.len(), 7 + 9);
    }

    #[test]
    fn swap2_candidates_are_distinct_legal_openings() {
        let list = swap2_candidates(15, 15);
        assert_eq!(list.len(), 2 * 23);
        for o in &list {
            assert!(o[0] != o[1] && o[1] != o[2] && o[0] != o[2]);
            assert!(o.iter().all(|m| m.x < 15 && m.y < 15));
        }
        // A tiny board keeps only what fits.
        let small = swap2_candidates(3, 3);
        assert!(!small.is_empty());
        assert!(small.iter().flatten().all(|m| m.x < 3 && m.y < 3));
    }

    #[test]
    fn choices_take_the_better_side() {
        assert_eq!(choose_after_five(300), Choice::PlayWhite);
        assert_eq!(choose_after_five(0), Choice::PlayWhite);
        assert_eq!(choose_after_five(-1), Choice::Swap);
        assert_eq!(choose_after_three(50, true), Choice::AddTwo);
        assert_eq!(choose_after_three(-50, false), Choice::Swap);
        assert_eq!(choose_after_three(500, true), Choice::PlayWhite);
        assert_eq!(choose_after_three(-500, true), Choice::Swap);
    }

    #[test]
    fn the_most_balanced_is_nearest_zero_either_side() {
        assert_eq!(most_balanced::<u8>(&[]), None);
        assert_eq!(
            most_balanced(&[(1, 300), (2, -40), (3, 50)]),
            Some((2, -40))
        );
        assert_eq!(most_balanced(&[(1, -7), (2, 7)]), Some((1, -7)));
        assert_eq!(
            most_balanced(&[(1, i32::MIN), (2, i32::MAX)]),
            Some((2, i32::MAX))
        );
    }

    #[test]
    fn settled_scores_average_the_last_two_depths() {
        assert_eq!(settled_score(&[]), None);
        assert_eq!(settled_score(&[(1, 80)]), Some(80));
        // The odd/even swing seen on swap openings: +80 at depth 3, -300 at depth 4.
        assert_eq!(
            settled_score(&[(1, 90), (2, -250), (3, 80), (4, -300)]),
            Some(-110)
        );
        assert_eq!(settled_score(&[(3, 80), (4, -300), (5, 60)]), Some(-120));
        // A win found stands, whichever iteration found it.
        let win = score::mate_in(7);
        assert_eq!(settled_score(&[(3, 80), (4, win)]), Some(win));
        assert_eq!(settled_score(&[(4, -win), (5, 40)]), Some(40));
    }

    #[test]
    fn rule_names_parse() {
        assert_eq!(OpeningRule::parse("PRO"), Some(OpeningRule::Pro));
        assert_eq!(OpeningRule::parse("longpro"), Some(OpeningRule::LongPro));
        assert_eq!(OpeningRule::parse("swap1"), Some(OpeningRule::Swap1));
        assert_eq!(OpeningRule::parse("none"), Some(OpeningRule::None));
        assert_eq!(OpeningRule::parse("swap9"), None);
    }
}
