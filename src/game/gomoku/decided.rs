//! Positions whose result the cell codes already tell, without a search: the static win and
//! loss checks that the search asks at every node before it generates a single move.
//!
//! Every verdict here is exact: it is given only where the line through each threat and the
//! opponent's possible replies leave no doubt under the rule, and it names the exact number
//! of plies to the five. Where a rule makes a check unsure, the check is not made (the search
//! then finds the line itself):
//!
//! | check (side to move) | verdict | freestyle, standard | renju | caro |
//! |---|---|---|---|---|
//! | a five point of its own | win in 1 | yes | yes | yes |
//! | two or more opponent five points, none of its own | loss in 2 | yes | yes | no: a block can turn the other five into a dead one |
//! | an open-four or double-four point, no opponent five point | win in 3 | yes | black only on an open-four cell that is no foul (its double fours are fouls) | no: a block at one end can kill the five at the other |
//! | a four-three point, the opponent cannot make a four | win in 5 | yes | white only | no |
//! | a double-three point, the opponent cannot make a four | win in 5 | yes | white only | no |
//!
//! Why the last two are sure: the opponent has no cell where one stone makes a four, so none
//! of its replies is forcing, and a single stone blocks at most one of the two lines through
//! our new stone (they meet only there). After the block, the line left makes a straight four
//! and the five follows two plies later, before any four the opponent builds meanwhile can
//! become five. Renju black's threes may need a foul to become fours, so black's four-three
//! and double three are left to the search.

use super::board::Board;
use super::pattern::Code;
use super::rules::{FiveRule, Rule};
use crate::game::{Color, Game};

/// What the cell codes prove about a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move makes five on its `n`-th ply from here (1 = its next move).
    Win(u32),
    /// The opponent makes five on the `n`-th ply from here, whatever the side to move does.
    Loss(u32),
}

/// Whether a rule's fives can be killed by the stones beyond their ends (caro): then a
/// block can change which of the attacker's fives still win, and only the immediate five
/// is certain.
const fn ends_matter(r: FiveRule) -> bool {
    matches!(r, FiveRule::Caro | FiveRule::CaroExact)
}

impl<R: Rule> Board<R> {
    /// The result the codes prove for the side to move, if they prove one (see the module
    /// table for which checks each rule allows). O(1) but for renju black's open fours, which
    /// test their cells for fouls.
    pub fn decided(&self) -> Option<Verdict> {
        let me = self.side_to_move();
        let opp = me.opponent();
        if self.code_count(me, Code::Five) > 0 {
            return Some(Verdict::Win(1));
        }
        if ends_matter(R::BLACK) || ends_matter(R::WHITE) {
            return None;
        }
        match self.code_count(opp, Code::Five) {
            0 => {}
            1 => return None,
            _ => return Some(Verdict::Loss(2)),
        }
        let renju_black = R::RENJU && me == Color::Black;
        // Two five points after one stone: the opponent, with no five of its own, blocks one.
        let two_fives = if renju_black {
            self.code_count(me, Code::OpenFour) > 0 && self.fair_open_four()
        } else {
            self.code_count(me, Code::OpenFour) > 0 || self.code_count(me, Code::DoubleFour) > 0
        };
        if two_fives {
            return Some(Verdict::Win(3));
        }
        if renju_black || self.has_code_at_least(opp, Code::Four) {
            return None;
        }
        if self.code_count(me, Code::FourThree) > 0 || self.code_count(me, Code::DoubleThree) > 0 {
            return Some(Verdict::Win(5));
        }
        None
    }

    /// Renju black: an open-four point that is no foul (a straight four that also makes two
    /// real threes elsewhere is forbidden, and its code does not say so).
    fn fair_open_four(&self) -> bool {
        let mut cells = Vec::new();
        self.threat_cells(Color::Black, Code::OpenFour, &mut cells);
        cells
            .iter()
            .any(|&(m, code)| code == Code::OpenFour && !self.is_forbidden_black(m))
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{Caro, Freestyle, Renju, Standard};
    use super::super::testing::random_walk;
    use super::*;
    use crate::game::{Move, Outcome};

    /// A board with the given stones, black first; a colour whose list runs out passes
    /// while the other still has stones, so black with one stone more leaves white to move.
    fn board<R: Rule>(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board<R> {
        let mut b = Board::<R>::new(15, 15).unwrap();
        for i in 0..black.len().max(white.len()) {
            match black.get(i) {
                Some(&(x, y)) => b.play(Move::new(x, y)),
                None => assert!(b.pass()),
            }
            match white.get(i) {
                Some(&(x, y)) => b.play(Move::new(x, y)),
                None if i + 1 < black.len() => assert!(b.pass()),
                None => {}
            }
        }
        b
    }

    #[test]
    fn an_open_four_point_wins_in_three() {
        // Black to move with .XXX. on row 7 and white's stones far away.
        let b = board::<Freestyle>(&[(5, 7), (6, 7), (7, 7)], &[(0, 0), (0, 14), (14, 0)]);
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.decided(), Some(Verdict::Win(3)));
    }

    #[test]
    fn an_opponent_open_four_is_a_loss_in_two() {
        // White to move facing black's .XXXX.
        let b = board::<Freestyle>(
            &[(5, 7), (6, 7), (7, 7), (8, 7)],
            &[(0, 0), (0, 14), (14, 0)],
        );
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.decided(), Some(Verdict::Loss(2)));
    }

