//! The memory promise, measured on the release binary: after two real moves the process's
//! peak resident memory (`VmHWM` of `/proc/<pid>/status`, what a Gomocup manager watches)
//! stays under 75% of `INFO max_memory`, at every size a manager may send and in every mode.
//! Below the size where the engine cannot keep that promise it must say so in a `MESSAGE`
//! line and play with its smallest tables.
//!
//! `WUZI_MEMORY_BIN=path` measures another binary (an older build) without asserting, and
//! `-- --nocapture` prints the table of figures kept in `docs/results/memory.md`:
//! `WUZI_MEMORY_BIN=old cargo test --release --test memory -- --nocapture`.

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const MB: u64 = 1 << 20;
/// The sizes the issue names, in MiB.
const SIZES_MB: [u64; 7] = [4, 8, 12, 16, 32, 64, 350];
/// Milliseconds a move may take: long enough for the search to fill the table a manager's
/// 1.5 s move is given.
const TURN_MS: u64 = 1500;

/// One run: a mode, a memory limit, threads.
#[derive(Clone)]
struct Case {
    /// What the row says.
    mode: &'static str,
    /// The lines that start the game, sent after the INFO lines.
    setup: &'static [&'static str],
    /// The opponent's two moves, far from each other so the engine may play anywhere.
    moves: [&'static str; 2],
    max_memory: u64,
    threads: usize,
}

/// What a run showed.
struct Figures {
    peak: u64,
    /// The engine's MESSAGE about a limit it cannot keep, if any.
    notice: Option<String>,
    /// A move request answered with something else than a move.
    refused: Option<String>,
}

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(bin: &str) -> Engine {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its stdin");
    }

    /// The next line that is not a search's progress MESSAGE; notices are collected.
    fn reply(&mut self, notices: &mut Vec<String>) -> String {
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("the engine answers within 30 s");
            match l.strip_prefix("MESSAGE ") {
                Some(m) if m.contains("max_memory") => notices.push(m.to_string()),
                Some(_) => {}
                None => return l,
            }
        }
    }

    /// Peak resident set, bytes.
    fn peak(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/<pid>/status is readable");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmHWM in /proc/<pid>/status");
        kib * 1024
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays the case's two moves and reads the peak before the engine exits.
fn run(bin: &str, case: &Case) -> Figures {
    let mut e = Engine::spawn(bin);
    let mut notices = Vec::new();
    e.send(&format!("INFO max_memory {}", case.max_memory));
    e.send(&format!("INFO thread_num {}", case.threads));
    e.send(&format!("INFO timeout_turn {TURN_MS}"));
    e.send("INFO timeout_match 0");
    let mut refused = None;
    for l in case.setup {
        e.send(l);
        if l.starts_with("START") || l.starts_with("RECTSTART") {
            let ok = e.reply(&mut notices);
            if ok != "OK" {
                refused.get_or_insert(format!("{l}: {ok}"));
            }
        }
    }
    for m in case.moves {
        e.send(&format!("TURN {m}"));
        let answer = e.reply(&mut notices);
        if answer.split(',').count() != 2 || answer.starts_with("ERROR") {
            refused.get_or_insert(format!("TURN {m}: {answer}"));
        }
    }
    let peak = e.peak();
    e.send("END");
    Figures {
        peak,
        notice: notices.into_iter().next(),
        refused,
    }
}

