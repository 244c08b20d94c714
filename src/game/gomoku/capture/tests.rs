//! Tests of the capture board: captures and their undo, the incremental state through
//! captures, the outcomes of both variants, Ninuki's forbidden moves, the threat search and
//! the search on positions whose only win is a capture.

use super::*;
use crate::game::{Color, Game, Move, MoveError, Outcome};
use crate::search::gomoku::alphabeta::{self, Params};
use crate::search::gomoku::capture::vcf;
use crate::search::gomoku::threats::ThreatLimits;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Stop};

/// A position from a picture (`X` black, `O` white, `.` empty), stones set up without
/// captures, alternating with passes where one colour has more, then `to_move` to play.
fn board<V: Variant>(pic: &str, to_move: Color) -> CaptureBoard<V> {
    let rows: Vec<Vec<char>> = pic
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let mut b = CaptureBoard::<V>::new(rows[0].len(), rows.len()).unwrap();
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            let m = Move::new(x as u8, y as u8);
            match ch {
                'X' => black.push(m),
                'O' => white.push(m),
                _ => {}
            }
        }
    }
    for k in 0..black.len().max(white.len()) {
        for list in [&black, &white] {
            match list.get(k) {
                Some(&m) => b.place(m).unwrap(),
                None => {
                    b.pass();
                }
            }
        }
    }
    if b.side_to_move() != to_move {
        b.pass();
    }
    b
}

fn mv(x: u8, y: u8) -> Move {
    Move::new(x, y)
}

fn search<V: Variant>(b: &CaptureBoard<V>, depth: u32) -> (Move, i32) {
    let mut tt = TranspositionTable::new();
    tt.resize(1 << 20);
    let tt = std::sync::Arc::new(tt);
    let mut sink = |_: &crate::search::Iteration| {};
    let r = alphabeta::search(
        b,
        &tt,
        &Limits::depth(depth),
        &Stop::new(),
        Params::default(),
        None,
        &mut sink,
    )
    .expect("a move");
    (r.best, r.score)
}

#[test]
fn a_flanking_move_captures_the_pair_and_undo_puts_it_back() {
    let mut b = board::<Pente>(
        "
        .......
        .XOO...
        .......
        .......
        .......
        ",
        Color::Black,
    );
    let before = (b.to_ascii(), b.key());
    b.play(mv(4, 1));
    assert_eq!(b.stone_at(mv(2, 1)), None);
    assert_eq!(b.stone_at(mv(3, 1)), None);
    assert_eq!(b.captured_pairs(Color::Black), 1);
    assert_eq!(b.captures(), Some([1, 0]));
    assert!(b.check_invariants([0, 0], false).is_ok());
    // The freed cells are playable again, and moving into a flanked gap captures nothing.
    assert!(b.check_move(mv(2, 1)).is_ok());
    b.play(mv(2, 1));
    b.play(mv(0, 0));
    b.play(mv(3, 1));
    assert_eq!(b.stone_at(mv(2, 1)), Some(Color::White));
    assert_eq!(b.captured_pairs(Color::White), 0);
    for _ in 0..4 {
        b.undo();
    }
    assert_eq!((b.to_ascii(), b.key()), before);
    assert_eq!(b.captured_pairs(Color::Black), 0);
}

#[test]
fn the_key_depends_on_the_captured_pairs() {
    let mut a = CaptureBoard::<Pente>::new(19, 19).unwrap();
    let b = a.clone();
    a.set_captured_pairs(Color::White, 2).unwrap();
    assert_ne!(a.key(), b.key());
    assert_eq!(
        a.set_captured_pairs(Color::Black, 5),
        Err(PairCountError(5))
    );
}

