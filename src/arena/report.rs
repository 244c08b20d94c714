//! `wuzi-arena report`: one self-contained HTML page of a run (or of its shards, as `merge`
//! takes them): the table as the arena prints it with scores per colour, the SPRT's
//! log-likelihood ratio and each pair's Elo as games accumulate, time use per engine,
//! faults linked to their games, results per opening, and every game replayable with what
//! the engines reported while thinking.
//!
//! The page opens from disk with no network: styles and the replay script are inlined, the
//! plots are SVG drawn here by `plotters`, the page is a `minijinja` template (escaping
//! every engine-provided string), and the games are one JSON block the script reads.
//! [`write()`] replaces the file atomically (a temporary file, then a rename), so a browser
//! reloading the page of a running tournament (`--report FILE`) never sees half of one.

use super::merge::{self, MergeError, ShardDir};
use super::record::JsonLine;
use super::referee::{GameKind, Termination};
use super::stats::{self, Sprt, Wdl};
use super::tournament::Standings;
use crate::game::{Color, Outcome};
use minijinja::value::Serde;
use plotters::prelude::*;
use plotters::style::Color as _;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

const TEMPLATE: &str = include_str!("report.html");
const SCRIPT: &str = include_str!("report.js");

/// Why a page could not be made.
#[derive(Debug)]
pub enum ReportError {
    Merge(MergeError),
    /// A journal line that is not a game record.
    Line {
        id: usize,
        why: String,
    },
    Template(String),
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Merge(e) => write!(f, "{e}"),
            ReportError::Line { id, why } => write!(f, "game {id}: {why}"),
            ReportError::Template(e) => write!(f, "report template: {e}"),
            ReportError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ReportError {}

/// One row of the results table: the arena's numbers, and the score with each colour.
#[derive(Serialize)]
struct Row {
    label: String,
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    score: String,
    elo: String,
    los: String,
    as_black: String,
    as_white: String,
}

/// A game's line in the page's game list and its replay data.
#[derive(Serialize)]
struct GameData<'a> {
    id: usize,
    black: &'a str,
    white: &'a str,
    result: &'static str,
    termination: &'static str,
    detail: &'a str,
    /// Opening stones then moves, flattened `x, y, x, y, …`.
    opening: Vec<u8>,
    moves: Vec<u8>,
    ms: &'a [u64],
    /// Per move `[depth, score, pv]` (empty strings for what was not said), or nothing.
    thinking: Option<Vec<[&'a str; 3]>>,
    captures: Option<[u8; 2]>,
}

#[derive(Serialize)]
struct Fault {
    id: usize,
    kind: &'static str,
    engine: String,
    detail: String,
}

#[derive(Serialize)]
struct TimeUse {
    engine: String,
    moves: usize,
    median_ms: u64,
    mean_ms: u64,
    slowest_ms: u64,
    slowest_game: usize,
    slowest_move: usize,
    /// Mean and largest share of the match clock one game used (when there is one).
    clock_mean: String,
    clock_max: String,
}

#[derive(Serialize)]
struct OpeningRow {
    opening: String,
    /// Per engine pair: the first engine's result as black and as white (`1`, `0`, `½`,
    /// several when played more than once), with the games.
    cells: Vec<OpeningCell>,
}

#[derive(Serialize)]
struct OpeningCell {
    as_black: String,
    as_white: String,
    /// The first engine lost every game of this opening (with each colour it played).
    lost_both: bool,
    won_both: bool,
    games: Vec<usize>,
}

/// The page of the run in `dirs` (one run's `--out` directory, or the shards of one run).
pub fn render(dirs: &[PathBuf]) -> Result<String, ReportError> {
    let shards = dirs
        .iter()
        .map(|d| ShardDir::open(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ReportError::Merge)?;
    merge::check_one_run(&shards).map_err(ReportError::Merge)?;
    let o = merge::options(&shards).map_err(ReportError::Merge)?;
    let st = merge::standings(&o, &shards);
    let mut lines: Vec<(usize, Option<u64>, JsonLine)> = Vec::new();
    for e in merge::entries(&shards) {
        let g: JsonLine = serde_json::from_str(&e.line).map_err(|err| ReportError::Line {
            id: e.result.id,
            why: err.to_string(),
        })?;
        lines.push((e.result.id, e.ended_ms, g));
    }
    // in the order the games ended (ids for records without times), as the run saw them
    let mut by_end: Vec<&JsonLine> = lines.iter().map(|(_, _, g)| g).collect();
    by_end.sort_by_key(|g| (g.ended.unwrap_or(0), g.id));
    let gen = Page {
        st: &st,
        games: &by_end,
        sprt: o.sprt,
        turn_ms: o.time.turn_ms,
        match_ms: o.time.match_ms,
    };
    let games: Vec<GameData> = lines.iter().map(|(_, _, g)| game_data(g)).collect();
    let games_json = serde_json::to_string(&games)
        .expect("game data serialises")
        // a `</script>` inside an engine's text must not end the block
        .replace("</", "<\\/");
    let kind = match o.setup.kind {
        GameKind::Gomoku { rule } => format!("gomoku (rule {rule})"),
        GameKind::Connect4 { k } => format!("connect4 (k {k})"),
        GameKind::Mnk { k } => format!("mnk (k {k})"),
        GameKind::Pente => "pente".into(),
        GameKind::Ninuki => "ninuki".into(),
    };
    let board_kind = match o.setup.kind {
        GameKind::Gomoku { .. } => "gomoku",
        GameKind::Connect4 { .. } => "connect4",
        GameKind::Mnk { .. } => "mnk",
        GameKind::Pente | GameKind::Ninuki => "capture",
    };
    let mut env = minijinja::Environment::new();
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| ReportError::Template(e.to_string()))?;
    let tpl = env
        .get_template("report.html")
        .map_err(|e| ReportError::Template(e.to_string()))?;
    let ctx = minijinja::context! {
        title => format!("wuzi-arena: {}", st.names.join(" vs ")),
        game => kind,
        board_kind => board_kind,
        width => o.setup.width,
        height => o.setup.height,
        games_done => st.games,
        planned => st.planned,
        time_control => format!("{} ms a move, {} ms a game", o.time.turn_ms, o.time.match_ms),
        rows => Serde(gen.rows()),
        table_text => st.table(),
        sprt_text => o.sprt.map(|t| format!("SPRT elo0 {} elo1 {} alpha {} beta {}", t.elo0, t.elo1, t.alpha, t.beta)),
        sprt_svg => gen.sprt_plot(),
        elo_svg => gen.elo_plot(),
        time_svgs => Serde(gen.time_plots()),
        time_use => Serde(gen.time_use()),
        faults => Serde(gen.faults()),
        pair_names => Serde(gen.pair_names()),
        openings => Serde(gen.openings()),
        games_json => games_json,
        script => SCRIPT,
    };
    tpl.render(ctx)
        .map_err(|e| ReportError::Template(e.to_string()))
}

/// Writes the page of `dirs` to `out` atomically.
pub fn write(dirs: &[PathBuf], out: &Path) -> Result<(), ReportError> {
    let html = render(dirs)?;
    let name = out
        .file_name()
        .map_or("report.html".into(), |n| n.to_string_lossy().into_owned());
    let part = out.with_file_name(format!(".{name}.part"));
    std::fs::write(&part, html)
        .and_then(|()| std::fs::rename(&part, out))
        .map_err(|e| ReportError::Io(out.to_path_buf(), e))
}

fn flat(stones: &[[u8; 2]]) -> Vec<u8> {
    stones.iter().flatten().copied().collect()
}

fn game_data(g: &JsonLine) -> GameData<'_> {
    let thinking = g.thinking.as_ref().map(|t| {
        t.iter()
            .map(|m| match m {
                None => ["", "", ""],
                Some(m) => [
                    m.depth.as_deref().unwrap_or(""),
                    m.score.as_deref().unwrap_or(""),
                    m.pv.as_deref().unwrap_or(""),
                ],
            })
            .collect()
    });
    GameData {
        id: g.id,
        black: &g.black,
        white: &g.white,
        result: result_name(g.result),
        termination: g.termination.name(),
        detail: &g.detail,
        opening: flat(&g.opening),
        moves: flat(&g.moves),
        ms: &g.ms,
        thinking,
        captures: g.captures,
    }
}