fn cases() -> Vec<Case> {
    let gomoku = |threads| {
        SIZES_MB.into_iter().map(move |mb| Case {
            mode: if threads == 1 {
                "gomoku 15x15"
            } else {
                "gomoku 15x15, 2 threads"
            },
            setup: &["INFO rule 0", "START 15"],
            moves: ["0,0", "14,14"],
            max_memory: mb * MB,
            threads,
        })
    };
    let other = |mode, setup, moves| {
        [4, 16, 32, 64].into_iter().map(move |mb| Case {
            mode,
            setup,
            moves,
            max_memory: mb * MB,
            threads: 1,
        })
    };
    gomoku(1)
        .chain(gomoku(2))
        .chain(other(
            // Without the book, whose answers would leave the tables untouched.
            "connect four 7x6, no book",
            &["INFO game connect4", "INFO c4_book none", "RECTSTART 7,6"],
            ["0,5", "6,5"],
        ))
        .chain(other(
            "connect four 12x6",
            &["INFO game connect4", "RECTSTART 12,6"],
            ["0,5", "11,5"],
        ))
        .chain(other(
            "m,n,k 9x9 k=5",
            &["INFO game mnk", "INFO k 5", "START 9"],
            ["0,0", "8,8"],
        ))
        .collect()
}

/// Runs every case, two at a time (the peak does not depend on the machine's load: a slower
/// search fills less of its table, and the table is what varies).
fn measure(bin: &str) -> Vec<(Case, Figures)> {
    let cases = cases();
    let (tx, rx) = channel();
    let next = std::sync::Mutex::new(cases.into_iter().enumerate());
    std::thread::scope(|s| {
        for _ in 0..2 {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let Some((i, case)) = next.lock().unwrap().next() else {
                    break;
                };
                let f = run(bin, &case);
                tx.send((i, case, f)).unwrap();
            });
        }
    });
    drop(tx);
    let mut out: Vec<(usize, Case, Figures)> = rx.into_iter().collect();
    out.sort_by_key(|r| r.0);
    out.into_iter().map(|(_, c, f)| (c, f)).collect()
}

fn print_table(results: &[(Case, Figures)]) {
    println!("| mode | max_memory | peak RSS | share | engine's notice |");
    println!("|---|---:|---:|---:|---|");
    for (c, f) in results {
        println!(
            "| {} | {} MiB | {:.1} MiB | {:.0}% | {} |",
            c.mode,
            c.max_memory / MB,
            f.peak as f64 / MB as f64,
            f.peak as f64 * 100.0 / c.max_memory as f64,
            f.refused.as_deref().or(f.notice.as_deref()).unwrap_or("")
        );
    }
}

/// The least `max_memory` the engine's notice names, bytes.
fn floor_in(notice: &str) -> Option<u64> {
    let i = notice.find("needs at least ")? + "needs at least ".len();
    notice[i..].split_whitespace().next()?.parse().ok()
}

#[test]
fn peak_memory_stays_under_three_quarters_of_max_memory() {
    if let Ok(bin) = std::env::var("WUZI_MEMORY_BIN") {
        print_table(&measure(&bin));
        return;
    }
    let results = measure(env!("CARGO_BIN_EXE_pbrain-wuzi"));
    print_table(&results);
    let mut failures = Vec::new();
    for (c, f) in &results {
        let allowed = c.max_memory / 4 * 3;
        let what = format!(
            "{} at {} MiB: peak {} bytes",
            c.mode,
            c.max_memory / MB,
            f.peak
        );
        if let Some(r) = &f.refused {
            failures.push(format!("{what}: {r}"));
        }
        match f.notice.as_deref() {
            None if f.peak >= allowed => failures.push(format!("{what}, over 75% {allowed}")),
            None => {}
            Some(n) => match floor_in(n) {
                // Below the floor: the engine said so and stayed at its least, which is
                // what the floor is 75% of.
                Some(floor) if floor > c.max_memory => {
                    if f.peak >= floor / 4 * 3 {
                        failures.push(format!("{what}, notice {n:?}, but over 75% of its floor"));
                    }
                }
                _ => failures.push(format!("{what}: a notice at a size it can keep: {n:?}")),
            },
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The smallest size is below every mode's floor: the notice must come there.
    assert!(results
        .iter()
        .filter(|(c, _)| c.max_memory == 4 * MB)
        .all(|(_, f)| f.notice.is_some()));
}