/// Pseudo-random games heavy in captures: after every play and undo the incremental state
/// matches a recomputation, and undo restores the exact key and stones.
fn random_games<V: Variant>(seed: u64) -> usize {
    let mut rng = seed;
    let mut captures = 0;
    for _ in 0..6 {
        let mut b = CaptureBoard::<V>::new(9, 9).unwrap();
        let mut trail = Vec::new();
        for _ in 0..70 {
            if b.outcome().is_some() {
                break;
            }
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Prefer captures when there are any, so that many happen.
            let mut list = Vec::new();
            b.candidates(&mut list);
            let m = if rng.is_multiple_of(3) || list.is_empty() {
                moves[(rng >> 8) as usize % moves.len()]
            } else {
                list[(rng >> 8) as usize % list.len().min(4)].mv
            };
            let before = (b.key(), b.to_ascii());
            let pairs = b.captures().unwrap();
            b.play(m);
            if b.captures().unwrap() != pairs {
                captures += 1;
            }
            b.check_invariants([0, 0], true).unwrap();
            b.undo();
            assert_eq!((b.key(), b.to_ascii()), before);
            b.check_invariants([0, 0], false).unwrap();
            b.play(m);
            trail.push(before);
        }
        while let Some(before) = trail.pop() {
            b.undo();
            assert_eq!((b.key(), b.to_ascii()), before);
        }
        b.check_invariants([0, 0], true).unwrap();
    }
    captures
}

