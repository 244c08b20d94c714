//! Connect Four against the public 7×6 benchmark sets (a few positions of each, under a node
//! limit so the debug suite stays fast) and through the engine-facing API.

use std::collections::HashMap;
use wuzi::game::connect4::position::{parse_sequence, Geometry};
use wuzi::game::connect4::Connect4;
use wuzi::game::{Game, Move};
use wuzi::search::connect4::solver::{Solver, TransTable};
use wuzi::search::connect4::think;
use wuzi::search::{Iteration, Limits, Stop, ThinkContext};
use wuzi::solve::connect4::{solve_cli, SolveOptions};

/// The public sets, shipped in the repository (see tests/data/README.md).
const SETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4/");

/// Solves the first `n` positions of a set, each under `node_limit`; returns total nodes.
fn check_set(name: &str, n: usize, node_limit: u64) -> u64 {
    let text = std::fs::read_to_string(format!("{SETS}{name}")).expect("benchmark set present");
    let g = Geometry::<u64>::new(7, 6, 4).unwrap();
    let mut total = 0;
    for line in text.lines().take(n) {
        let mut f = line.split_whitespace();
        let seq = f.next().unwrap();
        let expected: i32 = f.next().unwrap().parse().unwrap();
        let p = parse_sequence(&g, seq).unwrap();
        let mut tt = TransTable::new(1 << 20);
        let mut s = Solver::new(&g, &mut tt).with_node_limit(Some(node_limit));
        let got = s.solve(&p, false);
        assert_eq!(got, Some(expected), "{name}: {seq}");
        total += s.nodes;
    }
    total
}

#[test]
fn endgame_set_sample() {
    let nodes = check_set("Test_L3_R1", 20, 10_000);
    // Pons' solver averages 51.3 nodes here; stay in that league.
    assert!(nodes < 20 * 400, "{nodes} nodes for 20 endgame positions");
}

#[test]
fn middle_game_set_sample() {
    let nodes = check_set("Test_L2_R1", 10, 100_000);
    assert!(
        nodes < 10 * 5_000,
        "{nodes} nodes for 10 middle-game positions"
    );
}

#[test]
fn beginning_set_sample() {
    let nodes = check_set("Test_L1_R1", 5, 500_000);
    assert!(nodes < 5 * 40_000, "{nodes} nodes for 5 opening positions");
}

#[test]
fn solve_cli_reads_the_set_format() {
    let text = std::fs::read_to_string(format!("{SETS}Test_L3_R1")).unwrap();
    let input: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    let mut out = Vec::new();
    let options = SolveOptions {
        tt_entries: 100_000,
        ..SolveOptions::default()
    };
    solve_cli(&options, &mut input.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    for (line, res) in text.lines().take(5).zip(out.lines()) {
        let mut a = line.split_whitespace();
        let mut b = res.split_whitespace();
        assert_eq!(a.next(), b.next());
        assert_eq!(a.next(), b.next(), "score of {line}: {res}");
        assert!(!res.contains("MISMATCH"));
    }
}

fn think_default(game: &Connect4, limits: Limits) -> (Move, i32, usize) {
    let options = HashMap::new();
    let mut iterations = 0;
    let mut report = |_: &Iteration| iterations += 1;
    let mut ctx = ThinkContext {
        limits,
        stop: Stop::new(),
        report: &mut report,
        options: &options,
    };
    let r = think(game, &mut ctx);
    (r.best, r.score, iterations)
}

/// From an L3 position the engine's move keeps the exact value: after it, the opponent's
/// exact score is the negative of the position's.
#[test]
fn engine_plays_value_preserving_moves() {
    let text = std::fs::read_to_string(format!("{SETS}Test_L3_R1")).unwrap();
    let g = Geometry::<u64>::new(7, 6, 4).unwrap();
    for line in text.lines().take(8) {
        let mut f = line.split_whitespace();
        let seq = f.next().unwrap();
        let expected: i32 = f.next().unwrap().parse().unwrap();
        let mut game = Connect4::standard();
        for ch in seq.chars() {
            game.play_column(ch as usize - '1' as usize).unwrap();
        }
        let (best, _, iterations) = think_default(&game, Limits::depth(6));
        assert!(iterations >= 1);
        game.try_play(best).unwrap();
        if game.outcome().is_some() {
            continue; // an immediate win
        }
        let p = parse_sequence(&g, &game.columns_string()).unwrap();
        let mut tt = TransTable::new(1 << 20);
        let after = Solver::new(&g, &mut tt).solve(&p, false).unwrap();
        assert_eq!(after, -expected, "{seq} then column {}", best.x + 1);
    }
}

/// A stop already set still yields a legal move at once.
#[test]
fn stop_flag_still_gives_a_move() {
    let game = Connect4::new(12, 6, 4).unwrap();
    let options = HashMap::new();
    let mut report = |_: &Iteration| {};
    let stop = Stop::new();
    stop.set();
    let mut ctx = ThinkContext {
        limits: Limits::default(),
        stop,
        report: &mut report,
        options: &options,
    };
    let r = think(&game, &mut ctx);
    assert_eq!(game.check_move(r.best), Ok(()));
}
