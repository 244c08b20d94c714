//! `pbrain-wuzi tune`: fits the gomoku evaluation weights to game results (Texel's method).
//!
//! Game records (the arena's `games.jsonl`) are replayed; every position after the opening
//! whose evaluation is not a fixed decisive term becomes a training position: its feature
//! counts ([`crate::game::gomoku::features`]), the game's result for the side to move
//! (1, ½, 0) and the build's static evaluation. The evaluation is linear in its weights, so
//! the fit is a logistic regression: first the scale `K` that best maps the build's own
//! evaluation to results (`sigmoid(eval / K)`), then, with `K` fixed so that the units of
//! the evaluation stay what the search's margins expect, the weights that minimise the mean
//! squared error between `sigmoid(eval / K)` and the results (full-batch Adam, a small pull
//! towards the starting weights). Every tenth game is held out to report a validation loss,
//! so an overfit shows. The result is written as the Rust source `src/game/gomoku/weights.rs`
//! that the next build compiles in.

use crate::game::gomoku::features::{
    current_weights, is_fitted, role_base, NUM_CODES, NUM_COMBOS, NUM_FEATURES, NUM_PATTERNS,
    NUM_THREATS, TEMPO_INDEX, THREAT_INDEX,
};
use crate::game::gomoku::{weights, Board, Caro, CaroExact, Freestyle, Renju, Rule, Standard};
use crate::game::{Game, Move, Outcome};
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The fields of an arena game record the tuner reads (others are ignored).
#[derive(Debug, Deserialize)]
pub struct GameLine {
    pub width: usize,
    pub height: usize,
    pub rule: i64,
    /// `1-0` (black won), `0-1` or `1/2-1/2`, read as the arena writes it.
    #[serde(with = "crate::arena::record::by_name")]
    pub result: Outcome,
    pub opening: Vec<[u8; 2]>,
    pub moves: Vec<[u8; 2]>,
    /// How the game ended (`line`, `board-full`, `timeout`…); absent in hand-made records.
    #[serde(default)]
    pub termination: Option<String>,
}

impl GameLine {
    /// Whether the result says something about the positions: a game lost on a fault (a
    /// move too late, a crash, an illegal move) is mostly decided by the fault, which is
    /// often the first move's start-up, so its positions are left out.
    pub fn ended_on_the_board(&self) -> bool {
        use crate::arena::referee::Termination;
        match self.termination.as_deref().map(Termination::from_name) {
            None => true,
            Some(Some(t)) => !matches!(t, Termination::Fault(_)),
            Some(None) => false,
        }
    }
}

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The nonzero feature counts `(index, count)` ([`crate::game::gomoku::features`]).
    pub features: Vec<(u16, f32)>,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The build's static evaluation of the position.
    pub eval: i32,
    /// The game it came from (for the hold-out split).
    pub game: usize,
    /// The moves from the empty board, black first, in "pos" notation (`h8i9…`).
    pub pos: String,
}

/// Options of one tuning run.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub games: Vec<PathBuf>,
    /// Where the fitted weights go (Rust source).
    pub out: Option<PathBuf>,
    /// Where the training positions go (one a line: pos, result, eval), if anywhere.
    pub positions: Option<PathBuf>,
    pub epochs: usize,
    /// Adam step size, eval points.
    pub rate: f64,
    /// Pull of the per-cell weights towards the build's (L2, per position and squared eval
    /// point); the tempo and the threat table are not pulled.
    pub l2: f64,
    /// A teacher engine's search scores of the positions (`pos score` lines).
    pub teacher: Option<PathBuf>,
    /// Share of the teacher's win probability in a position's target.
    pub teacher_weight: f64,
    /// Fit only the positions the teacher scored within ± this many points.
    pub teacher_within: Option<i32>,
    /// Fit only the tempo and the threat table (`crate::game::gomoku::initiative`).
    pub only_threats: bool,
    /// Hold the threat table at the build's values; fit the rest.
    pub hold_threats: bool,
    /// A stronger engine's static per-cell values of the positions (`pos value` lines, for
    /// the side to move): the per-cell weights are fitted to them by least squares instead
    /// of to the results (see [`fit_static`]).
    pub static_teacher: Option<PathBuf>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            games: Vec::new(),
            out: None,
            positions: None,
            epochs: 3000,
            rate: 2.0,
            l2: 1e-7,
            teacher: None,
            teacher_weight: 0.5,
            teacher_within: None,
            only_threats: false,
            hold_threats: false,
            static_teacher: None,
        }
    }
}

