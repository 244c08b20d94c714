//! Board tests: every incremental structure against a recomputation from the cells alone.

use super::*;
use crate::game::Outcome;

/// Small deterministic generator for random games.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Recomputes window counts, threats, live windows, histograms, evaluation and keys from
/// the cells and compares them with the incremental state.
fn check_from_scratch(g: &Mnk) {
    let geo = &g.geo;
    let k = geo.k;
    let n = g.cells.len();
    let mut threats = vec![[0u16; 2]; n];
    let mut live = [0u32; 2];
    let mut hist = vec![0u32; 2 * (k + 1)];
    let mut eval = [0i32; 2];
    let mut winner = None;
    for win in 0..geo.win_start.len() {
        let mut cnt = [0u8; 2];
        for c in geo.window_cells(win) {
            if g.cells[c] != EMPTY {
                cnt[g.cells[c] as usize - 1] += 1;
            }
        }
        assert_eq!(g.counts[win], cnt, "window {win} counts");
        for ci in 0..2 {
            let (own, opp) = (cnt[ci] as usize, cnt[1 - ci] as usize);
            if opp == 0 {
                live[ci] += 1;
                hist[ci * (k + 1) + own] += 1;
                eval[ci] += geo.weight[own];
                if own == k {
                    winner = Some(if ci == 0 { Color::Black } else { Color::White });
                }
                if own == k - 1 {
                    let e = geo
                        .window_cells(win)
                        .find(|&c| g.cells[c] == EMPTY)
                        .unwrap();
                    threats[e][ci] += 1;
                }
            }
        }
    }
    assert_eq!(g.threats, threats);
    for ci in 0..2 {
        let cells_with = threats.iter().filter(|t| t[ci] > 0).count() as u32;
        assert_eq!(g.threat_cells[ci], cells_with);
    }
    assert_eq!(g.live, live);
    assert_eq!(g.hist, hist);
    assert_eq!(g.eval, eval);
    assert_eq!(g.winner, winner);
    for s in 0..geo.sym.len() {
        let mut key = 0;
        for c in 0..n {
            if g.cells[c] != EMPTY {
                key ^= geo.zobrist[geo.sym[s][c] as usize][g.cells[c] as usize - 1];
            }
        }
        assert_eq!(g.keys[s], key, "symmetry {s}");
    }
    assert_eq!(g.stones, g.cells.iter().filter(|&&c| c != EMPTY).count());
    for c in 0..n {
        let near = (0..n)
            .filter(|&o| g.cells[o] != EMPTY && g.distance(c, o) <= CANDIDATE_RADIUS)
            .count();
        assert_eq!(g.near[c] as usize, near, "neighbours of {c}");
    }
}

#[test]
fn incremental_state_matches_recomputation() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for &(w, h, k) in &[
        (3, 3, 3),
        (7, 5, 4),
        (6, 6, 5),
        (9, 4, 3),
        (8, 8, 1),
        (10, 10, 6),
    ] {
        for _ in 0..6 {
            let mut g = Mnk::new(w, h, k).unwrap();
            let mut played = 0;
            while g.outcome().is_none() {
                let moves = g.legal_moves();
                let m = moves[rng.below(moves.len())];
                if rng.below(10) == 0 {
                    assert!(g.pass());
                } else {
                    g.play(m);
                }
                played += 1;
                check_from_scratch(&g);
                if rng.below(4) == 0 {
                    g.undo();
                    played -= 1;
                    check_from_scratch(&g);
                }
            }
            // Unwinding every move restores the empty board exactly.
            for _ in 0..played {
                g.undo();
            }
            check_from_scratch(&g);
            assert_eq!(g.ply(), 0);
            assert_eq!(g.side_to_move(), Color::Black);
        }
    }
}

fn play_all(g: &mut Mnk, moves: &[(u8, u8)]) {
    for &(x, y) in moves {
        g.try_play(Move::new(x, y)).unwrap();
    }
}

#[test]
fn k_in_a_row_wins_in_every_direction() {
    // Black builds the line, white answers far away.
    let lines: [&[(u8, u8)]; 4] = [
        &[(0, 0), (1, 0), (2, 0), (3, 0)],
        &[(2, 0), (2, 1), (2, 2), (2, 3)],
        &[(0, 0), (1, 1), (2, 2), (3, 3)],
        &[(4, 0), (3, 1), (2, 2), (1, 3)],
    ];
    let fillers = [(0, 6), (2, 6), (4, 6), (6, 6)];
    for line in lines {
        let mut g = Mnk::new(7, 7, 4).unwrap();
        for (i, &(x, y)) in line.iter().enumerate() {
            assert_eq!(g.outcome(), None);
            play_all(&mut g, &[(x, y)]);
            if i + 1 < line.len() {
                play_all(&mut g, &[fillers[i]]);
            }
        }
        assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
        assert_eq!(g.check_move(Move::new(6, 0)), Err(MoveError::GameOver));
        assert!(!g.pass());
    }
}

