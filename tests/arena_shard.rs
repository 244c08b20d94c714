//! Tournaments past one machine, through the `wuzi-arena` binary: shards partition the
//! schedule, `merge` rebuilds the one-machine report, a killed shard resumes without
//! replaying a finished game, `status` reads running shards, and every level answers
//! `--help`.
//!
//! The engines are the real `pbrain-wuzi` as a random mover seeded per game
//! (`info=seed={seed}`): games are instant, varied (so a game played by the wrong shard or
//! twice changes the results) and the same on every run, so sharded and unsharded runs can
//! be compared line by line, up to the timing fields.

#[path = "common/setup.rs"]
mod setup;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn arena(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh temporary directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wuzi-shard-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Three random movers, round robin on 9×9 with random symmetries: `rounds` × 6 games.
fn tournament(rounds: usize) -> Vec<String> {
    let wuzi = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let mut a = Vec::new();
    for name in ["r1", "r2", "r3"] {
        a.extend([
            "--engine".into(),
            format!("cmd={wuzi}"),
            format!("name={name}"),
            "info=player=random".into(),
            "info=seed={seed}".into(),
        ]);
    }
    let rest = format!(
        "--size 9 --rounds {rounds} --symmetry --seed 11 --timeout-turn 3000 --start-timeout 10000"
    );
    a.extend(rest.split_whitespace().map(String::from));
    a
}

fn with(base: &[String], extra: &[&str]) -> Vec<String> {
    let mut v = base.to_vec();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
}

/// The number after `"key":` (digits) or the bracket after it replaced by a constant: the
/// fields that record timing.
fn untimed(line: &str) -> String {
    let mut s = line.to_string();
    for (key, open, close) in [("\"ms\":", '[', ']'), ("\"ended\":", '0', ',')] {
        let Some(i) = s.find(key) else { continue };
        let from = i + key.len();
        let end = if open == '[' {
            from + s[from..].find(close).unwrap() + 1
        } else {
            from + s[from..].find(close).unwrap()
        };
        s.replace_range(from..end, "T");
    }
    s
}

fn journal(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Game ids of a journal, in file order.
fn ids(lines: &[String]) -> Vec<usize> {
    lines
        .iter()
        .map(|l| {
            let rest = &l["{\"id\":".len()..];
            rest[..rest.find(',').unwrap()].parse().unwrap()
        })
        .collect()
}

/// The journal in game order without timing fields.
fn sorted_untimed(mut lines: Vec<String>) -> Vec<String> {
    lines.sort_by_key(|l| ids(std::slice::from_ref(l))[0]);
    lines.iter().map(|l| untimed(l)).collect()
}

/// A `.psq` without the milliseconds column.
fn psq_untimed(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| match l.matches(',').count() {
            2 => l[..l.rfind(',').unwrap()].to_string(),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays the whole tournament on one machine into `dir`; returns its table.
fn one_machine(base: &[String], dir: &Path) -> String {
    ok(&arena(&with(
        base,
        &[
            "--quiet",
            "--concurrency",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
    )))
}

/// Plays shard `i` of `n` into `dir`.
fn shard(base: &[String], i: usize, n: usize, dir: &Path) -> Output {
    arena(&with(
        base,
        &[
            "--quiet",
            "--shard",
            &format!("{i}/{n}"),
            "--out",
            dir.to_str().unwrap(),
        ],
    ))
}

#[test]
fn shards_play_each_game_of_the_schedule_once() {
    let root = scratch("partition");
    let base = tournament(2);
    one_machine(&base, &root.join("all"));
    let whole = sorted_untimed(journal(&root.join("all")));
    assert_eq!(ids(&whole), (1..=12).collect::<Vec<_>>());
    // 13 shards: more than there are games, so some play nothing
    for n in [1, 2, 5, 13] {
        let mut lines = Vec::new();
        for i in 1..=n {
            let d = root.join(format!("n{n}-{i}"));
            ok(&shard(&base, i, n, &d));
            let mine = journal(&d);
            // each shard plays its colour pairs: games 2k-1 and 2k go together
            for id in ids(&mine) {
                assert_eq!((id - 1) / 2 % n + 1, i, "game {id} in shard {i}/{n}");
            }
            lines.extend(mine);
        }
        let lines = sorted_untimed(lines);
        assert_eq!(lines, whole, "{n} shards");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn merged_shards_report_what_one_machine_would() {
    let root = scratch("merge");
    let base = tournament(2);
    let sprt = with(&base, &["--sprt", "-10,10,0.01,0.01"]);
    let table = one_machine(&sprt, &root.join("all"));
    assert!(table.contains("SPRT elo0 -10 elo1 10"), "{table}");
    let dirs: Vec<String> = (1..=3)
        .map(|i| {
            let d = root.join(format!("s{i}"));
            ok(&shard(&sprt, i, 3, &d));
            d.display().to_string()
        })
        .collect();
    let merged = root.join("merged");
    let mut args = vec!["merge".to_string()];
    args.extend(dirs.iter().cloned());
    args.extend(["--out".into(), merged.display().to_string()]);
    let report = ok(&arena(&args));
    assert_eq!(report, table, "merged table");
    assert_eq!(
        sorted_untimed(journal(&merged)),
        sorted_untimed(journal(&root.join("all")))
    );
    // the merged journal is in game order, as one machine playing in sequence writes it
    assert_eq!(ids(&journal(&merged)), (1..=12).collect::<Vec<_>>());
    for id in 1..=12 {
        let name = format!("games/{id:05}");
        let (a, b) = (root.join("all").join(&name), merged.join(&name));
        assert_eq!(
            psq_untimed(&a.with_extension("psq")),
            psq_untimed(&b.with_extension("psq"))
        );
        assert_eq!(
            std::fs::read_to_string(a.with_extension("sgf")).unwrap(),
            std::fs::read_to_string(b.with_extension("sgf")).unwrap()
        );
    }
    // the merged directory is a whole run: status sees one finished shard
    let st = ok(&arena(&["status".into(), merged.display().to_string()]));
    assert!(
        st.contains("shard 1/1") && st.contains("games 12/12") && st.contains("done"),
        "{st}"
    );
    // and status over the shards totals them, with the table so far
    let mut args = vec!["status".to_string()];
    args.extend(dirs.iter().cloned());
    let st = ok(&arena(&args));
    assert!(st.contains("shard 2/3"), "{st}");
    assert!(
        st.contains("total: 3 of 3 shards seen, games 12/12"),
        "{st}"
    );
    assert!(st.contains("r1 vs r2"), "{st}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn merge_refuses_shards_of_different_runs_or_missing_ones() {
    let root = scratch("refuse");
    let base = tournament(1);
    let d = |i: usize| root.join(format!("s{i}")).display().to_string();
    ok(&shard(&base, 1, 3, Path::new(&d(1))));
    ok(&shard(&base, 2, 3, Path::new(&d(2))));
    let other = with(&base, &["--timeout-turn", "2500"]);
    ok(&shard(&other, 3, 3, Path::new(&d(3))));
    let merge = |extra: &[&str]| {
        let mut a = vec!["merge".to_string()];
        a.extend(extra.iter().map(|s| s.to_string()));
        arena(&a)
    };
    let o = merge(&[&d(1), &d(2), &d(3)]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("differ in --timeout-turn: 3000 in") && err.contains("2500 in"),
        "{err}"
    );
    let o = merge(&[&d(1), &d(2)]);
    assert!(
        text(&o.stderr).contains("shard 3/3 is missing"),
        "{}",
        text(&o.stderr)
    );
    let o = merge(&[&d(1), &d(1), &d(2)]);
    assert!(
        text(&o.stderr).contains("shard 1/3 is given twice"),
        "{}",
        text(&o.stderr)
    );
    // --partial merges what is there and says what is missing
    let o = merge(&[&d(1), &d(2), "--partial"]);
    assert!(ok(&o).contains("r1 vs r2"));
    assert!(
        text(&o.stderr).contains("shard 3/3 is missing"),
        "{}",
        text(&o.stderr)
    );
    // resuming with other options is refused the same way
    let o = arena(&with(
        &base,
        &["--seed", "12", "--shard", "1/3", "--resume", "--out", &d(1)],
    ));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("differ in --seed"),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_killed_shard_resumes_without_replaying_finished_games() {
    let root = scratch("kill");
    // 60 games in shard 1/2 at a few ms each: long enough to be killed in the middle
    let base = tournament(20);
    let d1 = root.join("s1");
    // Killed twice, the second time while resuming with two games in flight, each time
    // after it reported `progress` more games; every finished game must survive each kill.
    let mut before: Vec<String> = Vec::new();
    for (progress, extra) in [(5, &[][..]), (4, &["--resume", "--concurrency", "2"][..])] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
            .args(with(
                &with(&base, &["--shard", "1/2", "--out", d1.to_str().unwrap()]),
                extra,
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap())
            .lines()
            .map(Result::unwrap)
            .filter(|l| !l.starts_with("resuming"));
        for _ in 0..progress {
            let l = lines.next().unwrap();
            assert!(l.starts_with("shard 1/2  games "), "{l}");
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let now = journal(&d1);
        assert_eq!(&now[..before.len()], &before[..], "a finished game changed");
        assert!(
            (before.len() + progress..60).contains(&now.len()),
            "killed after {} games",
            now.len()
        );
        before = now;
    }
    // A kill in the middle of a write leaves a cut last line: make one.
    let path = d1.join("games.jsonl");
    let full = std::fs::read_to_string(&path).unwrap();
    let cut_at = full.len() - before.last().unwrap().len() / 2 - 1;
    std::fs::write(&path, &full[..cut_at]).unwrap();
    let kept = &before[..before.len() - 1];
    // status reads the interrupted shard from its files
    let st = ok(&arena(&["status".into(), d1.display().to_string()]));
    assert!(
        st.contains(&format!("games {}/60", kept.len())) && st.contains("eta "),
        "{st}"
    );

    let o = arena(&with(
        &base,
        &["--shard", "1/2", "--resume", "--out", d1.to_str().unwrap()],
    ));
    ok(&o);
    let note = text(&o.stderr);
    assert!(
        note.contains(&format!("{} of 60 games done", kept.len())) && note.contains("cut short"),
        "{note}"
    );
    let after = journal(&d1);
    // finished games are never replayed: their lines (end times included) are untouched
    assert_eq!(&after[..kept.len()], kept);
    let mut all_ids = ids(&after);
    all_ids.sort_unstable();
    assert_eq!(
        all_ids,
        (1..=60)
            .map(|k| 4 * ((k - 1) / 2) + 1 + (k - 1) % 2)
            .collect::<Vec<_>>()
    );

    // merged with the other shard, the run is the unsharded one, every game once
    let d2 = root.join("s2");
    ok(&shard(&base, 2, 2, &d2));
    let merged = root.join("merged");
    ok(&arena(&[
        "merge".into(),
        d1.display().to_string(),
        d2.display().to_string(),
        "--out".into(),
        merged.display().to_string(),
    ]));
    one_machine(&base, &root.join("all"));
    assert_eq!(journal(&merged).len(), 120);
    assert_eq!(
        sorted_untimed(journal(&merged)),
        sorted_untimed(journal(&root.join("all")))
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn every_level_answers_help_and_wrong_options_exit_2() {
    let run = |a: &[&str]| arena(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let top = run(&["--help"]);
    let usage = ok(&top);
    for sub in ["convert-openings", "gen-openings", "merge", "status"] {
        assert!(
            usage.contains(&format!("\n  {sub} ")),
            "{sub} not listed:\n{usage}"
        );
        for flag in ["--help", "-h"] {
            let o = run(&[sub, flag]);
            let help = ok(&o);
            assert!(help.starts_with(&format!("wuzi-arena {sub}:")), "{help}");
            assert!(help.contains(&format!("usage: wuzi-arena {sub}")), "{help}");
        }
        let o = run(&[sub, "--bogus"]);
        assert_eq!(o.status.code(), Some(2), "{sub}");
        let err = text(&o.stderr);
        assert!(
            err.contains("--bogus") && err.contains(&format!("usage: wuzi-arena {sub}")),
            "{err}"
        );
    }
    assert_eq!(ok(&run(&["-h"])), usage);
    let v = ok(&run(&["--version"]));
    assert_eq!(
        v.trim(),
        format!("wuzi-arena {}", env!("CARGO_PKG_VERSION"))
    );
    let o = run(&["--engine", "cmd=a", "--engine", "cmd=b", "--bogus", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("unknown option \"--bogus\"")
            && text(&o.stderr).contains("usage:")
    );
    let o = run(&[
        "--engine", "cmd=a", "--engine", "cmd=b", "--shard", "4/3", "--out", "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--shard 4/3"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn arena_parallel_script_runs_shards_two_at_a_time_and_merges() {
    // A missing tool fails the test: a skip would pass without showing the script works.
    setup::ensure(
        "GNU parallel (scripts/arena-parallel.sh runs the shards with it)",
        || {
            Command::new("parallel")
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success() && text(&o.stdout).contains("GNU parallel"))
        },
    );
    let root = scratch("parallel");
    let base = tournament(3);
    let table = one_machine(&base, &root.join("all"));
    let run = root.join("run");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/arena-parallel.sh");
    let play = || {
        Command::new("bash")
            .arg(&script)
            .args(["-j", "2", "--arena", env!("CARGO_BIN_EXE_wuzi-arena"), "4"])
            .arg(&run)
            .arg("--")
            .args(&base)
            .output()
            .unwrap()
    };
    let o = play();
    let report = ok(&o);
    assert_eq!(report, table, "stderr: {}", text(&o.stderr));
    let progress = text(&o.stderr);
    for i in 1..=4 {
        assert!(
            progress.contains(&format!("shard {i}/4  games ")),
            "{progress}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(run.join("report.txt")).unwrap(),
        table
    );
    assert_eq!(
        sorted_untimed(journal(&run.join("merged"))),
        sorted_untimed(journal(&root.join("all")))
    );
    // the same command again finds every game played and only merges
    let again = play();
    assert_eq!(ok(&again), table);
    assert!(
        text(&again.stderr).contains("resuming"),
        "{}",
        text(&again.stderr)
    );
    assert!(
        !text(&again.stderr).contains("games 1/"),
        "{}",
        text(&again.stderr)
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn readme_quotes_the_help_of_the_sharding_options() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let section = readme
        .split("## Running a tournament on many machines")
        .nth(1)
        .expect("README has the section");
    let block = section.split("```").nth(1).unwrap();
    let help = ok(&arena(&["--help".to_string()]));
    let lines: Vec<&str> = help.lines().collect();
    for l in block.lines().filter(|l| !l.trim().is_empty()) {
        assert!(lines.contains(&l), "README line not in --help: {l:?}");
    }
}
