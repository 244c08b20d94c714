//! The initiative: which threats each side can make with its next stone, as one small
//! index into the evaluation's table `weights::THREAT`.
//!
//! The per-cell weights add up what each side has; they cannot say who moves first in a
//! race. An open three of the side to move against the opponent's four is a different
//! position from the same stones with the other side to move, and what a threat is worth
//! depends on what the other side can answer with. So the evaluation adds one entry of a
//! table indexed by which of these threats each side has anywhere on the board (read from
//! the incremental code counters, so it costs a few loads), and the tuner fits that table
//! with the rest of the weights.

use super::board::Board;
use super::pattern::Code;
use super::rules::Rule;
use crate::game::Color;

/// Number of threat bits; the table has `1 << THREAT_BITS` entries.
pub const THREAT_BITS: usize = 11;
/// Number of threat masks (entries of `weights::THREAT`).
pub const NUM_THREATS: usize = 1 << THREAT_BITS;

/// The side to move can make an open three.
pub const OWN_OPEN_THREE: u16 = 1 << 0;
/// The side to move can make a double three (not renju black: that is a foul).
pub const OWN_DOUBLE_THREE: u16 = 1 << 1;
/// The side to move can make a four.
pub const OWN_FOUR: u16 = 1 << 2;
/// The side to move can make a four and an open three with one stone.
pub const OWN_FOUR_THREE: u16 = 1 << 3;
/// The side to move can make an open four or a double four.
pub const OWN_WINNING_FOUR: u16 = 1 << 4;
/// The waiting side's bits, in the same order.
pub const OPP_OPEN_THREE: u16 = 1 << 5;
pub const OPP_DOUBLE_THREE: u16 = 1 << 6;
pub const OPP_FOUR: u16 = 1 << 7;
pub const OPP_FOUR_THREE: u16 = 1 << 8;
pub const OPP_WINNING_FOUR: u16 = 1 << 9;
/// The waiting side has a four on the board: the side to move must block it.
pub const OPP_FIVE: u16 = 1 << 10;

/// The bits of one side, shifted to the side to move's positions.
fn side_bits<R: Rule>(b: &Board<R>, c: Color) -> u16 {
    let has = |code: Code| b.code_count(c, code) > 0;
    let mut m = 0;
    if has(Code::OpenThree) {
        m |= OWN_OPEN_THREE;
    }
    // Renju black's double three is a foul, not a threat.
    if has(Code::DoubleThree) && !(R::RENJU && c == Color::Black) {
        m |= OWN_DOUBLE_THREE;
    }
    if has(Code::Four) {
        m |= OWN_FOUR;
    }
    if has(Code::FourThree) {
        m |= OWN_FOUR_THREE;
    }
    if has(Code::OpenFour) || has(Code::DoubleFour) {
        m |= OWN_WINNING_FOUR;
    }
    m
}

impl<R: Rule> Board<R> {
    /// The threat mask of the position for the side to move `me` against `opp`.
    pub fn threat_mask(&self, me: Color, opp: Color) -> u16 {
        let mut m = side_bits(self, me) | side_bits(self, opp) << 5;
        if self.code_count(opp, Code::Five) > 0 {
            m |= OPP_FIVE;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Freestyle, Renju};
    use crate::game::Game;

    fn mask<R: Rule>(ascii: &str, to_move: Color) -> u16 {
        let b = Board::<R>::from_ascii(ascii, to_move).unwrap();
        let me = b.side_to_move();
        b.threat_mask(me, me.opponent())
    }

    #[test]
    fn masks_name_each_sides_threats() {
        // Black has an open two (can make an open three) and white a three (can make a
        // four); with black to move the bits are black's own, with white to move swapped.
        let ascii = "..........\n\
                     ..XX......\n\
                     ..........\n\
                     ..........\n\
                     ....OOO..X\n\
                     ..........\n";
        let black = mask::<Freestyle>(ascii, Color::Black);
        assert_ne!(black & OWN_OPEN_THREE, 0, "{black:b}");
        assert_eq!(black & OWN_FOUR, 0, "{black:b}");
        assert_ne!(black & OPP_WINNING_FOUR, 0, "{black:b}");
        let white = mask::<Freestyle>(ascii, Color::White);
        assert_ne!(white & OWN_WINNING_FOUR, 0, "{white:b}");
        assert_ne!(white & OPP_OPEN_THREE, 0, "{white:b}");
        assert_eq!(white & OPP_FIVE, 0);
        // A four on the board is a five point for its owner.
        let four = "XXXX......\n..........\n..O.......\n..O.......\n..O.......\n";
        assert_ne!(mask::<Freestyle>(four, Color::White) & OPP_FIVE, 0);
    }

    #[test]
    fn renju_blacks_double_three_is_no_threat() {
        // Two open twos whose split threes cross at one empty cell: a double three point.
        let ascii = "..........\n\
                     ..........\n\
                     .....X....\n\
                     .....X....\n\
                     ..........\n\
                     ..XX......\n\
                     ..........\n\
                     ..........\n\
                     ..........\n";
        let free = mask::<Freestyle>(ascii, Color::Black);
        assert_ne!(free & OWN_DOUBLE_THREE, 0, "{free:b}");
        let renju = mask::<Renju>(ascii, Color::Black);
        assert_eq!(renju & OWN_DOUBLE_THREE, 0, "{renju:b}");
    }
}
