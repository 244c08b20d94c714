//! `pbrain-wuzi`'s command line as a user meets it: `-h`/`--help` at every level (exit 0),
//! `--version`, the usage and exit code 2 on a wrong option or value, exit code 1 when a
//! command fails while running; and the README's command tables, which must be the help's
//! own lines, word for word, in both directions.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");
/// README with docs/cli.md, where the subcommands' tables are.
const README: &str = concat!(include_str!("../README.md"), include_str!("../docs/cli.md"));

#[path = "common/help_tables.rs"]
mod help_tables;

/// Runs the binary with `args`, `stdin` as its input.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbrain-wuzi starts");
    // an early exit (help, usage error) may close stdin before the write: that is fine
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn readme_tables_are_the_help_word_for_word() {
    help_tables::check_readme_tables(README, "pbrain-wuzi", BIN);
}

#[test]
fn help_at_every_level_exits_0() {
    for command in [&[][..], &["play"], &["solve"], &["bench"]] {
        for flag in ["-h", "--help"] {
            let mut args = command.to_vec();
            args.push(flag);
            let o = run(&args, "");
            let out = text(&o.stdout);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
            let usage = ["Usage: pbrain-wuzi"]
                .into_iter()
                .chain(command.iter().copied())
                .collect::<Vec<_>>()
                .join(" ");
            assert!(out.contains(&usage), "{args:?}: {out}");
            assert!(o.stderr.is_empty(), "{args:?}");
        }
    }
    // `help COMMAND` is `COMMAND --help`
    assert_eq!(
        run(&["help", "solve"], "").stdout,
        run(&["solve", "--help"], "").stdout
    );
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let o = run(&[flag], "");
        assert!(o.status.success());
        assert_eq!(
            text(&o.stdout),
            format!("pbrain-wuzi {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn wrong_options_print_the_usage_and_exit_2() {
    const TOP: Option<&str> = Some("Usage: pbrain-wuzi [OPTIONS]");
    const SOLVE: Option<&str> = Some("Usage: pbrain-wuzi solve [OPTIONS]");
    // an unknown option or command shows the usage; a bad value says what is wrong with it
    for (args, usage) in [
        (&["--bogus"][..], TOP),
        (&["frobnicate"], TOP),
        (&["--depth", "3", "bench"], TOP),
        (
            &["play", "--bogus"],
            Some("Usage: pbrain-wuzi play [OPTIONS]"),
        ),
        (&["solve", "--bogus"], SOLVE),
        (&["solve", "--width", "20"], SOLVE),
        (&["solve", "--game", "mnk", "--weak"], SOLVE),
        (
            &["bench", "1", "2"],
            Some("Usage: pbrain-wuzi bench [OPTIONS] [DEPTH]"),
        ),
        (&["--threads"], None),
        (&["--threads", "0"], None),
        (&["--game", "chess"], None),
        (&["--param", "no_such=1"], None),
        (&["play", "--time", "soon"], None),
        (&["bench", "deep"], None),
        (&["bench", "--param", "no_such=1"], None),
    ] {
        let o = run(args, "START 15\n");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("try '--help'"), "{args:?}: {err}");
        if let Some(usage) = usage {
            assert!(err.contains(usage), "{args:?}: {err}");
        }
        assert!(o.stdout.is_empty(), "{args:?}: {}", text(&o.stdout));
    }
}

#[test]
fn a_command_failing_while_running_exits_1() {
    let o = run(&["solve", "--game", "mnk"], "a,b\n");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("pbrain-wuzi: bad x"), "{err}");
}

