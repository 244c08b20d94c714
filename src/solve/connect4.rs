//! `pbrain-wuzi solve`: exact scores of positions read one per line, and the benchmark over
//! the public 7×6 sets.
//!
//! The input notation is the common one (played columns, 1-based, `a` = 10), optionally
//! followed by an expected score; the output line is `position score nodes microseconds`,
//! with ` MISMATCH expected=<e>` appended when an expected score disagrees, and
//! `position ERROR <reason>` for a position that cannot be set up, `position TIMEOUT nodes
//! microseconds` for one not solved within `--timeout-s`. `-` is the empty board (an empty
//! line is skipped). The transposition table
//! is reset before each position so that node counts do not depend on the order of the
//! lines (the reset clears only the slots the previous search wrote).

use crate::game::connect4::bits::{Bits, Wide};
use crate::game::connect4::position::{parse_sequence, Geometry};
use crate::game::connect4::windows::{Windows, FEATURE_NAMES};
use crate::game::connect4::{DEFAULT_K, MAX_SIZE, MIN_SIZE};
use crate::search::connect4::parallel::solve_parallel;
use crate::search::connect4::solver::{TransTable, DEFAULT_TT_ENTRIES};
use anyhow::Context;
use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

/// Largest table `--tt-entries` may ask for (8 bytes each: 1 GB), for the long solves of
/// early 7×6 positions, where a larger table saves more nodes than it costs.
const MAX_TT_ENTRIES: usize = 1 << 27;

/// Most solver threads `--threads` may ask for.
const MAX_THREADS: usize = 256;

/// The notation of the empty board (an empty line is skipped, as in the benchmark files).
const EMPTY_BOARD: &str = "-";

/// Options of the `solve` subcommand for Connect Four (parsed by [`crate::cli`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Only the sign of the score (win, draw, loss): a narrower search window, faster.
    pub weak: bool,
    pub tt_entries: usize,
    /// Give up a position after this many seconds (`TIMEOUT` line).
    pub timeout_s: Option<f64>,
    /// Threads sharing the table (see [`crate::search::connect4::parallel`]).
    pub threads: usize,
}

impl Default for SolveOptions {
    /// The standard 7×6 board, four in a row, the default table.
    fn default() -> Self {
        SolveOptions {
            width: 7,
            height: 6,
            k: DEFAULT_K,
            weak: false,
            tt_entries: DEFAULT_TT_ENTRIES,
            timeout_s: None,
            threads: 1,
        }
    }
}

/// A `solve` option the Connect Four solver cannot work with.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionError {
    Board { width: usize, height: usize },
    K(usize),
    TtEntries(usize),
    Timeout(f64),
    Threads(usize),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Board { width, height } => write!(
                f,
                "board {width}x{height} outside {MIN_SIZE}..={MAX_SIZE} on each side"
            ),
            OptionError::K(k) => write!(f, "k = {k} outside 2..={MAX_SIZE}"),
            OptionError::TtEntries(n) => {
                write!(f, "--tt-entries {n} outside 1..={MAX_TT_ENTRIES}")
            }
            OptionError::Timeout(t) => write!(f, "--timeout-s {t} must be positive"),
            OptionError::Threads(n) => write!(f, "--threads {n} outside 1..={MAX_THREADS}"),
        }
    }
}

impl std::error::Error for OptionError {}

impl SolveOptions {
    /// Checks the values against what the solver supports.
    pub fn check(&self) -> Result<(), OptionError> {
        let side = MIN_SIZE..=MAX_SIZE;
        if !side.contains(&self.width) || !side.contains(&self.height) {
            return Err(OptionError::Board {
                width: self.width,
                height: self.height,
            });
        }
        if !(2..=MAX_SIZE).contains(&self.k) {
            return Err(OptionError::K(self.k));
        }
        if !(1..=MAX_TT_ENTRIES).contains(&self.tt_entries) {
            return Err(OptionError::TtEntries(self.tt_entries));
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(OptionError::Threads(self.threads));
        }
        match self.timeout_s {
            Some(t) if !(t > 0.0 && t.is_finite()) => Err(OptionError::Timeout(t)),
            _ => Ok(()),
        }
    }
}

/// One solved line.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub score: i32,
    pub nodes: u64,
    pub micros: u128,
}

/// Why a line has no score.
#[derive(Clone, Debug, PartialEq)]
enum Unsolved {
    /// The position cannot be set up.
    Illegal(String),
    /// The time limit ran out after this many nodes and microseconds.
    Timeout { nodes: u64, micros: u128 },
}

