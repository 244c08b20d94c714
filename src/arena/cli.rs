//! The `wuzi-arena` command line: clap parses it (every level answers `-h`/`--help`, a wrong
//! option or value is a usage error, exit 2, as in `pbrain-wuzi`), and [`parse`] turns the
//! result into plain data without touching the system, so every option is unit-tested and
//! the binary only wires the result to the referee.
//!
//! Engines are written the way cutechess-cli writes them: `--engine cmd=PATH [arg=A]…
//! [dir=DIR] [name=NAME] [info=KEY=VALUE]…`, the `key=value` tokens running until the next
//! `--option`. Values that are only wrong together (swap2 with an openings file, a rule for
//! the wrong game) are checked after clap and reported the same way.

use super::balance::BalanceSpec;
use super::engine::EngineSpec;
use super::grid::{parse_param, GridParam};
use super::referee::{GameKind, GameSetup, TimeControl};
use super::shard::Shard;
use super::stats::Sprt;
use super::swap2::OpeningRule;
use super::tournament::Format;
use clap::error::{ContextKind, ErrorKind};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::fmt;
use std::path::PathBuf;

/// A command line the arena cannot use: what is wrong, and the usage lines of the
/// (sub)command it was meant for, printed after the message so the error stays visible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError {
    pub message: String,
    pub usage: String,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
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
    /// Write the HTML page of a run (or of its shards).
    Report {
        dirs: Vec<PathBuf>,
        out: PathBuf,
    },
    /// A help text to print (the top level's or a subcommand's).
    Help(String),
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
    /// The HTML page rewritten as games end (needs `out_dir`, which it is made from).
    pub report: Option<PathBuf>,
    /// The arguments as given, without those that only say where and how fast this machine
    /// runs its part (`--out`, `--concurrency`, `--quiet`, `--csv`, `--shard`, `--resume`):
    /// what the run manifest records so `merge` and `--resume` can compare runs.
    pub schedule_args: Vec<String>,
}

/// Options that say where and how fast one machine plays its part, not which games it
/// plays or how: they may differ between shards. The flag, and whether it takes a value.
const LOCAL_OPTIONS: [(&str, bool); 7] = [
    ("--out", true),
    ("--report", true),
    ("--concurrency", true),
    ("--csv", true),
    ("--shard", true),
    ("--quiet", false),
    ("--resume", false),
];

/// Every level's help: clap's own parts, with `usage:` spelled as the arena always has
/// (scripts and the README quote it) and the description first, naming the command.
const HELP_TEMPLATE: &str = "{about-with-newline}\nusage: {usage}\n\n{all-args}{after-help}";

/// A subcommand's help: its description (`before_help`, so that the list of commands shows
/// the short `about`), then as [`HELP_TEMPLATE`].
const SUB_HELP_TEMPLATE: &str = "{before-help}usage: {usage}\n\n{all-args}{after-help}";

