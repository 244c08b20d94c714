//! Line shapes: the evaluation's finer reading of a [`Pattern`].
//!
//! A pattern says what playing a cell makes along a line, which is all the forcing logic
//! needs. The evaluation wants more, as the strongest classical engines' patterns have it
//! (Rapfi's `B1`/`F1`, `F2`/`F2A`/`F2B`, `F3`/`F3S`): a lone stone on a line that can still
//! hold a five is not a dead line, an open two that becomes an open three in four ways is
//! worth more than one with two ways, and an open three with two ways to a straight four
//! (`..XXX..`) more than one with one. A shape is the pattern refined by how many of its
//! one-stone successors reach the next open pattern, so the line tables compute it in the
//! same pass as the patterns; every shape names exactly one pattern ([`Shape::pattern`]).

use super::pattern::Pattern;

/// What playing a cell makes along one line, finer than [`Pattern`]: the weights of the
/// evaluation are per shape and direction (`weights::SHAPE`).
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// No five can ever be made through the cell along this line.
    #[default]
    Dead = 0,
    /// A lone stone whose line can still hold a five, but no open two can come of it.
    One,
    /// A lone stone that can become an open two in one move.
    OpenOne,
    /// [`Pattern::Overline`].
    Overline,
    /// [`Pattern::Two`].
    Two,
    /// An open two with at most two moves that make it an open three.
    OpenTwo,
    /// An open two with three moves that make it an open three (`X.X` with room).
    OpenTwoWide,
    /// An open two with four or more moves that make it an open three (`XX` with room).
    OpenTwoFull,
    /// [`Pattern::Three`].
    Three,
    /// An open three with one move to a straight four (`X.XX`, `.XXX.` against a wall).
    OpenThree,
    /// An open three with two or more moves to a straight four (`..XXX..`).
    OpenThreeFull,
    /// [`Pattern::Four`].
    Four,
    /// [`Pattern::DoubleFour`].
    DoubleFour,
    /// [`Pattern::OpenFour`].
    OpenFour,
    /// [`Pattern::Five`].
    Five,
}

/// Number of [`Shape`] variants, for per-shape arrays.
pub const NUM_SHAPES: usize = 15;

impl Shape {
    /// Every shape, in order (index = `shape as usize`).
    pub const ALL: [Shape; NUM_SHAPES] = [
        Shape::Dead,
        Shape::One,
        Shape::OpenOne,
        Shape::Overline,
        Shape::Two,
        Shape::OpenTwo,
        Shape::OpenTwoWide,
        Shape::OpenTwoFull,
        Shape::Three,
        Shape::OpenThree,
        Shape::OpenThreeFull,
        Shape::Four,
        Shape::DoubleFour,
        Shape::OpenFour,
        Shape::Five,
    ];

    /// The pattern this shape refines.
    #[inline(always)]
    pub const fn pattern(self) -> Pattern {
        PATTERN_OF[self as usize]
    }

    /// Refines `pattern` by the patterns of its successors: the same line with one more own
    /// stone on each empty cell of the window.
    pub fn refine(pattern: Pattern, successors: impl Iterator<Item = Pattern>) -> Shape {
        let (mut best, mut open_threes, mut open_fours) = (Pattern::None, 0, 0);
        for p in successors {
            best = best.max(p);
            open_threes += usize::from(p == Pattern::OpenThree);
            open_fours += usize::from(p == Pattern::OpenFour);
        }
        match pattern {
            Pattern::None if best >= Pattern::OpenTwo => Shape::OpenOne,
            Pattern::None if best >= Pattern::Two => Shape::One,
            Pattern::None => Shape::Dead,
            Pattern::Overline => Shape::Overline,
            Pattern::Two => Shape::Two,
            Pattern::OpenTwo if open_threes >= 4 => Shape::OpenTwoFull,
            Pattern::OpenTwo if open_threes == 3 => Shape::OpenTwoWide,
            Pattern::OpenTwo => Shape::OpenTwo,
            Pattern::Three => Shape::Three,
            Pattern::OpenThree if open_fours >= 2 => Shape::OpenThreeFull,
            Pattern::OpenThree => Shape::OpenThree,
            Pattern::Four => Shape::Four,
            Pattern::DoubleFour => Shape::DoubleFour,
            Pattern::OpenFour => Shape::OpenFour,
            Pattern::Five => Shape::Five,
        }
    }
}

const PATTERN_OF: [Pattern; NUM_SHAPES] = [
    Pattern::None,
    Pattern::None,
    Pattern::None,
    Pattern::Overline,
    Pattern::Two,
    Pattern::OpenTwo,
    Pattern::OpenTwo,
    Pattern::OpenTwo,
    Pattern::Three,
    Pattern::OpenThree,
    Pattern::OpenThree,
    Pattern::Four,
    Pattern::DoubleFour,
    Pattern::OpenFour,
    Pattern::Five,
];

#[cfg(test)]
mod tests {
    use super::super::pattern::{key_from_line, table};
    use super::super::rules::FiveRule;
    use super::*;
    use crate::game::Color;

    fn shape(rule: FiveRule, line: &str) -> Shape {
        table(rule).get_shape(key_from_line(line).expect("valid line"), Color::Black)
    }

    #[test]
    fn shapes_refine_their_patterns_in_order() {
        for (i, s) in Shape::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
            if i > 0 {
                assert!(Shape::ALL[i - 1].pattern() <= s.pattern(), "{s:?}");
            }
        }
    }

    #[test]
    fn lone_stones_tell_dead_lines_from_live_ones() {
        use FiveRule::*;
        // the centre '*' is where the colour plays
        assert_eq!(shape(AtLeastFive, "....O*O...."), Shape::Dead);
        assert_eq!(shape(AtLeastFive, "#####*.O..."), Shape::Dead);
        assert_eq!(shape(AtLeastFive, "...O.*....."), Shape::OpenOne);
        assert_eq!(shape(AtLeastFive, "..........."), Shape::OpenOne);
        // room for exactly one five: a two can come of it, an open two cannot
        assert_eq!(shape(AtLeastFive, "##O..*..O##"), Shape::One);
    }

    #[test]
    fn open_twos_and_threes_count_their_ways_up() {
        use FiveRule::*;
        assert_eq!(shape(AtLeastFive, ".....*X...."), Shape::OpenTwoFull);
        assert_eq!(shape(AtLeastFive, "....X*....."), Shape::OpenTwoFull);
        assert_eq!(shape(AtLeastFive, ".....*.X..."), Shape::OpenTwoWide);
        assert_eq!(shape(AtLeastFive, ".....*..X.."), Shape::OpenTwo);
        assert_eq!(shape(AtLeastFive, "....X*X...."), Shape::OpenThreeFull);
        assert_eq!(shape(AtLeastFive, "...#.*XX..#"), Shape::OpenThree);
        assert_eq!(shape(AtLeastFive, ".....*.XX.."), Shape::OpenThree);
        assert_eq!(shape(AtLeastFive, "....O*XX..."), Shape::Three);
        assert_eq!(shape(AtLeastFive, "....X*XX..."), Shape::OpenFour);
    }
}