#[test]
fn an_overline_wins_and_a_full_board_draws() {
    // k = 3: joining 2 + 2 makes five, which also wins.
    let mut g = Mnk::new(6, 3, 3).unwrap();
    play_all(&mut g, &[(0, 0), (0, 2), (1, 0), (5, 2)]);
    assert_eq!(g.threat_count(Color::Black), 1); // 2,0
    g.undo();
    play_all(&mut g, &[(2, 2), (3, 0), (5, 2), (4, 0), (4, 2)]);
    play_all(&mut g, &[(2, 0)]);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));

    // The classic drawn tic-tac-toe game fills the board.
    let mut t = Mnk::new(3, 3, 3).unwrap();
    play_all(
        &mut t,
        &[
            (1, 1),
            (0, 0),
            (2, 2),
            (2, 0),
            (1, 0),
            (1, 2),
            (0, 1),
            (2, 1),
            (0, 2),
        ],
    );
    assert_eq!(t.outcome(), Some(Outcome::Draw));
}

#[test]
fn moves_are_checked_like_gomoku() {
    let mut g = Mnk::new(4, 5, 3).unwrap();
    assert_eq!(g.check_move(Move::new(4, 0)), Err(MoveError::OffBoard));
    assert_eq!(g.check_move(Move::new(0, 5)), Err(MoveError::OffBoard));
    g.try_play(Move::new(3, 4)).unwrap();
    assert_eq!(g.try_play(Move::new(3, 4)), Err(MoveError::Occupied));
    assert_eq!(g.stone_at(Move::new(3, 4)), Some(Color::Black));
    assert_eq!(g.stone_at(Move::new(9, 9)), None);
    assert_eq!(g.last_move(), Some(Move::new(3, 4)));
    assert!(g.pass());
    assert_eq!(g.last_move(), None);
    assert_eq!(g.side_to_move(), Color::Black);
    g.undo();
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(g.ply(), 1);
}

#[test]
fn sizes_are_validated() {
    assert_eq!(Mnk::new(2, 5, 2).unwrap_err(), SizeError::Side(2));
    assert_eq!(Mnk::new(5, 33, 4).unwrap_err(), SizeError::Side(33));
    assert_eq!(Mnk::new(5, 4, 0).unwrap_err(), SizeError::K(0));
    assert_eq!(Mnk::new(5, 4, 6).unwrap_err(), SizeError::K(6));
    let g = Mnk::new(32, 32, 32).unwrap();
    assert_eq!((g.width(), g.height(), g.k()), (32, 32, 32));
    // k longer than the short side: only the long lines remain.
    let g = Mnk::new(6, 3, 5).unwrap();
    assert_eq!(g.geo.win_start.len(), 2 * 3);
}

#[test]
fn symmetric_positions_share_the_folded_key() {
    let mut a = Mnk::new(5, 5, 4).unwrap();
    let mut b = Mnk::new(5, 5, 4).unwrap();
    play_all(&mut a, &[(0, 1), (2, 2), (3, 4)]);
    // The same stones turned a quarter: (x, y) -> (4 - y, x).
    play_all(&mut b, &[(3, 0), (2, 2), (0, 3)]);
    assert_ne!(a.key(), b.key());
    assert_eq!(a.canonical().0, b.canonical().0);
    // On a rectangle only the mirrors and the half turn apply.
    let r = Mnk::new(6, 4, 4).unwrap();
    assert_eq!(r.geo.sym.len(), 4);
    // The side to move is part of the key.
    let mut c = a.clone();
    c.pass();
    assert_ne!(c.canonical().0, a.canonical().0);
}

#[test]
fn candidates_cover_small_boards_and_stay_near_stones_on_large_ones() {
    let mut small = Mnk::new(7, 7, 4).unwrap();
    play_all(&mut small, &[(3, 3)]);
    let mut v = Vec::new();
    small.candidates(&mut v);
    assert_eq!(v.len(), 48);
    let mut big = Mnk::new(15, 15, 5).unwrap();
    big.candidates(&mut v);
    assert_eq!(
        v.iter().map(|s| s.mv).collect::<Vec<_>>(),
        vec![Move::new(7, 7)]
    );
    play_all(&mut big, &[(0, 0)]);
    big.candidates(&mut v);
    assert_eq!(v.len(), 8); // the 3 × 3 corner square around it, minus the stone
                            // A cell that completes four of five in a row comes first.
    let mut g = Mnk::new(15, 15, 5).unwrap();
    play_all(
        &mut g,
        &[
            (5, 5),
            (0, 14),
            (6, 5),
            (14, 14),
            (7, 5),
            (14, 0),
            (8, 5),
            (0, 0),
        ],
    );
    g.candidates(&mut v);
    assert!([Move::new(4, 5), Move::new(9, 5)].contains(&v[0].mv));
}

#[test]
fn evaluation_favours_the_side_with_more_open_lines() {
    let mut g = Mnk::new(9, 9, 5).unwrap();
    play_all(&mut g, &[(4, 4), (0, 0), (5, 4)]);
    // White to move, black has the centre pair.
    assert!(g.evaluate() < 0);
    g.pass();
    assert!(g.evaluate() > 0);
}
