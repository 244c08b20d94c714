//! What `wuzi-arena` does with parsed options: load the openings, expand a grid, record the
//! run's manifest (checking it against the directory's when resuming), run the tournament
//! or its shard with a live progress line, then print the table (and the grid's CSV).
//!
//! It lives in the library, generic over the referee, so the whole flow is tested with fake
//! engines and a test board; the binary only chooses the referee for the game kind and
//! hands over stdout and stderr as writers (library code never prints by itself).

use super::cli::RunOptions;
use super::engine::EngineSpec;
use super::grid::{self, GridPoint};
use super::journal;
use super::manifest::{Manifest, ManifestError};
use super::opening::{self, OpeningError};
use super::progress::{self, SessionClock};
use super::tournament::{self, ArenaError, RunControl, Standings, TournamentConfig};
use crate::game::Game;
use std::fmt;
use std::io::Write;
use std::path::Path;

/// Why a run failed.
#[derive(Debug)]
pub enum AppError {
    Openings(OpeningError),
    /// An openings file that cannot be read.
    OpeningsFile(std::path::PathBuf, std::io::Error),
    Arena(ArenaError),
    Manifest(ManifestError),
    /// `--resume` in another shard's directory.
    OtherShard {
        dir: std::path::PathBuf,
        found: super::shard::Shard,
        asked: super::shard::Shard,
    },
    Io(std::io::Error),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Openings(e) => write!(f, "openings: {e}"),
            AppError::OpeningsFile(p, e) => write!(f, "openings file {}: {e}", p.display()),
            AppError::Arena(e) => write!(f, "{e}"),
            AppError::Manifest(e) => write!(f, "{e}"),
            AppError::OtherShard { dir, found, asked } => write!(
                f,
                "{} holds shard {found}, not {asked}: resume it with --shard {found}",
                dir.display()
            ),
            AppError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AppError {}

impl From<std::io::Error> for AppError {
    fn from(e: std::io::Error) -> AppError {
        AppError::Io(e)
    }
}

/// The engines a run plays: the ones given, or a grid's configurations of the first with
/// their grid points.
pub fn field(o: &RunOptions) -> (Vec<EngineSpec>, Vec<GridPoint>) {
    if o.grid.is_empty() {
        return (o.engines.clone(), Vec::new());
    }
    let (points, engines) = grid::expand(&o.engines[0], &o.grid).into_iter().unzip();
    (engines, points)
}

/// Prints a run's results: a tournament's table to `out`; a grid's table to `progress` and
/// its CSV to `csv`, or to `out` when no file is given.
pub fn report(
    o: &RunOptions,
    standings: &Standings,
    csv: Option<&Path>,
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> std::io::Result<()> {
    if o.grid.is_empty() {
        return write!(out, "{}", standings.table());
    }
    write!(progress, "{}", standings.table())?;
    let text = grid::to_csv(&o.grid, &field(o).1, standings);
    match csv {
        Some(p) => std::fs::write(p, text),
        None => write!(out, "{text}"),
    }
}

/// Records the run in its output directory. When resuming, the directory's manifest must
/// describe the same run and shard, and is kept as it is (a directory without one has
/// nothing to resume).
fn record_manifest(o: &RunOptions, m: &Manifest, dir: &Path) -> Result<(), AppError> {
    if o.resume {
        match Manifest::read(dir) {
            Ok(old) => {
                Manifest::check_same_run((&old, dir), (m, Path::new("this command")))
                    .map_err(AppError::Manifest)?;
                if old.shard != m.shard {
                    return Err(AppError::OtherShard {
                        dir: dir.to_path_buf(),
                        found: old.shard,
                        asked: m.shard,
                    });
                }
                return Ok(());
            }
            Err(ManifestError::Missing(_)) if !dir.join(journal::FILE).exists() => {}
            Err(e) => return Err(AppError::Manifest(e)),
        }
    }
    m.write(dir).map_err(AppError::Manifest)
}

/// Says what a resumed run found: games done, and a line cut by a killed process (the
/// tournament cuts it off and plays that game again).
fn resume_note(dir: &Path, total: usize, progress: &mut dyn Write) -> Result<(), AppError> {
    let contents = journal::read(&dir.join(journal::FILE))
        .map_err(|e| AppError::Arena(ArenaError::Journal(e)))?;
    let cut = if contents.cut.is_some() {
        "; its last line was cut short by the interruption: that game is played again"
    } else {
        ""
    };
    writeln!(
        progress,
        "resuming {}: {} of {total} games done{cut}",
        dir.display(),
        contents.entries.len()
    )?;
    Ok(())
}

/// Runs a tournament, a shard of one, or a grid. The progress line goes to `progress`,
/// rewritten in place with `\r` when `live` (a terminal), one line per game otherwise (a
/// log file); results are printed by [`report`].
pub fn run<G: Game>(
    o: &RunOptions,
    referee: &(dyn Fn() -> G + Sync),
    out: &mut dyn Write,
    progress: &mut dyn Write,
    live: bool,
) -> Result<Standings, AppError> {
    run_with_hook(o, referee, out, progress, live, &mut || {})
}

/// [`run`], calling `after_game` as each game ends, once its record is written (the
/// binary rewrites the `--report` page there: the page is made from the records).
pub fn run_with_hook<G: Game>(
    o: &RunOptions,
    referee: &(dyn Fn() -> G + Sync),
    out: &mut dyn Write,
    progress: &mut dyn Write,
    live: bool,
    after_game: &mut dyn FnMut(),
) -> Result<Standings, AppError> {
    let mut openings_text = None;
    let openings = match &o.openings {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| AppError::OpeningsFile(p.to_path_buf(), e))?;
            let parsed = opening::parse_file(&text, o.setup.width, o.setup.height)
                .map_err(AppError::Openings)?;
            openings_text = Some(text);
            parsed
        }
        None => Vec::new(),
    };
    let cfg = TournamentConfig {
        engines: field(o).0,
        format: o.format,
        setup: o.setup,
        time: o.time,
        openings,
        rounds: o.rounds,
        max_games: o.max_games,
        random_symmetry: o.random_symmetry,
        seed: o.seed,
        concurrency: o.concurrency,
        reuse: o.reuse,
        sprt: o.sprt,
        out_dir: o.out_dir.clone(),
    };
    if let Some(dir) = &o.out_dir {
        let planned = tournament::schedule(&cfg).len();
        let m = Manifest::new(o, planned, openings_text.as_deref());
        record_manifest(o, &m, dir)?;
        if o.resume && !o.quiet && dir.join(journal::FILE).exists() {
            resume_note(dir, o.shard.games(planned).len(), progress)?;
        }
    }
    let control = RunControl {
        shard: o.shard,
        resume: o.resume,
    };
    let quiet = o.quiet;
    let mut clock = SessionClock::new();
    let standings = tournament::run_with(&cfg, &control, referee, |_, st| {
        after_game();
        if quiet {
            return;
        }
        let eta = clock.eta(st.games, st.planned);
        let line = progress::line(o.shard, st, eta);
        let _ = if live {
            write!(progress, "\r{line}\x1b[K")
        } else {
            writeln!(progress, "{line}")
        };
        let _ = progress.flush();
    })
    .map_err(AppError::Arena)?;
    if !quiet && live {
        writeln!(progress)?;
    }
    report(o, &standings, o.csv.as_deref(), out, progress)?;
    Ok(standings)
}