/// The `tune` subcommand: reads, fits, reports and writes.
pub fn run(opts: &TuneOptions, out: &mut dyn Write) -> Result<()> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in &opts.games {
        games += read_games(path, games, &mut samples)?;
    }
    if samples.is_empty() {
        bail!("no training positions in {} game(s)", games);
    }
    if let Some(p) = &opts.positions {
        write_positions(p, &samples)?;
    }
    if let Some(p) = &opts.static_teacher {
        return run_static(opts, p, samples, games, out);
    }
    if let Some(p) = &opts.teacher {
        let scores = read_teacher(p)?;
        if let Some(within) = opts.teacher_within {
            samples = keep_teacher_within(samples, &scores, within);
            writeln!(
                out,
                "teacher {}: kept the {} positions it scored within +-{within}",
                p.display(),
                samples.len()
            )?;
        }
        let t = blend_teacher(&mut samples, &scores, opts.teacher_weight);
        writeln!(
            out,
            "teacher {}: {} of {} positions scored, scale {:.1}, weight {}",
            p.display(),
            t.scored,
            samples.len(),
            t.scale,
            opts.teacher_weight
        )?;
    }
    let (train, valid): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| s.game % 10 != 9);
    let start = current_weights();
    let k = fit_scale(&train, &start);
    let before = (loss(&train, &start, k), loss(&valid, &start, k));
    let fitted = fit(&train, &start, k, opts);
    let after = (loss(&train, &fitted, k), loss(&valid, &fitted, k));
    writeln!(
        out,
        "games {games}, positions {} train / {} held out, K = {k:.1}",
        train.len(),
        valid.len()
    )?;
    writeln!(
        out,
        "loss before: train {:.6} held out {:.6}",
        before.0, before.1
    )?;
    writeln!(
        out,
        "loss after:  train {:.6} held out {:.6}",
        after.0, after.1
    )?;
    let teacher = match &opts.teacher {
        Some(p) => format!(
            ", targets blended with the teacher scores of {} (weight {})",
            p.display(),
            opts.teacher_weight
        ),
        None => String::new(),
    };
    let mut source = format!(
        "{}{teacher}; {} training positions, K = {k:.1}; held-out loss {:.6} -> {:.6}",
        games_read(games, opts),
        train.len(),
        before.1,
        after.1
    );
    if opts.hold_threats {
        source = format!(
            "{source}; the threat table held (--hold-threats): {}",
            weights::EVAL_SOURCE
        );
    }
    if opts.only_threats {
        source = format!(
            "tempo and threat table fitted (--only-threats) to {source}; the other weights: {}",
            weights::EVAL_SOURCE
        );
    }
    let text = weights_source(&fitted, &source);
    write_weights(opts, &text, out)
}

/// A training position with the teacher's static value of it.
pub type Valued = (Sample, f64);

/// `tune --static-teacher`: the per-cell weights fitted to a teacher's static values.
fn run_static(
    opts: &TuneOptions,
    path: &Path,
    samples: Vec<Sample>,
    games: usize,
    out: &mut dyn Write,
) -> Result<()> {
    let values = read_teacher(path)?;
    let labelled: Vec<Valued> = samples
        .into_iter()
        .filter_map(|s| values.get(&s.pos).copied().map(|v| (s, f64::from(v))))
        .collect();
    if labelled.is_empty() {
        bail!("{}: no position of the games has a value", path.display());
    }
    let (train, valid): (Vec<Valued>, Vec<Valued>) =
        labelled.into_iter().partition(|(s, _)| s.game % 10 != 9);
    let start = current_weights();
    let scale = static_scale(&train, &start);
    let fitted = fit_static(&train, &start, scale, opts);
    let r2 = |w: &[f64]| (explained(&train, w, scale), explained(&valid, w, scale));
    let (before, after) = (r2(&start), r2(&fitted));
    writeln!(
        out,
        "games {games}, positions with a value {} train / {} held out, scale {scale:.3}",
        train.len(),
        valid.len()
    )?;
    writeln!(
        out,
        "share of the values' variance explained: before train {:.3} held out {:.3}, \
         after train {:.3} held out {:.3}",
        before.0, before.1, after.0, after.1
    )?;
    let source = format!(
        "per-cell weights fitted by least squares (--static-teacher) to the static values in \
         {} x {scale:.3}, {} of the positions of {games} games, share of their variance \
         explained {:.3} -> {:.3} (held out); the tempo and threat table: {}",
        path.display(),
        train.len(),
        before.1,
        after.1,
        weights::EVAL_SOURCE
    );
    write_weights(opts, &weights_source(&fitted, &source), out)
}

/// The per-cell part of the evaluation with weights `w`: everything but tempo and threats.
fn cell_part(s: &Sample, w: &[f64]) -> f64 {
    s.features
        .iter()
        .filter(|&&(i, _)| usize::from(i) < TEMPO_INDEX)
        .map(|&(i, x)| f64::from(x) * w[usize::from(i)])
        .sum()
}

/// The factor that maps the teacher's values to the build's per-cell part best (least
/// squares through 0), so that the fitted weights keep the units the search's margins
/// expect.
pub fn static_scale(samples: &[Valued], w: &[f64]) -> f64 {
    let (mut xy, mut xx) = (0.0, 0.0);
    for (s, v) in samples {
        xy += cell_part(s, w) * v;
        xx += v * v;
    }
    if xx > 0.0 && xy > 0.0 {
        xy / xx
    } else {
        1.0
    }
}

