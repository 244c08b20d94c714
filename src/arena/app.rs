//! What `wuzi-arena` does with parsed options: load the openings, expand a grid, run the
//! tournament with a live progress line, then print the table (and the grid's CSV).
//!
//! It lives in the library, generic over the referee, so the whole flow is tested with fake
//! engines and a test board; the binary only chooses the referee for the game kind and
//! hands over stdout and stderr as writers (library code never prints by itself).

use super::cli::RunOptions;
use super::grid::{self, GridPoint};
use super::opening::{self, OpeningError};
use super::tournament::{self, ArenaError, Standings, TournamentConfig};
use crate::game::Game;
use std::fmt;
use std::io::Write;

/// Why a run failed.
#[derive(Debug)]
pub enum AppError {
    Openings(OpeningError),
    Arena(ArenaError),
    Io(std::io::Error),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Openings(e) => write!(f, "openings: {e}"),
            AppError::Arena(e) => write!(f, "{e}"),
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

/// Runs a tournament or a grid. The progress line goes to `progress`, rewritten in place
/// with `\r` when `live` (a terminal), one line per game otherwise (a log file). A grid's
/// table goes to `progress` and its CSV to its file, or to `out` when none is given; a
/// tournament's table goes to `out`.
pub fn run<G: Game>(
    o: &RunOptions,
    referee: &(dyn Fn() -> G + Sync),
    out: &mut dyn Write,
    progress: &mut dyn Write,
    live: bool,
) -> Result<Standings, AppError> {
    let openings = match &o.openings {
        Some(p) => {
            let text = std::fs::read_to_string(p)?;
            opening::parse_file(&text, o.setup.width, o.setup.height).map_err(AppError::Openings)?
        }
        None => Vec::new(),
    };
    let (engines, points): (Vec<_>, Vec<GridPoint>) = if o.grid.is_empty() {
        (o.engines.clone(), Vec::new())
    } else {
        let expanded = grid::expand(&o.engines[0], &o.grid);
        let points = expanded.iter().map(|(p, _)| p.clone()).collect();
        (expanded.into_iter().map(|(_, e)| e).collect(), points)
    };
    let cfg = TournamentConfig {
        engines,
        format: o.format,
        setup: o.setup,
        time: o.time,
        openings,
        rounds: o.rounds,
        random_symmetry: o.random_symmetry,
        seed: o.seed,
        concurrency: o.concurrency,
        reuse: o.reuse,
        sprt: o.sprt,
        out_dir: o.out_dir.clone(),
    };
    let quiet = o.quiet;
    let standings = tournament::run(&cfg, referee, |_, st| {
        if quiet {
            return;
        }
        let _ = if live {
            write!(progress, "\r{}\x1b[K", st.progress_line())
        } else {
            writeln!(progress, "{}", st.progress_line())
        };
        let _ = progress.flush();
    })
    .map_err(AppError::Arena)?;
    if !quiet && live {
        writeln!(progress)?;
    }
    if o.grid.is_empty() {
        write!(out, "{}", standings.table())?;
    } else {
        write!(progress, "{}", standings.table())?;
        let csv = grid::to_csv(&o.grid, &points, &standings);
        match &o.csv {
            Some(p) => std::fs::write(p, csv)?,
            None => write!(out, "{csv}")?,
        }
    }
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
