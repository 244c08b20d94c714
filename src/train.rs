//! `pbrain-wuzi solve --train-ntuple`: the Connect Four n-tuple value network trained by
//! self-play ([`train`]), the way the shipped 12×6 network was (the commands:
//! docs/tuning.md; the screens: docs/results/connect4.md, "The n-tuple network"). The
//! network itself, its file form and the indices the search follows are the game's
//! ([`crate::game::connect4::ntuple`]); this module only plays the training games, with the
//! solver as an oracle that ends them at their exact result and the midgame search as a
//! deeper player, and writes the file.

use crate::game::connect4::bits::{Bits, Wide};
use crate::game::connect4::ntuple::{self, NTuple, Tracker};
use crate::game::connect4::position::{Geometry, Position};
use crate::game::connect4::windows::Windows;
use crate::rng::Rng;
use crate::search::connect4::midgame;
use crate::search::connect4::solver::{Solver, TransTable};
use crate::solve::connect4::SolveOptions;
use anyhow::Context;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The shape of the shipped network: 180 random walks of 8 cells, their mirror images
/// sharing the tables (11.8M weights, 9% of them non-zero after training; 120 walks played
/// 60 Elo weaker at 300 ms a move, and 120 walks of 7 cells 35 Elo weaker still, docs/results/connect4.md).
pub const TUPLES: usize = 180;
pub const TUPLE_CELLS: usize = 8;
/// Mixed into the training seed to draw the tuples.
pub const TUPLE_SEED: u64 = 0x5eed;

/// Training settings.
pub struct TrainOptions {
    pub games: u64,
    pub seed: u64,
    /// Learning rate at the start and at the end (linear in between).
    pub alpha: (f32, f32),
    /// Exploration rate at the start and at the end.
    pub epsilon: (f64, f64),
    pub lambda: f32,
}

impl TrainOptions {
    /// The shipped network's settings (docs/tuning.md, the 12×6 n-tuple network).
    pub fn shipped(games: u64, seed: u64) -> TrainOptions {
        TrainOptions {
            games,
            seed,
            alpha: (0.003, 0.0005),
            epsilon: (0.1, 0.02),
            lambda: 0.5,
        }
    }

    /// Settings for training a network further (from a file): a third of the shipped
    /// run's starting learning rate and half its exploration, so what the network knew is
    /// moved, not overwritten.
    pub fn further(games: u64, seed: u64) -> TrainOptions {
        TrainOptions {
            alpha: (0.001, 0.0003),
            epsilon: (0.05, 0.02),
            ..TrainOptions::shipped(games, seed)
        }
    }
}

/// Self-play temporal-difference learning (TD(λ), forward view over each finished game).
/// Every player wins at once when it can and never lets the opponent win next move when
/// it has a choice; otherwise it plays the afterstate of best value, or with probability ε
/// a random move, after which the λ-return is cut and the state before it learns the value
/// of the best move instead. `oracle` sees every position a player is about to move in (no
/// immediate win there) and may end the game with its exact value for the first player
/// (1, 0 or −1): the result of perfect play from there rather than of the 1-ply players'.
/// `mover`, when it names a legal column, plays that one instead of the best afterstate
/// (a deeper player: its games visit the positions strong play reaches). `report` sees the
/// game count every so often.
pub fn train<B: Bits>(
    nt: &mut NTuple,
    g: &Geometry<B>,
    o: &TrainOptions,
    oracle: &mut dyn FnMut(&Position<B>) -> Option<f32>,
    mover: &mut dyn FnMut(&NTuple, &Position<B>) -> Option<usize>,
    report: &mut dyn FnMut(u64, &NTuple),
) {
    let mut rng = Rng::new(o.seed);
    let mut record: Vec<(Vec<u32>, Option<f32>)> = Vec::new();
    for game in 0..o.games {
        let frac = game as f32 / o.games.max(1) as f32;
        let alpha = o.alpha.0 + (o.alpha.1 - o.alpha.0) * frac;
        let epsilon = o.epsilon.0 + (o.epsilon.1 - o.epsilon.0) * f64::from(frac);
        let mut p = Position::<B>::empty();
        let mut tr = Tracker::new(nt);
        let mut heights = vec![0usize; nt.width];
        record.clear();
        let reward: f32 = loop {
            let first = p.moves.is_multiple_of(2);
            let sign = if first { 1.0 } else { -1.0 };
            let possible = p.possible(g);
            if possible.is_zero() {
                break 0.0;
            }
            if !(p.winning(g) & possible).is_zero() {
                break sign;
            }
            if let Some(v) = oracle(&p) {
                break v;
            }
            let nl = p.non_losing_moves(g);
            let pool = if nl.is_zero() { possible } else { nl };
            let cols: Vec<usize> = Position::columns_in(g, pool).collect();
            // The best afterstate for the mover.
            let mut best = (f32::NEG_INFINITY, cols[0], 0.0f32);
            for &c in &cols {
                tr.play(nt, c, heights[c], first);
                let v = nt.sum(tr.indices()).tanh();
                tr.unplay(nt, c, heights[c]);
                if sign * v > best.0 {
                    best = (sign * v, c, v);
                }
            }
            let explore = cols.len() > 1 && rng.unit() < epsilon;
            let col = if explore {
                cols[rng.below(cols.len())]
            } else {
                mover(nt, &p).filter(|c| cols.contains(c)).unwrap_or(best.1)
            };
            // The state before a random move learns the best move's value instead.
            if explore {
                if let Some(last) = record.last_mut() {
                    last.1 = Some(best.2);
                }
            }
            tr.play(nt, col, heights[col], first);
            heights[col] += 1;
            p.play_col(g, col);
            record.push((tr.indices().to_vec(), None));
        };
        // λ-returns backwards; the last afterstate's successor is the end of the game.
        let mut target = reward;
        for t in (0..record.len()).rev() {
            let (ref idx, cut) = record[t];
            if let Some(v) = cut {
                target = v;
            }
            let v = nt.sum(idx).tanh();
            let step = alpha * (target - v) * (1.0 - v * v);
            nt.learn(idx, step);
            target = (1.0 - o.lambda) * v + o.lambda * target;
        }
        if (game + 1) % 10_000 == 0 {
            report(game + 1, nt);
        }
    }
}