/// Share of the variance of the scaled values that the per-cell part explains (R²).
pub fn explained(samples: &[Valued], w: &[f64], scale: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    let mean = samples.iter().map(|(_, v)| v * scale).sum::<f64>() / n;
    let (mut res, mut tot) = (0.0, 0.0);
    for (s, v) in samples {
        let t = v * scale;
        res += (cell_part(s, w) - t).powi(2);
        tot += (t - mean).powi(2);
    }
    if tot > 0.0 {
        1.0 - res / tot
    } else {
        0.0
    }
}

/// Full-batch Adam on the mean squared error between the per-cell part and the scaled
/// values; only the per-cell weights move (pulled towards the build's by `--l2`).
pub fn fit_static(samples: &[Valued], start: &[f64], scale: f64, opts: &TuneOptions) -> Vec<f64> {
    let mut w = start.to_vec();
    let mut adam = Adam::new(start);
    let n = samples.len().max(1) as f64;
    for _ in 0..opts.epochs {
        let mut grad = vec![0f64; NUM_FEATURES];
        for (s, v) in samples {
            let g = 2.0 * (cell_part(s, &w) - v * scale) / n;
            for &(i, x) in &s.features {
                if usize::from(i) < TEMPO_INDEX {
                    grad[usize::from(i)] += g * f64::from(x);
                }
            }
        }
        let pull = |i: usize| (i < TEMPO_INDEX && is_fitted(i)).then_some(opts.l2);
        adam.step(&mut w, &grad, pull, opts.rate);
    }
    w
}

/// Reads one `games.jsonl`, appending its positions; returns the number of games read.
/// `first_id` numbers the games across files.
pub fn read_games(path: &Path, first_id: usize, out: &mut Vec<Sample>) -> Result<usize> {
    read_lines(path, first_id, |g, id| samples_of(g, id, out))
}

/// Calls `f` on every game record of one `games.jsonl` with its number (from `first_id`);
/// returns the number of games read.
fn read_lines(
    path: &Path,
    first_id: usize,
    mut f: impl FnMut(&GameLine, usize) -> Result<()>,
) -> Result<usize> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut n = 0;
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let g: GameLine = serde_json::from_str(&line)
            .with_context(|| format!("{}:{}: not a game record", path.display(), i + 1))?;
        if !g.ended_on_the_board() {
            continue;
        }
        f(&g, first_id + n).with_context(|| format!("{}:{}", path.display(), i + 1))?;
        n += 1;
    }
    Ok(n)
}

/// Receives every position of a replayed game after its opening, with the move then played.
trait PositionVisitor {
    fn visit<R: Rule>(&mut self, b: &Board<R>, next: Move, pos: &str);
}

/// Replays one game under its rule, showing every position after the opening to `v`.
fn replay_game(g: &GameLine, v: &mut impl PositionVisitor) -> Result<()> {
    match g.rule {
        0 => replay::<Freestyle>(g, v),
        1 => replay::<Standard>(g, v),
        4 => replay::<Renju>(g, v),
        8 => replay::<Caro>(g, v),
        9 => replay::<CaroExact>(g, v),
        r => bail!("rule {r} is not a gomoku rule"),
    }
}

fn replay<R: Rule>(g: &GameLine, v: &mut impl PositionVisitor) -> Result<()> {
    let mut b = Board::<R>::new(g.width, g.height)?;
    let mut pos = String::new();
    for (i, &[x, y]) in g.opening.iter().chain(g.moves.iter()).enumerate() {
        let m = Move::new(x, y);
        b.check_move(m)
            .map_err(|e| anyhow::anyhow!("move {} ({x},{y}): {e}", i + 1))?;
        if i >= g.opening.len() {
            v.visit(&b, m, &pos);
        }
        b.play(m);
        let _ = write!(pos, "{}{}", (b'a' + x) as char, y + 1);
    }
    Ok(())
}

/// The game's result for the side to move in `b`: 1 win, 0.5 draw, 0 loss.
pub fn result_for_side_to_move<R: Rule>(result: Outcome, b: &Board<R>) -> f32 {
    match result {
        Outcome::Win(c) if c == b.side_to_move() => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// The evaluation's training positions of one game.
pub fn samples_of(g: &GameLine, id: usize, out: &mut Vec<Sample>) -> Result<()> {
    struct Collect<'a> {
        result: Outcome,
        id: usize,
        out: &'a mut Vec<Sample>,
    }
    impl PositionVisitor for Collect<'_> {
        fn visit<R: Rule>(&mut self, b: &Board<R>, _: Move, pos: &str) {
            if let Some(f) = b.eval_features() {
                self.out.push(Sample {
                    features: f.sparse(),
                    result: result_for_side_to_move(self.result, b),
                    eval: b.evaluate(),
                    game: self.id,
                    pos: pos.to_string(),
                });
            }
        }
    }
    replay_game(
        g,
        &mut Collect {
            result: g.result,
            id,
            out,
        },
    )
}

