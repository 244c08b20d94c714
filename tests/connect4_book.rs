//! Perfect play on 7×6 from the first move: the engine (the shipped opening book, the solver
//! past it) with the nodes of a 200 ms turn, against itself and against a solver opponent, every move
//! checked against exact values. And the book's failure modes: a missing or corrupt file
//! leaves the engine playing by search, with a warning on stderr.
//!
//! Exact values come from the solver wherever a test can afford it (from ply
//! [`SOLVE_FROM_PLY`] on, and every position the book leaves out); earlier, a move's value
//! is the book's own values one move deeper: the move keeps the position's score when every
//! reply of the opponent leads to a position worth at least that much to the engine.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::time::Instant;
use wuzi::engine::Engine;
use wuzi::game::connect4::position::{Geometry, Position};
use wuzi::game::{AnyGame, Game, Move};
use wuzi::rng::Rng;
use wuzi::search::connect4::book::Book;
use wuzi::search::connect4::shipped_book::book_for;
use wuzi::search::connect4::solver::{immediate_win_score, Solver, TransTable};
use wuzi::search::Stop;

/// From this ply on every value is the solver's own, not the book's.
const SOLVE_FROM_PLY: usize = 12;
/// The engine's budget a move: about what a 200 ms turn searches (the solver runs at
/// 4-5M nodes/s on 7×6). A node budget, not a clock, so that a loaded machine plays the
/// same moves as a quiet one; how fast those nodes go is the bench's business.
const MOVE_NODES: &str = "1000000";
/// A move's clock, only a guard against a hang: the node budget binds long before it.
const GUARD_TURN_MS: &str = "600000";
/// Beyond this many nodes a value would take the test too long: a position the book
/// should have held.
const ORACLE_NODE_LIMIT: u64 = 200_000_000;

/// The games take this lock, so that they do not run at once: each holds solver tables of
/// its own, and two together only slow each other down on a 2-core machine.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Moves slower than this are listed on stderr (with `--nocapture`), to find the dearest.
const REPORT_SLOWER_MS: u128 = 60;

/// Exact values of 7×6 positions: the solver's, or the book's before [`SOLVE_FROM_PLY`].
struct Oracle {
    g: Geometry<u64>,
    book: Arc<Book>,
    tt: TransTable,
    cache: HashMap<u64, i32>,
}

impl Oracle {
    fn new() -> Oracle {
        Oracle {
            g: Geometry::new(7, 6, 4).unwrap(),
            book: book_for(None).expect("the shipped book loads"),
            tt: TransTable::new(1 << 24),
            cache: HashMap::new(),
        }
    }

    /// Exact score of an open position for the side to move: the book's before
    /// [`SOLVE_FROM_PLY`], else the solver's.
    fn value(&mut self, p: &Position<u64>) -> i32 {
        let g = &self.g;
        if p.can_win_next(g) {
            return immediate_win_score(g.cells(), p.moves);
        }
        if p.moves < SOLVE_FROM_PLY {
            if let Some(m) = self.book.probe(g, p) {
                return m.score;
            }
        }
        if let Some(&v) = self.cache.get(&p.key()) {
            return v;
        }
        let mut s = Solver::new(g, &mut self.tt).with_node_limit(Some(ORACLE_NODE_LIMIT));
        let v = s
            .solve(p, false)
            .unwrap_or_else(|| panic!("no exact value within {ORACLE_NODE_LIMIT} nodes"));
        self.cache.insert(p.key(), v);
        v
    }

    /// Exact score of playing `col`, for the mover. Early on, when the book does not hold
    /// the position after the move, it is the worst of the opponent's replies, each
    /// valued by [`Self::value`] (the positions a book-following player meets next).
    fn move_value(&mut self, p: &Position<u64>, col: usize) -> i32 {
        let g = self.g.clone();
        if p.is_winning_col(&g, col) {
            return immediate_win_score(g.cells(), p.moves);
        }
        let mut q = *p;
        q.play_col(&g, col);
        if q.moves == g.cells() {
            return 0;
        }
        if q.moves >= SOLVE_FROM_PLY || q.can_win_next(&g) || self.book.probe(&g, &q).is_some() {
            return -self.value(&q);
        }
        (0..g.width)
            .filter(|&r| q.can_play(&g, r))
            .map(|r| {
                let mut next = q;
                next.play_col(&g, r);
                if next.moves == g.cells() {
                    0
                } else {
                    self.value(&next)
                }
            })
            .min()
            .expect("an open position has a move")
    }
}

/// The position of an engine's game.
fn position(e: &Engine, g: &Geometry<u64>) -> Position<u64> {
    let Some(AnyGame::Connect4(c)) = e.game() else {
        panic!("not a Connect Four game")
    };
    wuzi::game::connect4::position::parse_sequence(g, &c.columns_string()).unwrap()
}

/// A 7×6 engine at the turn limit, with its default player and book.
fn engine() -> Engine {
    let mut e = Engine::new();
    e.set_info("game", "connect4");
    e.set_info("timeout_turn", GUARD_TURN_MS);
    e.set_info("max_node", MOVE_NODES);
    e.set_info("timeout_match", "0");
    e.set_info("thread_num", "1");
    e.start(7, 6).unwrap();
    e
}

/// The engine's move (played on its board), checked: its exact value is the position's.
/// Returns the move and the think time.
fn checked_move(e: &mut Engine, oracle: &mut Oracle, game: &str) -> (Move, u128) {
    let p = position(e, &oracle.g);
    let t0 = Instant::now();
    let r = e.think(e.limits(t0), &Stop::new(), &mut |_| {}).unwrap();
    let ms = t0.elapsed().as_millis();
    if ms > REPORT_SLOWER_MS {
        eprintln!(
            "{game}: {ms} ms at ply {} (key {:x}), depth {} nodes {}",
            p.moves,
            p.key(),
            r.depth,
            r.nodes
        );
    }
    let best = oracle.value(&p);
    let got = oracle.move_value(&p, r.best.x as usize);
    assert_eq!(
        got,
        best,
        "{game}: at ply {} the engine played column {} worth {got}, the position is worth {best}",
        p.moves,
        r.best.x + 1
    );
    (r.best, ms)
}

