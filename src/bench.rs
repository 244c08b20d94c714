//! `pbrain-wuzi bench`: a fixed set of positions searched to a fixed depth on one thread with
//! a fixed table size, printing the nodes of each and their sum as a signature.
//!
//! The same binary prints the same `Nodes searched` every run (the search is deterministic
//! for a given depth, thread count and table size), so the number identifies the search's
//! behaviour: a change that alters it must say so in its commit (`Bench: N`). Speed is
//! printed too but is not part of the signature.

use crate::game::{AnyGame, Game, GameKind, GomokuRule, Move};
use crate::search::gomoku::alphabeta::{self, Params};
use crate::search::gomoku::threats::{Solver, ThreatLimits};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Stop};
use std::io::Write;
use std::time::Instant;

/// Default search depth of the bench.
pub const DEFAULT_DEPTH: u32 = 5;
/// Transposition-table size of the bench, bytes.
pub const TT_BYTES: usize = 16 << 20;

/// Bench positions: offsets from the centre, black first, as in Gomocup opening files.
const OPENINGS: &[&[(i8, i8)]] = &[
    &[(0, 0)],
    &[(0, 0), (1, 1)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 0), (-1, 1), (1, 1), (0, 2)],
    &[(0, 0), (1, -1), (2, 0), (1, 1), (0, 2)],
    &[(-1, -1), (0, 0), (1, 0), (0, 1), (-1, 1), (1, -2)],
    &[
        (0, 0),
        (0, 1),
        (1, 1),
        (2, 2),
        (1, 0),
        (-1, 0),
        (2, -1),
        (3, -2),
    ],
    &[
        (0, 0),
        (1, 1),
        (-1, 1),
        (1, -1),
        (0, 2),
        (-2, 0),
        (1, 3),
        (0, 1),
        (-1, 2),
    ],
];

/// The rule × size grid every opening is searched in.
const SETUPS: &[(GomokuRule, usize)] = &[
    (GomokuRule::Freestyle, 15),
    (GomokuRule::Freestyle, 20),
    (GomokuRule::Standard, 15),
    (GomokuRule::Renju, 15),
    (GomokuRule::Caro, 15),
];

/// Builds a bench position; `None` if the opening does not fit (never for the sizes used).
pub fn position(rule: GomokuRule, size: usize, opening: &[(i8, i8)]) -> Option<AnyGame> {
    let mut g = AnyGame::new(GameKind::Gomoku(rule), size, size).ok()?;
    let c = (size / 2) as i32;
    for &(dx, dy) in opening {
        let (x, y) = (c + dx as i32, c + dy as i32);
        let m = Move::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        g.try_play(m).ok()?;
    }
    Some(g)
}

fn owned(tt: &mut std::sync::Arc<TranspositionTable>) -> &mut TranspositionTable {
    std::sync::Arc::get_mut(tt).expect("the bench alone owns its table")
}

/// Runs the bench at `depth` with the search parameters `params` (normally the defaults),
/// writing one line per position and the totals to `out`. Returns the total node count.
pub fn run(depth: u32, params: Params, out: &mut dyn Write) -> std::io::Result<u64> {
    // One thread and no pool: nothing else ever holds the table.
    let mut tt = std::sync::Arc::new(TranspositionTable::new());
    owned(&mut tt).resize(TT_BYTES);
    let stop = Stop::new();
    let mut total = 0u64;
    let start = Instant::now();
    for &(rule, size) in SETUPS {
        for (i, opening) in OPENINGS.iter().enumerate() {
            let Some(g) = position(rule, size, opening) else {
                continue;
            };
            owned(&mut tt).clear();
            let limits = Limits::depth(depth);
            let mut sink = |_: &crate::search::Iteration| {};
            let r = crate::with_gomoku!(&g, b => alphabeta::search(b, &tt, &limits, &stop, params, None, &mut sink), _ => None);
            let (best, nodes, score) = match r {
                Some(r) => (r.best.to_string(), r.nodes, r.score),
                None => ("-".into(), 0, 0),
            };
            total += nodes;
            writeln!(
                out,
                "{:<10} {:>2}x{:<2} #{:<2} best {:<6} score {:>6} nodes {}",
                rule.name(),
                size,
                size,
                i + 1,
                best,
                score,
                nodes
            )?;
        }
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {ms}")?;
    writeln!(out, "Nodes searched  : {total}")?;
    writeln!(out, "Nodes/second    : {}", total * 1000 / ms)?;
    extra_rates(out)?;
    Ok(total)
}

/// Operations of each side measurement.
const MAKE_UNDO_OPS: u64 = 2_000_000;
const THREAT_NODES: u64 = 200_000;
/// Depth of the Connect Four midgame searches (about half a second).
const C4_MIDGAME_DEPTH: u32 = 10;

/// Rates that are not part of the signature: make/undo with every incremental update, and
/// the threat solver (a VCT of the side to move on each freestyle 15x15 bench position).
fn extra_rates(out: &mut dyn Write) -> std::io::Result<()> {
    use crate::game::gomoku::{bench_make_undo, Freestyle};
    let t = Instant::now();
    if let Ok((ops, _)) = bench_make_undo::<Freestyle>(15, MAKE_UNDO_OPS) {
        let ms = t.elapsed().as_millis().max(1) as u64;
        writeln!(
            out,
            "Make+undo/second: {} (15x15, {ops} ops)",
            ops * 1000 / ms
        )?;
    }
    let mut solver = Solver::new(1 << 16);
    let t = Instant::now();
    let mut nodes = 0;
    for opening in OPENINGS {
        let Some(g) = position(GomokuRule::Freestyle, 15, opening) else {
            continue;
        };
        if let AnyGame::Freestyle(b) = g {
            let mut b = b;
            solver.vct(&mut b, 8, 12, &ThreatLimits::nodes(THREAT_NODES));
            nodes += solver.nodes();
        }
    }
    let ms = t.elapsed().as_millis().max(1) as u64;
    writeln!(
        out,
        "Threat nodes/s  : {} ({nodes} VCT nodes)",
        nodes * 1000 / ms
    )?;
    let t = Instant::now();
    let nodes = crate::search::connect4::midgame::bench_nodes(C4_MIDGAME_DEPTH);
    let ms = t.elapsed().as_millis().max(1) as u64;
    writeln!(
        out,
        "C4 midgame n/s  : {} (12x6, {nodes} nodes)",
        nodes * 1000 / ms
    )?;
    Ok(())
}
