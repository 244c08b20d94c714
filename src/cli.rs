//! The command line of `pbrain-wuzi`: the options of the protocol mode (no subcommand, what
//! managers run) and the `bench`, `solve` and `play` subcommands.
//!
//! clap parses the arguments once at startup and gives every level `-h`/`--help`, `--version`
//! and, on a wrong option or value, the usage with exit code 2; the protocol loop that runs
//! afterwards never sees it. Values that are only wrong in combination (a board size the chosen
//! game does not support) are found after parsing and reported the same way through
//! [`UsageError`]. Each engine option is an `INFO` key, so the values are checked with the
//! same parsers the engine uses for that key, and handed to it as text exactly as a manager's
//! `INFO` line would be.

use crate::engine::Engine;
use crate::game::{GameKind, GomokuRule};
use crate::opening::OpeningRule;
use crate::play::PlayOptions;
use crate::search::connect4;
use crate::search::gomoku::alphabeta::Params;
use crate::solve;
use crate::train;
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// `pbrain-wuzi`'s whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "pbrain-wuzi",
    version,
    about = "A Gomocup / Piskvork protocol engine for gomoku, renju, caro, Connect Four and m,n,k games",
    long_about = None,
    after_help = "Without a command it speaks the protocol on stdin/stdout (what managers run); each OPTION is also an INFO key a manager may send. Logs go to stderr; RUST_LOG=debug shows more.",
    args_conflicts_with_subcommands = true,
    args_override_self = true
)]
pub struct Cli {
    #[command(flatten)]
    pub engine: EngineOptions,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands, for people rather than managers.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Search fixed positions to a fixed depth and print `Nodes searched: N`
    Bench(BenchArgs),
    /// Print the exact value of each Connect Four or m,n,k position read from stdin
    Solve(SolveArgs),
    /// Play the engine in the terminal
    Play(PlayArgs),
    /// Fit the gomoku evaluation weights to the results of arena games (Texel's method)
    Tune(TuneArgs),
}

/// Engine settings given on the command line, each standing for the `INFO` key it names.
#[derive(Debug, Default, Args)]
pub struct EngineOptions {
    /// Game to play: gomoku, connect4, mnk, pente or ninuki (INFO game)
    #[arg(long, value_name = "GAME", value_parser = game_name)]
    pub game: Option<String>,
    /// Gomoku rule: 0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro with exactly five (INFO rule)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub rule: Option<i64>,
    /// Win length for connect4 and mnk (INFO k)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub k: Option<u32>,
    /// Transposition table size in MB (INFO hash_size; overrides INFO max_memory)
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub hash: Option<u64>,
    /// Search threads (INFO thread_num)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Maximum search depth (INFO max_depth)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Connect Four player: solver, beam, uct, mc, greedy or random (INFO c4_player)
    #[arg(long, value_name = "PLAYER", value_parser = c4_player_name)]
    pub c4_player: Option<String>,
    /// Gomoku opening rule: none, pro, longpro or swap1 (INFO opening_rule)
    #[arg(long, value_name = "RULE", value_parser = opening_rule_name)]
    pub opening: Option<String>,
    /// A gomoku search parameter (src/search/gomoku/params.rs Params); repeatable
    #[arg(long, value_name = "NAME=VALUE")]
    pub param: Vec<SearchParam>,
    /// Pente/ninuki search: aware (judges captures) or plain (gomoku search, captures unseen) (INFO capture_search)
    #[arg(long, value_name = "SEARCH", value_parser = ["aware", "plain"])]
    pub capture_search: Option<String>,
}

/// `--param NAME=VALUE`: a parameter the search knows with a value it reads; made only by
/// parsing, so that giving it to the engine cannot fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParam {
    name: String,
    value: String,
}

impl std::str::FromStr for SearchParam {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (name, value) = s.split_once('=').ok_or("expected NAME=VALUE")?;
        Params::default()
            .set(name, value)
            .map_err(|e| e.to_string())?;
        Ok(SearchParam {
            name: name.to_string(),
            value: value.to_string(),
        })
    }
}

impl SearchParam {
    /// Sets this parameter in `params`.
    pub fn apply(&self, params: &mut Params) {
        params
            .set(&self.name, &self.value)
            .expect("a SearchParam is checked when it is parsed");
    }
}

