//! wuzi-arena against fake engines (tests/fixtures/fake-engines/pbrain-fake.sh): every kind
//! of fault is detected and recorded, normal games finish on the board, records and logs are
//! written, engines are reused when asked, and an SPRT stops a decided match early.
//!
//! The referee here is a naive k-in-a-row board written for these tests (with an optional
//! set of cells forbidden to black, to exercise the renju-foul path), so the arena is tested
//! on its own, independently of the crate's gomoku board.

use std::path::PathBuf;
use wuzi::arena::engine::EngineSpec;
use wuzi::arena::referee::{Fault, GameKind, GameSetup, Termination, TimeControl};
use wuzi::arena::stats::{Sprt, SprtDecision, Wdl};
use wuzi::arena::swap2::OpeningRule;
use wuzi::arena::tournament::{run, Format, Standings, TournamentConfig};
use wuzi::game::{Color, Game, Move, MoveError, Outcome, ScoredMove};

#[derive(Clone)]
struct Naive {
    w: usize,
    h: usize,
    k: usize,
    cells: Vec<Option<Color>>,
    history: Vec<Move>,
    forbidden: Vec<Move>,
}

impl Naive {
    fn new(w: usize, h: usize, k: usize) -> Naive {
        Naive {
            w,
            h,
            k,
            cells: vec![None; w * h],
            history: Vec::new(),
            forbidden: Vec::new(),
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<Color> {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            return None;
        }
        self.cells[y as usize * self.w + x as usize]
    }
}

impl Game for Naive {
    fn width(&self) -> usize {
        self.w
    }
    fn height(&self) -> usize {
        self.h
    }
    fn side_to_move(&self) -> Color {
        if self.history.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
    fn stone_at(&self, m: Move) -> Option<Color> {
        self.at(m.x as i64, m.y as i64)
    }
    fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if m.x as usize >= self.w || m.y as usize >= self.h {
            return Err(MoveError::OffBoard);
        }
        if self.stone_at(m).is_some() {
            return Err(MoveError::Occupied);
        }
        Ok(())
    }
    fn play(&mut self, m: Move) {
        let c = self.side_to_move();
        self.cells[m.y as usize * self.w + m.x as usize] = Some(c);
        self.history.push(m);
    }
    fn pass(&mut self) -> bool {
        false
    }
    fn undo(&mut self) {
        if let Some(m) = self.history.pop() {
            self.cells[m.y as usize * self.w + m.x as usize] = None;
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        let m = self.history.last()?;
        let c = self.stone_at(*m)?;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut n = 1;
            for s in [1i64, -1] {
                let (mut x, mut y) = (m.x as i64 + s * dx, m.y as i64 + s * dy);
                while self.at(x, y) == Some(c) {
                    n += 1;
                    x += s * dx;
                    y += s * dy;
                }
            }
            if n >= self.k {
                return Some(Outcome::Win(c));
            }
        }
        (self.history.len() == self.w * self.h).then_some(Outcome::Draw)
    }
    fn key(&self) -> u64 {
        self.history.iter().fold(17, |h, m| {
            h.wrapping_mul(31)
                .wrapping_add((m.x as u64) << 8 | m.y as u64)
        })
    }
    fn is_forbidden(&self, m: Move) -> bool {
        self.side_to_move() == Color::Black && self.forbidden.contains(&m)
    }
    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        out.extend(
            self.legal_moves()
                .into_iter()
                .map(|mv| ScoredMove { mv, score: 0 }),
        );
    }
    /// A toy evaluation so opening generation has something to filter: 10 per own stone in
    /// the left half, minus 10 per opponent stone there.
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let mut v = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if i % self.w < self.w / 2 {
                match c {
                    Some(c) if *c == me => v += 10,
                    Some(_) => v -= 10,
                    None => {}
                }
            }
        }
        v
    }
}

fn fake(mode: &str) -> EngineSpec {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fake-engines/pbrain-fake.sh");
    let mut e = EngineSpec::new(path);
    e.name = format!("fake-{mode}");
    e.args = vec![mode.to_string()];
    e
}

