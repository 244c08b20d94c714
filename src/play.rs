//! `pbrain-wuzi play`: a person plays the engine in the terminal, in any mode.
//!
//! The board is drawn with letters for columns (`a` = x 0) and numbers for rows (`1` = y 0,
//! the top row, as Piskvork draws it); moves are typed as `h8` or `7,7` (or a column number
//! in Connect Four). `undo` takes back the last pair of moves, `quit` ends the game. Each side
//! has a clock, the engine's evaluation is shown after its move, and the game is saved as a
//! Piskvork `.psq` record, which Piskvork and `wuzi-arena` read.
//!
//! This is a front end for people: it drives the same [`Engine`] facade as the protocol.

use crate::engine::Engine;
use crate::game::{Color, Game, GameKind, Move, Outcome};
use crate::search::{Iteration, Stop};
use anyhow::{Context, Result};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Options of a terminal game.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub width: usize,
    pub height: usize,
    /// The engine plays black (moves first).
    pub engine_first: bool,
    /// Engine time per move, ms.
    pub move_ms: i64,
    /// Where the record is written; None = not saved.
    pub record: Option<std::path::PathBuf>,
}

/// Column label: `a`..`z`, then `A`.. for boards wider than 26.
pub fn column_label(x: usize) -> char {
    if x < 26 {
        (b'a' + x as u8) as char
    } else {
        (b'A' + (x - 26) as u8) as char
    }
}

/// Parses a typed move: `h8` (letter column, 1-based row), `7,7` (protocol coordinates), or
/// in Connect Four a 1-based column number (the landing cell is found by the caller).
pub fn parse_move(text: &str) -> Option<(usize, Option<usize>)> {
    let t = text.trim();
    if let Some((x, y)) = t.split_once(',') {
        return Some((x.trim().parse().ok()?, Some(y.trim().parse().ok()?)));
    }
    let mut chars = t.chars();
    let first = chars.next()?;
    if first.is_ascii_digit() {
        let col: usize = t.parse().ok()?;
        return Some((col.checked_sub(1)?, None));
    }
    let x = match first {
        'a'..='z' => first as usize - 'a' as usize,
        'A'..='Z' => first as usize - 'A' as usize + 26,
        _ => return None,
    };
    let row: usize = chars.as_str().parse().ok()?;
    Some((x, Some(row.checked_sub(1)?)))
}

/// The board as text, `last` marked with brackets.
pub fn draw<G: Game>(g: &G, last: Option<Move>) -> String {
    let mut s = String::from("    ");
    for x in 0..g.width() {
        s.push(column_label(x));
        s.push(' ');
    }
    s.push('\n');
    for y in 0..g.height() {
        s.push_str(&format!("{:>3} ", y + 1));
        for x in 0..g.width() {
            let m = Move::new(x as u8, y as u8);
            let c = crate::game::stone_char(g.stone_at(m));
            if Some(m) == last {
                s.pop();
                s.push('[');
                s.push(c);
                s.push(']');
            } else {
                s.push(c);
                s.push(' ');
            }
        }
        s.push('\n');
    }
    if let Some([black, white]) = g.captures() {
        s.push_str(&format!(
            "captured pairs  X {black}   O {white}   ({} win)\n",
            crate::game::gomoku::capture::PAIRS_TO_WIN
        ));
    }
    s
}

/// Writes the game as a Piskvork `.psq` record (the arena's format), naming the players.
pub fn write_psq(
    path: &std::path::Path,
    width: usize,
    height: usize,
    moves: &[(Move, u64)],
    engine_first: bool,
) -> Result<()> {
    let (black, white) = if engine_first {
        ("wuzi", "human")
    } else {
        ("human", "wuzi")
    };
    let s = crate::arena::record::psq_text(width, height, moves.iter().copied(), black, white);
    std::fs::write(path, s).with_context(|| format!("writing {}", path.display()))
}

fn fmt_clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
}

