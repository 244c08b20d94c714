//! The `wuzi-arena` command line, parsed into plain data without touching the system, so
//! every option is unit-tested and the binary only wires the result to the referee.
//!
//! Engines are written the way cutechess-cli writes them: `--engine cmd=PATH [arg=A]…
//! [dir=DIR] [name=NAME] [info=KEY=VALUE]…`, the `key=value` tokens running until the next
//! `--option`. Everything else is a flag with one value, or a switch.

use super::balance::BalanceSpec;
use super::engine::EngineSpec;
use super::grid::{parse_param, GridParam};
use super::referee::{GameKind, GameSetup, TimeControl};
use super::shard::Shard;
use super::stats::Sprt;
use super::swap2::OpeningRule;
use super::tournament::Format;
use std::fmt;
use std::path::PathBuf;

/// A command line the arena cannot use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

/// What the binary is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play a tournament (or a grid when grid axes are given).
    Run(Box<RunOptions>),
    /// Rewrite an opening file in another format for a board size.
    ConvertOpenings {
        input: PathBuf,
        width: usize,
        height: usize,
        to_pos: bool,
    },
    /// Generate near-level openings with the engine's evaluation.
    GenOpenings {
        setup: GameSetup,
        spec: BalanceSpec,
        to_pos: bool,
    },
    /// Combine shard directories into one report.
    Merge(MergeOptions),
    /// Summarise shards from their result files.
    Status {
        dirs: Vec<PathBuf>,
    },
    /// The top-level usage.
    Help,
    /// A subcommand's usage.
    SubHelp(&'static str),
    Version,
}

/// Options of `merge`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeOptions {
    pub dirs: Vec<PathBuf>,
    /// Where the merged records go (nothing is written without it).
    pub out: Option<PathBuf>,
    /// A grid's CSV file (default: stdout).
    pub csv: Option<PathBuf>,
    /// Merge what is there instead of refusing missing shards or games.
    pub partial: bool,
}

/// Options of a tournament or grid run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub setup: GameSetup,
    pub time: TimeControl,
    pub openings: Option<PathBuf>,
    pub rounds: usize,
    pub max_games: Option<usize>,
    pub random_symmetry: bool,
    pub seed: u64,
    pub concurrency: usize,
    pub reuse: bool,
    pub sprt: Option<Sprt>,
    pub out_dir: Option<PathBuf>,
    pub grid: Vec<GridParam>,
    pub csv: Option<PathBuf>,
    /// Print only the final table (no progress line).
    pub quiet: bool,
    /// The slice of the schedule this run plays.
    pub shard: Shard,
    /// Continue the run in `out_dir`, keeping its finished games.
    pub resume: bool,
    /// The arguments as given, without those that only say where and how fast this machine
    /// runs its part (`--out`, `--concurrency`, `--quiet`, `--csv`, `--shard`, `--resume`):
    /// what the run manifest records so `merge` and `--resume` can compare runs.
    pub schedule_args: Vec<String>,
}

/// Options that say where and how fast one machine plays its part, not which games it
/// plays or how: they may differ between shards. The flag, and whether it takes a value.
const LOCAL_OPTIONS: [(&str, bool); 6] = [
    ("--out", true),
    ("--concurrency", true),
    ("--csv", true),
    ("--shard", true),
    ("--quiet", false),
    ("--resume", false),
];

pub const USAGE: &str = "\
wuzi-arena: plays pbrain engines against each other like a Gomocup manager.

usage:
  wuzi-arena [options] --engine cmd=PATH [arg=A]... [dir=DIR] [name=N] [info=K=V]... --engine ...
  wuzi-arena convert-openings FILE [--size N | --width W --height H] [--to pos|offset]
  wuzi-arena gen-openings [--rule R --size N …] [--count N] [--stones MIN-MAX] [--radius R]
             [--max-eval E] [--tries N] [--seed S] [--to pos|offset]
  wuzi-arena merge DIR... [--out DIR] [--csv FILE] [--partial]
  wuzi-arena status DIR...
  wuzi-arena --help | --version

