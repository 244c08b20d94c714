//! Integration tests of the gomoku board: incremental state against a from-scratch
//! recomputation under every rule and several sizes, hand-made positions for each subtle
//! rule case, and the forced-move behaviour of the candidate generator.

use wuzi::game::gomoku::{
    bench_make_undo, Board, Caro, CaroExact, Code, Freestyle, Pattern, Renju, Rule, SizeError,
    Standard,
};
use wuzi::game::{Color, Game, Move, MoveError, Outcome, ScoredMove};

fn mv(x: u8, y: u8) -> Move {
    Move::new(x, y)
}

/// A `size`×`size` picture with the given stones, turned into a board.
fn setup<R: Rule>(size: usize, black: &[(u8, u8)], white: &[(u8, u8)], to_move: Color) -> Board<R> {
    let mut rows = vec![vec!['.'; size]; size];
    for &(x, y) in black {
        rows[y as usize][x as usize] = 'X';
    }
    for &(x, y) in white {
        rows[y as usize][x as usize] = 'O';
    }
    let pic: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    let b = Board::<R>::from_ascii(&pic, to_move).expect("valid picture");
    assert_eq!(b.to_ascii(), pic, "picture round trip");
    assert_eq!(b.side_to_move(), to_move);
    b
}

/// Stones far from the action on a 20×20 board (at least 5 apart on every line, so they
/// never form a threat), to balance stone counts.
fn filler(n: usize) -> Vec<(u8, u8)> {
    const FAR: [(u8, u8); 12] = [
        (15, 0),
        (15, 5),
        (15, 10),
        (15, 15),
        (0, 15),
        (5, 15),
        (10, 15),
        (19, 19),
        (19, 2),
        (2, 19),
        (19, 7),
        (7, 19),
    ];
    FAR[..n].to_vec()
}