/// `wuzi-arena`'s whole command line: a tournament's options, or a subcommand.
#[derive(Debug, Parser)]
#[command(
    name = "wuzi-arena",
    version,
    about = "wuzi-arena: plays pbrain engines against each other like a Gomocup manager.",
    long_about = None,
    help_template = HELP_TEMPLATE,
    after_help = "Without a command it plays a tournament: at least two --engine (one with --grid). Each --engine takes key=value tokens up to the next option: cmd=PATH (required), arg=A (repeatable), dir=DIR, name=NAME, info=KEY=VALUE (repeatable, sent as INFO KEY VALUE; info=seed={seed} sends each game its own seed from the schedule).",
    args_conflicts_with_subcommands = true,
    args_override_self = true
)]
struct Cli {
    #[command(flatten)]
    run: RunArgs,
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Debug, Subcommand)]
enum Sub {
    /// rewrite an opening file for a board size (pos or offset lines)
    #[command(
        before_help = "wuzi-arena convert-openings: rewrites an opening file for a board size; openings that do not fit become # comment lines naming their source line.",
        help_template = SUB_HELP_TEMPLATE
    )]
    ConvertOpenings(ConvertArgs),
    /// generate near-level openings with the engine's evaluation
    #[command(
        before_help = "wuzi-arena gen-openings: generates near-level openings: random stones near the centre, kept when the static evaluation is small, one per symmetry class.",
        help_template = SUB_HELP_TEMPLATE
    )]
    GenOpenings(GenArgs),
    /// combine the --out directories of a sharded run into one report
    #[command(
        before_help = "wuzi-arena merge: combines the --out directories of the shards of one run (wuzi-arena --shard I/N --out DIR) into the report one machine would have written: the same table, Elo, SPRT state and fault counts, and with --out the same games.jsonl and records. Shards run with different options are refused, naming the option.",
        help_template = SUB_HELP_TEMPLATE
    )]
    Merge(MergeArgs),
    /// summarise the shards of a run from their result files
    #[command(
        before_help = "wuzi-arena status: summarises the shards of a run from their result files (they may be running): games done per shard with the time since its last result and an ETA, the total, and the table of the results so far.",
        help_template = SUB_HELP_TEMPLATE
    )]
    Status(StatusArgs),
    /// write one self-contained HTML page of a run: table, plots, every game replayable
    #[command(
        before_help = "wuzi-arena report: writes one HTML page of a run's --out directory (or of the shards of one run, as merge takes them) that opens from disk with no network: the table with scores per colour, the SPRT and Elo as games accumulate, time use, faults, results per opening, and every game replayable with what the engines reported while thinking.",
        help_template = SUB_HELP_TEMPLATE
    )]
    Report(ReportArgs),
}

/// The game and its board, shared by a run and `gen-openings`.
#[derive(Debug, Args)]
struct BoardArgs {
    /// gomoku, connect4, mnk, pente or ninuki
    #[arg(long, value_name = "GAME", default_value = "gomoku")]
    game: String,
    /// gomoku rule: 0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro exact-five
    #[arg(long, value_name = "N", default_value_t = 0)]
    rule: u32,
    /// square board (default 15; pente, ninuki 19; connect4 7x6; mnk 3x3)
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// board width (overrides --size)
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// board height (overrides --size)
    #[arg(long, value_name = "H")]
    height: Option<usize>,
    /// line length for mnk / connect4
    #[arg(long, value_name = "N")]
    k: Option<u32>,
}

/// A tournament's options (no subcommand).
#[derive(Debug, Args)]
struct RunArgs {
    /// an engine: cmd=PATH [arg=A]... [dir=DIR] [name=NAME] [info=KEY=VALUE]... (see below)
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    engine: Vec<String>,
    /// first engine against each other one (default: round robin)
    #[arg(long)]
    gauntlet: bool,
    /// keep engine processes between games (START again)
    #[arg(long)]
    reuse: bool,
    /// games in parallel
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    #[command(flatten)]
    board: BoardArgs,
    /// draw once N stones are on the board
    #[arg(long, value_name = "N")]
    draw_after: Option<usize>,
    /// offset (x,y, x,y relative to the centre) or pos (h8i9) lines
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// none, or swap2: the engines negotiate opening and colours with SWAP2BOARD (gomoku; each pair plays twice, each engine proposing once)
    #[arg(long, value_name = "RULE", default_value = "none")]
    opening_rule: String,
    /// random board symmetry per opening (same for both colours)
    #[arg(long)]
    symmetry: bool,
    /// times each opening is played per pair, both colours
    #[arg(long, value_name = "N", default_value_t = 1)]
    rounds: usize,
    /// stop after N games (default: the whole schedule)
    #[arg(long, value_name = "N")]
    games: Option<usize>,
    /// seed for the symmetries and the games' seeds
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// time per move in ms (0 = none)
    #[arg(long, value_name = "MS", default_value_t = TimeControl::default().turn_ms)]
    timeout_turn: u64,
    /// time per game and side in ms (0 = none)
    #[arg(long, value_name = "MS", default_value_t = TimeControl::default().match_ms)]
    timeout_match: u64,
    /// ms added to every deadline
    #[arg(long, value_name = "MS", default_value_t = TimeControl::default().tolerance_ms)]
    tolerance: u64,
    /// ms for START to answer OK
    #[arg(long, value_name = "MS", default_value_t = TimeControl::default().start_ms)]
    start_timeout: u64,
    /// ms between END and kill
    #[arg(long, value_name = "MS", default_value_t = TimeControl::default().grace_ms)]
    grace: u64,
    /// sent as INFO max_memory
    #[arg(long, value_name = "BYTES", default_value_t = TimeControl::default().max_memory)]
    max_memory: u64,
    /// stop engine 1 vs engine 2 once decided
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// games.jsonl (a line as each game ends), games/*.psq and *.sgf, logs/*.stderr.log, manifest.txt (the options, for merge/resume)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// no progress line
    #[arg(long)]
    quiet: bool,
    /// play only the I-th of N disjoint slices of the schedule (needs --out); `wuzi-arena merge` combines the N directories
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// keep the finished games in --out's games.jsonl, play the rest
    #[arg(long)]
    resume: bool,
    /// rewrite this HTML page (wuzi-arena report) as games end, atomically (needs --out)
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// a grid axis (repeat for more); {NAME} in arg= is replaced, else INFO NAME V
    #[arg(long, value_name = "NAME=V1,V2,...")]
    grid: Vec<String>,
    /// where the grid results go (default: stdout)
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// The output format of the opening tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OpeningFormat {
    Pos,
    Offset,
}

