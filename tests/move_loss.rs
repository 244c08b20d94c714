//! `scripts/move-loss.py` as a user runs it: `run` lets the real engine choose its moves and a
//! judge engine value them, `make` samples positions from arena records, `compare` pairs two
//! runs. A fake engine with known answers stands in for Rapfi.

#![cfg(unix)]

#[path = "common/pyscript.rs"]
mod pyscript;

use std::path::{Path, PathBuf};

/// A judge that scores the position after a stone on 0,0 at -200 for the side to move (so
/// the move was worth +200 to whoever played it) and every other position at 0; its own
/// move is always 7,8.
fn fake_judge(dir: &Path) -> PathBuf {
    pyscript::fake_engine(
        dir,
        "#!/bin/sh\nlast=\"\"\nwhile read -r line; do\n  case \"$line\" in\n    START*) last=\"\"; echo OK ;;\n    DONE) if [ \"$last\" = \"0,0\" ]; then echo \"MESSAGE Depth 5-5 | Eval -200 | Time 1ms | A1\"; else echo \"MESSAGE Depth 5-5 | Eval 0 | Time 1ms | H9\"; fi; echo 7,8 ;;\n    END) exit 0 ;;\n    [0-9]*,[0-9]*,[0-9]*) last=\"${line%,*}\" ;;\n  esac\ndone\n",
    )
}

/// Two positions: white to move must block black's four (7..10 on row 7, closed at 11) at 6,7 (wuzi plays the set's move:
/// no loss), and white's first reply where the set's move is the corner 0,0, which the
/// judge values 200 above anything wuzi plays: a loss of 100·(σ(1) − σ(0)) = 23.11 points.
fn two_positions(dir: &Path) -> PathBuf {
    let set = dir.join("set.jsonl");
    std::fs::write(
        &set,
        "{\"moves\":[[7,7],[11,7],[8,7],[0,14],[9,7],[1,14],[10,7]],\"best\":[6,7],\"score\":0}\n\
         {\"moves\":[[7,7]],\"best\":[0,0],\"score\":0}\n",
    )
    .unwrap();
    set
}

#[test]
fn run_reports_the_judged_loss_of_the_engines_moves() {
    let dir = pyscript::scratch("wuzi-move-loss", "run");
    let set = two_positions(&dir);
    let judge = fake_judge(&dir);
    let out_a = dir.join("a.json");
    let cache = dir.join("cache.json");
    let args = [
        "run",
        "--positions",
        set.to_str().unwrap(),
        "--engine",
        env!("CARGO_BIN_EXE_pbrain-wuzi"),
        "--nodes",
        "2000",
        "--rapfi",
        judge.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
        "--out",
        out_a.to_str().unwrap(),
    ];
    let out = pyscript::run("move-loss.py", &args);
    assert!(
        out.starts_with("mean loss 11.55 ± "),
        "half of 23.11 points expected: {out}"
    );
    assert!(
        out.contains(
            "over 2 positions at 2000 nodes; Rapfi's move 1 (50.0%); losing 10+ points 1 (50.0%)"
        ),
        "{out}"
    );
    // The judged values were cached: a second run asks the judge nothing and agrees.
    assert!(std::fs::read_to_string(&cache).unwrap().len() > 10);
    let out_b = dir.join("b.json");
    let mut again = args.to_vec();
    let b = out_b.to_str().unwrap().to_string();
    *again.last_mut().unwrap() = &b;
    assert_eq!(pyscript::run("move-loss.py", &again), out);
    let cmp = pyscript::run(
        "move-loss.py",
        &["compare", out_a.to_str().unwrap(), out_b.to_str().unwrap()],
    );
    assert!(
        cmp.contains(": +0.00 ± 0.00 points of mean loss over 2 positions"),
        "{cmp}"
    );
}

#[test]
fn make_samples_undecided_positions_where_the_engine_was_to_move() {
    let dir = pyscript::scratch("wuzi-move-loss", "make");
    let judge = fake_judge(&dir);
    let games = dir.join("games.jsonl");
    // wuzi is white; the opening has three stones, so moves[0] is white's (wuzi's). Rapfi's
    // score after wuzi's third move is a mate: positions from there on are decided.
    std::fs::write(
        &games,
        "{\"black\":\"rapfi\",\"white\":\"wuzi\",\"width\":15,\"rule\":0,\"result\":\"1-0\",\
         \"opening\":[[7,7],[7,8],[8,8]],\
         \"moves\":[[6,6],[9,9],[5,5],[10,10],[4,4],[11,11]],\
         \"thinking\":[{\"score\":\"40\"},{\"score\":\"55\"},{\"score\":\"-30\"},{\"score\":\"90\"},{\"score\":\"-900\"},{\"score\":\"+M9\"}]}\n",
    )
    .unwrap();
    let out = pyscript::run(
        "move-loss.py",
        &[
            "make",
            "--games",
            games.to_str().unwrap(),
            "--rapfi",
            judge.to_str().unwrap(),
            "--per-game",
            "5",
        ],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "wuzi's first two moves only: {out}");
    for l in &lines {
        assert!(l.contains("\"best\": [7, 8]"), "{l}");
    }
    assert!(out.contains("[[7, 7], [7, 8], [8, 8]]"), "{out}");
    assert!(
        out.contains("[[7, 7], [7, 8], [8, 8], [6, 6], [9, 9]]"),
        "{out}"
    );
}