#[test]
fn options_scripts_and_managers_use_still_work() {
    // protocol mode, every option in both spellings `--name value` and `--name=value`
    let o = run(
        &[
            "--threads",
            "1",
            "--depth=2",
            "--hash",
            "4",
            "--param",
            "beam=20",
            "--param=root_beam=20",
            "--game",
            "gomoku",
            "--rule",
            "4",
            "--opening",
            "pro",
        ],
        "START 15\nBEGIN\n",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    // the pro rule puts black's first stone on the centre
    assert_eq!(answers, ["OK", "7,7"], "{out}");
    // Connect Four through the options: three stacked in column 0, the engine completes four
    let o = run(
        &["--game", "connect4", "--c4-player", "solver", "--k", "4"],
        "START 7 6\nBOARD\n0,5,1\n1,5,2\n0,4,1\n2,5,2\n0,3,1\n3,5,2\nDONE\n",
    );
    let out = text(&o.stdout);
    let answers: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers, ["OK", "0,2"], "{out}");
    // solve reads the public set format; -w and -k are kept as short forms
    let o = run(&["solve", "-w", "7", "-k", "4", "--weak"], "4455 18\n");
    let first = text(&o.stdout);
    assert!(first.starts_with("4455 1 "), "{first}");
}

#[test]
fn solve_features_prints_the_evaluation_terms() {
    // A header naming the terms, then one line per position with as many numbers; a bad
    // position gets an ERROR line and the rest still come out.
    let o = run(
        &["solve", "--features", "--width", "12", "--height", "6"],
        "-\n4a5b6c\n77777777\n556677a\n",
    );
    assert!(o.status.success());
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    let names: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(names[..3], ["#", "position", "windows1"], "{out}");
    let terms = names.len() - 2;
    let empty: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(empty.len(), terms + 1, "{out}");
    // The empty board: no window, threat or verdict.
    assert_eq!(empty[0], "-");
    assert!(empty[1..].iter().all(|x| *x == "0"), "{out}");
    assert!(lines[3].starts_with("77777777 ERROR"), "{out}");
    // X to move with three in a row on the bottom of a 12-wide board, open at both ends:
    // more windows of three and more threats than O.
    let x: Vec<i32> = lines[2]
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(x.len(), terms);
    assert!(x[2] > 0 && x[3] + x[4] > 0, "{out}");
    // mnk has no such terms.
    let o = run(&["solve", "--game", "mnk", "--features"], "\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn c4_losses_tells_a_blunder_from_a_game_lost_by_its_opening() {
    // Four 7×6 games from two openings, each played with both colours, where the solver
    // settles every position at once: in game 1 `default` throws away a won position with its
    // first move; in games 2 and 4 it had the losing side of a decided opening all along.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/lab/c4-losses.py");
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/connect4/arena-losses.jsonl"
    );
    let o = Command::new("python3")
        .args([script, games, "--bin", BIN, "--engine", "default"])
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("game 1 opening 64115442265757253615 as B")
            && lines[0].ends_with("blunder at ply 20 (won -> lost)"),
        "{out}"
    );
    assert!(lines[1].starts_with("game 2 ") && lines[1].contains("lost from the opening"));
    assert!(lines[2].starts_with("game 4 ") && lines[2].contains("lost from the opening"));
    assert_eq!(
        lines[3],
        "default: 4 games, 3 lost: 1 blunders, 0 lost beyond the solver's reach, 2 lost from the opening"
    );
    assert_eq!(
        lines[4],
        "openings: 0 won both, 1 split, 1 lost both, 0 with a draw, 0 unpaired"
    );
}

/// `solve --train-ntuple FILE` on the 4×4 board, with `extra` options.
fn train_4x4_ntuple(file: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "solve",
        "--width",
        "4",
        "--height",
        "4",
        "--train-ntuple",
        file,
    ];
    args.extend_from_slice(extra);
    run(&args, "")
}

/// The command failed while running (exit 1) and said `reason` on stderr.
fn assert_failed_saying(o: &Output, reason: &str) {
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(reason), "{}", text(&o.stderr));
}