/// Rewrites an opening file for a board size: pos format (`h8i9`) or offsets. Openings
/// that do not fit the board (Piskvork's classic list reaches 8 cells from the centre, past
/// a 15×15 edge) become `#` comment lines naming the source line, so the output still
/// accounts for every input line.
pub fn convert_openings(
    text: &str,
    width: usize,
    height: usize,
    to_pos: bool,
) -> Result<String, OpeningError> {
    let mut s = String::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        match opening::parse_line(l, i + 1, width, height) {
            Ok(o) if to_pos => s.push_str(&opening::to_pos(&o)),
            Ok(o) => s.push_str(&opening::to_offsets(&o, width, height)),
            Err(OpeningError::OffBoard { line }) => {
                s.push_str(&format!("# line {line} does not fit {width}x{height}: {l}"))
            }
            Err(e) => return Err(e),
        }
        s.push('\n');
    }
    Ok(s)
}

/// An opening file of generated openings, one a line, under a `#` header recording how
/// they were made.
pub fn format_generated(
    openings: &[(Vec<crate::game::Move>, i32)],
    header: &str,
    width: usize,
    height: usize,
    to_pos: bool,
) -> String {
    let mut s = String::new();
    for l in header.lines() {
        s.push_str("# ");
        s.push_str(l);
        s.push('\n');
    }
    for (o, _) in openings {
        if to_pos {
            s.push_str(&opening::to_pos(o));
        } else {
            s.push_str(&opening::to_offsets(o, width, height));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_file_round_trips() {
        use crate::game::Move;
        let v = vec![(vec![Move::new(7, 7), Move::new(8, 8), Move::new(6, 9)], 3)];
        let s = format_generated(&v, "made by a test\nseed 1", 15, 15, true);
        assert_eq!(s, "# made by a test\n# seed 1\nh8i9g10\n");
        assert_eq!(
            opening::parse_file(&s, 15, 15).unwrap(),
            vec![v[0].0.clone()]
        );
        let o = format_generated(&v, "", 15, 15, false);
        assert_eq!(o, "0,0, 1,1, -1,2\n");
    }

    #[test]
    fn converts_offsets_to_pos_and_back() {
        let pos = convert_openings("# x\n0,0, 1,0, 1,3\n", 15, 15, true).unwrap();
        assert_eq!(pos, "h8i8i11\n");
        assert_eq!(
            convert_openings(&pos, 15, 15, false).unwrap(),
            "0,0, 1,0, 1,3\n"
        );
        assert_eq!(
            convert_openings("0,0, 9,9\n0,0\n", 15, 15, true).unwrap(),
            "# line 1 does not fit 15x15: 0,0, 9,9\nh8\n"
        );
        assert!(convert_openings("0,0, 9", 15, 15, true).is_err());
    }
}