#[derive(Debug, Args)]
struct ConvertArgs {
    /// offset (x,y, x,y relative to the centre) or pos (h8i9) lines
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// square board
    #[arg(long, value_name = "N", default_value_t = 15)]
    size: usize,
    /// board width (overrides --size)
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// board height (overrides --size)
    #[arg(long, value_name = "H")]
    height: Option<usize>,
    /// output format
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OpeningFormat::Pos)]
    to: OpeningFormat,
}

#[derive(Debug, Args)]
struct GenArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// openings wanted
    #[arg(long, value_name = "N", default_value_t = 100)]
    count: usize,
    /// stones per opening
    #[arg(long, value_name = "MIN-MAX", default_value = "3-5")]
    stones: String,
    /// at most R cells from the centre
    #[arg(long, value_name = "R", default_value_t = 3)]
    radius: usize,
    /// |static evaluation| bound
    #[arg(long, value_name = "E", default_value_t = 30)]
    max_eval: i32,
    /// positions tried at most
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    tries: usize,
    /// generator seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// output format
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = OpeningFormat::Pos)]
    to: OpeningFormat,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// the shard directories, all N of them
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// also write the merged games.jsonl, games/, logs/ and manifest
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// where a grid's results go (default: stdout)
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// merge what is there: missing shards and games are listed on stderr instead of being an error
    #[arg(long)]
    partial: bool,
}

#[derive(Debug, Args)]
struct ReportArgs {
    /// a run's --out directory, or all the shard directories of one run
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// the page to write
    #[arg(long, value_name = "FILE", default_value = "report.html")]
    out: PathBuf,
}

#[derive(Debug, Args)]
struct StatusArgs {
    /// shard directories (wuzi-arena --shard I/N --out DIR)
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
}

/// The usage lines of a help text (from `usage:` to the next blank line), printed after a
/// command-line error so the error stays visible.
pub fn synopsis(usage: &str) -> &str {
    let start = usage.find("usage:").unwrap_or(0);
    let rest = &usage[start..];
    rest.find("\n\n").map_or(rest, |end| &rest[..=end])
}

/// The help of the subcommand `args` start with, or the top level's.
fn help_for(args: &[String]) -> String {
    let mut top = Cli::command();
    top.build();
    let sub = args
        .first()
        .and_then(|a| top.find_subcommand(a).map(|c| c.get_name().to_string()));
    match sub {
        Some(name) => top
            .find_subcommand_mut(&name)
            .expect("found above")
            .render_help()
            .to_string(),
        None => top.render_help().to_string(),
    }
}

/// The top level's help, as `--help` prints it.
pub fn usage() -> String {
    help_for(&[])
}

