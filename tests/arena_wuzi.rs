//! A short real match: wuzi against itself through the arena, refereed by the crate's own
//! gomoku board. A handful of very fast games on a small board must complete without any
//! fault (time, crash, illegal move, garbage) from the real engine.

use wuzi::arena::engine::EngineSpec;
use wuzi::arena::referee::{GameKind, GameSetup, Termination, TimeControl};
use wuzi::arena::swap2::OpeningRule;
use wuzi::arena::tournament::{run, Format, TournamentConfig};
use wuzi::game::{AnyGame, GameKind as Kind, GomokuRule, Move};

fn wuzi(name: &str) -> EngineSpec {
    let mut e = EngineSpec::new(env!("CARGO_BIN_EXE_pbrain-wuzi"));
    e.name = name.to_string();
    // a shallow search keeps the debug build fast
    e.info = vec![("max_depth".into(), "2".into())];
    e
}

#[test]
fn wuzi_plays_itself() {
    let cfg = TournamentConfig {
        engines: vec![wuzi("wuzi-a"), wuzi("wuzi-b")],
        format: Format::RoundRobin,
        setup: GameSetup {
            kind: GameKind::Gomoku { rule: 0 },
            width: 10,
            height: 10,
            draw_after: Some(40),
            opening_rule: OpeningRule::Given,
        },
        time: TimeControl {
            turn_ms: 100,
            match_ms: 20_000,
            tolerance_ms: 2_000,
            start_ms: 5_000,
            grace_ms: 500,
            max_memory: 64 << 20,
        },
        openings: vec![
            vec![Move::new(5, 5), Move::new(6, 5), Move::new(6, 7)],
            vec![Move::new(5, 5), Move::new(6, 6)],
        ],
        rounds: 1,
        max_games: None,
        random_symmetry: true,
        seed: 3,
        concurrency: 1,
        reuse: true,
        sprt: None,
        out_dir: None,
    };
    let empty = AnyGame::new(Kind::Gomoku(GomokuRule::Freestyle), 10, 10).unwrap();
    let mut records = Vec::new();
    let st = run(&cfg, &|| empty.clone(), |r, _| records.push(r.clone())).unwrap();
    assert_eq!(st.games, 4);
    for r in &records {
        assert!(
            matches!(
                r.termination,
                Termination::Line | Termination::BoardFull | Termination::MoveLimit
            ),
            "{:?}: {}",
            r.termination,
            r.detail
        );
        assert!(!r.moves.is_empty());
    }
    assert!(st.faults.iter().all(|f| f.is_empty()), "{}", st.table());
}

#[test]
fn shipped_balanced_openings_are_level_on_the_real_board() {
    use wuzi::game::Game;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (file, rule, size) in [
        ("balanced-freestyle-15.pos", GomokuRule::Freestyle, 15),
        ("balanced-freestyle-20.pos", GomokuRule::Freestyle, 20),
        ("balanced-standard-15.pos", GomokuRule::Standard, 15),
        ("balanced-renju-15.pos", GomokuRule::Renju, 15),
        ("balanced-caro-15.pos", GomokuRule::Caro, 15),
    ]
    .map(|(f, r, s)| (f, Kind::Gomoku(r), s))
    .into_iter()
    .chain([(
        "balanced-pente-19.pos",
        Kind::Capture {
            rule: wuzi::game::CaptureRule::Pente,
            aware: true,
        },
        19,
    )]) {
        let text = std::fs::read_to_string(root.join("openings").join(file)).unwrap();
        let openings = wuzi::arena::opening::parse_file(&text, size, size).unwrap();
        assert_eq!(openings.len(), 100, "{file}");
        for o in &openings {
            let mut g = AnyGame::new(rule, size, size).unwrap();
            for &m in o {
                assert!(!g.is_forbidden(m), "{file}: {o:?}");
                g.try_play(m).unwrap();
            }
            assert!(g.outcome().is_none());
            assert!(
                g.evaluate().abs() <= 30,
                "{file}: {o:?} evaluates {}",
                g.evaluate()
            );
        }
    }
}

/// The openings balanced by a strong engine (the gauntlet's default) are read whole and are
/// playable positions under their rule: no foul, no finished game.
#[test]
fn engine_balanced_openings_are_playable() {
    use wuzi::game::Game;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (file, rule, size, count) in [
        ("engine-balanced-free15.pos", GomokuRule::Freestyle, 15, 240),
        ("engine-balanced-free20.pos", GomokuRule::Freestyle, 20, 160),
        ("engine-balanced-std15.pos", GomokuRule::Standard, 15, 120),
        ("engine-balanced-renju15.pos", GomokuRule::Renju, 15, 120),
    ] {
        let text = std::fs::read_to_string(root.join("openings").join(file)).unwrap();
        let openings = wuzi::arena::opening::parse_file(&text, size, size).unwrap();
        assert_eq!(openings.len(), count, "{file}");
        for o in &openings {
            let mut g = AnyGame::new(Kind::Gomoku(rule), size, size).unwrap();
            for &m in o {
                assert!(!g.is_forbidden(m), "{file}: {o:?}");
                g.try_play(m).unwrap();
            }
            assert!(g.outcome().is_none(), "{file}: {o:?}");
        }
    }
}