fn result_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Color::Black) => "1-0",
        Outcome::Win(Color::White) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// `engine`'s result in game `g`: a win, a loss or a draw, from its side.
fn wdl_of(g: &JsonLine, engine: usize) -> Wdl {
    let mut w = Wdl::default();
    match g.result {
        Outcome::Draw => w.draws = 1,
        Outcome::Win(c) => {
            let winner = if c == Color::Black {
                g.black_index
            } else {
                g.white_index
            };
            if winner == engine {
                w.wins = 1
            } else {
                w.losses = 1
            }
        }
    }
    w
}

fn score_text(w: Wdl) -> String {
    match w.score() {
        None => "-".into(),
        Some(s) => format!("{:.1}% ({}-{}-{})", 100.0 * s, w.wins, w.losses, w.draws),
    }
}

/// Keeps at most `n` points of a series, evenly spaced, always the last.
fn thin<T: Copy>(points: &[T], n: usize) -> Vec<T> {
    if points.len() <= n {
        return points.to_vec();
    }
    let step = points.len() as f64 / n as f64;
    let mut out: Vec<T> = (0..n).map(|i| points[(i as f64 * step) as usize]).collect();
    out.push(*points.last().expect("not empty"));
    out
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// One line of a plot: its name, its points, and an optional band (x, low, high).
type Series = (String, Vec<(f64, f64)>, Option<Vec<(f64, f64, f64)>>);

/// A line plot: each series a line (with an optional band drawn as two thin lines), and
/// horizontal reference lines.
struct Plot<'a> {
    caption: &'a str,
    x_desc: &'a str,
    y_desc: &'a str,
    series: Vec<Series>,
    hlines: Vec<(f64, String)>,
}

