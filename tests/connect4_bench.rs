//! Connect Four measurements, too long for the normal suite: run them in release with
//! `cargo test --release --test connect4_bench -- --ignored --nocapture --test-threads 1`
//! (or one of them by name). They print their figures, and each fails when its result is
//! wrong: a score that is not the known value, a player that does worse than it must.

use std::path::Path;
use std::time::Instant;
use wuzi::game::connect4::position::{Geometry, Position};
use wuzi::game::connect4::Connect4;
use wuzi::game::{Color, Game, Outcome};
use wuzi::search::connect4::solver::{Solver, TransTable, DEFAULT_TT_ENTRIES};
use wuzi::search::connect4::think;
use wuzi::search::{Limits, Stop, ThinkContext};
use wuzi::solve::connect4::bench_sets;

/// The public sets, shipped in the repository (see tests/data/README.md).
const SETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/connect4");

/// Mean nodes and time per position on the three public sets; every score must be exact.
#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture bench_public_sets"]
fn bench_public_sets() {
    let mut out = std::io::stdout();
    let stats = bench_sets(Path::new(SETS), false, None, &mut out).unwrap();
    assert!(stats.iter().all(|s| s.wrong == 0));
    let stats = bench_sets(Path::new(SETS), true, None, &mut out).unwrap();
    assert!(stats.iter().all(|s| s.wrong == 0));
}

fn solve_empty(weak: bool) {
    let g = Geometry::<u64>::new(7, 6, 4).unwrap();
    let mut tt = TransTable::new(DEFAULT_TT_ENTRIES);
    let t0 = Instant::now();
    let mut s = Solver::new(&g, &mut tt);
    let score = s.solve(&Position::empty(), weak).unwrap();
    println!(
        "empty 7x6 {}: score {score}, {} nodes, {:.1} s",
        if weak { "weak" } else { "strong" },
        s.nodes,
        t0.elapsed().as_secs_f64()
    );
    // Pons' convention: +1, the first player wins with its last stone (its 21st).
    assert_eq!(
        score, 1,
        "the empty 7x6 board is worth +1 to the first player"
    );
}

#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture empty_board_weak"]
fn empty_board_weak() {
    solve_empty(true);
}

#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture empty_board_strong"]
fn empty_board_strong() {
    solve_empty(false);
}

/// The exact value of each first move on 7×6, for the first player (Pons' convention): only
/// the centre wins, −2 −1 0 +1 0 −1 −2 from column 1 to 7, as Pons reports them.
#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture first_move_values"]
fn first_move_values() {
    let g = Geometry::<u64>::new(7, 6, 4).unwrap();
    let mut tt = TransTable::new(DEFAULT_TT_ENTRIES);
    // C4_COLUMNS=17 restricts the run to columns 1 and 7 (each column is a long solve).
    let cols: Vec<usize> = std::env::var("C4_COLUMNS")
        .map(|v| {
            v.chars()
                .filter_map(|c| c.to_digit(10))
                .map(|d| d as usize - 1)
                .collect()
        })
        .unwrap_or_else(|_| (0..7).collect());
    let mut values = Vec::new();
    for col in cols.into_iter().filter(|&c| c < 7) {
        let t0 = Instant::now();
        let mut p = Position::<u64>::empty();
        p.play_col(&g, col);
        let mut s = Solver::new(&g, &mut tt);
        // Score for the second player; the first move's value is its negative.
        let v = -s.solve(&p, false).unwrap();
        println!(
            "first move column {}: {v} ({} nodes, {:.1} s)",
            col + 1,
            s.nodes,
            t0.elapsed().as_secs_f64()
        );
        assert_eq!(
            v,
            FIRST_MOVE_VALUES[col],
            "first move in column {}",
            col + 1
        );
        values.push(v);
    }
    println!("first-move values: {values:?}");
}

/// The value of the first move in each column of 7×6, for the first player.
const FIRST_MOVE_VALUES: [i32; 7] = [-2, -1, 0, 1, 0, -1, -2];

/// One game between two players (options for each), from an opening; returns the winner's
/// index (0 = first listed player), or None for a draw.
fn play_game(players: [&str; 2], first: usize, opening: &[usize], seed: u64) -> Option<usize> {
    let mut game = Connect4::standard();
    for &c in opening {
        game.play_column(c).unwrap();
    }
    let seeds = [seed.to_string(), (seed * 7 + 1).to_string()];
    loop {
        if let Some(o) = game.outcome() {
            return match o {
                Outcome::Draw => None,
                Outcome::Win(c) => {
                    // Black moves first: `first` holds black.
                    let black = first;
                    Some(if c == Color::Black { black } else { 1 - black })
                }
            };
        }
        let to_move = if game.side_to_move() == Color::Black {
            first
        } else {
            1 - first
        };
        let opts: std::collections::HashMap<String, String> = [
            ("c4_player".to_string(), players[to_move].to_string()),
            ("c4_seed".to_string(), seeds[to_move].clone()),
            ("c4_playouts".to_string(), "300".to_string()),
        ]
        .into_iter()
        .collect();
        let mut report = |_: &wuzi::search::Iteration| {};
        let limits = Limits {
            max_nodes: Some(if players[to_move] == "solver" {
                400_000
            } else {
                2_100
            }),
            max_depth: Some(8),
            ..Limits::default()
        };
        let mut ctx = ThinkContext {
            limits,
            stop: Stop::new(),
            report: &mut report,
            options: &opts,
        };
        let r = think(&game, &mut ctx);
        game.try_play(r.best).expect("players answer landing cells");
    }
}