fn config(engines: Vec<EngineSpec>) -> TournamentConfig {
    TournamentConfig {
        engines,
        format: Format::RoundRobin,
        setup: GameSetup {
            kind: GameKind::Gomoku { rule: 0 },
            width: 7,
            height: 7,
            draw_after: None,
            opening_rule: OpeningRule::Given,
        },
        time: TimeControl {
            turn_ms: 300,
            match_ms: 20_000,
            tolerance_ms: 200,
            start_ms: 400,
            grace_ms: 200,
            max_memory: 0,
        },
        openings: Vec::new(),
        rounds: 1,
        max_games: None,
        random_symmetry: false,
        seed: 1,
        concurrency: 2,
        reuse: false,
        sprt: None,
        out_dir: None,
    }
}

fn play(cfg: &TournamentConfig) -> (Standings, Vec<wuzi::arena::referee::GameRecord>) {
    let mut records = Vec::new();
    let st =
        run(cfg, &|| Naive::new(7, 7, 5), |r, _| records.push(r.clone())).expect("tournament runs");
    records.sort_by_key(|r| r.id);
    (st, records)
}

#[test]
fn normal_engines_finish_games_on_the_board() {
    let (st, recs) = play(&config(vec![fake("normal"), fake("chatty")]));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        // row-major play on 7×7: black's stones at indices 4, 10, 16, 22, 28 (even, so all
        // black) form the anti-diagonal from (4,0) to (0,4), completed on the 29th move
        assert_eq!(r.outcome, Outcome::Win(Color::Black), "{r:?}");
        assert_eq!(r.termination, Termination::Line);
        assert_eq!(r.moves.len(), 29);
        assert_eq!(r.moves[28].mv, Move::new(0, 4));
    }
    assert_eq!(st.versus(0, 1), Wdl::new(1, 0, 1));
    assert!(st.faults.iter().all(|m| m.is_empty()));
}

/// The faulty engine loses both colours, with the expected reason.
fn faulty(mode: &str, fault: Fault, cfg_edit: impl FnOnce(&mut TournamentConfig)) {
    let mut cfg = config(vec![fake("normal"), fake(mode)]);
    cfg_edit(&mut cfg);
    let (st, recs) = play(&cfg);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.termination, Termination::Fault(fault), "{mode}: {r:?}");
        assert_eq!(r.loser(), Some(1), "{mode}: {r:?}");
        assert!(
            r.detail.starts_with(&format!("fake-{mode}:")),
            "{}",
            r.detail
        );
    }
    assert_eq!(st.versus(0, 1), Wdl::new(2, 0, 0));
    assert_eq!(st.faults[1].get(&fault), Some(&2), "{:?}", st.faults);
    assert!(st.table().contains(&format!("fake-{mode}: {fault} 2")));
}

#[test]
fn crash_is_a_loss() {
    faulty("crash", Fault::Crash, |_| {});
}

#[test]
fn late_answer_is_a_loss_on_time() {
    faulty("late", Fault::Timeout, |c| {
        c.engines[1].args.push("1".into())
    });
}

#[test]
fn occupied_cell_is_an_illegal_move() {
    let mut cfg = config(vec![fake("normal"), fake("occupied")]);
    // an opening so that even as black the occupied engine has a stone to repeat
    cfg.openings = vec![vec![Move::new(3, 3)]];
    let (st, recs) = play(&cfg);
    for r in &recs {
        assert_eq!(r.termination, Termination::Fault(Fault::Illegal), "{r:?}");
        assert_eq!(r.loser(), Some(1));
        assert!(r.detail.contains("occupied"), "{}", r.detail);
    }
    assert_eq!(st.faults[1].get(&Fault::Illegal), Some(&2));
}

#[test]
fn off_board_is_an_illegal_move() {
    faulty("offboard", Fault::Illegal, |_| {});
}

#[test]
fn garbage_output_is_a_loss() {
    faulty("garbage", Fault::Garbage, |_| {});
}

#[test]
fn silent_start_is_a_loss() {
    faulty("nostart", Fault::Start, |_| {});
}

#[test]
fn missing_executable_is_a_crash() {
    let mut missing = fake("normal");
    missing.command = PathBuf::from("/nonexistent/pbrain-nothing");
    missing.name = "fake-gone".into();
    let (st, recs) = play(&config(vec![fake("normal"), missing]));
    assert!(recs
        .iter()
        .all(|r| r.termination == Termination::Fault(Fault::Crash) && r.loser() == Some(1)));
    assert_eq!(st.faults[1].get(&Fault::Crash), Some(&2));
}