/// Solves one position string (`-` is the empty board), within `timeout_s` if given, on
/// `threads` threads.
fn solve_one<B: Bits>(
    g: &Geometry<B>,
    seq: &str,
    (weak, threads): (bool, usize),
    timeout_s: Option<f64>,
    tt: &mut TransTable,
) -> Result<Solved, Unsolved> {
    let moves = if seq == EMPTY_BOARD { "" } else { seq };
    let p = parse_sequence(g, moves).map_err(|e| Unsolved::Illegal(e.to_string()))?;
    tt.reset();
    let t0 = Instant::now();
    let deadline = timeout_s.map(|t| t0 + std::time::Duration::from_secs_f64(t));
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let r = solve_parallel(g, tt, &p, weak, threads, &out_of_time);
    let (nodes, micros) = (r.nodes, t0.elapsed().as_micros());
    match r.result {
        Some((score, _)) => Ok(Solved {
            score,
            nodes,
            micros,
        }),
        None => Err(Unsolved::Timeout { nodes, micros }),
    }
}

fn run<B: Bits>(
    o: &SolveOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let g = Geometry::<B>::new(o.width, o.height, o.k).context("board does not fit")?;
    let mut tt = TransTable::new(o.tt_entries);
    for line in input.lines() {
        let line = line?;
        let mut fields = line.split_whitespace();
        let Some(seq) = fields.next() else { continue };
        let expected = fields.next().map(|e| e.parse::<i32>());
        match solve_one(&g, seq, (o.weak, o.threads), o.timeout_s, &mut tt) {
            Ok(r) => {
                write!(out, "{seq} {} {} {}", r.score, r.nodes, r.micros)?;
                match expected {
                    Some(Ok(e)) if (if o.weak { e.signum() } else { e }) != r.score => {
                        write!(out, " MISMATCH expected={e}")?
                    }
                    Some(Err(_)) => write!(out, " (expected score unreadable)")?,
                    _ => {}
                }
                writeln!(out)?;
            }
            Err(Unsolved::Illegal(why)) => writeln!(out, "{seq} ERROR {why}")?,
            Err(Unsolved::Timeout { nodes, micros }) => {
                writeln!(out, "{seq} TIMEOUT {nodes} {micros}")?
            }
        }
        out.flush()?;
    }
    Ok(())
}

/// `pbrain-wuzi solve`: positions on `input`, one result line each on `out`.
pub fn solve_cli(
    o: &SolveOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    o.check()?;
    crate::game::connect4::with_bits!(o.width, o.height, run(o, input, out))
}

fn features_run<B: Bits>(
    o: &SolveOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let g = Geometry::<B>::new(o.width, o.height, o.k).context("board does not fit")?;
    let win = Windows::new(&g);
    for line in input.lines() {
        let line = line?;
        let Some(seq) = line.split_whitespace().next() else {
            continue;
        };
        let moves = if seq == EMPTY_BOARD { "" } else { seq };
        match parse_sequence(&g, moves) {
            Ok(p) => {
                let f = win.features(&g, &p).map(|x| x.to_string());
                writeln!(out, "{seq} {}", f.join(" "))?
            }
            Err(e) => writeln!(out, "{seq} ERROR {e}")?,
        }
    }
    out.flush()?;
    Ok(())
}

/// `pbrain-wuzi solve --features`: the default player's evaluation terms of each position
/// on `input` ([`FEATURE_NAMES`], the side to move's view), `position f1 f2 …` a line, for
/// fitting the weights to solved positions (`scripts/lab/c4-fit-eval.py`).
pub fn features_cli(
    o: &SolveOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    o.check()?;
    writeln!(out, "# position {}", FEATURE_NAMES.join(" "))?;
    crate::game::connect4::with_bits!(o.width, o.height, features_run(o, input, out))
}

/// Mean figures over one benchmark set.
#[derive(Clone, Debug)]
pub struct SetStats {
    pub name: String,
    pub positions: usize,
    pub wrong: usize,
    pub mean_nodes: f64,
    pub mean_micros: f64,
}