/// What `solve --train-ntuple` trains.
#[derive(Clone, Debug, PartialEq)]
pub struct NtupleTraining {
    pub games: u64,
    pub seed: u64,
    /// Tuples of the network ([`TUPLES`] for the shipped one).
    pub tuples: usize,
    /// Cells in a tuple ([`TUPLE_CELLS`] for the shipped one).
    pub cells: usize,
    /// Train this network further instead of a new one (its shape replaces `tuples` and
    /// `cells`).
    pub init: Option<PathBuf>,
    /// From this ply on, every other ply, a game ends at the solver's exact result when a
    /// weak solve within [`ORACLE_NODES`] settles it.
    pub solve_from: Option<usize>,
    /// The games' moves chosen by the midgame search to this depth (hand-set terms plus the
    /// network being trained) instead of the best afterstate.
    pub search_depth: Option<u32>,
}

/// Solver nodes a training game may spend on one position: a few milliseconds, so that the
/// positions it settles are the ones it settles cheaply and the games still come by the
/// hundred thousand (on 12×6 from ply 40 it settled 65% of the positions it was given,
/// about 2 ms a game in all).
pub const ORACLE_NODES: u64 = 50_000;
/// Solver table for the training games' solves.
const ORACLE_TT_ENTRIES: usize = 1 << 22;
/// Midgame table for the training games' searches (`--ntuple-search-depth`): a shallow
/// search visits a few thousand nodes a move.
const MOVER_TT_ENTRIES: usize = 1 << 16;

/// `pbrain-wuzi solve --train-ntuple FILE`: an n-tuple value network for the board of `o`,
/// trained by self-play ([`train`], the shipped 12×6 network's settings), written
/// to `path`; progress on `log`.
pub fn train_ntuple_cli(
    o: &SolveOptions,
    t: &NtupleTraining,
    path: &Path,
    log: &mut dyn Write,
) -> anyhow::Result<()> {
    o.check()?;
    crate::game::connect4::with_bits!(o.width, o.height, train_run(o, t, path, log))
}