impl CliError {
    /// An error in the command line `args`, with the usage of what they were meant for.
    fn new(args: &[String], message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            usage: synopsis(&help_for(args)).to_string(),
        }
    }

    /// clap's complaint in the arena's words: an unknown option is named as before, any other
    /// is clap's message without its `error: ` and the usage clap would add.
    fn of_clap(args: &[String], e: &clap::Error) -> CliError {
        let message = match (e.kind(), e.get(ContextKind::InvalidArg)) {
            (ErrorKind::UnknownArgument, Some(arg)) => format!("unknown option \"{arg}\""),
            _ => {
                let text = e.render().to_string();
                let text = text.strip_prefix("error: ").unwrap_or(&text);
                text.split("\n\n").next().unwrap_or(text).trim().to_string()
            }
        };
        CliError::new(args, message)
    }
}

/// Parses `cmd=… arg=… dir=… name=… info=K=V` tokens into an engine.
pub fn parse_engine(tokens: &[String]) -> Result<EngineSpec, String> {
    let mut spec: Option<EngineSpec> = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut name = None;
    let mut info = Vec::new();
    for t in tokens {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| format!("--engine: expected key=value, got {t:?}"))?;
        match k {
            "cmd" => spec = Some(EngineSpec::new(v)),
            "arg" => args.push(v.to_string()),
            "dir" => dir = Some(PathBuf::from(v)),
            "name" => name = Some(v.to_string()),
            "info" => {
                let (ik, iv) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--engine info: expected KEY=VALUE, got {v:?}"))?;
                info.push((ik.to_string(), iv.to_string()));
            }
            _ => return Err(format!("--engine: unknown key {k:?}")),
        }
    }
    let mut spec = spec.ok_or("--engine needs cmd=PATH")?;
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
    if args.is_empty() {
        return Ok(Command::Help(usage()));
    }
    let argv = std::iter::once("wuzi-arena".to_string()).chain(args.iter().cloned());
    let parsed = Cli::command()
        .try_get_matches_from(argv)
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp => Ok(Command::Help(e.render().to_string())),
                ErrorKind::DisplayVersion => Ok(Command::Version),
                _ => Err(CliError::of_clap(args, &e)),
            }
        }
    };
    let command = match cli.command {
        None => {
            // clap's derive gives the tokens of all `--engine`s in one list; each occurrence
            // is one engine
            let engines: Vec<Vec<String>> = matches
                .get_occurrences::<String>("engine")
                .map(|o| o.map(|tokens| tokens.cloned().collect()).collect())
                .unwrap_or_default();
            cli.run
                .options(&engines, args)
                .map(|o| Command::Run(Box::new(o)))
        }
        Some(Sub::ConvertOpenings(c)) => Ok(Command::ConvertOpenings {
            input: c.input,
            width: c.width.unwrap_or(c.size),
            height: c.height.unwrap_or(c.size),
            to_pos: c.to == OpeningFormat::Pos,
        }),
        Some(Sub::GenOpenings(g)) => g.command(),
        Some(Sub::Merge(m)) => Ok(Command::Merge(MergeOptions {
            dirs: m.dirs,
            out: m.out,
            csv: m.csv,
            partial: m.partial,
        })),
        Some(Sub::Status(s)) => Ok(Command::Status { dirs: s.dirs }),
        Some(Sub::Report(r)) => Ok(Command::Report {
            dirs: r.dirs,
            out: r.out,
        }),
    };
    command.map_err(|message| CliError::new(args, message))
}

/// The arguments that fix which games are played and how: `args` without the
/// [`LOCAL_OPTIONS`] and their values (given as `--flag VALUE` or `--flag=VALUE`).
fn schedule_args(args: &[String]) -> Vec<String> {
    let mut kept = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (flag, inline_value) = match args[i].split_once('=') {
            Some((f, _)) if f.starts_with("--") => (f, true),
            _ => (args[i].as_str(), false),
        };
        match LOCAL_OPTIONS.iter().find(|(f, _)| *f == flag) {
            Some((_, takes_value)) => i += if *takes_value && !inline_value { 2 } else { 1 },
            None => {
                kept.push(args[i].clone());
                i += 1;
            }
        }
    }
    kept
}

