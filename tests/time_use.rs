//! `scripts/time-use.py` as a user runs it: real `wuzi-arena` runs of wuzi against itself,
//! whose engine logs (with `RUST_LOG=info`) the script sums into the alpha-beta's share of
//! the turn and the overruns past the engine's hard limit, and whose games (under a match
//! clock) into how much of the clock each game took.

// This test needs no fake engine, the other users of the module do.
#[allow(dead_code)]
#[path = "common/pyscript.rs"]
mod pyscript;

use std::path::Path;
use std::process::Command;

/// Two games of wuzi against itself on 10×10 at 100 ms a move and a match clock of
/// `match_ms` (0: none), written to `dir`; the engines log at info level when `logs`.
fn arena_run(dir: &Path, match_ms: u32, logs: bool) {
    let engine = |name: &str| {
        [
            "--engine".to_string(),
            format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi")),
            format!("name={name}"),
            "info=thread_num=1".to_string(),
        ]
    };
    let mut arena = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"));
    if logs {
        arena.env("RUST_LOG", "info");
    } else {
        arena.env_remove("RUST_LOG");
    }
    let out = arena
        .args(engine("a"))
        .args(engine("b"))
        .args(["--size", "10", "--timeout-turn", "100", "--timeout-match"])
        .arg(match_ms.to_string())
        .args(["--games", "2", "--draw-after", "24", "--quiet", "--out"])
        .arg(dir)
        .output()
        .expect("wuzi-arena runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_real_runs_time_is_summed_from_its_logs() {
    let dir = pyscript::scratch("wuzi-time-use", "logs");
    arena_run(&dir, 0, true);
    let text = pyscript::run("time-use.py", &[dir.to_str().unwrap(), "--engine", "a"]);
    // The turn comes from the run's manifest; every search of engine a is counted, and the
    // arena's own times are read from games.jsonl.
    assert!(text.contains("searches at 100 ms a move"), "{text}");
    assert!(text.contains("all searches, "), "{text}");
    assert!(text.contains("alpha-beta "), "{text}");
    assert!(!text.contains("match clock"), "{text}");
    let over: u32 = text
        .rsplit("over 100 ms: ")
        .next()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no arena line: {text}"));
    assert_eq!(over, 0, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under a match clock, without the engines' logs: the script reads how much of the clock
/// each game took from the arena's own times, and the turn and clock from the manifest.
#[test]
fn a_match_clock_run_is_summed_from_the_arenas_times() {
    let dir = pyscript::scratch("wuzi-time-use", "match");
    arena_run(&dir, 3000, false);
    let text = pyscript::run("time-use.py", &[dir.to_str().unwrap(), "--engine", "a"]);
    assert!(text.contains("RUST_LOG=info was not set"), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("match clock of 3 s over 2 games"))
        .unwrap_or_else(|| panic!("no match-clock line: {text}"));
    // The most a game took of the clock: positive, and inside the 3 s the engine had.
    let max: f64 = line
        .split(" max ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no max in: {line}"));
    assert!(max > 0.0 && max < 3.0, "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}
