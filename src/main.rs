//! `pbrain-wuzi`: without a command, the Gomocup protocol on stdin/stdout (what managers
//! run); `bench`, `solve`, `play` and `tune` for people. The command line is [`wuzi::cli::Cli`].
//!
//! Exit codes: 0 done, 1 a command failed while running, 2 a usage error (with the usage).

use clap::Parser;
use wuzi::cli::{Cli, CliError, Command};
use wuzi::engine::Engine;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // Parsing ends here with the help, the version or a usage error when that is the answer.
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => {}
        Err(CliError::Usage(e)) => e.to_clap().exit(),
        Err(CliError::Failed(e)) => {
            eprintln!("pbrain-wuzi: {e:#}");
            std::process::exit(1);
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    let mut engine = Engine::new();
    let stdout = std::io::stdout();
    match cli.command {
        None => {
            cli.engine.apply(&mut engine);
            wuzi::protocol::run(engine);
            Ok(())
        }
        Some(Command::Bench(b)) => wuzi::bench::run(b.depth, b.params(), &mut stdout.lock())
            .map(drop)
            .map_err(|e| CliError::Failed(e.into())),
        Some(Command::Solve(s)) => s.run(&mut std::io::stdin().lock(), &mut stdout.lock()),
        Some(Command::Play(p)) => {
            let opts = p.setup(&mut engine);
            wuzi::play::play(
                engine,
                &opts,
                &mut std::io::stdin().lock(),
                &mut stdout.lock(),
            )
            .map_err(CliError::Failed)
        }
        Some(Command::Tune(t)) => {
            wuzi::tune::run(&t.options(), &mut stdout.lock()).map_err(CliError::Failed)
        }
    }
}