impl RunArgs {
    /// The run's options, with `engines` the tokens of each `--engine` and `args` the
    /// command line they came from.
    fn options(self, engines: &[Vec<String>], args: &[String]) -> Result<RunOptions, String> {
        let engines = engines
            .iter()
            .map(|tokens| parse_engine(tokens))
            .collect::<Result<Vec<_>, _>>()?;
        let shard = match &self.shard {
            None => Shard::WHOLE,
            Some(v) => Shard::parse(v)
                .ok_or_else(|| format!("--shard {v}: expected I/N with 1 <= I <= N"))?,
        };
        let sprt = self.sprt.as_deref().map(parse_sprt).transpose()?;
        let grid = self
            .grid
            .iter()
            .map(|v| parse_param(v).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        let opening_rule = OpeningRule::parse(&self.opening_rule)
            .ok_or_else(|| format!("--opening-rule {}: use none or swap2", self.opening_rule))?;
        let mut setup = self.board.setup(self.draw_after)?;
        if self.report.is_some() && self.out.is_none() {
            return Err("--report needs --out DIR (the page is made from it)".into());
        }
        if (self.resume || !shard.is_whole()) && self.out.is_none() {
            return Err(
                "--shard and --resume need --out DIR (the results merge and resume read)".into(),
            );
        }
        if opening_rule == OpeningRule::Swap2 {
            if !matches!(setup.kind, GameKind::Gomoku { .. }) {
                return Err("--opening-rule swap2 is for gomoku only".into());
            }
            if self.openings.is_some() {
                return Err(
                    "--opening-rule swap2 negotiates the opening: do not give --openings".into(),
                );
            }
        }
        setup.opening_rule = opening_rule;
        let needed = if grid.is_empty() { 2 } else { 1 };
        if engines.len() < needed {
            return Err(if grid.is_empty() {
                "give at least two engines (--engine cmd=PATH …)".into()
            } else {
                "a grid needs one base engine (--engine cmd=PATH …)".into()
            });
        }
        if self.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        Ok(RunOptions {
            engines,
            format: if self.gauntlet {
                Format::Gauntlet
            } else {
                Format::RoundRobin
            },
            setup,
            time: TimeControl {
                turn_ms: self.timeout_turn,
                match_ms: self.timeout_match,
                tolerance_ms: self.tolerance,
                start_ms: self.start_timeout,
                grace_ms: self.grace,
                max_memory: self.max_memory,
            },
            openings: self.openings,
            rounds: self.rounds,
            max_games: self.games,
            random_symmetry: self.symmetry,
            seed: self.seed,
            concurrency: self.concurrency.max(1),
            reuse: self.reuse,
            sprt,
            out_dir: self.out,
            grid,
            csv: self.csv,
            quiet: self.quiet,
            shard,
            resume: self.resume,
            report: self.report,
            schedule_args: schedule_args(args),
        })
    }
}

impl BoardArgs {
    /// The game and board, with each game's default board.
    fn setup(&self, draw_after: Option<usize>) -> Result<GameSetup, String> {
        let (kind, dw, dh) = match self.game.to_ascii_lowercase().as_str() {
            "gomoku" => {
                if ![0, 1, 4, 8, 9].contains(&self.rule) {
                    return Err(format!("--rule {}: use 0, 1, 4, 8 or 9", self.rule));
                }
                (GameKind::Gomoku { rule: self.rule }, 15, 15)
            }
            "connect4" => (
                GameKind::Connect4 {
                    k: self.k.unwrap_or(4),
                },
                7,
                6,
            ),
            "mnk" => (
                GameKind::Mnk {
                    k: self.k.unwrap_or(3),
                },
                3,
                3,
            ),
            "pente" => (GameKind::Pente, 19, 19),
            "ninuki" => (GameKind::Ninuki, 19, 19),
            g => {
                return Err(format!(
                    "--game {g}: use gomoku, connect4, mnk, pente or ninuki"
                ))
            }
        };
        let setup = GameSetup {
            kind,
            width: self.width.or(self.size).unwrap_or(dw),
            height: self.height.or(self.size).unwrap_or(dh),
            draw_after,
            opening_rule: OpeningRule::Given,
        };
        if !(1..=32).contains(&setup.width) || !(1..=32).contains(&setup.height) {
            return Err("board sides must be within 1..=32".into());
        }
        Ok(setup)
    }
}

impl GenArgs {
    fn command(self) -> Result<Command, String> {
        let v = &self.stones;
        let (a, b) = v.split_once('-').unwrap_or((v, v));
        let bad = || format!("--stones {v}: expected MIN-MAX, 1 <= MIN <= MAX");
        let min_stones: usize = a.parse().map_err(|_| bad())?;
        let max_stones: usize = b.parse().map_err(|_| bad())?;
        if min_stones == 0 || min_stones > max_stones {
            return Err(bad());
        }
        Ok(Command::GenOpenings {
            setup: self.board.setup(None)?,
            spec: BalanceSpec {
                count: self.count,
                min_stones,
                max_stones,
                radius: self.radius,
                max_eval: self.max_eval,
                max_tries: self.tries,
                seed: self.seed,
            },
            to_pos: self.to == OpeningFormat::Pos,
        })
    }
}

/// `ELO0,ELO1,ALPHA,BETA`, alpha and beta in (0, 1), elo0 < elo1.
pub fn parse_sprt(v: &str) -> Result<Sprt, String> {
    let bad = || format!("--sprt {v:?}: expected ELO0,ELO1,ALPHA,BETA");
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
        let bad = |s: &str| parse(&args(&format!("{e} {s}"))).unwrap_err().message;
        assert!(bad("--opening-rule swap3").contains("none or swap2"));
        assert!(bad("--opening-rule swap2 --game connect4").contains("gomoku only"));
        assert!(bad("--opening-rule swap2 --openings x.txt").contains("--openings"));
    }