#[test]
fn renju_foul_is_recorded() {
    let cfg = config(vec![fake("normal"), fake("chatty")]);
    let mut recs = Vec::new();
    let referee = || {
        let mut b = Naive::new(7, 7, 5);
        b.forbidden = vec![Move::new(0, 0)];
        b
    };
    let st = run(&cfg, &referee, |r, _| recs.push(r.clone())).unwrap();
    assert_eq!(recs.len(), 2);
    for r in &recs {
        // black's first move is row-major (0,0): forbidden
        assert_eq!(r.termination, Termination::Fault(Fault::Foul), "{r:?}");
        assert_eq!(r.outcome, Outcome::Win(Color::White));
    }
    assert_eq!(st.faults[0].get(&Fault::Foul), Some(&1));
    assert_eq!(st.faults[1].get(&Fault::Foul), Some(&1));
}

#[test]
fn openings_are_played_with_both_colours_and_records_are_written() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cfg = config(vec![fake("normal"), fake("chatty"), fake("normal")]);
    cfg.engines[2].name = "fake-normal-2".into();
    cfg.openings = vec![
        vec![Move::new(3, 3), Move::new(4, 3)],
        vec![Move::new(6, 6)],
    ];
    cfg.out_dir = Some(dir.clone());
    let (st, recs) = play(&cfg);
    assert_eq!(recs.len(), 3 * 2 * 2);
    assert_eq!(st.games, 12);
    for r in &recs {
        assert!(r.moves.len() > 2, "{r:?}");
        assert!(
            matches!(r.termination, Termination::Line | Termination::BoardFull),
            "{r:?}"
        );
    }
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 12);
    assert!(jsonl
        .lines()
        .all(|l| l.starts_with("{\"id\":") && l.ends_with('}')));
    let psq = std::fs::read_to_string(dir.join("games/00001.psq")).unwrap();
    assert!(
        psq.starts_with("Piskvorky 7x7, 11:11, 0\n4,4,0\n5,4,0\n"),
        "{psq}"
    );
    let sgf = std::fs::read_to_string(dir.join("games/00012.sgf")).unwrap();
    assert!(
        sgf.starts_with("(;FF[4]GM[4]") && sgf.contains(";B[gg]"),
        "{sgf}"
    );
    let log = std::fs::read_to_string(dir.join("logs/fake-chatty-1.stderr.log")).unwrap();
    // one process per game: the chatty engine plays 8 games
    assert_eq!(
        log.lines().filter(|l| l.contains("started")).count(),
        8,
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reused_engines_start_again_instead_of_respawning() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-reuse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cfg = config(vec![fake("normal"), fake("chatty")]);
    cfg.reuse = true;
    cfg.concurrency = 1;
    cfg.rounds = 3;
    cfg.out_dir = Some(dir.clone());
    let (st, recs) = play(&cfg);
    assert_eq!(recs.len(), 6);
    assert_eq!(st.versus(0, 1), Wdl::new(3, 0, 3));
    let log = std::fs::read_to_string(dir.join("logs/fake-chatty-1.stderr.log")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.contains("started")).count(),
        1,
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_a_decided_match() {
    let mut cfg = config(vec![fake("normal"), fake("garbage")]);
    cfg.rounds = 100;
    cfg.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let (st, recs) = play(&cfg);
    assert!(recs.len() < 200, "played {}", recs.len());
    assert_eq!(st.sprt.map(|s| s.1), Some(SprtDecision::AcceptH1));
    assert_eq!(st.versus(0, 1).losses, 0);
    assert!(st.table().contains("H1 accepted"));
}

#[test]
fn a_bad_opening_is_an_error_not_a_game() {
    let mut cfg = config(vec![fake("normal"), fake("normal")]);
    cfg.openings = vec![vec![Move::new(3, 3), Move::new(3, 3)]];
    let err = run(&cfg, &|| Naive::new(7, 7, 5), |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("rejected"), "{err}");
}

#[test]
fn grid_run_writes_a_csv_row_per_configuration() {
    use wuzi::arena::cli::{parse, Command};
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fake-engines/pbrain-fake.sh");
    // `{mode}` is substituted into the argument; `depth` reaches the engine as an INFO line
    let args: Vec<String> = format!(
        "--engine cmd={} arg={{mode}} name=fake --grid mode=normal,garbage --grid depth=1,2 \
         --size 7 --timeout-turn 300 --tolerance 200 --start-timeout 400 --grace 100 --quiet",
        script.display()
    )
    .split_whitespace()
    .map(String::from)
    .collect();
    let Command::Run(o) = parse(&args).unwrap() else {
        panic!("not a run")
    };
    let (mut out, mut progress) = (Vec::new(), Vec::new());
    let st =
        wuzi::arena::app::run(&o, &|| Naive::new(7, 7, 5), &mut out, &mut progress, false).unwrap();
    // 4 configurations, 6 pairs, 2 games each
    assert_eq!(st.games, 12);
    let csv = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert_eq!(
        lines[0],
        "engine,mode,depth,games,wins,losses,draws,score,elo,elo_low,elo_high"
    );
    // garbage configurations lose all 4 games against normal ones and split 1-1 with each
    // other (black answers first, so black forfeits); normal ones split 1-1 on the board
    for l in &lines[3..] {
        assert!(l.contains(",garbage,") && l.contains(",6,1,5,0,"), "{l}");
    }
    for l in &lines[1..3] {
        assert!(l.contains(",normal,") && l.contains(",6,5,1,0,"), "{l}");
    }
    let table = String::from_utf8(progress).unwrap();
    assert!(table.contains("garbage 5"), "{table}");
}

#[test]
fn shipped_openings_are_the_converted_classic_41() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for n in [15usize, 20] {
        let shipped =
            std::fs::read_to_string(root.join(format!("openings/piskvork-41-{n}.pos"))).unwrap();
        let parsed = wuzi::arena::opening::parse_file(&shipped, n, n).unwrap();
        // one classic opening reaches 8 cells from the centre: it does not fit 15×15
        assert_eq!(parsed.len(), if n == 15 { 40 } else { 41 });
        assert!(parsed.iter().all(|o| (3..=5).contains(&o.len())));
        // the offset original the files were converted from ships with the tests
        let src = std::fs::read_to_string(root.join("tests/data/piskvork-openings.txt")).unwrap();
        let converted = wuzi::arena::app::convert_openings(&src, n, n, true).unwrap();
        let body: String = shipped.lines().skip(3).map(|l| format!("{l}\n")).collect();
        assert_eq!(body, converted);
    }
}

