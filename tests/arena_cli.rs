//! The `wuzi-arena` binary end to end: fake engines refereed by the crate's gomoku board,
//! the table on stdout, records on disk, typed errors as a non-zero exit.

use std::path::PathBuf;
use std::process::Command;

#[path = "common/help_tables.rs"]
mod help_tables;

fn fake() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fake-engines/pbrain-fake.sh")
        .display()
        .to_string()
}

fn arena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn binary_runs_a_match_and_prints_the_table() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let f = fake();
    let (e1, e2) = (format!("cmd={f}"), format!("cmd={f}"));
    let out = dir.display().to_string();
    let o = arena(&[
        "--engine",
        &e1,
        "arg=normal",
        "name=good",
        "--engine",
        &e2,
        "arg=garbage",
        "name=bad",
        "--size",
        "9",
        "--rule",
        "4",
        "--rounds",
        "2",
        "--concurrency",
        "2",
        "--timeout-turn",
        "300",
        "--tolerance",
        "200",
        "--start-timeout",
        "500",
        "--grace",
        "100",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("good vs bad"), "{table}");
    assert!(table.contains("bad: garbage 4"), "{table}");
    let progress = String::from_utf8_lossy(&o.stderr);
    assert!(progress.contains("games 4/4"), "{progress}");
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 4);
    assert!(dir.join("games/00004.sgf").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// What row-major play (the normal fake engine) does on the real renju board: the number of
/// moves until the game ends and whether it ends on a foul.
fn row_major_renju(size: usize) -> (usize, bool) {
    use wuzi::game::{AnyGame, Game, GameKind, GomokuRule, Move};
    let mut g = AnyGame::new(GameKind::Gomoku(GomokuRule::Renju), size, size).unwrap();
    let mut n = 0;
    loop {
        let m = (0..size * size)
            .map(|i| Move::new((i % size) as u8, (i / size) as u8))
            .find(|&m| g.stone_at(m).is_none())
            .unwrap();
        if g.is_forbidden(m) {
            return (n, true);
        }
        g.play(m);
        n += 1;
        if g.outcome().is_some() {
            return (n, false);
        }
    }
}

#[test]
fn renju_fouls_are_judged_by_the_real_board() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-renju-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let f = fake();
    let (e1, e2) = (format!("cmd={f}"), format!("cmd={f}"));
    let out = dir.display().to_string();
    let o = arena(&[
        "--engine",
        &e1,
        "arg=normal",
        "name=a",
        "--engine",
        &e2,
        "arg=normal",
        "name=b",
        "--size",
        "15",
        "--rule",
        "4",
        "--timeout-turn",
        "300",
        "--tolerance",
        "500",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (moves, foul) = row_major_renju(15);
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    for line in jsonl.lines() {
        let expect = if foul {
            "\"termination\":\"foul\""
        } else {
            "\"termination\":\"line\""
        };
        assert!(line.contains(expect), "{line}");
        assert_eq!(line.matches("],[").count() + 1, moves.max(1), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_fail_with_a_message() {
    let o = arena(&["--engine", "cmd=x", "--rule", "3"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--rule 3"));
    let o = arena(&["--help"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("usage:"));
}

#[test]
fn binary_negotiates_swap2_on_the_real_board() {
    let dir = std::env::temp_dir().join(format!("wuzi-arena-cli-swap2-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let f = fake();
    let (e1, e2) = (format!("cmd={f}"), format!("cmd={f}"));
    let out = dir.display().to_string();
    let o = arena(&[
        "--engine",
        &e1,
        "arg=normal",
        "name=adder",
        "--engine",
        &e2,
        "arg=swapper",
        "name=swapper",
        "--opening-rule",
        "swap2",
        "--size",
        "9",
        "--timeout-turn",
        "300",
        "--tolerance",
        "200",
        "--grace",
        "100",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("adder vs swapper"), "{table}");
    assert!(!table.contains("losses by fault"), "{table}");
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let games: Vec<&str> = jsonl.lines().collect();
    assert_eq!(games.len(), 2);
    // The swapper takes black whether it chooses after three stones or after five.
    for g in &games {
        assert!(g.contains("\"black\":\"swapper\""), "{g}");
        assert!(g.contains("swapper takes black: SWAP"), "{g}");
    }
    assert!(
        games[0].contains("\"opening\":[[0,0],[1,0],[2,0]]"),
        "{}",
        games[0]
    );
    assert!(games[1].contains("adder adds 3,0 4,0"), "{}", games[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readme_tables_are_the_help_word_for_word() {
    help_tables::check_readme_tables(
        concat!(include_str!("../README.md"), include_str!("../docs/cli.md")),
        "wuzi-arena",
        env!("CARGO_BIN_EXE_wuzi-arena"),
    );
}

#[test]
fn usage_errors_exit_2_with_the_usage() {
    for (args, usage) in [
        (
            &["--engine", "cmd=a", "--engine", "cmd=b", "--size", "x"][..],
            "usage: wuzi-arena [OPTIONS]",
        ),
        (
            &["--engine", "cmd=a", "--rounds", "0", "--engine", "cmd=b"],
            "usage: wuzi-arena [OPTIONS]",
        ),
        (
            &["--engine", "name=a", "--engine", "cmd=b"],
            "usage: wuzi-arena [OPTIONS]",
        ),
        (&["frobnicate"], "usage: wuzi-arena [OPTIONS]"),
        (&["merge"], "usage: wuzi-arena merge"),
        (
            &["gen-openings", "--stones", "5-3"],
            "usage: wuzi-arena gen-openings",
        ),
        (
            &["convert-openings", "x.txt", "--to", "psq"],
            "usage: wuzi-arena convert-openings",
        ),
        (&["status", "--bogus", "d"], "usage: wuzi-arena status"),
    ] {
        let o = arena(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("wuzi-arena: "), "{args:?}: {err}");
        assert!(
            err.contains(usage) && err.ends_with("(see --help)\n"),
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // no arguments at all is a request for the help
    let o = arena(&[]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, arena(&["--help"]).stdout);
}

/// Tic-tac-toe between two perfect players draws every game: an SPRT over draws alone has
/// no variance, and its log-likelihood ratio used to recurse until the stack overflowed
/// (the arena aborted after the first game). Now the match is played and the table printed.
#[test]
fn an_sprt_of_draws_only_runs_to_the_end() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_pbrain-wuzi"));
    let o = arena(&[
        "--engine",
        &engine,
        "name=x",
        "--engine",
        &engine,
        "name=o",
        "--game",
        "mnk",
        "--timeout-turn",
        "5000",
        "--quiet",
        "--sprt",
        "0,100,0.05,0.05",
        "--games",
        "2",
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let row = stdout
        .lines()
        .find(|l| l.starts_with("x vs o"))
        .unwrap_or_else(|| panic!("no pair row in:\n{stdout}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    // pair / engine, games, W, L, D
    assert_eq!(&cols[3..7], ["2", "0", "0", "2"], "{row}");
    assert!(stdout.contains("SPRT"), "{stdout}");
}
