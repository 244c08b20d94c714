//! `pbrain-wuzi`: with no arguments, the Gomocup protocol on stdin/stdout (what managers
//! run). Subcommands for people: `bench`, `solve`, `--help`, `--version`.

use anyhow::{bail, Context, Result};
use wuzi::engine::Engine;

const HELP: &str = "\
pbrain-wuzi: a Gomocup / Piskvork protocol engine (gomoku, renju, caro, Connect Four, m,n,k)

USAGE:
  pbrain-wuzi [OPTIONS]            speak the protocol on stdin/stdout (what managers run)
  pbrain-wuzi bench [DEPTH]        fixed-depth search of fixed positions; prints `Nodes searched: N`
  pbrain-wuzi solve [--game connect4|mnk] ...   exact values of positions read from stdin
  pbrain-wuzi play [--game G] [--rule N] [--size N | --width W --height H] [--k K]
                   [--time MS] [--depth N] [--threads N] [--opening pro|longpro]
                   [--engine-first] [--record FILE | --no-record]
                                   play the engine in the terminal
  pbrain-wuzi tune [--out FILE] GAMES.jsonl...   fit the evaluation weights to game results
  pbrain-wuzi --help | --version

OPTIONS (protocol mode; each is also an INFO key the manager may send):
  --game gomoku|connect4|mnk       game to play (INFO game)
  --rule N                         gomoku rule mask: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro-exact
  --k N                            win length for connect4 / mnk (INFO k)
  --hash MB                        transposition table size (overrides INFO max_memory)
  --threads N                      search threads (INFO thread_num)
  --depth N                        maximum search depth (INFO max_depth)
  --c4-player random|greedy|mc|uct|solver   Connect Four player (INFO c4_player)
  --param NAME=VALUE               a gomoku search parameter (src/search/alphabeta.rs Params),
                                   for matches and tuning runs; repeatable

Logs go to stderr; set RUST_LOG=debug for more.
";

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("pbrain-wuzi: {e:#}");
        std::process::exit(2);
    }
}

fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("--help") | Some("-h") | Some("help") => {
            print!("{HELP}");
            Ok(())
        }
        Some("--version") | Some("-V") => {
            println!("pbrain-wuzi {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Some("solve") => solve(&args[1..]),
        Some("tune") => wuzi::tune::run_cli(&args[1..], &mut std::io::stdout().lock()),
        Some("play") => {
            let mut engine = Engine::new();
            let opts = wuzi::play::parse_args(&args[1..], &mut engine)?;
            let stdin = std::io::stdin();
            wuzi::play::play(
                engine,
                &opts,
                &mut stdin.lock(),
                &mut std::io::stdout().lock(),
            )
        }
        Some("bench") => {
            let depth = match args.get(1) {
                Some(d) => d.parse().with_context(|| format!("bench depth {d:?}"))?,
                None => wuzi::bench::DEFAULT_DEPTH,
            };
            wuzi::bench::run(depth, &mut std::io::stdout().lock())?;
            Ok(())
        }
        _ => {
            let engine = engine_from_options(args)?;
            wuzi::protocol::run(engine);
            Ok(())
        }
    }
}

/// Applies command-line options as the INFO keys they stand for.
fn engine_from_options(args: &[String]) -> Result<Engine> {
    let mut engine = Engine::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--param" {
            let kv = it.next().context("--param needs NAME=VALUE")?;
            let (name, value) = kv
                .split_once('=')
                .with_context(|| format!("--param {kv:?}: expected NAME=VALUE"))?;
            engine.params.set(name, value)?;
            continue;
        }
        let key = match flag.as_str() {
            "--game" => "game",
            "--rule" => "rule",
            "--k" => "k",
            "--hash" => "hash_size",
            "--threads" => "thread_num",
            "--depth" => "max_depth",
            "--c4-player" => "c4_player",
            other => bail!("unknown option {other:?} (see --help)"),
        };
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        let value = if key == "hash_size" {
            let mb: u64 = value.parse().with_context(|| format!("--hash {value:?}"))?;
            (mb * 1024).to_string()
        } else {
            value.clone()
        };
        engine.set_info(key, &value);
    }
    Ok(engine)
}

/// `solve`: dispatches to the chosen game's solver.
fn solve(args: &[String]) -> Result<()> {
    let mut game = "connect4".to_string();
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--game" {
            game = it
                .next()
                .context("--game needs a value")?
                .to_ascii_lowercase();
        } else {
            rest.push(a.clone());
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match game.as_str() {
        "connect4" | "c4" => wuzi::game::connect4::solve_cli(&rest, &mut input, &mut out),
        "mnk" => wuzi::game::mnk::solve_cli(&rest, &mut input, &mut out),
        other => bail!("solve: unknown game {other:?} (connect4 or mnk)"),
    }
}
