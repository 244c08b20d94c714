//! A short real match: wuzi against itself through the arena, refereed by the crate's own
//! gomoku board. A handful of very fast games on a small board must complete without any
//! fault (time, crash, illegal move, garbage) from the real engine.

use wuzi::arena::engine::EngineSpec;
use wuzi::arena::referee::{GameKind, GameSetup, Termination, TimeControl};
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