/// Solves the public 7×6 sets found in `dir` (`Test_L3_R1`, `Test_L2_R1`, `Test_L1_R1`),
/// checks every score and writes one summary line per set to `out`. `limit` caps the
/// positions per set.
pub fn bench_sets(
    dir: &Path,
    weak: bool,
    limit: Option<usize>,
    out: &mut dyn Write,
) -> anyhow::Result<Vec<SetStats>> {
    let g = Geometry::<u64>::new(7, 6, 4).context("7x6 fits in 64 bits")?;
    let mut all = Vec::new();
    let mut tt = TransTable::new(DEFAULT_TT_ENTRIES);
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let (mut n, mut wrong, mut nodes, mut micros) = (0usize, 0usize, 0u64, 0u128);
        for line in text.lines().take(limit.unwrap_or(usize::MAX)) {
            let mut f = line.split_whitespace();
            let (Some(seq), Some(exp)) = (f.next(), f.next()) else {
                continue;
            };
            let exp: i32 = exp
                .parse()
                .with_context(|| format!("bad score in {line:?}"))?;
            let r = solve_one(&g, seq, (weak, 1), None, &mut tt)
                .map_err(|e| anyhow::anyhow!("{seq}: {e:?}"))?;
            let exp = if weak { exp.signum() } else { exp };
            if r.score != exp {
                wrong += 1;
                writeln!(out, "wrong: {seq} got {} expected {exp}", r.score)?;
            }
            n += 1;
            nodes += r.nodes;
            micros += r.micros;
        }
        let s = SetStats {
            name: name.to_string(),
            positions: n,
            wrong,
            mean_nodes: nodes as f64 / n.max(1) as f64,
            mean_micros: micros as f64 / n.max(1) as f64,
        };
        writeln!(
            out,
            "{} {}: {} positions, {} wrong, mean {:.1} nodes, mean {:.1} us",
            s.name,
            if weak { "weak" } else { "strong" },
            s.positions,
            s.wrong,
            s.mean_nodes,
            s.mean_micros
        )?;
        all.push(s);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options with a small table, as the tests below use.
    fn small() -> SolveOptions {
        SolveOptions {
            tt_entries: 65536,
            ..SolveOptions::default()
        }
    }

    fn run_cli(o: &SolveOptions, input: &str) -> String {
        let mut out = Vec::new();
        solve_cli(o, &mut input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn refused(o: SolveOptions) -> bool {
        solve_cli(&o, &mut "".as_bytes(), &mut Vec::new()).is_err()
    }

    #[test]
    fn prints_score_nodes_and_time() {
        let out = run_cli(&small(), "2252576253462244111563365343671351441 -1\n\n");
        let f: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(f.len(), 4, "{out}");
        assert_eq!(f[1], "-1");
        assert!(f[2].parse::<u64>().unwrap() > 0);
    }

    #[test]
    fn flags_mismatches_and_errors() {
        let out = run_cli(
            &small(),
            "2252576253462244111563365343671351441 5\n11111111\n1212121\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].ends_with("MISMATCH expected=5"), "{out}");
        assert!(
            lines[1].contains("ERROR") && lines[1].contains("full"),
            "{out}"
        );
        assert!(
            lines[2].contains("ERROR") && lines[2].contains("won"),
            "{out}"
        );
    }

    #[test]
    fn empty_board_and_timeout() {
        // 4×4 is a draw; the empty board is written `-`.
        let four = SolveOptions {
            width: 4,
            height: 4,
            ..small()
        };
        let out = run_cli(&four, "-\n");
        assert_eq!(out.split_whitespace().nth(1), Some("0"), "{out}");
        // The empty 7×6 board takes minutes: a millisecond limit reports the nodes so far.
        let quick = SolveOptions {
            timeout_s: Some(0.001),
            ..small()
        };
        let out = run_cli(&quick, "-\n");
        let f: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(&f[..2], &["-", "TIMEOUT"], "{out}");
        assert!(f[2].parse::<u64>().unwrap() > 0);
        assert!(refused(SolveOptions {
            timeout_s: Some(-1.0),
            ..small()
        }));
    }

    #[test]
    fn threads_give_the_same_scores() {
        let two = SolveOptions {
            threads: 2,
            ..small()
        };
        let input = "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n32164625 11\n";
        let scores = |out: String| -> Vec<String> {
            out.lines()
                .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
                .collect()
        };
        let (one, both) = (run_cli(&small(), input), run_cli(&two, input));
        assert!(!both.contains("MISMATCH"), "{both}");
        assert_eq!(scores(one), scores(both));
        assert!(refused(SolveOptions {
            threads: 0,
            ..small()
        }));
    }

    #[test]
    fn weak_gives_the_sign() {
        let weak = SolveOptions {
            weak: true,
            ..small()
        };
        let out = run_cli(&weak, "7422341735647741166133573473242566\n");
        assert_eq!(out.split_whitespace().nth(1), Some("1"));
    }

    #[test]
    fn wide_boards_and_bad_options() {
        // 12×6 notation with letters: X to move wins at once in column 4 (three stacked).
        let wide = SolveOptions {
            width: 12,
            ..small()
        };
        let out = run_cli(&wide, "4a4a4a\n");
        let f: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(f[1], ((12 * 6 + 1 - 6) / 2).to_string(), "{out}");
        assert!(refused(SolveOptions {
            width: 20,
            ..small()
        }));
        assert!(refused(SolveOptions {
            tt_entries: 1 << 40,
            ..small()
        }));
        assert!(refused(SolveOptions { k: 1, ..small() }));
    }
}