fn cands<G: Game>(b: &G) -> Vec<Move> {
    let mut v: Vec<ScoredMove> = Vec::new();
    b.candidates(&mut v);
    v.iter().map(|s| s.mv).collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_walk<R: Rule>(w: usize, h: usize, steps: usize, seed: u64) {
    let mut b = Board::<R>::new(w, h).expect("size in range");
    let mut rng = Rng(seed | 1);
    if seed % 2 == 1 {
        for _ in 0..3 {
            let m = mv(rng.below(w) as u8, rng.below(h) as u8);
            let _ = b.place_wall(m);
        }
    }
    b.check_invariants().expect("fresh board");
    let mut keys = vec![b.key()];
    let mut list = Vec::new();
    for step in 0..steps {
        let r = rng.below(100);
        if b.ply() > 0 && (b.outcome().is_some() || r < 25) {
            b.undo();
            keys.pop();
            assert_eq!(Some(&b.key()), keys.last(), "undo restores the key");
        } else if r < 28 {
            assert!(b.pass());
            keys.push(b.key());
        } else {
            b.candidates(&mut list);
            for s in &list {
                assert!(b.check_move(s.mv).is_ok(), "candidate {} is legal", s.mv);
                if R::RENJU && b.side_to_move() == Color::Black && list.len() > 1 {
                    assert!(!b.is_forbidden(s.mv), "candidate {} is forbidden", s.mv);
                }
            }
            let m = if r < 65 && !list.is_empty() {
                list[rng.below(list.len().min(6))].mv
            } else {
                let legal = b.legal_moves();
                if legal.is_empty() {
                    continue;
                }
                legal[rng.below(legal.len())]
            };
            let predicted = b.key_after(m);
            b.play(m);
            assert_eq!(
                predicted,
                Some(b.key()),
                "key_after({m}) is the key after it"
            );
            keys.push(b.key());
        }
        if let Err(e) = b.check_invariants() {
            panic!(
                "{} {w}x{h} seed {seed} step {step}: {e}\n{}",
                R::NAME,
                b.to_ascii()
            );
        }
    }
}

fn walk_all_sizes<R: Rule>() {
    for (i, &(w, h)) in [(5, 5), (15, 15), (20, 20), (32, 32), (20, 7)]
        .iter()
        .enumerate()
    {
        let steps = if w * h > 500 { 300 } else { 700 };
        random_walk::<R>(w, h, steps, 0x9E37_79B9 + i as u64);
    }
}

#[test]
fn incremental_matches_scratch_freestyle() {
    walk_all_sizes::<Freestyle>();
}

#[test]
fn incremental_matches_scratch_standard() {
    walk_all_sizes::<Standard>();
}

#[test]
fn incremental_matches_scratch_renju() {
    walk_all_sizes::<Renju>();
}

#[test]
fn incremental_matches_scratch_caro() {
    walk_all_sizes::<Caro>();
}

#[test]
fn incremental_matches_scratch_caro_exact() {
    walk_all_sizes::<CaroExact>();
}

#[test]
fn sizes_and_move_errors() {
    assert_eq!(
        Board::<Freestyle>::new(4, 15).err(),
        Some(SizeError {
            width: 4,
            height: 15
        })
    );
    assert!(Board::<Freestyle>::new(33, 10).is_err());
    assert!(Board::<Freestyle>::new(32, 5).is_ok());
    let mut b = Board::<Freestyle>::new(15, 15).unwrap();
    assert_eq!(b.check_move(mv(15, 0)), Err(MoveError::OffBoard));
    b.play(mv(7, 7));
    assert_eq!(b.check_move(mv(7, 7)), Err(MoveError::Occupied));
    assert_eq!(b.place_wall(mv(7, 7)), Err(MoveError::Occupied));
    assert_eq!(b.place_wall(mv(20, 7)), Err(MoveError::OffBoard));
    let k = b.key();
    assert!(b.pass());
    assert_ne!(b.key(), k, "a pass flips the side key");
    assert_eq!(b.last_move(), None);
    b.undo();
    assert_eq!(b.key(), k);
    assert_eq!(b.last_move(), Some(mv(7, 7)));
    // a decided game refuses further moves
    let mut w = setup::<Freestyle>(
        20,
        &[(1, 1), (2, 1), (3, 1), (4, 1)],
        &filler(4),
        Color::Black,
    );
    w.play(mv(5, 1));
    assert_eq!(w.outcome(), Some(Outcome::Win(Color::Black)));
    assert_eq!(w.check_move(mv(9, 9)), Err(MoveError::GameOver));
    let mut v = Vec::new();
    w.candidates(&mut v);
    assert!(v.is_empty());
}

#[test]
fn full_board_is_a_draw() {
    // Rows of period-4 colours never line up five on a 5x5 board... instead fill with walls.
    let mut b = Board::<Freestyle>::new(5, 5).unwrap();
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (2, 2) {
                b.place_wall(mv(x, y)).unwrap();
            }
        }
    }
    assert_eq!(b.outcome(), None);
    b.play(mv(2, 2));
    assert_eq!(b.outcome(), Some(Outcome::Draw));
    b.undo();
    assert_eq!(b.outcome(), None);
}

#[test]
fn walls_block_both_colours() {
    let pic = "\
        ...............\n\
        .XXXX#.........\n\
        ...............\n\
        .OOO...........\n\
        ...............\n";
    let b = Board::<Freestyle>::from_ascii(pic, Color::Black).unwrap();
    // blocked on the right by the wall: one five point on the left only
    assert_eq!(b.pattern(mv(0, 1), Color::Black, 0), Pattern::Five);
    assert_eq!(b.code_count(Color::Black, Code::Five), 1);
    assert!(b.to_ascii().contains(".XXXX#"));
}