fn train_run<B: Bits>(
    o: &SolveOptions,
    t: &NtupleTraining,
    path: &Path,
    log: &mut dyn Write,
) -> anyhow::Result<()> {
    let g = Geometry::<B>::new(o.width, o.height, o.k).context("board does not fit")?;
    anyhow::ensure!(
        (1..=ntuple::MAX_TUPLES).contains(&t.tuples),
        "--ntuple-tuples must be 1 to {}",
        ntuple::MAX_TUPLES
    );
    anyhow::ensure!(
        (1..=ntuple::MAX_N.min(o.width * o.height)).contains(&t.cells),
        "--ntuple-cells must be 1 to {} on this board",
        ntuple::MAX_N.min(o.width * o.height)
    );
    let (mut nt, options) = match &t.init {
        Some(init) => (
            read_ntuple(init, o)?,
            TrainOptions::further(t.games, t.seed),
        ),
        None => (
            NTuple::random(o.width, o.height, t.tuples, t.cells, t.seed ^ TUPLE_SEED),
            TrainOptions::shipped(t.games, t.seed),
        ),
    };
    let mut tt = TransTable::new(if t.solve_from.is_some() {
        ORACLE_TT_ENTRIES
    } else {
        1
    });
    let (mut asked, mut settled) = (0u64, 0u64);
    let mut oracle = |p: &Position<B>| {
        let from = t.solve_from?;
        if p.moves < from || !(p.moves - from).is_multiple_of(2) {
            return None;
        }
        asked += 1;
        let v = Solver::new(&g, &mut tt)
            .with_node_limit(Some(ORACLE_NODES))
            .solve(p, true)?;
        settled += 1;
        let mover = v.signum() as f32;
        Some(if p.moves.is_multiple_of(2) {
            mover
        } else {
            -mover
        })
    };
    let windows = Windows::new(&g);
    let mut mid_tt = midgame::Table::new(MOVER_TT_ENTRIES);
    let never = || false;
    let mut mover = |nt: &NTuple, p: &Position<B>| {
        let depth = t.search_depth?;
        mid_tt.next_generation();
        midgame::MidSearch::new(&g, &windows, Some(nt), &mut mid_tt, None, &never)
            .run(p, depth, &mut |_| true)
            .map(|r| r.col)
    };
    let start = Instant::now();
    train(
        &mut nt,
        &g,
        &options,
        &mut oracle,
        &mut mover,
        &mut |games, _| {
            if games % 100_000 == 0 {
                let _ = writeln!(log, "{games} games, {:.0} s", start.elapsed().as_secs_f64());
            }
        },
    );
    if t.solve_from.is_some() {
        writeln!(
            log,
            "the solver settled {settled} of the {asked} positions it was given"
        )?;
    }
    let bytes = nt.to_bytes();
    std::fs::write(path, &bytes).with_context(|| format!("writing {}", path.display()))?;
    writeln!(log, "wrote {} ({} bytes)", path.display(), bytes.len())?;
    Ok(())
}

/// The n-tuple network in the file `path`, which must be one for the options' board.
fn read_ntuple(path: &Path, o: &SolveOptions) -> anyhow::Result<NTuple> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let nt = NTuple::from_bytes(&bytes)
        .with_context(|| format!("{}: not an n-tuple network", path.display()))?;
    anyhow::ensure!(
        (nt.width, nt.height) == (o.width, o.height),
        "{}: a network for {}x{}, not {}x{}",
        path.display(),
        nt.width,
        nt.height,
        o.width,
        o.height
    );
    Ok(nt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    /// Fast-learning settings for short test runs, at a fixed exploration rate.
    fn quick(games: u64, epsilon: f64) -> TrainOptions {
        TrainOptions {
            games,
            seed: 1,
            alpha: (0.01, 0.005),
            epsilon: (epsilon, epsilon),
            lambda: 0.5,
        }
    }

    #[test]
    fn an_oracle_ends_each_game_with_the_value_it_teaches() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let o = quick(300, 0.1);
        // Called on every position about to be moved in (no immediate win is possible
        // before the first player's third stone); says "first player wins" (or loses) once
        // four stones are down.
        let taught = |v: f32| {
            let mut nt = NTuple::random(7, 6, 12, 5, 3);
            let mut asked = 0;
            train(
                &mut nt,
                &g,
                &o,
                &mut |p| {
                    asked += 1;
                    (p.moves >= 4).then_some(v)
                },
                &mut |_, _| None,
                &mut |_, _| {},
            );
            (nt, asked)
        };
        let (won, asked) = taught(1.0);
        let (lost, _) = taught(-1.0);
        // Every game asked at plies 0 to 4 and ended there.
        assert_eq!(asked, 300 * 5);
        for seq in ["1234", "4433", "4747"] {
            let p = parse_sequence(&g, seq).unwrap();
            let (w, l) = (won.value(&g, &p), lost.value(&g, &p));
            assert!(w > 0.2 && l < -0.2, "{seq}: {w} {l}");
        }
    }

    #[test]
    fn a_mover_chooses_the_moves_it_names() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let o = quick(50, 0.0);
        // The bottom cell of column 7 after each game's first move (the first move is
        // never forced, and there is no exploration).
        let run = |mover: &mut dyn FnMut(&NTuple, &Position<u64>) -> Option<usize>| {
            let mut nt = NTuple::random(7, 6, 12, 5, 3);
            let mut corner = Vec::new();
            train(
                &mut nt,
                &g,
                &o,
                &mut |p| {
                    if p.moves == 1 {
                        corner.push(!(p.mask & g.cell(6, 0)).is_zero());
                    }
                    None
                },
                mover,
                &mut |_, _| {},
            );
            (nt.to_bytes(), corner)
        };
        let mut asked = 0;
        let (told, corner) = run(&mut |_, _| {
            asked += 1;
            Some(6)
        });
        assert_eq!(corner, vec![true; 50]);
        assert!(asked >= 50 * 6, "{asked}");
        let (alone, corner) = run(&mut |_, _| None);
        assert!(
            corner.iter().all(|&c| !c),
            "the best afterstate is not the corner"
        );
        assert_ne!(told, alone);
        // A column the mover names that is not a move (off the board) is not played.
        let (off_board, _) = run(&mut |_, _| Some(99));
        assert_eq!(off_board, alone);
    }
}