/// Runs one game with `out_dir` set and returns the lines engine `e` received.
fn transcript(cfg: &mut TournamentConfig, e: usize, tag: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    cfg.out_dir = Some(dir.clone());
    let (w, h) = (cfg.setup.width, cfg.setup.height);
    run(cfg, &|| Naive::new(w, h, 5), |_, _| {}).unwrap();
    let name = cfg.engines[e].name.clone();
    let log = std::fs::read_to_string(dir.join(format!("logs/{name}-{e}.stderr.log"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    log.lines()
        .filter_map(|l| l.strip_prefix("< "))
        .map(String::from)
        .collect()
}

#[test]
fn engines_receive_the_gomocup_sequence() {
    let mut cfg = config(vec![fake("normal"), fake("chatty")]);
    cfg.setup.kind = GameKind::Gomoku { rule: 4 };
    cfg.openings = vec![vec![Move::new(3, 3), Move::new(4, 3), Move::new(0, 6)]];
    cfg.rounds = 1;
    cfg.concurrency = 1;
    // 3 opening stones: white moves first, so in game 1 (engine 0 black) engine 1 gets the
    // first request, a BOARD with fields from its own (white) point of view
    let t = transcript(&mut cfg, 1, "seq");
    assert_eq!(t[0], "START 7");
    assert_eq!(
        &t[1..6],
        [
            "INFO timeout_turn 300",
            "INFO timeout_match 20000",
            "INFO max_memory 0",
            "INFO game_type 1",
            "INFO rule 4"
        ]
    );
    assert_eq!(t[6], "INFO time_left 20000");
    assert_eq!(&t[7..12], ["BOARD", "3,3,2", "4,3,1", "0,6,2", "DONE"]);
    assert!(t[12].starts_with("INFO time_left "));
    let left: i64 = t[12]["INFO time_left ".len()..].parse().unwrap();
    assert!(left <= 20_000 && left > 15_000, "{left}");
    assert!(t[13].starts_with("TURN "), "{t:?}");
    // game 1 ends, END; game 2 is a fresh process (no reuse) with the colours swapped
    let ends: Vec<usize> = t
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "END")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ends.len(), 2, "{t:?}");
    assert_eq!(t[ends[0] + 1], "START 7");
    assert_eq!(t.last().map(String::as_str), Some("END"));
}

#[test]
fn alternate_games_announce_themselves_before_start() {
    let mut cfg = config(vec![fake("normal"), fake("normal")]);
    cfg.engines[1].name = "fake-normal-b".into();
    cfg.setup.kind = GameKind::Connect4 { k: 4 };
    cfg.setup.width = 7;
    cfg.setup.height = 6;
    let t = transcript(&mut cfg, 0, "c4");
    assert_eq!(&t[..2], ["INFO game connect4", "RECTSTART 7,6"]);
    assert!(t.contains(&"INFO rule 0".to_string()));
    let mut cfg = config(vec![fake("normal"), fake("normal")]);
    cfg.engines[1].name = "fake-normal-b".into();
    cfg.setup.kind = GameKind::Mnk { k: 5 };
    let t = transcript(&mut cfg, 0, "mnk");
    assert_eq!(&t[..3], ["INFO game mnk", "INFO k 5", "START 7"]);
}

#[test]
fn generated_openings_are_level_distinct_and_reproducible() {
    use wuzi::arena::balance::{canonical, generate, BalanceSpec};
    let spec = BalanceSpec {
        count: 20,
        min_stones: 3,
        max_stones: 4,
        radius: 2,
        max_eval: 0,
        max_tries: 5000,
        seed: 9,
    };
    let empty = Naive::new(15, 15, 5);
    let v = generate(&empty, &spec);
    assert_eq!(v.len(), 20);
    let mut classes = std::collections::HashSet::new();
    for (moves, eval) in &v {
        assert!((3..=4).contains(&moves.len()));
        assert!(moves
            .iter()
            .all(|m| (5..=9).contains(&m.x) && (5..=9).contains(&m.y)));
        let mut g = empty.clone();
        for &m in moves {
            g.try_play(m).unwrap();
        }
        assert_eq!(g.evaluate(), *eval);
        assert_eq!(*eval, 0);
        assert!(classes.insert(canonical(moves, 15, 15)));
    }
    assert_eq!(generate(&empty, &spec), v);
    // a tighter bound than any position reaches finds nothing, and says so by returning less
    let none = generate(
        &empty,
        &BalanceSpec {
            max_eval: -1,
            ..spec
        },
    );
    assert!(none.is_empty());
}

#[test]
fn a_game_neither_engine_starts_is_a_draw_with_both_at_fault() {
    let mut cfg = config(vec![fake("nostart"), fake("nostart")]);
    cfg.engines[1].name = "fake-nostart-b".into();
    let (st, recs) = play(&cfg);
    for r in &recs {
        assert_eq!(r.outcome, Outcome::Draw, "{r:?}");
        assert_eq!(r.termination, Termination::Fault(Fault::Start));
        assert!(r.detail.contains("fake-nostart:") && r.detail.contains("fake-nostart-b:"));
    }
    assert_eq!(st.versus(0, 1), Wdl::new(0, 2, 0));
    assert_eq!(st.faults[0].get(&Fault::Start), Some(&2));
    assert_eq!(st.faults[1].get(&Fault::Start), Some(&2));
}

// ---------------------------------------------------------------------------------------------
// Swap2: the engines negotiate opening and colours before the game

fn swap2_config(engines: Vec<EngineSpec>) -> TournamentConfig {
    let mut cfg = config(engines);
    cfg.setup.opening_rule = OpeningRule::Swap2;
    cfg
}

fn mv(x: u8, y: u8) -> Move {
    Move::new(x, y)
}

#[test]
fn swap2_adds_two_then_the_proposer_takes_white_with_a_move() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-swap2-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut cfg = swap2_config(vec![fake("normal"), fake("chatty")]);
    cfg.out_dir = Some(dir.clone());
    let (st, recs) = play(&cfg);
    assert_eq!(recs.len(), 2);
    // Game 1: engine 0 proposes 0,0 1,0 2,0; engine 1 adds 3,0 (white) 4,0 (black); engine 0
    // takes white and plays 5,0. So engine 1 is black. Game 2 is the same with roles swapped.
    for (r, proposer) in recs.iter().zip([0, 1]) {
        assert_eq!(r.black, 1 - proposer, "{r:?}");
        assert_eq!(r.white, proposer, "{r:?}");
        assert_eq!(
            r.opening,
            vec![mv(0, 0), mv(1, 0), mv(2, 0), mv(3, 0), mv(4, 0)]
        );
        assert_eq!(
            r.moves[0].mv,
            mv(5, 0),
            "white's sixth stone is its first move"
        );
        assert_eq!(r.swap.len(), 3, "{:?}", r.swap);
        assert!(r.swap[0].contains("proposes 0,0 1,0 2,0"), "{:?}", r.swap);
        assert!(r.swap[1].contains("adds 3,0 4,0"), "{:?}", r.swap);
        assert!(
            r.swap[2].contains("takes white and plays 5,0"),
            "{:?}",
            r.swap
        );
        assert!(
            matches!(r.termination, Termination::Line | Termination::BoardFull),
            "{r:?}"
        );
    }
    assert!(st.faults.iter().all(|m| m.is_empty()), "{:?}", st.faults);
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert!(jsonl.contains("\"opening_rule\":\"swap2\""), "{jsonl}");
    assert!(jsonl.contains("takes white and plays 5,0"), "{jsonl}");
    let sgf = std::fs::read_to_string(dir.join("games/00001.sgf")).unwrap();
    assert!(sgf.contains("swap2: fake-normal proposes"), "{sgf}");
    let psq = std::fs::read_to_string(dir.join("games/00001.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 7x7, 11:11, 0\n1,1,0\n2,1,0\n3,1,0\n4,1,0\n5,1,0\n6,1,"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn swap2_swap_answers_give_the_chooser_black() {
    let (st, recs) = play(&swap2_config(vec![fake("normal"), fake("swapper")]));
    // Game 1: the swapper answers three stones with SWAP: it is black, and the proposer
    // (white) plays the fourth stone in the game proper.
    let r = &recs[0];
    assert_eq!((r.black, r.white), (1, 0), "{r:?}");
    assert_eq!(r.opening, vec![mv(0, 0), mv(1, 0), mv(2, 0)]);
    assert_eq!(r.moves[0].mv, mv(3, 0));
    assert!(
        r.swap[1].contains("fake-swapper takes black: SWAP"),
        "{:?}",
        r.swap
    );
    // Game 2: the swapper proposes, the other adds two, the swapper takes black after five.
    let r = &recs[1];
    assert_eq!((r.black, r.white), (1, 0), "{r:?}");
    assert_eq!(r.opening.len(), 5);
    assert_eq!(
        r.moves[0].mv,
        mv(5, 0),
        "white (the adder) plays the sixth stone"
    );
    assert_eq!(r.swap.len(), 3);
    assert!(st.faults.iter().all(|m| m.is_empty()), "{:?}", st.faults);
}

/// The engine answering badly loses both games (proposing in one, choosing in the other).
fn swap2_fault(mode: &str, fault: Fault, detail: &str) {
    let (st, recs) = play(&swap2_config(vec![fake("normal"), fake(mode)]));
    assert_eq!(recs.len(), 2);
    // Game 1: the bad engine chooses after the good one's three stones, which are recorded;
    // game 2: its own proposal fails, so no stone was accepted.
    assert_eq!(recs[0].opening, vec![mv(0, 0), mv(1, 0), mv(2, 0)]);
    assert!(recs[1].opening.is_empty(), "{:?}", recs[1]);
    for r in &recs {
        assert_eq!(r.termination, Termination::Fault(fault), "{mode}: {r:?}");
        assert_eq!(r.loser(), Some(1), "{mode}: {r:?}");
        assert!(r.moves.is_empty(), "{r:?}");
        assert!(
            r.detail.starts_with(&format!("fake-{mode}: swap2: ")) && r.detail.contains(detail),
            "{mode}: {}",
            r.detail
        );
    }
    assert_eq!(st.faults[1].get(&fault), Some(&2), "{:?}", st.faults);
}

#[test]
fn swap2_repeated_or_occupied_cells_are_illegal() {
    swap2_fault("swapoccupied", Fault::Illegal, "occupied");
}

#[test]
fn swap2_answers_of_the_wrong_shape_are_illegal() {
    swap2_fault("swapshape", Fault::Illegal, "4 cells given");
}

#[test]
fn swap2_refusal_and_garbage_lose() {
    swap2_fault("noswap", Fault::Illegal, "UNKNOWN");
    swap2_fault("swapgarbage", Fault::Garbage, "I choose black");
}

#[test]
fn swap2_with_a_given_opening_is_a_setup_error() {
    let mut cfg = swap2_config(vec![fake("normal"), fake("normal")]);
    cfg.openings = vec![vec![mv(3, 3)]];
    let err = run(&cfg, &|| Naive::new(7, 7, 5), |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("swap2"), "{err}");
}