#[test]
fn overline_by_rule() {
    let black = [(1, 5), (2, 5), (3, 5), (5, 5), (6, 5)];
    let mut s = setup::<Standard>(20, &black, &filler(5), Color::Black);
    s.play(mv(4, 5));
    assert_eq!(s.outcome(), None, "standard: overline is not a win");
    let mut f = setup::<Freestyle>(20, &black, &filler(5), Color::Black);
    f.play(mv(4, 5));
    assert_eq!(f.outcome(), Some(Outcome::Win(Color::Black)));
    // standard: exactly five does win
    let mut s = setup::<Standard>(20, &black[1..], &filler(4), Color::Black);
    s.play(mv(4, 5));
    assert_eq!(s.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn caro_blocked_fives() {
    // O X X X X . O : filling makes a five with opponent stones at both ends
    let black = [(2, 3), (3, 3), (4, 3), (5, 3)];
    let white = [(1, 3), (7, 3), (15, 0), (15, 5)];
    let mut c = setup::<Caro>(20, &black, &white, Color::Black);
    c.play(mv(6, 3));
    assert_eq!(c.outcome(), None, "caro: five blocked at both ends");
    let mut f = setup::<Freestyle>(20, &black, &white, Color::Black);
    f.play(mv(6, 3));
    assert_eq!(f.outcome(), Some(Outcome::Win(Color::Black)));
    // against the board edge: the edge does not block
    let black = [(0, 5), (1, 5), (2, 5), (3, 5)];
    let white = [(5, 5), (15, 0), (15, 5), (15, 10)];
    let mut c = setup::<Caro>(20, &black, &white, Color::Black);
    c.play(mv(4, 5));
    assert_eq!(c.outcome(), Some(Outcome::Win(Color::Black)));
    // six between opponent stones wins in caro, not in caro-exact
    let black = [(2, 7), (3, 7), (4, 7), (6, 7), (7, 7)];
    let white = [(1, 7), (8, 7), (15, 0), (15, 5), (15, 10)];
    let mut c = setup::<Caro>(20, &black, &white, Color::Black);
    c.play(mv(5, 7));
    assert_eq!(c.outcome(), Some(Outcome::Win(Color::Black)));
    let mut e = setup::<CaroExact>(20, &black, &white, Color::Black);
    e.play(mv(5, 7));
    assert_eq!(e.outcome(), None, "caro-exact: six does not win");
}

#[test]
fn caro_exact_fives() {
    // exactly five with one open end wins; with both ends opponent it does not
    let black = [(2, 3), (3, 3), (4, 3), (5, 3)];
    let white = [(1, 3), (15, 0), (15, 5), (15, 10)];
    let mut e = setup::<CaroExact>(20, &black, &white, Color::Black);
    e.play(mv(6, 3));
    assert_eq!(e.outcome(), Some(Outcome::Win(Color::Black)));
    let white = [(1, 3), (7, 3), (15, 0), (15, 5)];
    let mut e = setup::<CaroExact>(20, &black, &white, Color::Black);
    e.play(mv(6, 3));
    assert_eq!(e.outcome(), None);
}

/// Black stones of the fake-three position: playing (7,7) makes a horizontal three whose
/// two straight-four points (6,7) and (10,7) are each a double four (with the columns
/// below them), plus a real vertical three. With `both_fake == false` the (10,*) column is
/// missing, so (10,7) is a legal four point and the horizontal three is real.
fn fake_three_black(both_fake: bool) -> Vec<(u8, u8)> {
    let mut b = vec![(8, 7), (9, 7), (6, 8), (6, 9), (6, 10), (7, 5), (7, 6)];
    if both_fake {
        b.extend([(10, 8), (10, 9), (10, 10)]);
    }
    b
}

#[test]
fn renju_fake_three_is_not_double_three() {
    let p = mv(7, 7);
    let black = fake_three_black(true);
    let b = setup::<Renju>(20, &black, &filler(black.len()), Color::Black);
    assert_eq!(b.pattern(p, Color::Black, 0), Pattern::OpenThree);
    assert_eq!(b.pattern(p, Color::Black, 1), Pattern::OpenThree);
    assert_eq!(b.code(p, Color::Black), Code::DoubleThree);
    assert!(!b.is_forbidden(p), "fake three: not a double three");
    assert!(cands(&b).contains(&p));
    assert!(!b.forbidden_points().contains(&p));
    // after the move, both four points of the horizontal three are double fours
    let mut after = b.clone();
    after.play(p);
    assert_eq!(after.outcome(), None);
    assert!(after.is_forbidden_black(mv(6, 7)) && after.is_forbidden_black(mv(10, 7)));

    let black = fake_three_black(false);
    let b = setup::<Renju>(20, &black, &filler(black.len()), Color::Black);
    assert!(b.is_forbidden(p), "both threes real: double three");
    assert!(
        !cands(&b).contains(&p),
        "forbidden cells are never candidates"
    );
    assert!(b.forbidden_points().contains(&p));
    let mut b = b;
    b.play(p);
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn renju_three_three_and_playing_a_foul_loses() {
    let black = [(6, 5), (7, 5), (5, 6), (5, 7)];
    let mut b = setup::<Renju>(20, &black, &filler(4), Color::Black);
    assert!(b.is_forbidden(mv(5, 5)));
    let mut w = setup::<Renju>(20, &black, &filler(5), Color::White);
    assert!(
        !w.is_forbidden(mv(5, 5)),
        "white to move: nothing is forbidden"
    );
    assert!(w.is_forbidden_black(mv(5, 5)));
    w.play(mv(5, 5));
    assert_eq!(w.outcome(), None, "white may play there");
    b.play(mv(5, 5));
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::White)));
    // the same shape is fine in freestyle
    let f = setup::<Freestyle>(20, &black, &filler(4), Color::Black);
    assert!(!f.is_forbidden(mv(5, 5)));
    assert_eq!(f.code(mv(5, 5), Color::Black), Code::DoubleThree);
}