/// Reads a teacher's scores: `pos score` lines (`#` comments and blank lines skipped).
pub fn read_teacher(path: &Path) -> Result<std::collections::HashMap<String, i32>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut scores = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut it = line.split_whitespace();
        let (Some(pos), Some(score), None) = (it.next(), it.next(), it.next()) else {
            bail!("{}:{}: expected `pos score`", path.display(), i + 1);
        };
        let score: i32 = score
            .parse()
            .with_context(|| format!("{}:{}: bad score {score:?}", path.display(), i + 1))?;
        scores.insert(pos.to_string(), score);
    }
    Ok(scores)
}

/// The samples the teacher scored within `±within`: a search that has found a win scores
/// the side's threats, not the quiet features the evaluation weighs, so its decided
/// positions would only teach the evaluation to shout.
pub fn keep_teacher_within(
    samples: Vec<Sample>,
    scores: &std::collections::HashMap<String, i32>,
    within: i32,
) -> Vec<Sample> {
    samples
        .into_iter()
        .filter(|s| scores.get(&s.pos).is_some_and(|t| t.abs() <= within))
        .collect()
}

/// What [`blend_teacher`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeacherBlend {
    /// Positions the teacher scored.
    pub scored: usize,
    /// The scale that maps the teacher's scores to the game results best.
    pub scale: f64,
}

/// Replaces each scored position's target by `(1 − w) · result + w · sigmoid(score / S)`,
/// where `S` is the scale that best maps the teacher's scores to these games' results: a
/// deeper search's verdict is a less noisy target than one game's result, and the result
/// keeps the fit anchored to what wins.
pub fn blend_teacher(
    samples: &mut [Sample],
    scores: &std::collections::HashMap<String, i32>,
    w: f64,
) -> TeacherBlend {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|s| {
            scores
                .get(&s.pos)
                .map(|&t| (f64::from(t), f64::from(s.result)))
        })
        .collect();
    let scale = minimise_log(
        |k| {
            pairs
                .iter()
                .map(|&(t, r)| (sigmoid(t / k) - r).powi(2))
                .sum::<f64>()
        },
        10.0,
        20_000.0,
        60,
    );
    for s in samples.iter_mut() {
        if let Some(&t) = scores.get(&s.pos) {
            let p = sigmoid(f64::from(t) / scale);
            s.result = ((1.0 - w) * f64::from(s.result) + w * p) as f32;
        }
    }
    TeacherBlend {
        scored: pairs.len(),
        scale,
    }
}