    #[test]
    fn errors_are_reported() {
        let bad = |s: &str| parse(&args(s)).unwrap_err().message;
        assert!(bad("--engine cmd=a").contains("two engines"));
        assert!(bad("--engine arg=x --engine cmd=b").contains("cmd=PATH"));
        assert!(bad("--engine cmd=a --engine cmd=b --rule 3").contains("--rule 3"));
        assert!(bad("--engine cmd=a --engine cmd=b --size x").contains("'x' for '--size <N>'"));
        assert_eq!(
            bad("--engine cmd=a --engine cmd=b --bogus 1"),
            "unknown option \"--bogus\""
        );
        assert!(bad("--engine cmd=a --engine cmd=b --sprt 5,0,0.05,0.05").contains("--sprt"));
        assert!(bad("--engine cmd=a --engine cmd=b --timeout-turn").contains("value is required"));
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
        let o = run("--engine cmd=a --out=d --engine cmd=b --concurrency=2 --seed=3");
        assert_eq!(o.out_dir, Some(PathBuf::from("d")));
        assert_eq!(o.concurrency, 2);
        assert_eq!(
            o.schedule_args,
            args("--engine cmd=a --engine cmd=b --seed=3")
        );
        let bad = |s: &str| parse(&args(s)).unwrap_err().message;
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
            .message
            .contains("required arguments were not provided:\n  <DIR>..."));
        assert!(parse(&args("status")).is_err());
        let e = parse(&args("merge a --out")).unwrap_err();
        assert!(e.message.contains("value is required"), "{e}");
        assert_eq!(e.usage, "usage: wuzi-arena merge [OPTIONS] <DIR>...\n");
        for sub in ["merge", "status", "convert-openings", "gen-openings"] {
            let Command::Help(help) = parse(&args(&format!("{sub} --help"))).unwrap() else {
                panic!("{sub} --help is not a help");
            };
            assert!(help.starts_with(&format!("wuzi-arena {sub}: ")), "{help}");
            assert!(synopsis(&help).starts_with(&format!("usage: wuzi-arena {sub} ")));
        }
        assert_eq!(parse(&args("-V")).unwrap(), Command::Version);
    }

    #[test]
    fn convert_and_help() {
        assert_eq!(parse(&args("--help")).unwrap(), Command::Help(usage()));
        assert_eq!(parse(&[]).unwrap(), Command::Help(usage()));
        assert!(usage().contains("\nusage: wuzi-arena [OPTIONS]\n"));
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
