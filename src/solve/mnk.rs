//! The `solve` subcommand for m,n,k and the benchmark of known values.
//!
//! `solve` reads one position a line (moves as `x,y` pairs separated by spaces, black
//! first; an empty line is the empty board) and prints the value for the side to move, the
//! plies to the end with perfect play, the nodes and the microseconds. The benchmark solves
//! the published small values from the empty board, so a change to the solver that breaks
//! one shows at once, with its cost.

use crate::game::mnk::{Mnk, SizeError};
use crate::game::{Game, Move};
use crate::search::mnk::{solve, SolveLimits, Value};
use anyhow::Context;
use std::io::{BufRead, Write};
use std::time::Instant;

/// Table size of the command-line solver: under the 200 MB budget with room to spare.
const SOLVE_TT_BYTES: usize = 128 << 20;

/// A known game value: width, height, k, and whether the first player wins.
#[derive(Clone, Copy, Debug)]
pub struct KnownValue {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    pub value: Value,
}

const fn kv(width: usize, height: usize, k: usize, value: Value) -> KnownValue {
    KnownValue {
        width,
        height,
        k,
        value,
    }
}

/// Values from the literature (first player to move on the empty board).
pub const KNOWN_VALUES: &[KnownValue] = &[
    kv(3, 3, 3, Value::Draw),
    kv(4, 3, 3, Value::Win),
    kv(4, 4, 3, Value::Win),
    kv(4, 4, 4, Value::Draw),
    kv(5, 4, 4, Value::Draw),
    kv(6, 4, 4, Value::Draw),
    kv(7, 4, 4, Value::Draw),
    kv(5, 5, 4, Value::Draw),
    kv(5, 5, 5, Value::Draw),
    kv(6, 5, 4, Value::Win),
    kv(6, 6, 4, Value::Win),
    kv(7, 7, 4, Value::Win),
    kv(6, 6, 5, Value::Draw),
    kv(7, 7, 5, Value::Draw),
    kv(8, 8, 5, Value::Draw),
];

/// Parses one `solve` input line into a position: `x,y` moves separated by whitespace.
pub fn parse_position(line: &str, width: usize, height: usize, k: usize) -> anyhow::Result<Mnk> {
    let mut g = Mnk::new(width, height, k)?;
    for tok in line.split_whitespace() {
        let (x, y) = tok
            .split_once(',')
            .with_context(|| format!("bad move {tok:?}: expected x,y"))?;
        let x: u8 = x
            .trim()
            .parse()
            .with_context(|| format!("bad x in {tok:?}"))?;
        let y: u8 = y
            .trim()
            .parse()
            .with_context(|| format!("bad y in {tok:?}"))?;
        g.try_play(Move::new(x, y))
            .with_context(|| format!("move {tok} cannot be played"))?;
    }
    Ok(g)
}

/// Options of the `solve` subcommand for m,n,k (parsed by [`crate::cli`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    pub width: usize,
    pub height: usize,
    pub k: usize,
}

impl Default for SolveOptions {
    /// Tic-tac-toe.
    fn default() -> Self {
        SolveOptions {
            width: 3,
            height: 3,
            k: 3,
        }
    }
}

impl SolveOptions {
    /// Checks the board and k against what the game supports.
    pub fn check(&self) -> Result<(), SizeError> {
        Mnk::new(self.width, self.height, self.k).map(|_| ())
    }
}

/// `pbrain-wuzi solve --game mnk`: positions on `input`, one result line each on `out`.
pub fn solve_cli(
    o: &SolveOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let SolveOptions { width, height, k } = *o;
    o.check()?;
    let limits = SolveLimits {
        tt_bytes: SOLVE_TT_BYTES,
        ..SolveLimits::default()
    };
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let g = parse_position(line.trim(), width, height, k)?;
        let t = Instant::now();
        let sol = solve(&g, &limits)?;
        let us = t.elapsed().as_micros();
        writeln!(out, "{} {} {} {}", sol.value, sol.plies, sol.nodes, us)?;
        out.flush()?;
    }
    Ok(())
}

/// Solves each known value whose board has at most `max_cells` cells from the empty board
/// and writes one line per value: `m,n,k value plies nodes ms ok|WRONG`. Returns how many
/// disagreed with the literature.
pub fn bench_known_values(max_cells: usize, out: &mut dyn Write) -> anyhow::Result<usize> {
    let chosen: Vec<KnownValue> = KNOWN_VALUES
        .iter()
        .filter(|v| v.width * v.height <= max_cells)
        .copied()
        .collect();
    bench_values(&chosen, out)
}

/// Solves the given values (see [`bench_known_values`]); returns how many disagreed.
pub fn bench_values(values: &[KnownValue], out: &mut dyn Write) -> anyhow::Result<usize> {
    let mut wrong = 0;
    for kvl in values {
        let g = Mnk::new(kvl.width, kvl.height, kvl.k)?;
        let t = Instant::now();
        let sol = solve(
            &g,
            &SolveLimits {
                tt_bytes: SOLVE_TT_BYTES,
                ..SolveLimits::default()
            },
        )?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let ok = sol.value == kvl.value;
        wrong += usize::from(!ok);
        writeln!(
            out,
            "{},{},{} {} {} {} {:.1}ms {}",
            kvl.width,
            kvl.height,
            kvl.k,
            sol.value,
            sol.plies,
            sol.nodes,
            ms,
            if ok { "ok" } else { "WRONG" }
        )?;
        out.flush()?;
    }
    Ok(wrong)
}