#[test]
fn wuzi_negotiates_swap2_with_itself() {
    let cfg = TournamentConfig {
        engines: vec![wuzi("wuzi-a"), wuzi("wuzi-b")],
        format: Format::RoundRobin,
        setup: GameSetup {
            kind: GameKind::Gomoku { rule: 0 },
            width: 15,
            height: 15,
            draw_after: Some(24),
            opening_rule: OpeningRule::Swap2,
        },
        time: TimeControl {
            turn_ms: 200,
            match_ms: 30_000,
            tolerance_ms: 2_000,
            start_ms: 5_000,
            grace_ms: 500,
            max_memory: 64 << 20,
        },
        openings: Vec::new(),
        rounds: 1,
        max_games: Some(1),
        random_symmetry: false,
        seed: 1,
        concurrency: 1,
        reuse: false,
        sprt: None,
        out_dir: None,
    };
    let empty = AnyGame::new(Kind::Gomoku(GomokuRule::Freestyle), 15, 15).unwrap();
    let mut records = Vec::new();
    let st = run(&cfg, &|| empty.clone(), |r, _| records.push(r.clone())).unwrap();
    assert_eq!(st.games, 1);
    let r = &records[0];
    assert!(
        st.faults.iter().all(|f| f.is_empty()),
        "{}: {r:?}",
        st.table()
    );
    assert!(
        matches!(
            r.termination,
            Termination::Line | Termination::BoardFull | Termination::MoveLimit
        ),
        "{r:?}"
    );
    // Three or five negotiated stones, an exchange of two or three answers, and the colours
    // the answers gave: the proposer (engine 0) is black exactly when it took black.
    assert!(matches!(r.opening.len(), 3 | 5), "{r:?}");
    assert!(matches!(r.swap.len(), 2 | 3), "{:?}", r.swap);
    let last = r.swap.last().unwrap();
    let proposer_black = r.black == 0;
    let chose = if r.swap.len() == 2 {
        "wuzi-b"
    } else {
        "wuzi-a"
    };
    assert!(last.starts_with(chose), "{:?}", r.swap);
    let took_black = last.contains("takes black");
    assert_eq!(
        proposer_black,
        (chose == "wuzi-a") == took_black,
        "{:?}",
        r.swap
    );
    assert!(!r.moves.is_empty());
}

/// Pente and ninuki through the arena: the referee judges captures, every game ends on the
/// board without a fault, and the records carry the captured pairs, which must match a
/// replay of the game on the crate's own capture board.
#[test]
fn wuzi_plays_the_capture_games_against_the_random_player() {
    use wuzi::game::{CaptureRule, Game};
    for (kind, rule) in [
        (GameKind::Pente, CaptureRule::Pente),
        (GameKind::Ninuki, CaptureRule::Ninuki),
    ] {
        let mut random = wuzi("random");
        random.info = vec![
            ("player".into(), "random".into()),
            ("seed".into(), "5".into()),
        ];
        let cfg = TournamentConfig {
            engines: vec![wuzi("wuzi"), random],
            format: Format::RoundRobin,
            setup: GameSetup {
                kind,
                width: 13,
                height: 13,
                draw_after: Some(120),
                opening_rule: OpeningRule::Given,
            },
            time: TimeControl {
                turn_ms: 200,
                match_ms: 30_000,
                tolerance_ms: 2_000,
                start_ms: 5_000,
                grace_ms: 500,
                max_memory: 64 << 20,
            },
            openings: vec![vec![Move::new(6, 6), Move::new(7, 6), Move::new(5, 7)]],
            rounds: 1,
            max_games: None,
            random_symmetry: false,
            seed: 3,
            concurrency: 1,
            reuse: false,
            sprt: None,
            out_dir: None,
        };
        let kind = Kind::Capture { rule, aware: true };
        let empty = AnyGame::new(kind, 13, 13).unwrap();
        let mut records = Vec::new();
        let st = run(&cfg, &|| empty.clone(), |r, _| records.push(r.clone())).unwrap();
        assert_eq!(st.games, 2);
        assert!(st.faults.iter().all(|f| f.is_empty()), "{}", st.table());
        for r in &records {
            assert_eq!(r.termination, Termination::Line, "{}", r.detail);
            let mut g = empty.clone();
            for &m in &r.opening {
                g.place(m).unwrap();
            }
            for t in &r.moves {
                g.try_play(t.mv).unwrap();
            }
            assert_eq!(r.captures, g.captures());
            assert_eq!(Some(r.outcome), g.outcome());
        }
    }
}
