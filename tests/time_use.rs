//! `scripts/time-use.py` as a user runs it: a real `wuzi-arena` run of wuzi against itself
//! with `RUST_LOG=info`, whose engine logs the script sums into the alpha-beta's share of
//! the turn and the overruns past the engine's hard limit.

use std::path::Path;
use std::process::Command;

#[test]
fn a_real_runs_time_is_summed_from_its_logs() {
    let dir = std::env::temp_dir().join(format!("wuzi-time-use-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = |name: &str| {
        [
            "--engine".to_string(),
            format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi")),
            format!("name={name}"),
            "info=thread_num=1".to_string(),
        ]
    };
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .env("RUST_LOG", "info")
        .args(engine("a"))
        .args(engine("b"))
        .args([
            "--size",
            "10",
            "--timeout-turn",
            "100",
            "--timeout-match",
            "0",
        ])
        .args(["--games", "2", "--draw-after", "24", "--quiet", "--out"])
        .arg(&dir)
        .output()
        .expect("wuzi-arena runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/time-use.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&dir)
        .args(["--engine", "a"])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The turn comes from the run's manifest; every search of engine a is counted, and the
    // arena's own times are read from games.jsonl.
    assert!(text.contains("searches at 100 ms a move"), "{text}");
    assert!(text.contains("all searches, "), "{text}");
    assert!(text.contains("alpha-beta "), "{text}");
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
    let dir = std::env::temp_dir().join(format!("wuzi-time-use-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = |name: &str| {
        [
            "--engine".to_string(),
            format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi")),
            format!("name={name}"),
            "info=thread_num=1".to_string(),
        ]
    };
    let out = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .env_remove("RUST_LOG")
        .args(engine("a"))
        .args(engine("b"))
        .args([
            "--size",
            "10",
            "--timeout-turn",
            "100",
            "--timeout-match",
            "3000",
        ])
        .args(["--games", "2", "--draw-after", "24", "--quiet", "--out"])
        .arg(&dir)
        .output()
        .expect("wuzi-arena runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/time-use.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&dir)
        .args(["--engine", "a"])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
        .and_then(|s| s.trim_end_matches('s').parse().ok())
        .unwrap_or_else(|| panic!("no max in: {line}"));
    assert!(max > 0.0 && max < 3.0, "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}