impl EngineOptions {
    /// Gives the settings to the engine as the `INFO` lines they stand for would.
    pub fn apply(&self, engine: &mut Engine) {
        let keys = [
            ("game", self.game.clone()),
            ("rule", self.rule.map(|v| v.to_string())),
            ("k", self.k.map(|v| v.to_string())),
            // INFO hash_size counts KiB
            (
                "hash_size",
                self.hash.map(|mb| mb.saturating_mul(1024).to_string()),
            ),
            ("thread_num", self.threads.map(|v| v.to_string())),
            ("max_depth", self.depth.map(|v| v.to_string())),
            ("c4_player", self.c4_player.clone()),
            ("opening_rule", self.opening.clone()),
            ("capture_search", self.capture_search.clone()),
        ];
        for (key, value) in keys {
            if let Some(value) = value {
                engine.set_info(key, &value);
            }
        }
        for p in &self.param {
            p.apply(&mut engine.params);
        }
    }
}

/// `--game`: any name `INFO game` accepts.
fn game_name(s: &str) -> Result<String, String> {
    GameKind::from_name(s, GomokuRule::Freestyle, None)
        .map(|_| s.to_string())
        .ok_or_else(|| "expected gomoku, connect4, mnk, pente or ninuki".to_string())
}

/// `--c4-player`: any name `INFO c4_player` accepts.
fn c4_player_name(s: &str) -> Result<String, String> {
    connect4::Player::parse(s)
        .map(|_| s.to_string())
        .ok_or_else(|| "expected solver, beam, uct, mc, greedy or random".to_string())
}

/// `--opening`: any name `INFO opening_rule` accepts.
fn opening_rule_name(s: &str) -> Result<String, String> {
    OpeningRule::parse(s)
        .map(|_| s.to_string())
        .ok_or_else(|| "expected none, pro, longpro or swap1".to_string())
}

/// `pbrain-wuzi bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth
    #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// A gomoku search parameter for the bench's searches (src/search/gomoku/params.rs Params); repeatable
    #[arg(long, value_name = "NAME=VALUE")]
    pub param: Vec<SearchParam>,
}

impl BenchArgs {
    /// The search parameters the bench runs with: the defaults, then each `--param`, so that a
    /// switch's `Bench: N` can be read without a build that turns it on.
    pub fn params(&self) -> Params {
        let mut params = Params::default();
        for p in &self.param {
            p.apply(&mut params);
        }
        params
    }
}

/// `pbrain-wuzi tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Where the fitted weights go as Rust source (normally src/game/gomoku/weights.rs); default stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Also write the training positions (pos, result for the side to move, static eval)
    #[arg(long, value_name = "FILE")]
    pub positions: Option<std::path::PathBuf>,
    /// Full-batch optimisation steps
    #[arg(long, value_name = "N", default_value_t = 3000)]
    pub epochs: usize,
    /// Step size in eval points
    #[arg(long, value_name = "R", default_value_t = 2.0)]
    pub rate: f64,
    /// Pull of the per-cell weights towards the build's (L2; the tempo and threat table move freely)
    #[arg(long, value_name = "L", default_value_t = 1e-7)]
    pub l2: f64,
    /// A teacher's search scores of the positions (lines `pos score`, as scripts/label-positions.py writes them)
    #[arg(long, value_name = "FILE")]
    pub teacher: Option<std::path::PathBuf>,
    /// Share of the teacher's score in each position's target (the game result has the rest)
    #[arg(long, value_name = "W", default_value_t = 0.5)]
    pub teacher_weight: f64,
    /// Fit only the positions the teacher scored within +-N (drops unscored and decided ones)
    #[arg(long, value_name = "N", requires = "teacher")]
    pub teacher_within: Option<i32>,
    /// Fit only the tempo and the threat table; every other evaluation weight stays the build's
    #[arg(long)]
    pub only_threats: bool,
    /// Hold the threat table at the build's values and fit every other weight (a teacher's
    /// window leaves out the won positions the table's entries are about)
    #[arg(long, conflicts_with = "only_threats")]
    pub hold_threats: bool,
    /// Fit the per-cell weights by least squares to a stronger engine's static per-cell values
    /// (lines `pos value`, as `scripts/label-positions.py --rapfi-static` writes them); the
    /// tempo and threat table stay the build's
    #[arg(long, value_name = "FILE", conflicts_with_all = ["teacher", "only_threats"])]
    pub static_teacher: Option<std::path::PathBuf>,
    /// Game records: the arena's games.jsonl files
    #[arg(required = true, value_name = "GAMES.jsonl")]
    pub games: Vec<std::path::PathBuf>,
}