subcommands (each answers --help):
  convert-openings        rewrite an opening file for a board size (pos or offset lines)
  gen-openings            generate near-level openings with the engine's evaluation
  merge                   combine the --out directories of a sharded run into one report
  status                  summarise the shards of a run from their result files

engines and pairing:
  --engine ...            an engine (at least two; one with --grid); info=seed={seed}
                          sends each game its own seed from the schedule
  --gauntlet              first engine against each other one (default: round robin)
  --reuse                 keep engine processes between games (START again)
  --concurrency N         games in parallel (default 1)
game:
  --game gomoku|connect4|mnk|pente|ninuki   (default gomoku)
  --rule 0|1|4|8|9        gomoku rule: freestyle, exactly five, renju, caro, caro exact-five
  --size N | --width W --height H   board (default 15; pente, ninuki 19; connect4 7x6; mnk 3x3)
  --k N                   line length for mnk / connect4
  --draw-after N          draw once N stones are on the board
openings:
  --openings FILE         offset (x,y, x,y relative to the centre) or pos (h8i9) lines
  --opening-rule none|swap2   swap2: the engines negotiate opening and colours with
                          SWAP2BOARD (gomoku; each pair plays twice, each engine proposing once)
  --symmetry              random board symmetry per opening (same for both colours)
  --rounds N              times each opening is played per pair, both colours (default 1)
  --games N               stop after N games (default: the whole schedule)
  --seed N                seed for the symmetries and the games' seeds (default 1)
time (ms):
  --timeout-turn MS       per move (default 5000; 0 = none)
  --timeout-match MS      per game and side (default 120000; 0 = none)
  --tolerance MS          added to every deadline (default 1000)
  --start-timeout MS      for START to answer OK (default 5000)
  --grace MS              between END and kill (default 500)
  --max-memory BYTES      sent as INFO max_memory (default 367001600)