fn write_positions(path: &Path, samples: &[Sample]) -> Result<()> {
    let mut text = String::from("# pos result-for-side-to-move static-eval\n");
    for s in samples {
        let _ = writeln!(text, "{} {} {}", s.pos, s.result, s.eval);
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval_of(s: &Sample, w: &[f64]) -> f64 {
    s.features
        .iter()
        .map(|&(i, x)| f64::from(x) * w[usize::from(i)])
        .sum()
}

/// Mean squared error of `sigmoid(eval / k)` against the results.
pub fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = sigmoid(eval_of(s, w) / k) - f64::from(s.result);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

/// The scale that best maps the evaluation with weights `w` to results (golden-section
/// search on log K).
pub fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    minimise_log(|k| loss(samples, w, k), 10.0, 20_000.0, 60)
}

/// The `x` in `[lo, hi]` that minimises `f`, by golden-section search on `ln x` (`f` is
/// assumed unimodal there): how the scale `K` is fitted.
fn minimise_log(f: impl Fn(f64) -> f64, lo: f64, hi: f64, steps: usize) -> f64 {
    let f = |lx: f64| f(lx.exp());
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Full-batch Adam over a weight vector, each weight pulled towards its start by
/// `l2 · (w − start)²` with the `l2` that `pull` gives it; weights it gives none never move.
struct Adam<'a> {
    start: &'a [f64],
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl<'a> Adam<'a> {
    fn new(start: &'a [f64]) -> Adam<'a> {
        Adam {
            start,
            m: vec![0.0; start.len()],
            v: vec![0.0; start.len()],
            t: 0,
        }
    }

    /// One step of size `rate` on `w` given the loss gradient `grad` (already averaged).
    fn step(
        &mut self,
        w: &mut [f64],
        grad: &[f64],
        pull: impl Fn(usize) -> Option<f64>,
        rate: f64,
    ) {
        let (b1, b2, eps) = (0.9, 0.999, 1e-12);
        self.t += 1;
        for i in 0..w.len() {
            let Some(l2) = pull(i) else {
                continue;
            };
            let gi = grad[i] + 2.0 * l2 * (w[i] - self.start[i]);
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * gi;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * gi * gi;
            let mh = self.m[i] / (1.0 - b1.powi(self.t));
            let vh = self.v[i] / (1.0 - b2.powi(self.t));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
    }
}

/// Full-batch Adam on the mean squared error plus each weight's pull (`--l2` on the per-cell
/// weights, none on the tempo and threat table), fitted weights only.
pub fn fit(samples: &[Sample], start: &[f64], k: f64, opts: &TuneOptions) -> Vec<f64> {
    let mut w = start.to_vec();
    let mut adam = Adam::new(start);
    let n = samples.len().max(1) as f64;
    for _ in 0..opts.epochs {
        let mut grad = vec![0f64; NUM_FEATURES];
        for s in samples {
            let p = sigmoid(eval_of(s, &w) / k);
            // d/dw (p − r)² = 2 (p − r) p (1 − p) x / k
            let g = 2.0 * (p - f64::from(s.result)) * p * (1.0 - p) / k / n;
            for &(i, x) in &s.features {
                grad[usize::from(i)] += g * f64::from(x);
            }
        }
        adam.step(&mut w, &grad, |i| pull_of(opts, i), opts.rate);
    }
    w
}

/// The pull towards the build's value of weight `i` in a fit with these options, or `None`
/// when it does not move (the threat table, with `hold_threats`). The tempo and the threat
/// table move freely: an entry of the table is used by a few positions in a hundred, and a
/// pull that keeps the 1,478 per-cell weights from chasing noise holds such an entry at its
/// start.
fn pull_of(opts: &TuneOptions, i: usize) -> Option<f64> {
    if !is_fitted(i) || (opts.hold_threats && i >= THREAT_INDEX) {
        None
    } else if i >= TEMPO_INDEX {
        Some(0.0)
    } else if opts.only_threats {
        None
    } else {
        Some(opts.l2)
    }
}

/// The Rust source of `weights.rs` for the evaluation weights `eval` (rounded to whole
/// points), with where they came from, and the build's (hand-set) ordering ranks.
pub fn weights_source(eval: &[f64], eval_source: &str) -> String {
    let r = |x: f64| x.round() as i64;
    let list = |w: &[f64]| -> String {
        w.iter()
            .map(|&x| r(x).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ranks = |w: &[i32]| -> Vec<f64> { w.iter().map(|&x| f64::from(x)).collect() };
    let order_source = weights::ORDER_SOURCE;
    // Ten to a line, so the file diffs by line when a refit moves a few classes.
    let table = |w: &[f64], indent: &str| -> String {
        w.chunks(10)
            .map(|c| format!("{indent}{},", list(c)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let eval_role = |role: usize| {
        let b = role_base(role);
        (
            &eval[b..b + NUM_PATTERNS],
            &eval[b + NUM_PATTERNS..b + NUM_PATTERNS + NUM_CODES],
            &eval[b + NUM_PATTERNS + NUM_CODES..b + NUM_PATTERNS + NUM_CODES + NUM_COMBOS],
        )
    };
    let (e0, e1) = (eval_role(0), eval_role(1));
    let (code_attack, code_defend) = (
        ranks(&weights::ORDER_CODE_ATTACK),
        ranks(&weights::ORDER_CODE_DEFEND),
    );
    let (attack, defend) = (ranks(&weights::ORDER_ATTACK), ranks(&weights::ORDER_DEFEND));
    let mut s = String::new();
    let _ = write!(
        s,
        "//! The evaluation and move-ordering weights the build uses, written by `pbrain-wuzi tune`\n\
         //! (see `src/tune.rs`); a person may edit them, but a tuning run overwrites this file.\n\
         //!\n\
         //! Role 0 is the side to move, role 1 the side waiting: the same open three is worth more\n\
         //! to the side that can play it next. Units are eval points (see `params`); ordering\n\
         //! ranks are only compared with each other.\n\
         \n\
         /// Where the evaluation weights came from.\n\
         pub const EVAL_SOURCE: &str = {eval_source:?};\n\
         \n\
         /// Where the ordering weights came from.\n\
         pub const ORDER_SOURCE: &str = {order_source:?};\n\
         \n\
         /// Eval points per empty cell and direction, by role and [`super::Pattern`] index.\n\
         #[rustfmt::skip]\n\
         pub const PATTERN: [[i32; {NUM_PATTERNS}]; 2] = [\n    [{}],\n    [{}],\n];\n\
         \n\
         /// Extra eval points per empty cell for its combined [`super::Code`], by role and code index.\n\
         #[rustfmt::skip]\n\
         pub const CODE: [[i32; {NUM_CODES}]; 2] = [\n    [{}],\n    [{}],\n];\n\
         \n\
         /// Extra eval points per empty cell for its pattern combination (the four directions'\n\
         /// patterns, order ignored: [`super::pattern::combo_class`]), by role and class.\n\
         #[rustfmt::skip]\n\
         pub const COMBO: [[i32; {NUM_COMBOS}]; 2] = [\n    [\n{}\n    ],\n    [\n{}\n    ],\n];\n\
         \n\
         /// Eval points for having the move.\npub const TEMPO: i32 = {};\n\
         \n\
         /// Eval points by the threat mask of the position: which threats each side can make next\n\
         /// (see `super::initiative`).\n#[rustfmt::skip]\npub const THREAT: [i32; {NUM_THREATS}] = [\n{}\n];\n\
         \n\
         /// Move-ordering rank by the code the side to move gets on the cell (see `Cell::order`).\n\
         #[rustfmt::skip]\n\
         pub const ORDER_CODE_ATTACK: [i32; {NUM_CODES}] = [{}];\n\
         \n\
         /// Move-ordering rank by the code the opponent would get on the cell (blocking it).\n\
         #[rustfmt::skip]\n\
         pub const ORDER_CODE_DEFEND: [i32; {NUM_CODES}] = [{}];\n\
         \n\
         /// Move-ordering rank by the pattern combination the side to move gets on the cell.\n\
         #[rustfmt::skip]\n\
         pub const ORDER_ATTACK: [i32; {NUM_COMBOS}] = [\n{}\n];\n\
         \n\
         /// Move-ordering rank by the pattern combination the opponent would get on the cell.\n\
         #[rustfmt::skip]\n\
         pub const ORDER_DEFEND: [i32; {NUM_COMBOS}] = [\n{}\n];\n\
         \n\
         /// Move-ordering rank per unit of influence (both colours') on the cell.\n\
         pub const ORDER_INFLUENCE: i32 = {};\n",
        list(e0.0),
        list(e1.0),
        list(e0.1),
        list(e1.1),
        table(e0.2, "        "),
        table(e1.2, "        "),
        r(eval[TEMPO_INDEX]),
        table(&eval[THREAT_INDEX..THREAT_INDEX + NUM_THREATS], "    "),
        list(&code_attack),
        list(&code_defend),
        table(&attack, "    "),
        table(&defend, "    "),
        weights::ORDER_INFLUENCE,
    );
    s
}

/// "N game(s) from FILE, FILE…", for the source line of the weights.
fn games_read(games: usize, opts: &TuneOptions) -> String {
    let files: Vec<String> = opts.games.iter().map(|p| p.display().to_string()).collect();
    format!("{games} game(s) from {}", files.join(", "))
}

/// Writes the weights source where the options say.
fn write_weights(opts: &TuneOptions, text: &str, out: &mut dyn Write) -> Result<()> {
    match &opts.out {
        Some(p) => std::fs::write(p, text).with_context(|| format!("writing {}", p.display())),
        None => Ok(out.write_all(text.as_bytes())?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

    fn game(result: Outcome, moves: &[[u8; 2]]) -> GameLine {
        GameLine {
            width: 15,
            height: 15,
            rule: 0,
            result,
            opening: vec![[7, 7], [8, 8]],
            moves: moves.to_vec(),
            termination: None,
        }
    }

    /// Games lost on a fault (here a first move too late) teach nothing about their
    /// positions and are not read; games ended on the board and old records are.
    #[test]
    fn games_lost_on_a_fault_are_left_out() {
        let dir = std::env::temp_dir().join(format!("wuzi-tune-fault-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let line = |term: &str| {
            format!(
                r#"{{"width":15,"height":15,"rule":0,"result":"0-1",{term}"opening":[[7,7],[8,8]],"moves":[[6,7],[9,9]]}}"#
            )
        };
        let text = [
            line(r#""termination":"timeout","#),
            line(r#""termination":"line","#),
            line(""),
        ]
        .join("\n");
        std::fs::write(&path, text).unwrap();
        let mut out = Vec::new();
        assert_eq!(read_games(&path, 0, &mut out).unwrap(), 2);
        assert_eq!(out.len(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replay_labels_each_position_for_the_side_to_move() {
        // Black makes five on row 7; the last position (black has a five point) is decided
        // and left out.
        let g = game(
            Outcome::Win(Color::Black),
            &[[6, 7], [0, 0], [5, 7], [0, 2], [4, 7], [0, 4], [3, 7]],
        );
        let mut out = Vec::new();
        samples_of(&g, 3, &mut out).unwrap();
        assert!(out.len() >= 4 && out.len() < 7, "{}", out.len());
        assert_eq!(out[0].result, 1.0); // black to move after the 2-stone opening
        assert_eq!(out[1].result, 0.0);
        assert_eq!(out[0].pos, "h8i9");
        assert!(out.iter().all(|s| s.game == 3));
    }

    #[test]
    fn bad_records_are_refused_with_their_reason() {
        let mut out = Vec::new();
        let bad = r#"{"width":15,"height":15,"rule":0,"result":"2-0","opening":[],"moves":[]}"#;
        let e = serde_json::from_str::<GameLine>(bad).unwrap_err();
        assert!(e.to_string().contains("unknown result"), "{e}");
        let e = samples_of(&game(Outcome::Draw, &[[7, 7]]), 0, &mut out).unwrap_err();
        assert!(format!("{e:#}").contains("move 3"), "{e:#}");
    }

    /// On positions labelled by a known linear rule, the fit lowers the loss from a wrong
    /// start and moves the weight that matters the right way.
    #[test]
    fn fit_recovers_a_planted_weight() {
        let mut samples = Vec::new();
        let idx = NUM_PATTERNS + 7; // role 0, code OpenThree
        for i in 0..400 {
            let count = (i % 5) as f32;
            // The truth: each such cell is worth 200 at K = 400.
            let p = sigmoid(f64::from(count) * 200.0 / 400.0);
            samples.push(Sample {
                features: vec![(TEMPO_INDEX as u16, 1.0), (idx as u16, count)],
                result: if (i * 7919 % 100) as f64 / 100.0 < p {
                    1.0
                } else {
                    0.0
                },
                eval: 0,
                game: i,
                pos: String::new(),
            });
        }
        let start = vec![0f64; NUM_FEATURES];
        let opts = TuneOptions {
            epochs: 2000,
            rate: 5.0,
            l2: 0.0,
            ..TuneOptions::default()
        };
        let w = fit(&samples, &start, 400.0, &opts);
        assert!(loss(&samples, &w, 400.0) < loss(&samples, &start, 400.0));
        assert!((100.0..350.0).contains(&w[idx]), "{}", w[idx]);
    }

    /// The static fit finds the per-cell weights that reproduce a teacher's values, in the
    /// build's units (the scale), and leaves the tempo and the threat table alone.
    #[test]
    fn static_fit_reproduces_the_teachers_values() {
        let three = NUM_PATTERNS + 7; // role 0, code OpenThree
        let two = role_base(1) + NUM_PATTERNS + 5; // role 1, another code
        let threat = THREAT_INDEX + 3;
        let mut samples = Vec::new();
        for i in 0..300 {
            let (a, b) = ((i % 4) as f32, (i / 4 % 3) as f32);
            // The teacher's units are half the build's: 150·a − 40·b in the build's.
            let value = f64::from(75.0 * a - 20.0 * b);
            let features = vec![
                (TEMPO_INDEX as u16, 1.0),
                (threat as u16, 1.0),
                (three as u16, a),
                (two as u16, -b),
            ];
            let s = Sample {
                features,
                result: 0.5,
                eval: 0,
                game: i,
                pos: String::new(),
            };
            samples.push((s, value));
        }
        // The build's start: the right proportions at the wrong size (the scale is read from
        // them), plus a tempo and a threat entry that must stay.
        let mut start = vec![0f64; NUM_FEATURES];
        start[three] = 60.0;
        start[two] = 16.0;
        start[TEMPO_INDEX] = 30.0;
        start[threat] = 90.0;
        let scale = static_scale(&samples, &start);
        assert!((scale - 0.8).abs() < 0.01, "{scale}");
        // Refit from a start whose proportions are wrong: the values pull them right.
        start[two] = 0.0;
        let opts = TuneOptions {
            epochs: 3000,
            rate: 1.0,
            l2: 0.0,
            ..TuneOptions::default()
        };
        let w = fit_static(&samples, &start, 2.0, &opts);
        assert!((w[three] - 150.0).abs() < 2.0, "{}", w[three]);
        assert!((w[two] - 40.0).abs() < 2.0, "{}", w[two]);
        assert_eq!((w[TEMPO_INDEX], w[threat]), (30.0, 90.0));
        assert!(explained(&samples, &w, 2.0) > 0.999);
        assert!(explained(&samples, &start, 2.0) < 0.99);
    }

    /// With `only_threats` the fit moves the threat entry the results ask for and leaves
    /// the per-cell weights where they were, though the same results would move them too;
    /// in a full fit the pull holds only the per-cell weights.
    #[test]
    fn only_threats_fits_the_threat_table_alone() {
        let code = NUM_PATTERNS + 7; // role 0, code OpenThree
        let threat = THREAT_INDEX + 1; // the side to move can make an open three
        let samples: Vec<Sample> = (0..400)
            .map(|i| {
                let on = i % 2 == 0;
                let mut features = vec![(TEMPO_INDEX as u16, 1.0)];
                if on {
                    features.push((code as u16, 1.0));
                    features.push((threat as u16, 1.0));
                }
                // Positions with the threat win 3 in 4, the others half.
                let win = if on { i % 8 != 0 } else { i % 4 < 2 };
                Sample {
                    features,
                    result: if win { 1.0 } else { 0.0 },
                    eval: 0,
                    game: i,
                    pos: String::new(),
                }
            })
            .collect();
        let start = vec![0f64; NUM_FEATURES];
        let opts = |only_threats| TuneOptions {
            epochs: 1000,
            rate: 5.0,
            l2: 0.0,
            only_threats,
            ..TuneOptions::default()
        };
        let all = fit(&samples, &start, 400.0, &opts(false));
        assert!(all[code] > 50.0, "{}", all[code]);
        let only = fit(&samples, &start, 400.0, &opts(true));
        assert_eq!(only[code], 0.0);
        assert!(only[threat] > 200.0, "{}", only[threat]);
        assert!(loss(&samples, &only, 400.0) < loss(&samples, &start, 400.0));
        // A full fit's pull holds the per-cell weight and not the table entry.
        let pulled = fit(
            &samples,
            &start,
            400.0,
            &TuneOptions {
                l2: 1e-3,
                ..opts(false)
            },
        );
        assert!(pulled[code].abs() < 5.0, "{}", pulled[code]);
        assert!(pulled[threat] > 200.0, "{}", pulled[threat]);
        // Holding the table: the same results move the per-cell weight instead.
        let held = fit(
            &samples,
            &start,
            400.0,
            &TuneOptions {
                hold_threats: true,
                ..opts(false)
            },
        );
        assert_eq!(held[threat], 0.0);
        assert!(held[code] > 200.0, "{}", held[code]);
    }

    /// Teacher scores move the scored targets towards the teacher's verdict by the weight
    /// given; unscored positions keep their result; the scale is fitted to the results.
    #[test]
    fn teacher_scores_blend_into_the_targets() {
        let sample = |pos: &str, result: f32| Sample {
            features: Vec::new(),
            result,
            eval: 0,
            game: 0,
            pos: pos.to_string(),
        };
        let mut samples: Vec<Sample> = (0..40)
            .map(|i| sample(&format!("p{i}"), if i % 2 == 0 { 1.0 } else { 0.0 }))
            .collect();
        samples.push(sample("unscored", 1.0));
        // The teacher agrees with each result, a little unsure.
        let scores: std::collections::HashMap<String, i32> = (0..40)
            .map(|i| (format!("p{i}"), if i % 2 == 0 { 300 } else { -300 }))
            .collect();
        let t = blend_teacher(&mut samples, &scores, 0.5);
        assert_eq!(t.scored, 40);
        // Certain teacher and matching results: the scale shrinks towards the low bound.
        assert!(t.scale < 50.0, "{}", t.scale);
        assert!(samples[0].result > 0.99 && samples[1].result < 0.01);
        assert_eq!(samples[40].result, 1.0);
        // A sure teacher that contradicts a result pulls its target by the weight.
        let mut more: Vec<Sample> = (0..40)
            .map(|i| sample(&format!("p{i}"), if i % 2 == 0 { 1.0 } else { 0.0 }))
            .collect();
        more.push(sample("x", 0.0));
        let mut contra = scores.clone();
        contra.insert("x".to_string(), 20_000);
        blend_teacher(&mut more, &contra, 0.25);
        assert!((more[40].result - 0.25).abs() < 1e-3, "{}", more[40].result);
    }

    /// Only the positions the teacher scored inside the window stay.
    #[test]
    fn teacher_window_drops_unscored_and_decided_positions() {
        let sample = |pos: &str| Sample {
            features: Vec::new(),
            result: 1.0,
            eval: 0,
            game: 0,
            pos: pos.to_string(),
        };
        let samples = ["quiet", "won", "lost", "unscored", "edge"]
            .map(sample)
            .to_vec();
        let scores: std::collections::HashMap<String, i32> = [
            ("quiet", 120),
            ("won", 20_000),
            ("lost", -20_000),
            ("edge", -3000),
        ]
        .map(|(p, s)| (p.to_string(), s))
        .into();
        let kept: Vec<String> = keep_teacher_within(samples, &scores, 3000)
            .into_iter()
            .map(|s| s.pos)
            .collect();
        assert_eq!(kept, ["quiet", "edge"]);
    }

    #[test]
    fn teacher_files_are_read_and_bad_lines_refused() {
        let dir = std::env::temp_dir().join(format!("wuzi-teacher-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "# pos score\nh8i9 -35\n\nh8i9g7 20000\n").unwrap();
        let scores = read_teacher(&good).unwrap();
        assert_eq!(scores.get("h8i9"), Some(&-35));
        assert_eq!(scores.get("h8i9g7"), Some(&20_000));
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "h8i9 x\n").unwrap();
        let e = read_teacher(&bad).unwrap_err();
        assert!(format!("{e:#}").contains("bad.txt:1"), "{e:#}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_written_source_round_trips_the_build_weights() {
        let text = weights_source(&current_weights(), weights::EVAL_SOURCE);
        let built = include_str!("game/gomoku/weights.rs");
        assert_eq!(text, built);
    }
}