#[test]
fn renju_double_four_in_one_line() {
    // X . X X X . X after black plays (5,5)
    let black = [(2, 5), (4, 5), (6, 5), (8, 5)];
    let b = setup::<Renju>(20, &black, &filler(4), Color::Black);
    assert_eq!(b.pattern(mv(5, 5), Color::Black, 0), Pattern::DoubleFour);
    assert_eq!(b.code(mv(5, 5), Color::Black), Code::Forbidden);
    assert!(b.is_forbidden(mv(5, 5)));
    let f = setup::<Freestyle>(20, &black, &filler(4), Color::Black);
    assert!(!f.is_forbidden(mv(5, 5)));
    assert_eq!(f.code(mv(5, 5), Color::Black), Code::DoubleFour);
}

#[test]
fn renju_double_four_across_lines() {
    let black = [(6, 5), (7, 5), (8, 5), (5, 6), (5, 7), (5, 8)];
    let mut b = setup::<Renju>(20, &black, &filler(6), Color::Black);
    assert!(b.is_forbidden(mv(5, 5)));
    b.play(mv(5, 5));
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn renju_overline_forbidden_but_white_overline_wins() {
    let line = [(1, 5), (2, 5), (3, 5), (5, 5), (6, 5)];
    let mut b = setup::<Renju>(20, &line, &filler(5), Color::Black);
    assert!(b.is_forbidden(mv(4, 5)));
    assert_eq!(b.pattern(mv(4, 5), Color::Black, 0), Pattern::Overline);
    b.play(mv(4, 5));
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::White)));
    // white with the same shape wins
    let mut w = setup::<Renju>(20, &filler(6), &line, Color::White);
    assert_eq!(w.pattern(mv(4, 5), Color::White, 0), Pattern::Five);
    w.play(mv(4, 5));
    assert_eq!(w.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn renju_five_with_double_four_wins() {
    // (5,5) completes exactly five horizontally and also makes two fours
    let black = [
        (1, 5),
        (2, 5),
        (3, 5),
        (4, 5),
        (5, 7),
        (5, 8),
        (5, 9),
        (7, 7),
        (8, 8),
        (9, 9),
    ];
    let mut b = setup::<Renju>(20, &black, &filler(black.len()), Color::Black);
    assert!(!b.is_forbidden(mv(5, 5)));
    assert_eq!(b.code(mv(5, 5), Color::Black), Code::Five);
    // (0,5) is the other five point of the horizontal four: the only two candidates
    let mut c = cands(&b);
    c.sort();
    assert_eq!(c, vec![mv(0, 5), mv(5, 5)]);
    b.play(mv(5, 5));
    assert_eq!(b.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn candidates_win_first_and_forced_block() {
    // black has a four: its five point is the only candidate
    let black = [(3, 3), (4, 3), (5, 3), (6, 3)];
    let white = [(2, 3), (3, 4), (4, 4)];
    let b = setup::<Freestyle>(20, &black, &white, Color::White);
    // white to move must block at (7,3)
    assert_eq!(cands(&b), vec![mv(7, 3)]);
    let mut b2 = b.clone();
    b2.pass();
    assert_eq!(
        cands(&b2),
        vec![mv(7, 3)],
        "black wins in one: only the win"
    );
    // with its own open three, white still has to block
    let white = [(2, 3), (3, 6), (4, 6), (5, 6)];
    let b = setup::<Freestyle>(20, &black, &white, Color::White);
    assert_eq!(cands(&b), vec![mv(7, 3)]);
}

#[test]
fn candidates_against_an_open_three() {
    // white has an open three on row 7; black (to move) has no four
    let white = [(6, 7), (7, 7), (8, 7)];
    let black = [(7, 6), (8, 8), (3, 3)];
    let b = setup::<Freestyle>(20, &black, &white, Color::Black);
    let c = cands(&b);
    assert!(c.contains(&mv(5, 7)) && c.contains(&mv(9, 7)), "{c:?}");
    for m in &c {
        assert_eq!(m.y, 7, "only blocks on the three's line: {c:?}");
    }
    // with a four of its own available, black may also play it
    let black = [(7, 6), (8, 8), (2, 2), (3, 2), (4, 2)];
    let white = [(6, 7), (7, 7), (8, 7), (1, 2), (12, 12)];
    let b = setup::<Freestyle>(20, &black, &white, Color::Black);
    let c = cands(&b);
    assert!(c.contains(&mv(5, 2)), "own four kept: {c:?}");
}

#[test]
fn empty_board_candidate_is_the_centre() {
    let b = Board::<Freestyle>::new(15, 15).unwrap();
    assert_eq!(cands(&b), vec![mv(7, 7)]);
    let r = Board::<Renju>::new(20, 7).unwrap();
    assert_eq!(cands(&r), vec![mv(10, 3)]);
}

#[test]
fn evaluation_is_symmetric_and_bounded() {
    let black = [(6, 7), (7, 7)];
    let white = [(6, 8), (7, 8)];
    let b = setup::<Freestyle>(20, &black, &white, Color::Black);
    let w = setup::<Freestyle>(20, &white, &black, Color::White);
    // the same position with colours exchanged, and the other side to move
    for to_move in [true, false] {
        assert_eq!(
            b.eval_total(Color::Black, to_move),
            w.eval_total(Color::White, to_move)
        );
    }
    // an open three for the side to move is better than none
    let three = setup::<Freestyle>(
        20,
        &[(6, 7), (7, 7), (8, 7)],
        &[(0, 0), (14, 14)],
        Color::White,
    );
    assert!(
        three.evaluate() < 0,
        "white to move faces a black open three"
    );
    let lim = wuzi::search::score::WIN_MIN;
    assert!(three.evaluate().abs() < lim);
}

#[test]
fn same_position_same_key() {
    let mut a = Board::<Freestyle>::new(15, 15).unwrap();
    let mut b = Board::<Freestyle>::new(15, 15).unwrap();
    for m in [mv(7, 7), mv(8, 8), mv(6, 6)] {
        a.play(m);
    }
    for m in [mv(6, 6), mv(8, 8), mv(7, 7)] {
        b.play(m);
    }
    assert_eq!(a.key(), b.key());
    b.pass();
    assert_ne!(a.key(), b.key());
}

/// Make/undo speed: `cargo test --release --test gomoku_board -- --ignored --nocapture`.
#[test]
#[ignore = "a speed measurement, not a check: `cargo test --release --test gomoku_board -- --ignored --nocapture`"]
fn bench_make_undo_15x15() {
    let ops = 4_000_000;
    // cold table builds first: what START pays
    let t = std::time::Instant::now();
    let _ = Board::<Renju>::new(15, 15).unwrap();
    eprintln!(
        "renju tables (exact five + five or more) + new board: {:?}",
        t.elapsed()
    );
    let t = std::time::Instant::now();
    let _ = Board::<Caro>::new(15, 15).unwrap();
    eprintln!("caro table (raw 2^20) + new board: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let (done, sum) = bench_make_undo::<Freestyle>(15, ops).unwrap();
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "freestyle 15x15: {done} plays+undos in {s:.3} s = {:.0} ops/s (checksum {sum:x})",
        done as f64 / s
    );
    let t = std::time::Instant::now();
    let (done, _) = bench_make_undo::<Renju>(15, ops / 4).unwrap();
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "renju 15x15: {done} plays+undos in {s:.3} s = {:.0} ops/s",
        done as f64 / s
    );
    // candidates + evaluate along games that follow the top few candidates
    let mut b = Board::<Freestyle>::new(15, 15).unwrap();
    let mut v = Vec::new();
    let (mut calls, mut sum) = (0u64, 0i64);
    let t = std::time::Instant::now();
    for game in 0..2_000u64 {
        loop {
            b.candidates(&mut v);
            sum += i64::from(b.evaluate());
            calls += 1;
            if v.is_empty() {
                break;
            }
            let pick = ((calls + game) as usize * 7) % v.len().min(5);
            b.play(v[pick].mv);
        }
        while b.ply() > 0 {
            b.undo();
        }
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "freestyle 15x15: {calls} candidates+evaluate calls in {s:.3} s = {:.0}/s (sum {sum})",
        calls as f64 / s
    );
}

#[test]
fn board_is_send_sync_clone() {
    fn assert_traits<T: Clone + Send + Sync + 'static>() {}
    assert_traits::<Board<Freestyle>>();
    assert_traits::<Board<Renju>>();
    assert_traits::<Board<Caro>>();
}

#[test]
fn renju_forbidden_only_block_is_not_offered() {
    // white's only five point (4,10) is a double four for black: black is lost, and the
    // generator offers ordinary non-foul moves instead of the foul
    let white = [(0, 10), (1, 10), (2, 10), (3, 10), (15, 0), (15, 5)];
    let black = [(4, 11), (4, 12), (4, 13), (5, 9), (6, 8), (7, 7)];
    let b = setup::<Renju>(20, &black, &white, Color::Black);
    assert_eq!(b.code(mv(4, 10), Color::White), Code::Five);
    assert_eq!(b.code(mv(4, 10), Color::Black), Code::Forbidden);
    let c = cands(&b);
    assert!(!c.is_empty());
    assert!(!c.contains(&mv(4, 10)));
    assert!(c.iter().all(|&m| !b.is_forbidden(m)));
    // under freestyle the block is the only candidate
    let f = setup::<Freestyle>(20, &black, &white, Color::Black);
    assert_eq!(cands(&f), vec![mv(4, 10)]);
}

#[test]
fn pattern_accessors() {
    // black open three on row 7: both ends make a straight four
    let b = setup::<Freestyle>(20, &[(6, 7), (7, 7), (8, 7)], &filler(2), Color::White);
    let fours = b.cells_with_code(Color::Black, Code::OpenFour);
    assert_eq!(fours, vec![mv(5, 7), mv(9, 7)]);
    assert_eq!(b.code_count(Color::Black, Code::OpenFour), 2);
    assert_eq!(
        b.patterns(mv(5, 7), Color::Black),
        [
            Pattern::OpenFour,
            Pattern::None,
            Pattern::None,
            Pattern::None
        ]
    );
    assert_eq!(
        b.patterns(mv(7, 7), Color::Black),
        [Pattern::None; 4],
        "occupied"
    );
    // (7,6) touches all three stones: 3 + 3 + 3 by the influence weights
    assert_eq!(b.influence(mv(7, 6), Color::Black), 9);
    assert_eq!(b.influence(mv(7, 6), Color::White), 0);
    assert_eq!(b.influence(mv(30, 6), Color::Black), 0, "off the board");
}