/// Plays one game between the person at `input` and the engine.
pub fn play(
    mut engine: Engine,
    opts: &PlayOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    engine
        .start(opts.width, opts.height)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    engine.set_info("timeout_turn", &opts.move_ms.to_string());
    let kind = engine.kind();
    writeln!(
        out,
        "wuzi {} — {} on {}x{}. You play {}. Type moves as h8 or 7,7{}; 'undo', 'quit'.",
        env!("CARGO_PKG_VERSION"),
        kind.describe(),
        opts.width,
        opts.height,
        if opts.engine_first {
            "O (white)"
        } else {
            "X (black)"
        },
        if matches!(kind, GameKind::Connect4 { .. }) {
            ", or a column number"
        } else {
            ""
        }
    )?;
    let me = if opts.engine_first {
        Color::Black
    } else {
        Color::White
    };
    let mut clocks = [Duration::ZERO; 2];
    let mut record: Vec<(Move, u64)> = Vec::new();
    let mut last = None;
    loop {
        let g = engine.game().context("no game")?.clone();
        writeln!(out, "\n{}", draw(&g, last))?;
        writeln!(
            out,
            "clock  X {}   O {}",
            fmt_clock(clocks[0]),
            fmt_clock(clocks[1])
        )?;
        if let Some(o) = g.outcome() {
            let text = match o {
                Outcome::Draw => "Draw.".to_string(),
                Outcome::Win(c) if c == me => "The engine wins.".to_string(),
                Outcome::Win(_) => "You win!".to_string(),
            };
            writeln!(out, "{text}")?;
            break;
        }
        let side = g.side_to_move();
        if side == me {
            let t = Instant::now();
            let limits = engine.limits(t);
            let stop = Stop::new();
            let mut last_it: Option<Iteration> = None;
            let mut report = |it: &Iteration| last_it = Some(it.clone());
            let r = engine
                .think(limits, &stop, &mut report)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let spent = t.elapsed();
            clocks[side.index()] += spent;
            record.push((r.best, spent.as_millis() as u64));
            last = Some(r.best);
            writeln!(
                out,
                "engine plays {}{} ({}): eval {} depth {} nodes {}",
                column_label(r.best.x as usize),
                r.best.y as usize + 1,
                r.best,
                r.score,
                r.depth,
                r.nodes
            )?;
            continue;
        }
        write!(out, "your move> ")?;
        out.flush()?;
        let t = Instant::now();
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nend of input: game abandoned")?;
            break;
        }
        let text = line.trim().to_ascii_lowercase();
        match text.as_str() {
            "" => continue,
            "quit" | "exit" => break,
            "undo" => {
                // Take back the engine's reply and the person's move before it.
                for _ in 0..2 {
                    if let Some((m, _)) = record.pop() {
                        engine.takeback(m).map_err(|e| anyhow::anyhow!("{e}"))?;
                    }
                }
                last = record.last().map(|r| r.0);
                continue;
            }
            _ => {}
        }
        let Some((x, y)) = parse_move(&text) else {
            writeln!(out, "cannot read {text:?}: type h8, 7,7 or a column number")?;
            continue;
        };
        let y = match y {
            Some(y) => y,
            None => match (0..g.height())
                .rev()
                .find(|&y| x < g.width() && g.stone_at(Move::new(x as u8, y as u8)).is_none())
            {
                Some(y) => y,
                None => {
                    writeln!(out, "no free cell in that column")?;
                    continue;
                }
            },
        };
        if x > 255 || y > 255 {
            writeln!(out, "off the board")?;
            continue;
        }
        let m = Move::new(x as u8, y as u8);
        match engine.opponent_move(m) {
            Ok(()) => {
                let spent = t.elapsed();
                clocks[side.index()] += spent;
                record.push((m, spent.as_millis() as u64));
                last = Some(m);
            }
            Err(e) => writeln!(out, "illegal: {e}")?,
        }
    }
    if let Some(path) = &opts.record {
        if !record.is_empty() {
            write_psq(path, opts.width, opts.height, &record, opts.engine_first)?;
            writeln!(out, "game saved to {}", path.display())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_move_notation() {
        assert_eq!(parse_move("h8"), Some((7, Some(7))));
        assert_eq!(parse_move(" 7,7 "), Some((7, Some(7))));
        assert_eq!(parse_move("a1"), Some((0, Some(0))));
        assert_eq!(parse_move("4"), Some((3, None)));
        assert_eq!(parse_move("0"), None);
        assert_eq!(parse_move("h0"), None);
        assert_eq!(parse_move("?"), None);
        assert_eq!(parse_move("A3"), Some((26, Some(2))));
    }

    /// Moves three cells apart, so the person never makes five: the engine must win.
    fn harmless_moves() -> String {
        let mut s = String::new();
        for row in [1, 4, 7, 10, 13, 15] {
            for col in ['a', 'd', 'g', 'j', 'm', 'o'] {
                s.push_str(&format!("{col}{row}\n"));
            }
        }
        s
    }

    #[test]
    fn piped_game_finishes_and_is_recorded() {
        let path = std::env::temp_dir().join(format!("wuzi-play-{}.psq", std::process::id()));
        let (engine, opts) = crate::cli::play_from_args(&[
            "--engine-first",
            "--depth",
            "3",
            "--time",
            "2000",
            "--threads",
            "1",
            "--record",
            path.to_str().unwrap(),
        ]);
        // A typo, an undo and a move in the other notation along the way.
        let input = format!("zz\na1\nundo\n0,0\n{}", harmless_moves());
        let mut out = Vec::new();
        play(engine, &opts, &mut input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("The engine wins."), "{text}");
        assert!(text.contains("cannot read \"zz\""), "{text}");
        assert!(text.contains("engine plays h8 (7,7): eval"), "{text}");
        let record = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).ok();
        let lines: Vec<&str> = record.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(
            lines[lines.len() - 3..],
            ["wuzi", "human", "-1"],
            "{record}"
        );
        // The engine moved first and last: an odd number of moves, undone ones left out.
        assert_eq!((lines.len() - 4) % 2, 1, "{record}");
        assert!(lines[1].starts_with("8,8,"), "{record}");
        assert!(lines[2].starts_with("1,1,"), "{record}");
    }

    #[test]
    fn pro_rule_holds_in_a_terminal_game() {
        let (engine, opts) =
            crate::cli::play_from_args(&["--opening", "pro", "--depth", "2", "--no-record"]);
        let mut out = Vec::new();
        // Off-centre first stone refused, then the centre; a third move too close refused.
        play(
            engine,
            &opts,
            &mut "a1\nh8\nh9\nquit\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("illegal: 0,0: opening rule"), "{text}");
        assert_eq!(text.matches("engine plays").count(), 1, "{text}");
    }

    #[test]
    fn capture_games_show_the_captured_pairs() {
        use crate::game::gomoku::capture::{CaptureBoard, Pente};
        let mut g = CaptureBoard::<Pente>::new(19, 19).unwrap();
        // Black flanks white's pair 1,0 2,0 from 3,0.
        for (x, y) in [(0, 0), (1, 0), (9, 9), (2, 0), (3, 0)] {
            g.play(Move::new(x, y));
        }
        let text = draw(&g, g.last_move());
        assert!(text.contains("captured pairs  X 1   O 0"), "{text}");
        let plain = crate::game::gomoku::Board::<crate::game::gomoku::Freestyle>::new(15, 15);
        assert!(!draw(&plain.unwrap(), None).contains("captured"));
    }

    #[test]
    fn labels_columns_past_z() {
        assert_eq!(column_label(0), 'a');
        assert_eq!(column_label(25), 'z');
        assert_eq!(column_label(26), 'A');
    }
}