impl TuneArgs {
    /// The tuner's options.
    pub fn options(&self) -> crate::tune::TuneOptions {
        crate::tune::TuneOptions {
            games: self.games.clone(),
            out: self.out.clone(),
            positions: self.positions.clone(),
            epochs: self.epochs,
            rate: self.rate,
            l2: self.l2,
            teacher: self.teacher.clone(),
            teacher_weight: self.teacher_weight,
            teacher_within: self.teacher_within,
            only_threats: self.only_threats,
            hold_threats: self.hold_threats,
            static_teacher: self.static_teacher.clone(),
        }
    }
}

/// The games `solve` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveGame {
    #[value(alias = "c4")]
    Connect4,
    Mnk,
}

/// Table entries of a book build by default: 2^26 (512 MB), for the minutes-long solves of
/// the first plies.
const BOOK_TT_ENTRIES: usize = 1 << 26;

/// `pbrain-wuzi solve`: one game's options; the board defaults to 7×6 (connect4) or 3×3 (mnk).
#[derive(Debug, Args)]
#[command(
    after_help = "Input: one position a line. connect4: the columns played (1-based, a = 10), `-` for the empty board, optionally followed by the expected score; prints `position score nodes microseconds`. mnk: x,y moves separated by spaces, black first, an empty line for the empty board; prints `value plies nodes microseconds`."
)]
pub struct SolveArgs {
    /// Game of the positions
    #[arg(long, value_enum, default_value_t = SolveGame::Connect4)]
    pub game: SolveGame,
    /// Board width (connect4 default 7, mnk default 3)
    #[arg(short = 'w', long, value_name = "W")]
    pub width: Option<usize>,
    /// Board height (connect4 default 6, mnk default 3)
    #[arg(long, value_name = "H")]
    pub height: Option<usize>,
    /// Width and height at once
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Stones in a row that win (connect4 default 4, mnk default 3)
    #[arg(short = 'k', long, value_name = "K")]
    pub k: Option<usize>,
    /// connect4: only the sign of the score (win, draw or loss), faster
    #[arg(long)]
    pub weak: bool,
    // no default_value_t: mnk must tell whether it was given; the help still shows the default
    #[arg(
        long,
        value_name = "N",
        help = format!(
            "connect4: transposition table entries, 8 bytes each [default: {}]",
            connect4::solver::DEFAULT_TT_ENTRIES
        )
    )]
    pub tt_entries: Option<usize>,
    /// connect4: give up a position after S seconds and print TIMEOUT
    #[arg(long, value_name = "S")]
    pub timeout_s: Option<f64>,
    /// connect4: solver threads sharing the table (nodes printed are all threads')
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// connect4: build the opening book into FILE (resumed when FILE holds one; a table of
    /// 2^26 entries unless --tt-entries) instead of reading positions
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// connect4: print each position's evaluation terms (for scripts/lab/c4-fit-eval.py)
    /// instead of solving it
    #[arg(long, conflicts_with = "book")]
    pub features: bool,
    /// connect4 --book: deepest ply (stones on the board) of a stored position
    #[arg(long, value_name = "N", default_value_t = 24)]
    pub book_ply: usize,
    /// connect4 --book: positions the engine solves cold within N nodes are left out
    #[arg(long, value_name = "N", default_value_t = 250_000)]
    pub book_nodes: u64,
    /// connect4: train an n-tuple value network for the board by self-play and write it to
    /// FILE (the shipped 12x6 one: the defaults) instead of reading positions
    #[arg(long, value_name = "FILE", conflicts_with_all = ["book", "features"])]
    pub train_ntuple: Option<std::path::PathBuf>,
    /// connect4 --train-ntuple: self-play games
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub ntuple_games: u64,
    /// connect4 --train-ntuple: seed of the tuples and of the games
    #[arg(long, value_name = "S", default_value_t = 3)]
    pub ntuple_seed: u64,
    /// connect4 --train-ntuple: how many tuples (random walks over the board)
    #[arg(long, value_name = "N", default_value_t = train::TUPLES)]
    pub ntuple_tuples: usize,
    /// connect4 --train-ntuple: cells in a tuple (1 to 8)
    #[arg(long, value_name = "N", default_value_t = train::TUPLE_CELLS)]
    pub ntuple_cells: usize,
    /// connect4 --train-ntuple: train the network in FILE further (slower learning, less
    /// exploration) instead of a new one
    #[arg(long, value_name = "FILE", requires = "train_ntuple")]
    pub ntuple_from: Option<std::path::PathBuf>,
    /// connect4 --train-ntuple: from ply N on, end a game at the solver's exact result when
    /// a short weak solve settles it (tried every other ply)
    #[arg(long, value_name = "N", requires = "train_ntuple")]
    pub ntuple_solve_from: Option<usize>,
    /// connect4 --train-ntuple: the games' moves chosen by the midgame search to depth N
    /// (hand-set terms plus the network being trained) instead of the best afterstate
    #[arg(long, value_name = "N", requires = "train_ntuple")]
    pub ntuple_search_depth: Option<u32>,
}