#[test]
fn incremental_state_stays_exact_through_captures() {
    let mut n = 0;
    for seed in 1..5u64 {
        n += random_games::<Pente>(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        n += random_games::<Ninuki>(seed.wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
    }
    assert!(n > 20, "only {n} captures happened");
}

#[test]
fn five_pairs_win_in_both_variants() {
    for ninuki in [false, true] {
        let pic = "
            .........
            .XOO.....
            .........
            .........
            .........
            ";
        let (o, pairs) = if ninuki {
            let mut b = board::<Ninuki>(pic, Color::Black);
            b.set_captured_pairs(Color::Black, 4).unwrap();
            b.play(mv(4, 1));
            (b.outcome(), b.captured_pairs(Color::Black))
        } else {
            let mut b = board::<Pente>(pic, Color::Black);
            b.set_captured_pairs(Color::Black, 4).unwrap();
            b.play(mv(4, 1));
            (b.outcome(), b.captured_pairs(Color::Black))
        };
        assert_eq!(o, Some(Outcome::Win(Color::Black)), "ninuki {ninuki}");
        assert_eq!(pairs, 5);
    }
}

/// Black completes 1,2..5,2 by playing 5,2; white's stone on 1,4 flanks the black pair
/// 3,2 2,3 on the anti-diagonal, so white playing 4,1 captures 3,2 and breaks the five.
const BREAKABLE: &str = "
    ...........
    ...........
    .XXXX......
    ..X........
    .O.........
    ...........
    ";

#[test]
fn a_five_that_can_be_broken_is_not_yet_a_win_in_ninuki() {
    let mut b = board::<Ninuki>(BREAKABLE, Color::Black);
    // Check the capture the picture promises: white at 4,1 takes 3,2 and 2,3.
    assert_ne!(b.rows().capture_mask(Color::White, mv(4, 1)), 0);
    b.play(mv(5, 2));
    assert_eq!(b.outcome(), None, "breakable five must not win yet\n{b:?}");
    // White must break it: any other move loses at once.
    let mut elsewhere = b.clone();
    elsewhere.play(mv(9, 5));
    assert_eq!(elsewhere.outcome(), Some(Outcome::Win(Color::Black)));
    // The only candidates are captures, and the search finds the breaking one.
    let mut list = Vec::new();
    b.candidates(&mut list);
    assert!(list.iter().any(|s| s.mv == mv(4, 1)));
    b.play(mv(4, 1));
    assert_eq!(b.outcome(), None);
    assert_eq!(b.stone_at(mv(3, 2)), None);
    assert_eq!(b.captured_pairs(Color::White), 1);
    // Pente: the same five wins at once.
    let mut p = board::<Pente>(BREAKABLE, Color::Black);
    p.play(mv(5, 2));
    assert_eq!(p.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn a_five_that_cannot_be_broken_wins_at_once_in_ninuki() {
    let mut b = board::<Ninuki>(
        "
        ...........
        ...........
        .XXXX......
        ...........
        .O.........
        ",
        Color::Black,
    );
    b.play(mv(5, 2));
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn with_four_pairs_a_fifth_capture_answers_an_unbreakable_five_in_ninuki() {
    // Black's five on row 2 cannot be broken, but white holds four pairs and can capture
    // the pair 7,4 8,4 from 9,4: that capture wins.
    let pic = "
        ...........
        ...........
        .XXXX......
        ...........
        ......OXX..
        ";
    let mut b = board::<Ninuki>(pic, Color::Black);
    b.set_captured_pairs(Color::White, 4).unwrap();
    b.play(mv(5, 2));
    assert_eq!(b.outcome(), None);
    let (best, _) = search(&b, 2);
    assert_eq!(best, mv(9, 4));
    b.play(best);
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn the_only_winning_move_is_a_capture() {
    // White threatens five (an open four on row 6 would win next), black holds four pairs
    // and can capture 5,2 6,2 from 7,2: the capture wins at once; nothing else does.
    let b = board::<Pente>(
        "
        ...........
        ...........
        ....XOO....
        ...........
        ...........
        ...........
        ..OOOO.....
        ...........
        XX.........
        ",
        Color::Black,
    );
    let mut b = b;
    b.set_captured_pairs(Color::Black, 4).unwrap();
    let (best, score) = search(&b, 3);
    assert_eq!(best, mv(7, 2));
    assert!(crate::base::score::is_decisive(score) && score > 0);
    let w = vcf(&mut b, 4, &ThreatLimits::nodes(10_000)).expect("a win");
    assert_eq!(w.mv, mv(7, 2));
}

/// Black's open three 3,3..5,3; white threatens the pair 4,3 4,4 from 4,2 (its stone on
/// 4,5), so every four black makes on row 3 can be broken by that capture.
const THREE_UNDER_CAPTURE: &str = "
    ...........
    ...........
    ...........
    ...XXX.....
    ....X......
    ....O......
    ...........
    ";

#[test]
fn the_threat_search_answers_a_four_with_the_capture_that_breaks_it() {
    let mut b = board::<Pente>(THREE_UNDER_CAPTURE, Color::Black);
    let mut solver = crate::search::gomoku::threats::Solver::new(1 << 12);
    let limits = ThreatLimits::nodes(100_000);
    use crate::search::gomoku::threats::Tactics;
    // The gomoku solver sees an open four: four, block, five.
    let plain = b
        .board
        .find_vcf(&mut solver, 8, &limits)
        .expect("gomoku VCF");
    assert_eq!(plain.plies, 3);
    // Under captures the open four is broken (4,2 takes 4,3 and 4,4); black has to make it
    // again, so the win, if any, is longer.
    let aware = vcf(&mut b, 8, &limits).expect("black re-forms the four");
    assert!(aware.plies >= 5, "{aware:?}");
    // With four pairs the capture wins for white instead: no VCF at all.
    b.set_captured_pairs(Color::White, 4).unwrap();
    assert_eq!(vcf(&mut b, 8, &limits), None);
    assert!(b.board.find_vcf(&mut solver, 8, &limits).is_some());
}

#[test]
fn a_double_three_is_forbidden_in_ninuki_unless_it_captures() {
    // Black at 3,3 would make two open threes (row 3 and column 3).
    let pic = "
        .........
        .........
        .........
        .XX......
        ...X.....
        ...X.....
        .........
        .........
        .........
        ";
    let b = board::<Ninuki>(pic, Color::Black);
    assert_eq!(b.check_move(mv(3, 3)), Err(MoveError::DoubleThree));
    assert!(b.is_forbidden(mv(3, 3)));
    assert!(b.forbidden_points().contains(&mv(3, 3)));
    let mut list = Vec::new();
    b.candidates(&mut list);
    assert!(!list.iter().any(|s| s.mv == mv(3, 3)));
    // Pente has no such rule.
    let p = board::<Pente>(pic, Color::Black);
    assert!(p.check_move(mv(3, 3)).is_ok());
    // The same move is legal when it also captures: white pair 4,2 5,1 flanked by 6,0.
    let pic = "
        ......X..
        .....O...
        ....O....
        .XX......
        ...X.....
        ...X.....
        .........
        .........
        .........
        ";
    let mut b = board::<Ninuki>(pic, Color::Black);
    assert_ne!(b.rows().capture_mask(Color::Black, mv(3, 3)), 0);
    assert!(b.check_move(mv(3, 3)).is_ok());
    assert!(!b.forbidden_points().contains(&mv(3, 3)));
    b.play(mv(3, 3));
    assert_eq!(b.captured_pairs(Color::Black), 1);
}
