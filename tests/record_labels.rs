//! `scripts/record-labels.py` as a user runs it: teacher labels from the scores an engine
//! reported in arena records, read back by `pbrain-wuzi tune --teacher`.

#![cfg(unix)]

// This test needs no fake engine, the other users of the module do.
#[allow(dead_code)]
#[path = "common/pyscript.rs"]
mod pyscript;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One freestyle game: a one-stone opening (so white moves first after it), "rapfi" white.
/// Rapfi reports 40, then a mate, then 9000 (clipped); "wuzi"'s scores are not labels,
/// and a second game, against "pela", has none of Rapfi's.
fn record(dir: &Path) -> PathBuf {
    let games = dir.join("games.jsonl");
    std::fs::write(
        &games,
        "{\"id\":1,\"black\":\"wuzi\",\"white\":\"rapfi\",\"width\":15,\"height\":15,\"rule\":0,\
         \"result\":\"0-1\",\"termination\":\"line\",\"opening\":[[7,7]],\
         \"moves\":[[8,8],[0,0],[9,9],[0,1],[10,10]],\
         \"thinking\":[{\"depth\":\"9\",\"score\":\"40\"},{\"depth\":\"5\",\"score\":\"-700\"},\
         {\"depth\":\"9\",\"score\":\"+M5\"},{},{\"depth\":\"9\",\"score\":\"9000\"}]}\n\
         {\"id\":2,\"black\":\"wuzi\",\"white\":\"pela\",\"width\":15,\"height\":15,\"rule\":0,\
         \"result\":\"1-0\",\"termination\":\"line\",\"opening\":[[7,7]],\"moves\":[[1,1]],\
         \"thinking\":[{\"score\":\"77\"}]}\n",
    )
    .unwrap();
    games
}

fn labels(text: &str) -> Vec<(String, i32)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (p, s) = l.split_once(' ').unwrap();
            (p.to_string(), s.parse().unwrap())
        })
        .collect()
}

#[test]
fn each_move_of_the_engine_labels_the_position_before_and_after_it() {
    let dir = pyscript::scratch("wuzi-record-labels", "labels");
    let games = record(&dir);
    let out = pyscript::run(
        "record-labels.py",
        &[games.to_str().unwrap(), "--engine-name", "rapfi"],
    );
    let l = |p: &str, s: i32| (p.to_string(), s);
    assert_eq!(
        labels(&out),
        vec![
            l("h8", 40),
            l("h8i9", -40),
            l("h8i9a1", 3000),
            l("h8i9a1j10", -3000),
            l("h8i9a1j10a2", 3000),
            l("h8i9a1j10a2k11", -3000),
        ]
    );
    assert!(out.starts_with("# 6 positions labelled by rapfi's reported scores in 1 game(s)"));
    // Naming the other engine reads only its game and its scores.
    let pela = pyscript::run(
        "record-labels.py",
        &[
            games.to_str().unwrap(),
            "--engine-name",
            "pela",
            "--mate",
            "500",
        ],
    );
    assert_eq!(labels(&pela), vec![l("h8", 77), l("h8b2", -77)]);
    // Two names read both engines' moves: "h8" keeps the first game's label.
    let both = pyscript::run(
        "record-labels.py",
        &[games.to_str().unwrap(), "--engine-name", "pela", "rapfi"],
    );
    assert_eq!(labels(&both).len(), 7);
    assert!(
        both.starts_with("# 7 positions labelled by pela and rapfi's reported scores in 2 game(s)")
    );
}

#[test]
fn tune_fits_to_the_labels_with_the_threat_table_held() {
    let dir = pyscript::scratch("wuzi-record-labels", "tune");
    let games = record(&dir);
    let teacher = dir.join("teacher.txt");
    let out = pyscript::run(
        "record-labels.py",
        &[games.to_str().unwrap(), "--engine-name", "rapfi"],
    );
    std::fs::write(&teacher, out).unwrap();
    let weights = dir.join("weights.rs");
    let tune = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(["tune", "--teacher"])
        .arg(&teacher)
        .args([
            "--teacher-weight",
            "1",
            "--teacher-within",
            "5000",
            "--hold-threats",
            "--epochs",
            "20",
            "--out",
        ])
        .arg(&weights)
        .arg(&games)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&tune.stderr);
    assert!(tune.status.success(), "{err}");
    let report = String::from_utf8_lossy(&tune.stdout);
    // The positions before the six moves after the openings: five of Rapfi's game and the
    // one of pela's game (the opening stone alone) that Rapfi's game labelled too.
    assert!(report.contains("6 of 6 positions scored"), "{report}");
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(
        text.contains("the threat table held (--hold-threats)"),
        "{text}"
    );
}
