//! `wuzi-arena`: the tournament runner behind `scripts/`. Argument dispatch only: the
//! options are parsed (with clap) by `wuzi::arena::cli`, the run is `wuzi::arena::app` (`merge` and
//! `status` have modules of their own), and this file picks the referee (the crate's own
//! rules, through `AnyGame`) for the chosen game. A command-line error exits with 2 after
//! the usage lines, a failed run with 1.

use anyhow::{Context, Result};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use wuzi::arena::balance::BalanceSpec;
use wuzi::arena::cli::{self, Command, RunOptions};
use wuzi::arena::referee::GameKind as ArenaKind;
use wuzi::arena::referee::GameSetup;
use wuzi::arena::{app, balance, merge, report, status};
use wuzi::game::{AnyGame, CaptureRule, GameKind, GomokuRule};

/// The shortest time between two rewrites of a `--report` page during a run.
const PAGE_EVERY: Duration = Duration::from_secs(2);

/// The crate's game kind for the arena's: the one place the two vocabularies meet.
fn game_kind(kind: ArenaKind) -> GameKind {
    match kind {
        ArenaKind::Gomoku { rule } => GameKind::Gomoku(GomokuRule::from_mask(rule as i64)),
        ArenaKind::Connect4 { k } => GameKind::Connect4 { k: k as usize },
        ArenaKind::Mnk { k } => GameKind::Mnk { k: k as usize },
        ArenaKind::Pente => GameKind::Capture {
            rule: CaptureRule::Pente,
            aware: true,
        },
        ArenaKind::Ninuki => GameKind::Capture {
            rule: CaptureRule::Ninuki,
            aware: true,
        },
    }
}

/// An empty referee board for the setup; built once up front, so an unsupported size is
/// reported before any engine starts.
fn empty_board(setup: &GameSetup) -> Result<AnyGame> {
    let kind = game_kind(setup.kind);
    let (w, h) = (setup.width, setup.height);
    AnyGame::new(kind, w, h).with_context(|| format!("{} on {w}x{h}", kind.describe()))
}

fn gen_openings(setup: &GameSetup, spec: &BalanceSpec, to_pos: bool) -> Result<()> {
    let empty = empty_board(setup)?;
    let found = balance::generate(&empty, spec);
    let header = format!(
        "{} near-level openings for {} on {}x{}: {}-{} stones within {} of the centre,\n\
         |static evaluation| <= {}, seed {} (wuzi-arena gen-openings)",
        found.len(),
        game_kind(setup.kind).describe(),
        setup.width,
        setup.height,
        spec.min_stones,
        spec.max_stones,
        spec.radius,
        spec.max_eval,
        spec.seed
    );
    let s = app::format_generated(&found, &header, setup.width, setup.height, to_pos);
    std::io::stdout().write_all(s.as_bytes())?;
    if found.len() < spec.count {
        log::warn!(
            "found {} of {} openings in {} tries",
            found.len(),
            spec.count,
            spec.max_tries
        );
    }
    Ok(())
}

fn run(o: &RunOptions) -> Result<()> {
    let empty = empty_board(&o.setup)?;
    let referee = move || empty.clone();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let live = stderr.is_terminal();
    let (mut out, mut progress) = (stdout.lock(), stderr.lock());
    let Some((page, dir)) = o.report.as_ref().zip(o.out_dir.as_ref()) else {
        app::run(o, &referee, &mut out, &mut progress, live)?;
        return Ok(());
    };
    // the live page: rewritten after a game at most every PAGE_EVERY (each rewrite reads
    // the whole journal), and once more at the end
    let dirs = std::slice::from_ref(dir);
    let mut written: Option<Instant> = None;
    let mut rewrite = || {
        if written.is_none_or(|t| t.elapsed() >= PAGE_EVERY) {
            if let Err(e) = report::write(dirs, page) {
                log::warn!("--report {}: {e}", page.display());
            }
            written = Some(Instant::now());
        }
    };
    app::run_with_hook(o, &referee, &mut out, &mut progress, live, &mut rewrite)?;
    report::write(dirs, page).with_context(|| format!("--report {}", page.display()))?;
    Ok(())
}

/// Does what the command line asks; errors are the run's (exit 1), the command line's
/// were caught before (exit 2).
fn execute(command: Command) -> Result<()> {
    match command {
        Command::Help(text) => print!("{text}"),
        Command::Version => println!("wuzi-arena {}", env!("CARGO_PKG_VERSION")),
        Command::ConvertOpenings {
            input,
            width,
            height,
            to_pos,
        } => {
            let text =
                std::fs::read_to_string(&input).with_context(|| format!("{}", input.display()))?;
            let s = app::convert_openings(&text, width, height, to_pos)?;
            std::io::stdout().write_all(s.as_bytes())?;
        }
        Command::GenOpenings {
            setup,
            spec,
            to_pos,
        } => gen_openings(&setup, &spec, to_pos)?,
        Command::Merge(m) => {
            let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
            merge::run(&m, &mut stdout.lock(), &mut stderr.lock()).context("merge")?;
        }
        Command::Status { dirs } => {
            status::run(&dirs, &mut std::io::stdout().lock()).context("status")?;
        }
        Command::Report { dirs, out } => {
            report::write(&dirs, &out).context("report")?;
            println!("wrote {}", out.display());
        }
        Command::Run(o) => run(&o)?,
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match cli::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("wuzi-arena: {e}\n{}(see --help)", e.usage);
            return ExitCode::from(2);
        }
    };
    match execute(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:?}");
            ExitCode::FAILURE
        }
    }
}