impl Plot<'_> {
    fn svg(&self) -> String {
        let mut buf = String::new();
        let all = self.series.iter().flat_map(|s| s.1.iter().copied()).chain(
            self.series.iter().flat_map(|s| {
                s.2.iter()
                    .flatten()
                    .flat_map(|&(x, lo, hi)| [(x, lo), (x, hi)])
            }),
        );
        let (mut x1, mut y0, mut y1) = (1.0f64, 0.0f64, 0.0f64);
        for (x, y) in all.filter(|p| p.1.is_finite()) {
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        for (y, _) in &self.hlines {
            y0 = y0.min(*y);
            y1 = y1.max(*y);
        }
        let pad = ((y1 - y0) * 0.08).max(1.0);
        {
            let root = SVGBackend::with_string(&mut buf, (640, 300)).into_drawing_area();
            let _ = root.fill(&WHITE);
            let chart = ChartBuilder::on(&root)
                .caption(self.caption, ("sans-serif", 16))
                .margin(8)
                .x_label_area_size(32)
                .y_label_area_size(48)
                .build_cartesian_2d(0.0..x1, (y0 - pad)..(y1 + pad));
            let Ok(mut chart) = chart else {
                return String::new();
            };
            let _ = chart
                .configure_mesh()
                .x_desc(self.x_desc)
                .y_desc(self.y_desc)
                .light_line_style(RGBColor(238, 238, 238))
                .draw();
            for (y, label) in &self.hlines {
                let style = ShapeStyle::from(&RGBColor(120, 120, 120)).stroke_width(1);
                if let Ok(a) = chart.draw_series(LineSeries::new(vec![(0.0, *y), (x1, *y)], style))
                {
                    a.label(label.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
                }
            }
            for (i, (name, line, band)) in self.series.iter().enumerate() {
                let c = COLOURS[i % COLOURS.len()];
                if let Some(band) = band {
                    let faint = ShapeStyle::from(&c.mix(0.35)).stroke_width(1);
                    for pick in [1, 2] {
                        let pts = band
                            .iter()
                            .filter(|p| p.1.is_finite() && p.2.is_finite())
                            .map(|p| (p.0, if pick == 1 { p.1 } else { p.2 }));
                        let _ = chart.draw_series(LineSeries::new(pts, faint));
                    }
                }
                let style = ShapeStyle::from(&c).stroke_width(2);
                if let Ok(a) = chart.draw_series(LineSeries::new(
                    line.iter().copied().filter(|p| p.1.is_finite()),
                    style,
                )) {
                    a.label(name.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style));
                }
            }
            let _ = chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperLeft)
                .draw();
            let _ = root.present();
        }
        buf
    }
}

