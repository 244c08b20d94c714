//! The 12×6 n-tuple network as a user meets it: the engine plays with the built-in one
//! without a word, and a missing, damaged or other-board `INFO c4_ntuple` file costs one warning on
//! stderr, never the move.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Command;

/// Starts a 12×6 game (with `INFO c4_ntuple <value>` when given), asks for the first move
/// and the reply to one more, ends the engine; returns the moves and its stderr.
fn two_moves(ntuple: Option<&str>) -> (Vec<String>, String) {
    let mut child = common::engine_logging_warnings();
    let mut stdin = child.stdin.take().unwrap();
    let option = ntuple.map_or(String::new(), |v| format!("INFO c4_ntuple {v}\n"));
    write!(
        stdin,
        "INFO game connect4\nRECTSTART 12,6\nINFO timeout_turn 200\n{option}BEGIN\n"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next_move = || {
        lines
            .by_ref()
            .map(|l| l.unwrap())
            .find(|l| l.split(',').count() == 2)
            .expect("a move")
    };
    let first = next_move();
    // The opponent plays in the leftmost column (row 5 is the bottom cell).
    writeln!(stdin, "TURN 0,5").unwrap();
    stdin.flush().unwrap();
    let second = next_move();
    writeln!(stdin, "END").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        vec![first, second],
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn built_in_network_plays_silently() {
    let (moves, err) = two_moves(None);
    assert_eq!(moves.len(), 2);
    assert!(!err.contains("n-tuple"), "{err}");
    let (_, err) = two_moves(Some("none"));
    assert!(!err.contains("n-tuple"), "{err}");
}

#[test]
fn bad_network_files_cost_one_warning_not_the_move() {
    let dir = std::env::temp_dir().join(format!("wuzi-c4-ntuple-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/search/connect4/ntuple-12x6.bin"
    ))
    .unwrap();
    // A sound network for another board (7x6) is refused the same way.
    let other = dir.join("other-board.bin");
    let trained = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(["solve", "--width", "7", "--height", "6", "--train-ntuple"])
        .arg(&other)
        .args([
            "--ntuple-games",
            "100",
            "--ntuple-tuples",
            "2",
            "--ntuple-cells",
            "3",
        ])
        .output()
        .unwrap();
    assert!(trained.status.success());
    let mut cases = common::damaged_copies(&shipped, &dir, "bin");
    cases.push(("other board", other));
    for (name, path) in cases {
        let (moves, err) = two_moves(path.to_str());
        assert_eq!(moves.len(), 2, "{name}");
        assert_eq!(
            err.matches("n-tuple network").count(),
            1,
            "{name}: one warning expected: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--ntuple-search-depth` trains on the games a midgame search plays: another network
/// than the 1-ply players' games teach, written the same by the same command.
#[test]
fn a_searching_player_trains_another_network() {
    let dir = std::env::temp_dir().join(format!("wuzi-c4-search-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let train = |name: &str, depth: Option<&str>| {
        let path = dir.join(name);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"));
        cmd.args(["solve", "--width", "7", "--height", "6", "--train-ntuple"])
            .arg(&path)
            .args(["--ntuple-games", "40", "--ntuple-tuples", "4"])
            .args(["--ntuple-cells", "4"]);
        if let Some(d) = depth {
            cmd.args(["--ntuple-search-depth", d]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        std::fs::read(path).unwrap()
    };
    let searched = train("searched.bin", Some("3"));
    assert_eq!(train("again.bin", Some("3")), searched);
    assert_ne!(train("plain.bin", None), searched);
    std::fs::remove_dir_all(&dir).unwrap();
}