impl SolveArgs {
    /// Reads positions from `input` and writes one result line each to `out`.
    pub fn run(&self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), CliError> {
        let usage = |message: String| CliError::Usage(UsageError::new(Some("solve"), message));
        let width = self.width.or(self.size);
        let height = self.height.or(self.size);
        match self.game {
            SolveGame::Connect4 => {
                let d = solve::connect4::SolveOptions::default();
                let o = solve::connect4::SolveOptions {
                    width: width.unwrap_or(d.width),
                    height: height.unwrap_or(d.height),
                    k: self.k.unwrap_or(d.k),
                    weak: self.weak,
                    tt_entries: self.tt_entries.unwrap_or(d.tt_entries),
                    timeout_s: self.timeout_s,
                    threads: self.threads,
                };
                o.check().map_err(|e| usage(e.to_string()))?;
                if let Some(path) = &self.book {
                    let b = solve::book::BuildOptions {
                        max_ply: self.book_ply,
                        node_threshold: self.book_nodes,
                        // The build's long solves want a large table unless told otherwise.
                        tt_entries: self.tt_entries.unwrap_or(BOOK_TT_ENTRIES),
                        checkpoint: std::time::Duration::from_secs(300),
                    };
                    return solve::book::book_cli(
                        o.width,
                        o.height,
                        o.k,
                        &b,
                        path,
                        out,
                        &mut std::io::stderr(),
                    )
                    .map_err(CliError::Failed);
                }
                if self.features {
                    return solve::connect4::features_cli(&o, input, out).map_err(CliError::Failed);
                }
                if let Some(path) = &self.train_ntuple {
                    let t = train::NtupleTraining {
                        games: self.ntuple_games,
                        seed: self.ntuple_seed,
                        tuples: self.ntuple_tuples,
                        cells: self.ntuple_cells,
                        init: self.ntuple_from.clone(),
                        solve_from: self.ntuple_solve_from,
                        search_depth: self.ntuple_search_depth,
                    };
                    return train::train_ntuple_cli(&o, &t, path, &mut std::io::stderr())
                        .map_err(CliError::Failed);
                }
                solve::connect4::solve_cli(&o, input, out).map_err(CliError::Failed)
            }
            SolveGame::Mnk => {
                let connect4_only = [
                    ("--weak", self.weak),
                    ("--tt-entries", self.tt_entries.is_some()),
                    ("--timeout-s", self.timeout_s.is_some()),
                    ("--threads", self.threads != 1),
                    ("--book", self.book.is_some()),
                    ("--features", self.features),
                    ("--train-ntuple", self.train_ntuple.is_some()),
                ];
                if let Some((flag, _)) = connect4_only.iter().find(|(_, given)| *given) {
                    return Err(usage(format!("{flag} applies to --game connect4 only")));
                }
                let d = solve::mnk::SolveOptions::default();
                let o = solve::mnk::SolveOptions {
                    width: width.unwrap_or(d.width),
                    height: height.unwrap_or(d.height),
                    k: self.k.unwrap_or(d.k),
                };
                o.check().map_err(|e| usage(e.to_string()))?;
                solve::mnk::solve_cli(&o, input, out).map_err(CliError::Failed)
            }
        }
    }
}

/// `pbrain-wuzi play`.
#[derive(Debug, Args)]
#[command(
    after_help = "Moves are typed as h8 (column letter, row number from the top) or 7,7, a column number in Connect Four; `undo` takes back your last move and the engine's reply, `quit` ends the game."
)]
pub struct PlayArgs {
    #[command(flatten)]
    pub engine: EngineOptions,
    /// Board width and height (default 15, pente and ninuki 19, connect4 7x6, mnk 3x3)
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Board width
    #[arg(long, value_name = "W")]
    pub width: Option<usize>,
    /// Board height
    #[arg(long, value_name = "H")]
    pub height: Option<usize>,
    /// Engine time per move in ms
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = clap::value_parser!(i64).range(0..))]
    pub time: i64,
    /// The engine plays black and moves first
    #[arg(long)]
    pub engine_first: bool,
    /// Save the game as a Piskvork .psq record here
    #[arg(long, value_name = "FILE", default_value = "wuzi-game.psq")]
    pub record: PathBuf,
    /// Do not save the game
    #[arg(long, conflicts_with = "record")]
    pub no_record: bool,
}

