//! `scripts/label-positions.py --rapfi-static` as a user runs it: a teacher's static values of
//! the tuner's positions, read back by `pbrain-wuzi tune --static-teacher`. A fake engine
//! that answers `TRACEBOARD` the way Rapfi does stands in for Rapfi.

#![cfg(unix)]

#[path = "common/pyscript.rs"]
mod pyscript;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A Rapfi stand-in: `START` says a MESSAGE before its OK (as Rapfi does), `YXBOARD` places
/// stones without a search, and `TRACEBOARD` reports ten points per stone for black,
/// whoever is to move.
fn fake_rapfi(dir: &Path) -> PathBuf {
    pyscript::fake_engine(
        dir,
        "#!/bin/sh\nn=0\nwhile read -r line; do\n  case \"$line\" in\n    START*) echo \"MESSAGE Load config from config.toml\"; echo OK ;;\n    YXBOARD) n=0 ;;\n    [0-9]*,[0-9]*,[0-9]*) n=$((n + 1)) ;;\n    TRACEBOARD) if [ $((n % 2)) -eq 0 ]; then s=Black; else s=White; fi\n      echo \"MESSAGE Hash: 1f\"; echo \"MESSAGE SideToMove: $s\"; echo \"MESSAGE Eval[Black]: $((n * 10))\"; echo \"MESSAGE . . . 1\" ;;\n    ABOUT) echo 'name=\"fake\"' ;;\n    END) exit 0 ;;\n  esac\ndone\n",
    )
}

fn wuzi(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn static_values_label_the_tuners_positions_for_the_side_to_move() {
    let dir = pyscript::scratch("wuzi-label-positions", "static");
    let games = dir.join("games.jsonl");
    std::fs::write(
        &games,
        "{\"id\":1,\"black\":\"a\",\"white\":\"b\",\"width\":15,\"height\":15,\"rule\":0,\
         \"result\":\"0-1\",\"termination\":\"line\",\"opening\":[[7,7]],\
         \"moves\":[[8,8],[3,3],[9,9],[3,4],[6,6],[3,5]]}\n",
    )
    .unwrap();
    let positions = dir.join("positions.txt");
    let (g, p) = (games.to_str().unwrap(), positions.to_str().unwrap());
    wuzi(&[
        "tune",
        "--epochs",
        "1",
        "--positions",
        p,
        "--out",
        "/dev/null",
        g,
    ]);
    let labels = dir.join("labels.txt");
    let fake = fake_rapfi(&dir);
    pyscript::run(
        "label-positions.py",
        &[
            fake.to_str().unwrap(),
            p,
            labels.to_str().unwrap(),
            "--rapfi-static",
        ],
    );
    let text = std::fs::read_to_string(&labels).unwrap();
    let got: Vec<(usize, i32)> = text
        .lines()
        .map(|l| {
            let (pos, v) = l.split_once(' ').unwrap();
            let stones = pos.chars().filter(|c| c.is_ascii_lowercase()).count();
            (stones, v.parse().unwrap())
        })
        .collect();
    assert!(got.len() >= 4, "{text}");
    for (stones, v) in got {
        // Black's value for the side to move: as it is with black to move, negated for white.
        let want = if stones % 2 == 0 { 10 } else { -10 } * stones as i32;
        assert_eq!(v, want, "{stones} stones: {text}");
    }
    let report = wuzi(&[
        "tune",
        "--static-teacher",
        labels.to_str().unwrap(),
        "--epochs",
        "20",
        g,
    ]);
    assert!(
        report.contains(&format!(
            "positions with a value {} train / 0 held out",
            text.lines().count()
        )),
        "{report}"
    );
    assert!(report.contains("(--static-teacher)"), "{report}");
}

#[test]
fn a_trace_with_the_wrong_side_to_move_labels_nothing() {
    let dir = pyscript::scratch("wuzi-label-positions", "side");
    let positions = dir.join("positions.txt");
    std::fs::write(&positions, "# pos result eval\nh8 0 0\nh8i9 1 0\n").unwrap();
    // This engine always says black is to move: the one-stone position is refused.
    let fake = pyscript::fake_engine(
        &dir,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    TRACEBOARD) echo \"MESSAGE SideToMove: Black\"; echo \"MESSAGE Eval[Black]: 7\" ;;\n    ABOUT) echo 'name=\"fake\"' ;;\n    END) exit 0 ;;\n  esac\ndone\n",
    );
    let labels = dir.join("labels.txt");
    pyscript::run(
        "label-positions.py",
        &[
            fake.to_str().unwrap(),
            positions.to_str().unwrap(),
            labels.to_str().unwrap(),
            "--rapfi-static",
        ],
    );
    assert_eq!(std::fs::read_to_string(&labels).unwrap(), "h8i9 7\n");
}