/// The run's games and standings, for the parts of the page computed from them.
struct Page<'a> {
    st: &'a Standings,
    /// In the order they ended.
    games: &'a [&'a JsonLine],
    sprt: Option<Sprt>,
    turn_ms: u64,
    match_ms: u64,
}

impl Page<'_> {
    /// `engine`'s games (against `opp`, or anyone) split by its colour.
    fn by_colour(&self, engine: usize, opp: Option<usize>) -> (Wdl, Wdl) {
        let (mut b, mut w) = (Wdl::default(), Wdl::default());
        for g in self.games {
            let other = if g.black_index == engine {
                g.white_index
            } else if g.white_index == engine {
                g.black_index
            } else {
                continue;
            };
            if opp.is_some_and(|o| o != other) {
                continue;
            }
            let r = wdl_of(g, engine);
            if g.black_index == engine {
                b.add(r)
            } else {
                w.add(r)
            }
        }
        (b, w)
    }

    fn rows(&self) -> Vec<Row> {
        let pairs: Vec<(usize, Option<usize>)> = self
            .st
            .pairs
            .keys()
            .map(|&(a, b)| (a, Some(b)))
            .chain((0..self.st.names.len()).map(|i| (i, None)))
            .collect();
        self.st
            .rows()
            .into_iter()
            .zip(pairs)
            .map(|((label, wdl), (me, opp))| {
                let (b, w) = self.by_colour(me, opp);
                Row {
                    label,
                    games: wdl.games(),
                    wins: wdl.wins,
                    losses: wdl.losses,
                    draws: wdl.draws,
                    score: wdl
                        .score()
                        .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x)),
                    elo: stats::fmt_estimate(stats::elo(wdl)),
                    los: format!("{:.1}%", 100.0 * stats::los(wdl)),
                    as_black: score_text(b),
                    as_white: score_text(w),
                }
            })
            .collect()
    }

    fn pair_names(&self) -> Vec<String> {
        self.st
            .pairs
            .keys()
            .map(|&(a, b)| format!("{} vs {}", self.st.names[a], self.st.names[b]))
            .collect()
    }

    /// For an SPRT run, the LLR of engine 0 against engine 1 after each of their games.
    fn sprt_plot(&self) -> Option<String> {
        let t = self.sprt?;
        let mut wdl = Wdl::default();
        let mut points = vec![(0.0, 0.0)];
        for g in self.games {
            if [g.black_index, g.white_index] == [0, 1] || [g.black_index, g.white_index] == [1, 0]
            {
                wdl.add(wdl_of(g, 0));
                points.push((wdl.games() as f64, t.llr(wdl)));
            }
        }
        Some(
            Plot {
                caption: "SPRT log-likelihood ratio",
                x_desc: "games",
                y_desc: "LLR",
                series: vec![(
                    format!("{} vs {}", self.st.names[0], self.st.names[1]),
                    thin(&points, 800),
                    None,
                )],
                hlines: vec![
                    (t.upper_bound(), format!("H1 bound {:.2}", t.upper_bound())),
                    (t.lower_bound(), format!("H0 bound {:.2}", t.lower_bound())),
                ],
            }
            .svg(),
        )
    }

    /// Each pair's Elo estimate with its 95% interval after each of its games.
    fn elo_plot(&self) -> String {
        let mut series = Vec::new();
        for &(a, b) in self.st.pairs.keys() {
            let mut wdl = Wdl::default();
            let mut line = Vec::new();
            let mut band = Vec::new();
            for g in self.games {
                let pair = (
                    g.black_index.min(g.white_index),
                    g.black_index.max(g.white_index),
                );
                if pair != (a, b) {
                    continue;
                }
                wdl.add(wdl_of(g, a));
                if let Some(e) = stats::elo(wdl) {
                    let x = wdl.games() as f64;
                    // all wins or all losses: an unbounded estimate has no point to draw
                    let clamp = |v: f64| v.clamp(-800.0, 800.0);
                    line.push((x, clamp(e.elo)));
                    band.push((x, clamp(e.low), clamp(e.high)));
                }
            }
            series.push((
                format!("{} vs {}", self.st.names[a], self.st.names[b]),
                thin(&line, 800),
                Some(thin(&band, 800)),
            ));
        }
        Plot {
            caption: "Elo (first engine's view) with its 95% interval",
            x_desc: "games of the pair",
            y_desc: "Elo",
            series,
            hlines: vec![(0.0, "0".into())],
        }
        .svg()
    }

    /// Each engine's moves, as (game, move number, ms).
    fn moves_of(&self, engine: usize) -> Vec<(usize, usize, u64)> {
        let mut out = Vec::new();
        for g in self.games {
            // the first move after the opening is the side to move's
            let first_black = g.opening.len() % 2 == 0;
            for (i, &ms) in g.ms.iter().enumerate() {
                let black = (i % 2 == 0) == first_black;
                let who = if black { g.black_index } else { g.white_index };
                if who == engine {
                    out.push((g.id, g.opening.len() + i + 1, ms));
                }
            }
        }
        out
    }

    fn time_use(&self) -> Vec<TimeUse> {
        (0..self.st.names.len())
            .map(|e| {
                let moves = self.moves_of(e);
                let mut ms: Vec<u64> = moves.iter().map(|m| m.2).collect();
                ms.sort_unstable();
                let slowest = moves
                    .iter()
                    .max_by_key(|m| m.2)
                    .copied()
                    .unwrap_or((0, 0, 0));
                let mut per_game: BTreeMap<usize, u64> = BTreeMap::new();
                for (g, _, t) in &moves {
                    *per_game.entry(*g).or_default() += t;
                }
                let share = |t: u64| 100.0 * t as f64 / self.match_ms.max(1) as f64;
                let (clock_mean, clock_max) = if self.match_ms == 0 || per_game.is_empty() {
                    ("-".into(), "-".into())
                } else {
                    let sum: u64 = per_game.values().sum();
                    let mean = sum as f64 / per_game.len() as f64;
                    let max = per_game.values().copied().max().unwrap_or(0);
                    (
                        format!("{:.1}%", share(mean as u64)),
                        format!("{:.1}%", share(max)),
                    )
                };
                TimeUse {
                    engine: self.st.names[e].clone(),
                    moves: ms.len(),
                    median_ms: ms.get(ms.len() / 2).copied().unwrap_or(0),
                    mean_ms: if ms.is_empty() {
                        0
                    } else {
                        ms.iter().sum::<u64>() / ms.len() as u64
                    },
                    slowest_ms: slowest.2,
                    slowest_game: slowest.0,
                    slowest_move: slowest.1,
                    clock_mean,
                    clock_max,
                }
            })
            .collect()
    }

    /// Per engine, a histogram of its move times against the move limit.
    fn time_plots(&self) -> Vec<String> {
        (0..self.st.names.len())
            .map(|e| {
                let ms: Vec<u64> = self.moves_of(e).iter().map(|m| m.2).collect();
                let top = ms.iter().copied().max().unwrap_or(0);
                let limit = self.turn_ms;
                let span = if limit > 0 {
                    limit.max(top)
                } else {
                    top.max(1)
                };
                const BINS: usize = 25;
                let width = (span as f64 / BINS as f64).max(1.0);
                let mut counts = [0u32; BINS];
                for &t in &ms {
                    counts[((t as f64 / width) as usize).min(BINS - 1)] += 1;
                }
                let peak = counts.iter().copied().max().unwrap_or(0).max(1);
                let mut buf = String::new();
                {
                    let root = SVGBackend::with_string(&mut buf, (420, 220)).into_drawing_area();
                    let _ = root.fill(&WHITE);
                    let caption = format!("{}: move times (ms)", self.st.names[e]);
                    let Ok(mut chart) = ChartBuilder::on(&root)
                        .caption(caption, ("sans-serif", 14))
                        .margin(6)
                        .x_label_area_size(28)
                        .y_label_area_size(40)
                        .build_cartesian_2d(0.0..(span as f64 * 1.02), 0u32..(peak + peak / 8 + 1))
                    else {
                        return String::new();
                    };
                    let _ = chart
                        .configure_mesh()
                        .x_desc("ms")
                        .y_desc("moves")
                        .light_line_style(RGBColor(238, 238, 238))
                        .draw();
                    let c = COLOURS[e % COLOURS.len()];
                    let _ = chart.draw_series(counts.iter().enumerate().map(|(i, &n)| {
                        let x0 = i as f64 * width;
                        Rectangle::new([(x0, 0), (x0 + width * 0.9, n)], c.filled())
                    }));
                    if limit > 0 {
                        let red = ShapeStyle::from(&RGBColor(200, 0, 0)).stroke_width(2);
                        if let Ok(a) = chart.draw_series(LineSeries::new(
                            vec![(limit as f64, 0), (limit as f64, peak + peak / 8)],
                            red,
                        )) {
                            a.label(format!("limit {limit} ms")).legend(move |(x, y)| {
                                PathElement::new(vec![(x, y), (x + 16, y)], red)
                            });
                        }
                        let _ = chart
                            .configure_series_labels()
                            .background_style(WHITE.mix(0.85))
                            .position(SeriesLabelPosition::UpperRight)
                            .draw();
                    }
                    let _ = root.present();
                }
                buf
            })
            .collect()
    }

    fn faults(&self) -> Vec<Fault> {
        let mut out: Vec<Fault> = self
            .games
            .iter()
            .filter_map(|g| match g.termination {
                Termination::Fault(f) => Some(Fault {
                    id: g.id,
                    kind: f.name(),
                    engine: match g.result {
                        Outcome::Win(Color::Black) => g.white.clone(),
                        Outcome::Win(Color::White) => g.black.clone(),
                        Outcome::Draw => format!("{} and {}", g.black, g.white),
                    },
                    detail: g.detail.clone(),
                }),
                _ => None,
            })
            .collect();
        out.sort_by(|a, b| (a.kind, a.id).cmp(&(b.kind, b.id)));
        out
    }

    /// Per opening, each pair's first engine's results with black and with white.
    fn openings(&self) -> Vec<OpeningRow> {
        let pairs: Vec<(usize, usize)> = self.st.pairs.keys().copied().collect();
        let mut by_opening: BTreeMap<String, Vec<&JsonLine>> = BTreeMap::new();
        for g in self.games {
            // a negotiated (swap2) opening is the one the engines agreed on: the same key
            let key = g
                .opening
                .iter()
                .map(|[x, y]| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" ");
            by_opening.entry(key).or_default().push(g);
        }
        by_opening
            .into_iter()
            .map(|(opening, games)| {
                let cells = pairs
                    .iter()
                    .map(|&(a, b)| {
                        let mut cell = OpeningCell {
                            as_black: String::new(),
                            as_white: String::new(),
                            lost_both: false,
                            won_both: false,
                            games: Vec::new(),
                        };
                        let (mut bl, mut wh) = (Wdl::default(), Wdl::default());
                        for g in &games {
                            let mine = [g.black_index, g.white_index];
                            if mine != [a, b] && mine != [b, a] {
                                continue;
                            }
                            let r = wdl_of(g, a);
                            let mark = if r.wins == 1 {
                                "1"
                            } else if r.losses == 1 {
                                "0"
                            } else {
                                "½"
                            };
                            if g.black_index == a {
                                bl.add(r);
                                cell.as_black.push_str(mark);
                            } else {
                                wh.add(r);
                                cell.as_white.push_str(mark);
                            }
                            cell.games.push(g.id);
                        }
                        let all = |w: Wdl, f: fn(&Wdl) -> u32| w.games() > 0 && f(&w) == w.games();
                        cell.lost_both = all(bl, |w| w.losses) && all(wh, |w| w.losses);
                        cell.won_both = all(bl, |w| w.wins) && all(wh, |w| w.wins);
                        cell.games.sort_unstable();
                        cell
                    })
                    .collect();
                OpeningRow {
                    opening: if opening.is_empty() {
                        "(empty board)".into()
                    } else {
                        opening
                    },
                    cells,
                }
            })
            .collect()
    }
}