/// The solver opponent: the book's move or the solver's best (node-limited), except that
/// with probability 1/`deviate` it plays a random non-losing move, so that games differ.
fn opponent_move(oracle: &mut Oracle, p: &Position<u64>, rng: &mut Rng, deviate: usize) -> usize {
    let g = &oracle.g;
    let safe = p.non_losing_moves(g);
    let pool = if safe == 0 { p.possible(g) } else { safe };
    let cols: Vec<usize> = (0..g.width)
        .filter(|&c| pool & g.column_mask(c) != 0)
        .collect();
    let random = cols[rng.below(cols.len())];
    if rng.below(deviate) == 0 {
        return random;
    }
    if let Some(m) = oracle.book.probe(g, p) {
        return m.column;
    }
    let mut s = Solver::new(g, &mut oracle.tt).with_node_limit(Some(5_000_000));
    match s.best_move(p) {
        Some((_, Some(col))) => col,
        _ => random,
    }
}

/// Plays one game, the engine as `engine_first` or second, to the end; returns the
/// engine's slowest move in ms.
fn game_against_solver(oracle: &mut Oracle, engine_first: bool, seed: u64, deviate: usize) -> u128 {
    let name = format!(
        "engine {} seed {seed}",
        if engine_first { "first" } else { "second" }
    );
    let mut e = engine();
    let mut rng = Rng::new(seed);
    let mut slowest = 0;
    loop {
        if matches!(e.game(), Some(gm) if gm.outcome().is_some()) {
            return slowest;
        }
        let p = position(&e, &oracle.g);
        if p.moves.is_multiple_of(2) == engine_first {
            let (_, ms) = checked_move(&mut e, oracle, &name);
            slowest = slowest.max(ms);
        } else {
            let col = opponent_move(oracle, &p, &mut rng, deviate);
            let row = 5 - ((p.mask >> (7 * col)) & 0x3f).count_ones() as u8;
            e.opponent_move(Move::new(col as u8, row)).unwrap();
        }
    }
}

/// Two engines, each with its book, from the empty board: every move of both is checked.
/// Perfect play gives the first player the win with its last stone (+1).
#[test]
fn self_play_is_perfect() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut oracle = Oracle::new();
    let (mut a, mut b) = (engine(), engine());
    let mut moves = 0;
    loop {
        let over = matches!(a.game(), Some(gm) if gm.outcome().is_some());
        if over || moves == 42 {
            break;
        }
        let (mover, other) = if moves % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let (m, _) = checked_move(mover, &mut oracle, "self-play");
        other.opponent_move(m).unwrap();
        moves += 1;
    }
    let Some(AnyGame::Connect4(c)) = a.game() else {
        unreachable!()
    };
    assert_eq!(
        c.outcome(),
        Some(wuzi::game::Outcome::Win(wuzi::game::Color::Black)),
        "{}",
        c.columns_string()
    );
    // Won with its last stone: the board is full.
    assert_eq!(c.ply(), 41, "{}", c.columns_string());
}

/// Against the solver (with random deviations) as either colour, every engine move keeps
/// the exact value. `C4_BOOK_GAMES` sets the number of games (default 16).
#[test]
fn plays_perfectly_against_the_solver() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let games: u64 = std::env::var("C4_BOOK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let mut oracle = Oracle::new();
    let mut slowest = 0;
    for seed in 1..=games {
        // Odd seeds: the engine moves first; the opponent deviates once in 2..=5 moves.
        let ms = game_against_solver(&mut oracle, seed % 2 == 1, seed, 2 + seed as usize % 4);
        slowest = slowest.max(ms);
    }
    eprintln!("{games} games, the engine's slowest move {slowest} ms");
}

/// Starts a 7×6 game with `INFO c4_book <book>`, asks for the first move, waits for it and
/// ends the engine; returns the move and everything written to stderr.
fn first_move_with_book(book: &str) -> (String, String) {
    let mut child = common::engine_logging_warnings();
    let mut stdin = child.stdin.take().unwrap();
    write!(
        stdin,
        "INFO game connect4\nRECTSTART 7,6\nINFO timeout_turn 200\nINFO c4_book {book}\nBEGIN\n"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mv = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| is_move(l))
        .expect("a move");
    writeln!(stdin, "END").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (mv, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Whether an output line is a move (`x,y`).
fn is_move(line: &str) -> bool {
    let mut f = line.split(',');
    let mut number = || f.next().is_some_and(|v| v.parse::<u8>().is_ok());
    number() && number() && f.next().is_none()
}

/// A missing or corrupt book file: one warning, and the engine plays by search.
#[test]
fn bad_book_files_fall_back_to_search() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("wuzi-c4-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/search/connect4/book-7x6.bin"
    ))
    .unwrap();
    for (name, path) in common::damaged_copies(&shipped, &dir, "book") {
        let (_, err) = first_move_with_book(path.to_str().unwrap());
        assert_eq!(
            err.matches("opening book").count(),
            1,
            "{name}: one warning expected: {err}"
        );
    }
    // The shipped book's copy as a file works, silently.
    let good = dir.join("good.book");
    std::fs::write(&good, &shipped).unwrap();
    let (mv, err) = first_move_with_book(good.to_str().unwrap());
    assert_eq!(mv, "3,5", "the book opens in the centre");
    assert!(!err.contains("opening book"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