stopping and output:
  --sprt ELO0,ELO1,ALPHA,BETA   stop engine 1 vs engine 2 once decided
  --out DIR               games.jsonl (a line as each game ends), games/*.psq and *.sgf,
                          logs/*.stderr.log, manifest.txt (the options, for merge/resume)
  --quiet                 no progress line
many machines:
  --shard I/N             play only the I-th of N disjoint slices of the schedule (needs
                          --out); `wuzi-arena merge` combines the N directories
  --resume                keep the finished games in --out's games.jsonl, play the rest
grid:
  --grid NAME=V1,V2,...   an axis (repeat for more); {NAME} in arg= is replaced, else INFO NAME V
  --csv FILE              where the grid results go (default: stdout)
  -h, --help              this help
  -V, --version           the version
";

pub const CONVERT_USAGE: &str = "\
wuzi-arena convert-openings: rewrites an opening file for a board size; openings that do
not fit become # comment lines naming their source line.

usage: wuzi-arena convert-openings FILE [--size N | --width W --height H] [--to pos|offset]

  FILE                    offset (x,y, x,y relative to the centre) or pos (h8i9) lines
  --size N                square board (default 15)
  --width W --height H    rectangular board
  --to pos|offset         output format (default pos)
  -h, --help              this help
";

pub const GEN_USAGE: &str = "\
wuzi-arena gen-openings: generates near-level openings: random stones near the centre,
kept when the static evaluation is small, one per symmetry class.

usage: wuzi-arena gen-openings [options]

  --game gomoku|connect4|mnk   (default gomoku)
  --rule 0|1|4|8|9        gomoku rule (default 0)
  --size N | --width W --height H   board (default 15)
  --k N                   line length for mnk / connect4
  --count N               openings wanted (default 100)
  --stones MIN-MAX        stones per opening (default 3-5)
  --radius R              at most R cells from the centre (default 3)
  --max-eval E            |static evaluation| bound (default 30)
  --tries N               positions tried at most (default 1000000)
  --seed S                generator seed (default 1)
  --to pos|offset         output format (default pos)
  -h, --help              this help
";

pub const MERGE_USAGE: &str = "\
wuzi-arena merge: combines the --out directories of the shards of one run (wuzi-arena
--shard I/N --out DIR) into the report one machine would have written: the same table,
Elo, SPRT state and fault counts, and with --out the same games.jsonl and records.
Shards run with different options are refused, naming the option.

usage: wuzi-arena merge DIR... [--out DIR] [--csv FILE] [--partial]

  DIR...                  the shard directories, all N of them
  --out DIR               also write the merged games.jsonl, games/, logs/ and manifest
  --csv FILE              where a grid's results go (default: stdout)
  --partial               merge what is there: missing shards and games are listed on
                          stderr instead of being an error
  -h, --help              this help
";

pub const STATUS_USAGE: &str = "\
wuzi-arena status: summarises the shards of a run from their result files (they may be
running): games done per shard with the time since its last result and an ETA, the
total, and the table of the results so far.

usage: wuzi-arena status DIR...

  DIR...                  shard directories (wuzi-arena --shard I/N --out DIR)
  -h, --help              this help
";

/// The usage to print after an error in `args`: the subcommand's, or the top level's.
pub fn usage_for(args: &[String]) -> &'static str {
    match args.first().map(String::as_str) {
        Some("convert-openings") => CONVERT_USAGE,
        Some("gen-openings") => GEN_USAGE,
        Some("merge") => MERGE_USAGE,
        Some("status") => STATUS_USAGE,
        _ => USAGE,
    }
}

/// The usage lines of a help text (from `usage:` to the next blank line), printed after a
/// command-line error so the error stays visible.
pub fn synopsis(usage: &str) -> &str {
    let start = usage.find("usage:").unwrap_or(0);
    let rest = &usage[start..];
    rest.find("\n\n").map_or(rest, |end| &rest[..=end])
}

fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, CliError> {
    v.parse()
        .map_err(|_| CliError(format!("{flag}: {v:?} is not a valid number")))
}

/// Parses `cmd=… arg=… dir=… name=… info=K=V` tokens into an engine.
pub fn parse_engine(tokens: &[String]) -> Result<EngineSpec, CliError> {
    let mut spec: Option<EngineSpec> = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut name = None;
    let mut info = Vec::new();
    for t in tokens {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| CliError(format!("--engine: expected key=value, got {t:?}")))?;
        match k {
            "cmd" => spec = Some(EngineSpec::new(v)),
            "arg" => args.push(v.to_string()),
            "dir" => dir = Some(PathBuf::from(v)),
            "name" => name = Some(v.to_string()),
            "info" => {
                let (ik, iv) = v.split_once('=').ok_or_else(|| {
                    CliError(format!("--engine info: expected KEY=VALUE, got {v:?}"))
                })?;
                info.push((ik.to_string(), iv.to_string()));
            }
            _ => return Err(CliError(format!("--engine: unknown key {k:?}"))),
        }
    }
    let mut spec = spec.ok_or_else(|| CliError("--engine needs cmd=PATH".into()))?;
    spec.args = args;
    spec.dir = dir;
    spec.info = info;
    if let Some(n) = name {
        spec.name = n;
    }
    Ok(spec)
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, CliError> {
    let sub = args.first().map(String::as_str).unwrap_or_default();
    if matches!(
        sub,
        "convert-openings" | "gen-openings" | "merge" | "status"
    ) {
        let rest = &args[1..];
        if wants_help(rest) {
            return Ok(Command::SubHelp(usage_for(args)));
        }
        return match sub {
            "convert-openings" => parse_convert(rest),
            "gen-openings" => parse_gen(rest),
            "merge" => parse_merge(rest),
            _ => parse_status(rest),
        };
    }
    if args.is_empty() || wants_help(args) {
        return Ok(Command::Help);
    }
    if args.iter().any(|a| a == "--version" || a == "-V") {
        return Ok(Command::Version);
    }
    let mut o = RunOptions {
        engines: Vec::new(),
        format: Format::RoundRobin,
        setup: GameSetup {
            kind: GameKind::Gomoku { rule: 0 },
            width: 15,
            height: 15,
            draw_after: None,
            opening_rule: OpeningRule::Given,
        },
        time: TimeControl::default(),
        openings: None,
        rounds: 1,
        max_games: None,
        random_symmetry: false,
        seed: 1,
        concurrency: 1,
        reuse: false,
        sprt: None,
        out_dir: None,
        grid: Vec::new(),
        csv: None,
        quiet: false,
        shard: Shard::WHOLE,
        resume: false,
        schedule_args: Vec::new(),
    };
    let mut game = "gomoku".to_string();
    let mut rule = 0u32;
    let mut k: Option<u32> = None;
    let mut opening_rule = OpeningRule::Given;
    let (mut size, mut width, mut height) = (None::<usize>, None::<usize>, None::<usize>);
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let local = LOCAL_OPTIONS.iter().find(|(f, _)| *f == flag);
        let taken = match local {
            Some((_, true)) => 2,
            Some((_, false)) => 1,
            None => {
                let end = args[i + 1..]
                    .iter()
                    .position(|a| a.starts_with("--"))
                    .map_or(args.len(), |p| i + 1 + p);
                end - i
            }
        };
        if local.is_none() {
            o.schedule_args.extend_from_slice(&args[i..i + taken]);
        }
        i += 1;
        if flag == "--engine" {
            let start = i;
            while i < args.len() && !args[i].starts_with("--") {
                i += 1;
            }
            o.engines.push(parse_engine(&args[start..i])?);
            continue;
        }
        match flag {
            "--gauntlet" => o.format = Format::Gauntlet,
            "--reuse" => o.reuse = true,
            "--symmetry" => o.random_symmetry = true,
            "--quiet" => o.quiet = true,
            "--resume" => o.resume = true,
            _ => {}
        }
        if matches!(
            flag,
            "--gauntlet" | "--reuse" | "--symmetry" | "--quiet" | "--resume"
        ) {
            continue;
        }
        let v = args
            .get(i)
            .ok_or_else(|| CliError(format!("{flag} needs a value")))?
            .as_str();
        i += 1;
        match flag {
            "--game" => game = v.to_ascii_lowercase(),
            "--rule" => rule = num(flag, v)?,
            "--k" => k = Some(num(flag, v)?),
            "--size" => size = Some(num(flag, v)?),
            "--width" => width = Some(num(flag, v)?),
            "--height" => height = Some(num(flag, v)?),
            "--draw-after" => o.setup.draw_after = Some(num(flag, v)?),
            "--openings" => o.openings = Some(PathBuf::from(v)),
            "--opening-rule" => {
                opening_rule = OpeningRule::parse(v)
                    .ok_or_else(|| CliError(format!("--opening-rule {v}: use none or swap2")))?
            }
            "--rounds" => o.rounds = num(flag, v)?,
            "--games" => o.max_games = Some(num(flag, v)?),
            "--seed" => o.seed = num(flag, v)?,
            "--concurrency" => o.concurrency = num::<usize>(flag, v)?.max(1),
            "--timeout-turn" => o.time.turn_ms = num(flag, v)?,
            "--timeout-match" => o.time.match_ms = num(flag, v)?,
            "--tolerance" => o.time.tolerance_ms = num(flag, v)?,
            "--start-timeout" => o.time.start_ms = num(flag, v)?,
            "--grace" => o.time.grace_ms = num(flag, v)?,
            "--max-memory" => o.time.max_memory = num(flag, v)?,
            "--sprt" => o.sprt = Some(parse_sprt(v)?),
            "--out" => o.out_dir = Some(PathBuf::from(v)),
            "--grid" => o
                .grid
                .push(parse_param(v).map_err(|e| CliError(e.to_string()))?),
            "--csv" => o.csv = Some(PathBuf::from(v)),
            "--shard" => {
                o.shard = Shard::parse(v).ok_or_else(|| {
                    CliError(format!("--shard {v}: expected I/N with 1 <= I <= N"))
                })?
            }
            _ => return Err(CliError(format!("unknown option {flag:?} (see --help)"))),
        }
    }
    if (o.resume || !o.shard.is_whole()) && o.out_dir.is_none() {
        return Err(CliError(
            "--shard and --resume need --out DIR (the results merge and resume read)".into(),
        ));
    }
    o.setup = resolve_setup(&game, rule, k, size, width, height, o.setup.draw_after)?;
    if opening_rule == OpeningRule::Swap2 {
        if !matches!(o.setup.kind, GameKind::Gomoku { .. }) {
            return Err(CliError("--opening-rule swap2 is for gomoku only".into()));
        }
        if o.openings.is_some() {
            return Err(CliError(
                "--opening-rule swap2 negotiates the opening: do not give --openings".into(),
            ));
        }
    }
    o.setup.opening_rule = opening_rule;
    let needed = if o.grid.is_empty() { 2 } else { 1 };
    if o.engines.len() < needed {
        return Err(CliError(if o.grid.is_empty() {
            "give at least two engines (--engine cmd=PATH …)".into()
        } else {
            "a grid needs one base engine (--engine cmd=PATH …)".into()
        }));
    }
    if o.rounds == 0 {
        return Err(CliError("--rounds must be at least 1".into()));
    }
    Ok(Command::Run(Box::new(o)))
}

/// The game and board from `--game`, `--rule`, `--k` and the size options, with each
/// game's default board.
fn resolve_setup(
    game: &str,
    rule: u32,
    k: Option<u32>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    draw_after: Option<usize>,
) -> Result<GameSetup, CliError> {
    let (kind, dw, dh) = match game {
        "gomoku" => {
            if ![0, 1, 4, 8, 9].contains(&rule) {
                return Err(CliError(format!("--rule {rule}: use 0, 1, 4, 8 or 9")));
            }
            (GameKind::Gomoku { rule }, 15, 15)
        }
        "connect4" => (GameKind::Connect4 { k: k.unwrap_or(4) }, 7, 6),
        "mnk" => (GameKind::Mnk { k: k.unwrap_or(3) }, 3, 3),
        "pente" => (GameKind::Pente, 19, 19),
        "ninuki" => (GameKind::Ninuki, 19, 19),
        g => {
            return Err(CliError(format!(
                "--game {g}: use gomoku, connect4, mnk, pente or ninuki"
            )))
        }
    };
    let setup = GameSetup {
        kind,
        width: width.or(size).unwrap_or(dw),
        height: height.or(size).unwrap_or(dh),
        draw_after,
        opening_rule: OpeningRule::Given,
    };
    if !(1..=32).contains(&setup.width) || !(1..=32).contains(&setup.height) {
        return Err(CliError("board sides must be within 1..=32".into()));
    }
    Ok(setup)
}

fn parse_gen(args: &[String]) -> Result<Command, CliError> {
    let mut spec = BalanceSpec {
        count: 100,
        min_stones: 3,
        max_stones: 5,
        radius: 3,
        max_eval: 30,
        max_tries: 1_000_000,
        seed: 1,
    };
    let mut game = "gomoku".to_string();
    let mut rule = 0u32;
    let mut k = None;
    let (mut size, mut width, mut height) = (None, None, None);
    let mut to_pos = true;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let v = args
            .get(i + 1)
            .ok_or_else(|| CliError(format!("{flag} needs a value")))?
            .as_str();
        i += 2;
        match flag {
            "--game" => game = v.to_ascii_lowercase(),
            "--rule" => rule = num(flag, v)?,
            "--k" => k = Some(num(flag, v)?),
            "--size" => size = Some(num(flag, v)?),
            "--width" => width = Some(num(flag, v)?),
            "--height" => height = Some(num(flag, v)?),
            "--count" => spec.count = num(flag, v)?,
            "--radius" => spec.radius = num(flag, v)?,
            "--max-eval" => spec.max_eval = num(flag, v)?,
            "--tries" => spec.max_tries = num(flag, v)?,
            "--seed" => spec.seed = num(flag, v)?,
            "--stones" => {
                let (a, b) = v.split_once('-').unwrap_or((v, v));
                spec.min_stones = num(flag, a)?;
                spec.max_stones = num(flag, b)?;
                if spec.min_stones == 0 || spec.min_stones > spec.max_stones {
                    return Err(CliError(format!(
                        "--stones {v}: expected MIN-MAX, 1 <= MIN <= MAX"
                    )));
                }
            }
            "--to" => match v {
                "pos" => to_pos = true,
                "offset" => to_pos = false,
                f => return Err(CliError(format!("--to {f}: use pos or offset"))),
            },
            _ => return Err(CliError(format!("unknown option {flag:?} (see --help)"))),
        }
    }
    let setup = resolve_setup(&game, rule, k, size, width, height, None)?;
    Ok(Command::GenOpenings {
        setup,
        spec,
        to_pos,
    })
}

/// `ELO0,ELO1,ALPHA,BETA`, alpha and beta in (0, 1), elo0 < elo1.
pub fn parse_sprt(v: &str) -> Result<Sprt, CliError> {
    let bad = || CliError(format!("--sprt {v:?}: expected ELO0,ELO1,ALPHA,BETA"));
    let n: Vec<f64> = v
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [elo0, elo1, alpha, beta] = n[..] else {
        return Err(bad());
    };
    let unit = |p: f64| p > 0.0 && p < 1.0;
    if elo0 >= elo1 || !unit(alpha) || !unit(beta) {
        return Err(bad());
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

fn parse_convert(args: &[String]) -> Result<Command, CliError> {
    let mut input = None;
    let (mut width, mut height) = (15usize, 15usize);
    let mut to_pos = true;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| CliError(format!("{a} needs a value")))
        };
        match a {
            "--size" => {
                let n = num(a, &value()?)?;
                width = n;
                height = n;
            }
            "--width" => width = num(a, &value()?)?,
            "--height" => height = num(a, &value()?)?,
            "--to" => match value()?.as_str() {
                "pos" => to_pos = true,
                "offset" => to_pos = false,
                f => return Err(CliError(format!("--to {f}: use pos or offset"))),
            },
            f if f.starts_with("--") => return Err(CliError(format!("unknown option {f:?}"))),
            f => input = Some(PathBuf::from(f)),
        }
        i += 1;
    }
    let input = input.ok_or_else(|| CliError("convert-openings needs a FILE".into()))?;
    Ok(Command::ConvertOpenings {
        input,
        width,
        height,
        to_pos,
    })
}

fn parse_merge(args: &[String]) -> Result<Command, CliError> {
    let mut m = MergeOptions {
        dirs: Vec::new(),
        out: None,
        csv: None,
        partial: false,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        let mut value = || {
            i += 1;
            args.get(i - 1)
                .map(PathBuf::from)
                .ok_or_else(|| CliError(format!("{a} needs a value")))
        };
        match a {
            "--out" => m.out = Some(value()?),
            "--csv" => m.csv = Some(value()?),
            "--partial" => m.partial = true,
            f if f.starts_with('-') => {
                return Err(CliError(format!("merge: unknown option {f:?}")))
            }
            d => m.dirs.push(PathBuf::from(d)),
        }
    }
    if m.dirs.is_empty() {
        return Err(CliError("merge needs the shard directories".into()));
    }
    Ok(Command::Merge(m))
}

fn parse_status(args: &[String]) -> Result<Command, CliError> {
    if let Some(f) = args.iter().find(|a| a.starts_with('-')) {
        return Err(CliError(format!("status: unknown option {f:?}")));
    }
    if args.is_empty() {
        return Err(CliError("status needs the shard directories".into()));
    }
    Ok(Command::Status {
        dirs: args.iter().map(PathBuf::from).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn run(s: &str) -> RunOptions {
        match parse(&args(s)).unwrap() {
            Command::Run(o) => *o,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn engines_and_defaults() {
        let o = run("--engine cmd=./pbrain-a arg=-x arg=y dir=/tmp --engine cmd=/b/pbrain-b name=B info=max_depth=4");
        assert_eq!(o.engines.len(), 2);
        assert_eq!(o.engines[0].name, "pbrain-a");
        assert_eq!(o.engines[0].args, vec!["-x", "y"]);
        assert_eq!(o.engines[0].dir, Some(PathBuf::from("/tmp")));
        assert_eq!(o.engines[1].name, "B");
        assert_eq!(o.engines[1].info, vec![("max_depth".into(), "4".into())]);
        assert_eq!(o.setup.width, 15);
        assert_eq!(o.setup.kind, GameKind::Gomoku { rule: 0 });
        assert_eq!(o.format, Format::RoundRobin);
        assert_eq!(o.time.tolerance_ms, 1000);
    }

    #[test]
    fn game_kinds_sizes_and_limits() {
        let e = "--engine cmd=a --engine cmd=b";
        let o = run(&format!("{e} --rule 4 --size 20 --timeout-turn 100 --timeout-match 0 --gauntlet --reuse --concurrency 3 --symmetry"));
        assert_eq!(o.setup.kind, GameKind::Gomoku { rule: 4 });
        assert_eq!((o.setup.width, o.setup.height), (20, 20));
        assert_eq!((o.time.turn_ms, o.time.match_ms), (100, 0));
        assert!(o.reuse && o.random_symmetry);
        assert_eq!(o.concurrency, 3);
        assert_eq!(o.max_games, None);
        assert_eq!(run(&format!("{e} --games 12")).max_games, Some(12));
        assert_eq!(o.format, Format::Gauntlet);
        let c = run(&format!("{e} --game connect4"));
        assert_eq!(c.setup.kind, GameKind::Connect4 { k: 4 });
        assert_eq!((c.setup.width, c.setup.height), (7, 6));
        let m = run(&format!("{e} --game mnk --width 4 --height 5 --k 4"));
        assert_eq!(m.setup.kind, GameKind::Mnk { k: 4 });
        assert_eq!((m.setup.width, m.setup.height), (4, 5));
    }

    #[test]
    fn swap2_opening_rule() {
        let e = "--engine cmd=a --engine cmd=b";
        assert_eq!(run(e).setup.opening_rule, OpeningRule::Given);
        let o = run(&format!("{e} --opening-rule swap2 --rule 4"));
        assert_eq!(o.setup.opening_rule, OpeningRule::Swap2);
        let bad = |s: &str| parse(&args(&format!("{e} {s}"))).unwrap_err().0;
        assert!(bad("--opening-rule swap3").contains("none or swap2"));
        assert!(bad("--opening-rule swap2 --game connect4").contains("gomoku only"));
        assert!(bad("--opening-rule swap2 --openings x.txt").contains("--openings"));
    }

    #[test]
    fn errors_are_reported() {
        let bad = |s: &str| parse(&args(s)).unwrap_err().0;
        assert!(bad("--engine cmd=a").contains("two engines"));
        assert!(bad("--engine arg=x --engine cmd=b").contains("cmd=PATH"));
        assert!(bad("--engine cmd=a --engine cmd=b --rule 3").contains("--rule 3"));
        assert!(bad("--engine cmd=a --engine cmd=b --size x").contains("not a valid number"));
        assert!(bad("--engine cmd=a --engine cmd=b --bogus 1").contains("unknown option"));
        assert!(bad("--engine cmd=a --engine cmd=b --sprt 5,0,0.05,0.05").contains("--sprt"));
        assert!(bad("--engine cmd=a --engine cmd=b --timeout-turn").contains("needs a value"));
        assert!(bad("--engine cmd=a --engine cmd=b --game chess").contains("--game chess"));
    }

    #[test]
    fn sprt_and_grid() {
        let o = run("--engine cmd=a --grid depth=2,4 --grid beam=10,20 --csv out.csv");
        assert_eq!(o.grid.len(), 2);
        assert_eq!(o.csv, Some(PathBuf::from("out.csv")));
        let s = parse_sprt("0,5,0.05,0.1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert!(parse_sprt("0,5,0.05").is_err());
        assert!(parse_sprt("0,5,1.5,0.05").is_err());
    }

    #[test]
    fn gen_openings_options() {
        let Command::GenOpenings {
            setup,
            spec,
            to_pos,
        } = parse(&args(
            "gen-openings --size 20 --rule 1 --count 7 --stones 3-4 --max-eval 15 --seed 3",
        ))
        .unwrap()
        else {
            panic!("not gen-openings")
        };
        assert_eq!(setup.kind, GameKind::Gomoku { rule: 1 });
        assert_eq!((setup.width, setup.height), (20, 20));
        assert_eq!((spec.count, spec.min_stones, spec.max_stones), (7, 3, 4));
        assert_eq!((spec.max_eval, spec.seed), (15, 3));
        assert!(to_pos);
        assert!(parse(&args("gen-openings --stones 5-3")).is_err());
        assert!(parse(&args("gen-openings --count")).is_err());
    }

    #[test]
    fn shards_resume_and_what_the_manifest_keeps() {
        let o = run("--engine cmd=a --engine cmd=b --seed 3 --shard 2/5 --out d --concurrency 2 --quiet --resume");
        assert_eq!(o.shard, Shard { index: 2, count: 5 });
        assert!(o.resume && o.quiet);
        assert_eq!(
            o.schedule_args,
            args("--engine cmd=a --engine cmd=b --seed 3")
        );
        assert_eq!(run("--engine cmd=a --engine cmd=b").shard, Shard::WHOLE);
        let bad = |s: &str| parse(&args(s)).unwrap_err().0;
        assert!(bad("--engine cmd=a --engine cmd=b --shard 0/2 --out d").contains("I/N"));
        assert!(bad("--engine cmd=a --engine cmd=b --shard 1/2").contains("need --out"));
        assert!(bad("--engine cmd=a --engine cmd=b --resume").contains("need --out"));
    }

    #[test]
    fn merge_and_status_commands() {
        assert_eq!(
            parse(&args("merge a b --out m --partial")).unwrap(),
            Command::Merge(MergeOptions {
                dirs: vec![PathBuf::from("a"), PathBuf::from("b")],
                out: Some(PathBuf::from("m")),
                csv: None,
                partial: true,
            })
        );
        assert_eq!(
            parse(&args("status s1 s2")).unwrap(),
            Command::Status {
                dirs: vec![PathBuf::from("s1"), PathBuf::from("s2")]
            }
        );
        assert!(parse(&args("merge"))
            .unwrap_err()
            .0
            .contains("shard directories"));
        assert!(parse(&args("status")).is_err());
        assert!(parse(&args("merge a --out"))
            .unwrap_err()
            .0
            .contains("needs a value"));
        for sub in ["merge", "status", "convert-openings", "gen-openings"] {
            assert_eq!(
                parse(&args(&format!("{sub} --help"))).unwrap(),
                Command::SubHelp(usage_for(&args(sub)))
            );
        }
        assert_eq!(parse(&args("-V")).unwrap(), Command::Version);
        assert_eq!(synopsis(STATUS_USAGE), "usage: wuzi-arena status DIR...\n");
    }

    #[test]
    fn convert_and_help() {
        assert_eq!(parse(&args("--help")).unwrap(), Command::Help);
        assert_eq!(parse(&[]).unwrap(), Command::Help);
        assert_eq!(
            parse(&args("convert-openings x.txt --size 20 --to offset")).unwrap(),
            Command::ConvertOpenings {
                input: PathBuf::from("x.txt"),
                width: 20,
                height: 20,
                to_pos: false
            }
        );
    }
}
