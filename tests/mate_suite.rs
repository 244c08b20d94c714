//! `scripts/mate-suite.py` as a user runs it: `run` times the real engine on positions with
//! a forced win, `make` keeps the positions of arena records where a stronger engine
//! reports one (a fake engine with known answers stands in for Rapfi here).

#[path = "common/pyscript.rs"]
mod pyscript;

use pyscript::fake_engine;
use std::path::{Path, PathBuf};

/// A suite of two positions in `dir`: black to move with an open three (a win in 3 plies),
/// then an almost empty board where nobody has a forced win.
fn two_positions(dir: &Path) -> PathBuf {
    let suite = dir.join("suite.jsonl");
    std::fs::write(
        &suite,
        "{\"game\":1,\"moves\":[[6,7],[6,9],[7,7],[7,9],[8,7],[0,14]],\"mate\":3}\n\
         {\"game\":2,\"moves\":[[7,7],[8,8]],\"mate\":3}\n",
    )
    .unwrap();
    suite
}

#[test]
fn run_counts_the_wins_the_engine_proves() {
    let dir = pyscript::scratch("wuzi-mate-suite", "run");
    let suite = two_positions(&dir);
    let out = pyscript::run(
        "mate-suite.py",
        &[
            "run",
            "--positions",
            suite.to_str().unwrap(),
            "--engine",
            env!("CARGO_BIN_EXE_pbrain-wuzi"),
            "--turn",
            "300",
        ],
    );
    assert!(out.starts_with("solved 1/2 within 300 ms"), "{out}");
    assert!(out.contains("win in   1-8 plies: 1/2"), "{out}");
}

/// A fixed node budget is the load-independent measure: the count and the nodes summed
/// come out the same on every run.
#[test]
fn a_node_budget_gives_the_same_count_every_time() {
    let dir = pyscript::scratch("wuzi-mate-suite", "nodes");
    let suite = two_positions(&dir);
    let args = [
        "run",
        "--positions",
        suite.to_str().unwrap(),
        "--engine",
        env!("CARGO_BIN_EXE_pbrain-wuzi"),
        "--nodes",
        "20000",
    ];
    let first = pyscript::run("mate-suite.py", &args);
    assert!(
        first.starts_with("solved 1/2 at 20000 nodes (one thread); nodes summed "),
        "{first}"
    );
    assert_eq!(first, pyscript::run("mate-suite.py", &args));
}

/// `solver` asks the threat solver alone: it proves the open three's win and not the empty
/// board, and a second run read against the first's file pairs them position by position.
#[test]
fn solver_counts_the_threat_solvers_proofs() {
    let dir = pyscript::scratch("wuzi-mate-suite", "solver");
    let suite = two_positions(&dir);
    let first = dir.join("first.json");
    let args = |out: &str| {
        vec![
            "solver".to_string(),
            "--positions".to_string(),
            suite.to_str().unwrap().to_string(),
            "--engine".to_string(),
            env!("CARGO_BIN_EXE_pbrain-wuzi").to_string(),
            "--nodes".to_string(),
            "20000".to_string(),
            "--out".to_string(),
            out.to_string(),
        ]
    };
    let a = args(first.to_str().unwrap());
    let out = pyscript::run(
        "mate-suite.py",
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(
        out.starts_with("solver proved 1/2 at 20000 nodes, depth 8; nodes summed over its proofs "),
        "{out}"
    );
    assert!(out.trim_end().ends_with("proved positions: 0"), "{out}");
    let mut b = args(dir.join("second.json").to_str().unwrap());
    b.extend(["--against".to_string(), first.to_str().unwrap().to_string()]);
    let again = pyscript::run(
        "mate-suite.py",
        &b.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(again.contains("1 proved by both"), "{again}");
    assert!(
        again.contains("proved only here 0, only there 0"),
        "{again}"
    );
}

/// Rapfi's `Eval +Mn` lines count as proofs, so that the same suite measures it too.
#[cfg(unix)]
#[test]
fn rapfi_style_mate_lines_count() {
    let dir = pyscript::scratch("wuzi-mate-suite", "rapfi");
    // Reports a mate only where the board holds a stone on 6,7 (the first position).
    let fake = fake_engine(
        &dir,
        "#!/bin/sh\nwin=0\nwhile read -r line; do\n  case \"$line\" in\n    START*) win=0; echo OK ;;\n    6,7,*) win=1 ;;\n    DONE) if [ $win = 1 ]; then echo \"MESSAGE Depth 5-5 | Eval +M3 | Time 4ms | H8\"; else echo \"MESSAGE Depth 5-5 | Eval 12 | Time 4ms | H8\"; fi; echo 7,7 ;;\n    END) exit 0 ;;\n  esac\ndone\n",
    );
    let suite = two_positions(&dir);
    let out = pyscript::run(
        "mate-suite.py",
        &[
            "run",
            "--positions",
            suite.to_str().unwrap(),
            "--engine",
            fake.to_str().unwrap(),
            "--turn",
            "100",
        ],
    );
    assert!(
        out.starts_with("solved 1/2 within 100 ms (1 thread); time summed 104 ms"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn make_keeps_the_long_wins_the_stronger_engine_reports() {
    let dir = pyscript::scratch("wuzi-mate-suite", "make");
    // The fake engine reports a win in 2n+1 plies once the board holds n >= 4 stones.
    let fake = fake_engine(
        &dir,
        "#!/bin/sh\nn=0\nwhile read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE) if [ $n -ge 4 ]; then echo \"MESSAGE Depth 9 | Eval +M$((n*2+1)) | Time 1ms\"; else echo \"MESSAGE Depth 9 | Eval 30 | Time 1ms\"; fi; echo 7,7 ;;\n    END) exit 0 ;;\n    *,*,*) n=$((n+1)) ;;\n  esac\ndone\n",
    );
    let games = dir.join("games.jsonl");
    std::fs::write(
        &games,
        "{\"id\":5,\"width\":15,\"rule\":0,\"opening\":[[7,7],[8,8]],\"moves\":[[6,6],[9,9],[5,5],[10,10],[4,4],[11,11]]}\n\
         {\"id\":6,\"width\":20,\"rule\":0,\"opening\":[[7,7],[8,8]],\"moves\":[[6,6],[9,9],[5,5],[10,10]]}\n",
    )
    .unwrap();
    let out = pyscript::run(
        "mate-suite.py",
        &[
            "make",
            "--games",
            games.to_str().unwrap(),
            "--rapfi",
            fake.to_str().unwrap(),
            "--min-mate",
            "11",
            "--per-game",
            "2",
        ],
    );
    let kept: Vec<&str> = out.lines().collect();
    // Positions of 5 and 6 stones (wins in 11 and 13); 4 stones is too short a win, 7 is
    // past the per-game cap, and the 20x20 game is not a 15x15 freestyle one.
    assert_eq!(kept.len(), 2, "{out}");
    assert!(
        kept[0].contains("\"game\": 5") && kept[0].contains("\"mate\": 11"),
        "{out}"
    );
    assert!(
        kept[0].contains("[[7, 7], [8, 8], [6, 6], [9, 9], [5, 5]]"),
        "{out}"
    );
    assert!(kept[1].contains("\"mate\": 13"), "{out}");
}