#[test]
fn solve_train_ntuple_refuses_a_shape_it_cannot_build() {
    // Too many cells for a tuple, or none: exit 1 with the reason, no file written.
    let path = std::env::temp_dir().join(format!("wuzi-cli-nt-{}.bin", std::process::id()));
    let file = path.to_str().unwrap();
    let train = |extra: &[&str]| train_4x4_ntuple(file, extra);
    for (flag, value) in [
        ("--ntuple-cells", "9"),
        ("--ntuple-cells", "0"),
        ("--ntuple-tuples", "0"),
    ] {
        let o = train(&[flag, value]);
        assert_eq!(o.status.code(), Some(1), "{flag} {value}");
        assert!(text(&o.stderr).contains(flag), "{}", text(&o.stderr));
        assert!(!path.exists(), "{flag} {value}");
    }
    // A small network trains in a moment and is written.
    let o = train(&[
        "--ntuple-games",
        "200",
        "--ntuple-tuples",
        "3",
        "--ntuple-cells",
        "3",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let nt = wuzi::game::connect4::ntuple::NTuple::from_bytes(&bytes).unwrap();
    assert_eq!((nt.width, nt.height, nt.slot_count() / 2), (4, 4, 3));
}

#[test]
fn solve_train_ntuple_trains_a_network_further_with_the_solver() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-further-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let small = [
        "--ntuple-games",
        "200",
        "--ntuple-tuples",
        "3",
        "--ntuple-cells",
        "3",
    ];
    let o = train_4x4_ntuple(&file("a.bin"), &small);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Trained further, with games ended by the solver from ply 6: the file's shape is
    // kept (not the default 180 tuples), the weights move, and the log says what the
    // solver settled (on 4x4 every position it is given).
    let a = file("a.bin");
    let further = [
        "--ntuple-games",
        "200",
        "--ntuple-from",
        &a,
        "--ntuple-solve-from",
        "6",
    ];
    let o = train_4x4_ntuple(&file("b.bin"), &further);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let log = text(&o.stderr);
    let settled = log
        .lines()
        .find_map(|l| l.strip_prefix("the solver settled "))
        .unwrap_or_else(|| panic!("{log}"));
    let counts: Vec<u64> = settled.split(' ').filter_map(|w| w.parse().ok()).collect();
    assert!(
        counts.len() == 2 && counts[0] == counts[1] && counts[0] > 0,
        "{log}"
    );
    let read = |name: &str| {
        wuzi::game::connect4::ntuple::NTuple::from_bytes(&std::fs::read(file(name)).unwrap())
            .unwrap()
    };
    assert_eq!(read("b.bin").slot_count() / 2, 3);
    assert_ne!(read("a.bin").to_bytes(), read("b.bin").to_bytes());
    // A network for another board cannot be trained further: exit 1 naming it, nothing written.
    let o = run(
        &[
            "solve",
            "--width",
            "5",
            "--height",
            "4",
            "--train-ntuple",
            &file("c.bin"),
            "--ntuple-from",
            &a,
        ],
        "",
    );
    assert_failed_saying(&o, "a network for 4x4, not 5x4");
    assert!(!std::path::Path::new(&file("c.bin")).exists());
    // Nor a damaged file.
    let mut bytes = std::fs::read(file("b.bin")).unwrap();
    bytes[40] ^= 1;
    std::fs::write(file("bad.bin"), bytes).unwrap();
    let bad = file("bad.bin");
    let o = train_4x4_ntuple(&file("c.bin"), &["--ntuple-from", &bad]);
    assert_failed_saying(&o, "bad.bin: not an n-tuple network");
    assert!(!std::path::Path::new(&file("c.bin")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench --param`: a switch's node signature without a build that turns it on: two values
/// of one setting search different trees, and the plain bench is the same run to run.
#[test]
fn bench_runs_with_search_parameters() {
    let nodes = |args: &[&str]| -> u64 {
        let o = run(args, "");
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        out.lines()
            .find_map(|l| l.strip_prefix("Nodes searched  : "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{args:?}: no signature in {out}"))
    };
    assert_eq!(nodes(&["bench", "3"]), nodes(&["bench", "3"]));
    assert_ne!(
        nodes(&["bench", "3", "--param", "lmr_log=60"]),
        nodes(&["bench", "3", "--param", "lmr_log=250"])
    );
}
