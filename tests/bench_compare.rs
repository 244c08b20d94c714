//! `scripts/bench-compare.py` as a user runs it against two binaries: it runs each one's
//! `bench` in alternating rounds and prints the medians and how the new build compares.
//! Fake benches with fixed figures stand in for the real ones (which take seconds each in a
//! debug build), so the figures the script must print are known exactly.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes an executable shell script at `path` that answers `bench` with `summary`.
fn fake_bench(path: &Path, summary: &str) {
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = bench ] || exit 3\ncat <<'EOF'\nfreestyle 15x15 #1  best 7,7 score 0 nodes 1\n===========================\n{summary}EOF\n"
    );
    std::fs::write(path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-bench-compare-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-compare.py")
}

/// The row of `figure` in the script's table, whitespace squeezed.
fn row(out: &str, figure: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(figure))
        .unwrap_or_else(|| panic!("no {figure:?} row in:\n{out}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(unix)]
#[test]
fn the_table_gives_medians_and_how_the_new_build_compares() {
    let dir = scratch("table");
    let (old, new) = (dir.join("old"), dir.join("new"));
    // The old build does not print the make+undo rate (726c934's bench did not either).
    fake_bench(
        &old,
        "Total time (ms) : 1000\nNodes searched  : 400000\nNodes/second    : 400000\nThreat nodes/s  : 1000000 (60000 VCT nodes)\nC4 midgame n/s  : 655000 (12x6, 1117871 nodes)\n",
    );
    fake_bench(
        &new,
        "Total time (ms) : 400\nNodes searched  : 100000\nNodes/second    : 250000\nMake+undo/second: 4600000 (15x15, 2000054 ops)\nThreat nodes/s  : 1300000 (65712 VCT nodes)\nC4 midgame n/s  : 1310000 (12x6, 1117871 nodes)\n",
    );
    let out = Command::new("python3")
        .arg(script())
        .args(["--rounds", "3", "--depth", "4", "--old-exe"])
        .arg(&old)
        .arg("--new-exe")
        .arg(&new)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("bench depth 4, 3 rounds alternating, medians"));
    assert_eq!(
        row(&text, "total time"),
        "total time, ms 1000 400 2.50x as fast"
    );
    assert_eq!(
        row(&text, "nodes searched"),
        "nodes searched 400000 100000 0.25x as many"
    );
    assert_eq!(
        row(&text, "nodes/s"),
        "nodes/s 400000 250000 0.62x the rate"
    );
    assert_eq!(row(&text, "make+undo/s"), "make+undo/s - 4600000 -");
    assert_eq!(
        row(&text, "threat nodes/s"),
        "threat nodes/s 1000000 1300000 1.30x the rate"
    );
    assert_eq!(
        row(&text, "c4 midgame n/s"),
        "c4 midgame n/s 655000 1310000 2.00x the rate"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_binary_that_prints_no_bench_summary_is_an_error() {
    let dir = scratch("broken");
    let (old, new) = (dir.join("old"), dir.join("new"));
    fake_bench(&old, "Total time (ms) : 10\n");
    fake_bench(&new, "Total time (ms) : 10\nNodes searched  : 5\n");
    let out = Command::new("python3")
        .arg(script())
        .args(["--rounds", "1", "--old-exe"])
        .arg(&old)
        .arg("--new-exe")
        .arg(&new)
        .output()
        .expect("python3 runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no 'Nodes searched' line"));
    let _ = std::fs::remove_dir_all(&dir);
}