    #[test]
    fn a_double_three_wins_only_while_the_opponent_cannot_four() {
        // Black: two open twos crossing at (7,7), which makes a double three there.
        let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
        let quiet = board::<Freestyle>(&black, &[(0, 0), (0, 14), (14, 0), (14, 14)]);
        assert_eq!(quiet.decided(), Some(Verdict::Win(5)));
        // White with a three of its own (a four point) takes the verdict away.
        let counter = board::<Freestyle>(&black, &[(0, 10), (0, 11), (0, 12), (14, 14)]);
        assert!(counter.has_code_at_least(Color::White, Code::Four));
        assert_eq!(counter.decided(), None);
    }

    #[test]
    fn caro_trusts_only_the_five_at_hand() {
        let b = board::<Caro>(&[(5, 7), (6, 7), (7, 7)], &[(0, 0), (0, 14), (14, 0)]);
        assert_eq!(b.decided(), None);
        let five = board::<Caro>(
            &[(5, 7), (6, 7), (7, 7), (8, 7)],
            &[(0, 0), (0, 14), (14, 0), (14, 14)],
        );
        assert_eq!(five.decided(), Some(Verdict::Win(1)));
    }

    /// The verdicts against an independent judge, on positions from random games: a loss
    /// leaves every reply facing a five; a win is confirmed by a full-width search of the
    /// side to move's forcing lines of exactly that many plies.
    fn judged<R: Rule>(seeds: u64) -> Vec<Verdict> {
        let mut seen = Vec::new();
        for seed in 1..=seeds {
            random_walk::<R>(seed, 60, 6, |b| {
                let Some(v) = b.decided() else { return };
                let mut b = b.clone();
                match v {
                    Verdict::Win(n) => assert!(
                        wins_within(&mut b, n),
                        "{} seed {seed}: {v:?} not found by search in\n{b:?}",
                        R::NAME
                    ),
                    Verdict::Loss(n) => assert!(
                        loses_within(&mut b, n),
                        "{} seed {seed}: {v:?} not found by search in\n{b:?}",
                        R::NAME
                    ),
                }
                if !seen.contains(&v) {
                    seen.push(v);
                }
            });
        }
        seen
    }

    /// Every legal move of the side to move. The judge trusts no code for its verdicts, only
    /// the rules' outcomes; the codes only order the moves (strongest first), so that the
    /// attacker's winning move is usually the first one tried.
    fn moves<R: Rule>(b: &Board<R>) -> Vec<Move> {
        let me = b.side_to_move();
        let mut out = Vec::new();
        for y in 0..b.height() as u8 {
            for x in 0..b.width() as u8 {
                let m = Move::new(x, y);
                if b.check_move(m).is_ok() {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|&m| std::cmp::Reverse(b.code(m, me)));
        out
    }

    /// Whether the side to move can force a five within `n` plies (odd), trying every move
    /// for itself and every move for the opponent.
    fn wins_within<R: Rule>(b: &mut Board<R>, n: u32) -> bool {
        let me = b.side_to_move();
        for m in moves(b) {
            b.play(m);
            let won = match b.outcome() {
                Some(o) => o == Outcome::Win(me),
                None => n >= 3 && loses_within(b, n - 1),
            };
            b.undo();
            if won {
                return true;
            }
        }
        false
    }

    /// Whether every move of the side to move lets the opponent force a five within `n − 1`
    /// more plies (`n` even).
    fn loses_within<R: Rule>(b: &mut Board<R>, n: u32) -> bool {
        let me = b.side_to_move();
        for m in moves(b) {
            b.play(m);
            let lost = match b.outcome() {
                Some(o) => o == Outcome::Win(me.opponent()),
                None => wins_within(b, n - 1),
            };
            b.undo();
            if !lost {
                return false;
            }
        }
        true
    }

    #[test]
    fn verdicts_agree_with_an_exhaustive_search() {
        // Every kind of verdict must have met the judge, or the test proves nothing.
        for rule_seen in [
            judged::<Freestyle>(12),
            judged::<Standard>(12),
            judged::<Renju>(12),
        ] {
            for v in [
                Verdict::Win(1),
                Verdict::Win(3),
                Verdict::Win(5),
                Verdict::Loss(2),
            ] {
                assert!(
                    rule_seen.contains(&v),
                    "{v:?} never judged (seen {rule_seen:?})"
                );
            }
        }
    }
}