/// In-process round robin of the five players on 7×6 from 2-ply openings, both colours
/// (node budgets and seeds: the games are the same on every machine). The players are
/// listed weakest first, and each must outscore every weaker one head to head and in
/// total (measured: 0, 12, 27.5, 35.5 and 45 points of 48).
#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture round_robin"]
fn round_robin() {
    let names = ["random", "greedy", "mc", "uct", "solver"];
    let openings: Vec<[usize; 2]> = vec![[3, 3], [3, 2], [2, 4], [1, 3], [4, 5], [0, 6]];
    let mut table = vec![vec![0.0f64; names.len()]; names.len()];
    let t0 = Instant::now();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let (mut wi, mut wj, mut d) = (0, 0, 0);
            for (n, op) in openings.iter().enumerate() {
                for first in 0..2 {
                    let seed = (n * 2 + first) as u64 + 1;
                    match play_game([names[i], names[j]], first, op, seed) {
                        Some(0) => wi += 1,
                        Some(_) => wj += 1,
                        None => d += 1,
                    }
                }
            }
            table[i][j] = wi as f64 + d as f64 / 2.0;
            table[j][i] = wj as f64 + d as f64 / 2.0;
            println!("{:>7} vs {:<7}: +{wi} -{wj} ={d}", names[i], names[j]);
        }
    }
    for (i, n) in names.iter().enumerate() {
        let total: f64 = table[i].iter().sum();
        println!(
            "{n:>7}: {total} points of {}",
            (names.len() - 1) * openings.len() * 2
        );
    }
    println!("round robin took {:.1} s", t0.elapsed().as_secs_f64());
    let games = (openings.len() * 2) as f64;
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            assert_eq!(
                table[i][j] + table[j][i],
                games,
                "{} vs {}",
                names[i],
                names[j]
            );
            assert!(
                table[j][i] > table[i][j],
                "{} ({}) must beat {} ({})",
                names[j],
                table[j][i],
                names[i],
                table[i][j]
            );
        }
    }
    let totals: Vec<f64> = table.iter().map(|row| row.iter().sum()).collect();
    assert!(
        totals.windows(2).all(|w| w[0] < w[1]),
        "points {totals:?} for {names:?} must grow with strength"
    );
}

/// What the timed player does on 12×6 (beyond the solver early on): depth and nodes reached
/// with a one-second move, from the empty board and a few moves in. It must answer a legal
/// move by its hard limit (with 250 ms for a loaded machine) and reach at least the depth
/// the midgame search always reaches (6).
#[test]
#[ignore = "too long for the suite: cargo test --release --test connect4_bench -- --ignored --nocapture big_board_one_second"]
fn big_board_one_second() {
    for seq in ["", "6a75", "667788a9b"] {
        let mut game = Connect4::new(12, 6, 4).unwrap();
        for ch in seq.chars() {
            let col = wuzi::game::connect4::position::column_from_char(ch).unwrap();
            game.play_column(col).unwrap();
        }
        let options = std::collections::HashMap::new();
        let mut last = None;
        let mut report = |it: &wuzi::search::Iteration| last = Some(it.clone());
        let start = Instant::now();
        let limits = Limits {
            start: Some(start),
            optimum: Some(start + std::time::Duration::from_millis(600)),
            maximum: Some(start + std::time::Duration::from_millis(1000)),
            ..Limits::default()
        };
        let mut ctx = ThinkContext {
            limits,
            stop: Stop::new(),
            report: &mut report,
            options: &options,
        };
        let r = think(&game, &mut ctx);
        println!(
            "12x6 after {seq:?}: move {} score {} depth {} nodes {} in {} ms (last iteration {:?})",
            r.best,
            r.score,
            r.depth,
            r.nodes,
            start.elapsed().as_millis(),
            last.map(|i| (i.depth, i.elapsed_ms))
        );
        assert_eq!(game.check_move(r.best), Ok(()));
        assert!(r.depth >= 6, "12x6 after {seq:?}: depth {}", r.depth);
        let took = start.elapsed().as_millis();
        assert!(
            took <= 1250,
            "12x6 after {seq:?}: {took} ms for a 1000 ms move"
        );
    }
}