impl PlayArgs {
    /// Gives the engine its settings and returns the game's options.
    pub fn setup(&self, engine: &mut Engine) -> PlayOptions {
        self.engine.apply(engine);
        let (width, height) = match engine.settings.kind() {
            GameKind::Connect4 { .. } => (7, 6),
            GameKind::Mnk { .. } => (3, 3),
            GameKind::Gomoku(_) => (15, 15),
            GameKind::Capture { .. } => (19, 19),
        };
        PlayOptions {
            width: self.width.or(self.size).unwrap_or(width),
            height: self.height.or(self.size).unwrap_or(height),
            engine_first: self.engine_first,
            move_ms: self.time,
            record: (!self.no_record).then(|| self.record.clone()),
        }
    }
}

/// How a command failed: a usage error (exit code 2) or a failure while running (exit 1).
#[derive(Debug)]
pub enum CliError {
    Usage(UsageError),
    Failed(anyhow::Error),
}

/// Option values the parser accepted that do not work together, reported as clap reports its
/// own errors: the message, the usage of the (sub)command, exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    /// The subcommand whose usage is shown; `None` for the top level.
    pub subcommand: Option<&'static str>,
    pub message: String,
}

impl UsageError {
    pub fn new(subcommand: Option<&'static str>, message: String) -> UsageError {
        UsageError {
            subcommand,
            message,
        }
    }

    /// The error as clap's own, ready to print and exit with.
    pub fn to_clap(&self) -> clap::Error {
        let mut cmd = Cli::command();
        // building gives the subcommands their full names for the usage line
        cmd.build();
        let cmd = match self.subcommand {
            Some(name) => cmd
                .find_subcommand_mut(name)
                .expect("UsageError names a real subcommand"),
            None => &mut cmd,
        };
        cmd.error(ErrorKind::ValueValidation, &self.message)
    }
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

/// Parses `pbrain-wuzi play ARGS` and sets up a fresh engine with it (for tests).
#[cfg(test)]
pub(crate) fn play_from_args(args: &[&str]) -> (Engine, PlayOptions) {
    let argv = ["pbrain-wuzi", "play"]
        .into_iter()
        .chain(args.iter().copied());
    let Some(Command::Play(p)) = Cli::try_parse_from(argv).unwrap().command else {
        panic!("{args:?} is not a play command line");
    };
    let mut engine = Engine::new();
    let opts = p.setup(&mut engine);
    (engine, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn engine_options_reach_the_engine_as_info_keys() {
        let cli = Cli::try_parse_from([
            "pbrain-wuzi",
            "--game",
            "connect4",
            "--k=5",
            "--hash",
            "2",
            "--threads",
            "3",
            "--threads",
            "1",
            "--param",
            "beam=17",
        ])
        .unwrap();
        let mut engine = Engine::new();
        cli.engine.apply(&mut engine);
        assert_eq!(engine.settings.kind(), GameKind::Connect4 { k: 5 });
        assert_eq!(engine.settings.hash_kib, Some(2048));
        // repeating an option keeps the last value, as repeating an INFO line does
        assert_eq!(engine.settings.threads, Some(1));
        assert_eq!(engine.params.beam, 17);
    }

    #[test]
    fn values_the_engine_would_ignore_are_refused() {
        for args in [
            &["--game", "chess"][..],
            &["--k", "0"],
            &["--threads", "0"],
            &["--hash", "x"],
            &["--param", "beam"],
            &["--param", "no_such=1"],
            &["--param", "beam=wide"],
            &["--c4-player", "oracle"],
            &["--opening", "swap9"],
            &["--threads", "1", "bench"],
        ] {
            let argv = std::iter::once("pbrain-wuzi").chain(args.iter().copied());
            let e = Cli::try_parse_from(argv).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}: {e}");
        }
    }

    fn play_setup(args: &[&str]) -> PlayOptions {
        play_from_args(args).1
    }

    #[test]
    fn play_board_follows_the_game_unless_given() {
        let o = play_setup(&[]);
        assert_eq!((o.width, o.height, o.move_ms), (15, 15, 2000));
        assert_eq!(o.record, Some(PathBuf::from("wuzi-game.psq")));
        let o = play_setup(&["--game", "c4", "--no-record"]);
        assert_eq!((o.width, o.height, o.record), (7, 6, None));
        let o = play_setup(&["--game", "mnk", "--size", "5", "--height", "4"]);
        assert_eq!((o.width, o.height), (5, 4));
    }
}
