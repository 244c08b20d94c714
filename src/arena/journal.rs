//! The per-game result file, `games.jsonl`, as a journal that survives a killed process:
//! one JSON line a game, appended and synced to disk the moment the game ends, so that
//! `--resume` knows exactly which games are finished and `merge` and `status` can read a
//! shard's results while it runs.
//!
//! The line is the commit point: a game's `.psq` and `.sgf` are written before it, so a
//! game either has its line (and its records) or is played again. A process killed in the
//! middle of a write leaves a last line without its newline; readers ignore it, and
//! [`Journal::resume`] cuts it off before appending.

use super::record::JsonLine;
use super::referee::{self, GameRecord, Termination};
use crate::game::Outcome;
use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's file name in an output directory.
pub const FILE: &str = "games.jsonl";

/// What the standings need from one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub id: usize,
    pub black: usize,
    pub white: usize,
    pub outcome: Outcome,
    pub termination: Termination,
}

impl GameResult {
    pub fn of(r: &GameRecord) -> GameResult {
        GameResult {
            id: r.id,
            black: r.black,
            white: r.white,
            outcome: r.outcome,
            termination: r.termination,
        }
    }

    /// The index of the engine that lost, if any.
    pub fn loser(&self) -> Option<usize> {
        referee::loser(self.outcome, self.black, self.white)
    }
}

/// One finished game as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub result: GameResult,
    /// When the game ended (Unix milliseconds), for rates and ETAs.
    pub ended_ms: Option<u64>,
    /// The line as written, without its newline.
    pub line: String,
}

/// Everything a journal holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    /// Complete lines, in file order.
    pub entries: Vec<Entry>,
    /// A last line without its newline: a write cut short by a killed process.
    pub cut: Option<String>,
}

/// A journal that cannot be used.
#[derive(Debug)]
pub enum JournalError {
    Io(PathBuf, std::io::Error),
    /// A complete line that is not a game result: the file is not the arena's, or damaged.
    Bad {
        path: PathBuf,
        line: usize,
        why: String,
    },
    /// The same game twice.
    Duplicate {
        path: PathBuf,
        id: usize,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            JournalError::Bad { path, line, why } => {
                write!(f, "{} line {line}: {why}", path.display())
            }
            JournalError::Duplicate { path, id } => {
                write!(f, "{}: game {id} is recorded twice", path.display())
            }
        }
    }
}

impl std::error::Error for JournalError {}

/// The journal line of a finished game.
pub fn line(r: &GameRecord, seed: u64, ended_ms: u64) -> String {
    JsonLine {
        seed: Some(seed),
        ended: Some(ended_ms),
        ..JsonLine::of(r)
    }
    .to_text()
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Reads one complete line. A line cut short is not JSON, so it is an error too.
fn parse_entry(line: &str) -> Result<Entry, String> {
    let g: JsonLine = serde_json::from_str(line).map_err(|e| {
        // serde_json says where in the text; the caller says which line of the file
        let text = e.to_string();
        let at = format!(" at line {} column {}", e.line(), e.column());
        let what = text.strip_suffix(&at).unwrap_or(&text);
        let hint = if e.is_data() {
            " (written by an older wuzi-arena?)"
        } else {
            ""
        };
        format!("{what} at column {}{hint}", e.column())
    })?;
    Ok(Entry {
        result: GameResult {
            id: g.id,
            black: g.black_index,
            white: g.white_index,
            outcome: g.result,
            termination: g.termination,
        },
        ended_ms: g.ended,
        line: line.to_string(),
    })
}

/// Reads a journal without changing it; a missing file is an empty journal.
pub fn read(path: &Path) -> Result<Contents, JournalError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(JournalError::Io(path.to_path_buf(), e)),
    };
    let (complete, cut) = match text.rfind('\n') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text.as_str()),
    };
    let mut out = Contents {
        entries: Vec::new(),
        cut: (!cut.is_empty()).then(|| cut.to_string()),
    };
    let mut seen = std::collections::HashSet::new();
    for (i, l) in complete.lines().enumerate() {
        let e = parse_entry(l).map_err(|why| JournalError::Bad {
            path: path.to_path_buf(),
            line: i + 1,
            why,
        })?;
        if !seen.insert(e.result.id) {
            return Err(JournalError::Duplicate {
                path: path.to_path_buf(),
                id: e.result.id,
            });
        }
        out.entries.push(e);
    }
    Ok(out)
}

/// The journal being written.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// A new, empty journal (an existing one is replaced).
    pub fn create(path: &Path) -> Result<Journal, JournalError> {
        let file = File::create(path).map_err(|e| JournalError::Io(path.to_path_buf(), e))?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Reopens a journal for appending, first cutting off a last line a killed process left
    /// unfinished (its game is played again). Returns what the journal already holds.
    pub fn resume(path: &Path) -> Result<(Journal, Contents), JournalError> {
        let contents = read(path)?;
        let io = |e| JournalError::Io(path.to_path_buf(), e);
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        if let Some(cut) = &contents.cut {
            let len = file.metadata().map_err(io)?.len();
            file.set_len(len - cut.len() as u64).map_err(io)?;
        }
        let j = Journal {
            file,
            path: path.to_path_buf(),
        };
        Ok((j, contents))
    }

    /// Appends one line and syncs it to disk: once this returns, the game is never played
    /// again. One `write_all` of the whole line, so a kill leaves at most a cut last line.
    pub fn append(&mut self, line: &str) -> Result<(), JournalError> {
        let mut buf = String::with_capacity(line.len() + 1);
        buf.push_str(line);
        buf.push('\n');
        self.file
            .write_all(buf.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| JournalError::Io(self.path.clone(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wuzi-journal-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    const L1: &str = r#"{"id":1,"black":"a","white":"b","black_index":0,"white_index":1,"seed":5,"ended":100,"width":9,"height":9,"rule":0,"result":"1-0","termination":"line","detail":"","opening":[],"moves":[[0,0],[1,0]],"ms":[3,4],"opening_rule":"none","swap2":[]}"#;
    const L2: &str = r#"{"id":4,"black":"b","white":"a","black_index":1,"white_index":0,"width":9,"height":9,"rule":0,"result":"0-1","termination":"timeout","detail":"b: late","opening":[],"moves":[],"ms":[],"opening_rule":"none","swap2":[]}"#;

    #[test]
    fn reads_results_and_ignores_a_cut_line() {
        let d = dir("read");
        let p = d.join(FILE);
        fs::write(&p, format!("{L1}\n{L2}\n{}", &L1[..30])).unwrap();
        let c = read(&p).unwrap();
        assert_eq!(c.entries.len(), 2);
        let r = c.entries[1].result;
        assert_eq!((r.id, r.black, r.white), (4, 1, 0));
        assert_eq!(
            r.termination,
            Termination::Fault(super::super::referee::Fault::Timeout)
        );
        assert_eq!(r.loser(), Some(1));
        assert_eq!(c.entries[0].ended_ms, Some(100));
        assert_eq!(c.cut.as_deref(), Some(&L1[..30]));
        assert_eq!(read(&d.join("none.jsonl")).unwrap(), Contents::default());
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn resume_cuts_the_unfinished_line_then_appends() {
        let d = dir("resume");
        let p = d.join(FILE);
        fs::write(&p, format!("{L1}\n{}", &L2[..50])).unwrap();
        let (mut j, c) = Journal::resume(&p).unwrap();
        assert_eq!(c.entries.len(), 1);
        assert!(c.cut.is_some());
        j.append(L2).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), format!("{L1}\n{L2}\n"));
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn damage_and_duplicates_are_errors() {
        let d = dir("bad");
        let p = d.join(FILE);
        fs::write(&p, format!("{L1}\nnot json\n")).unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(
            e.contains("games.jsonl line 2: ") && e.ends_with(" at column 2"),
            "{e}"
        );
        fs::write(&p, format!("{L1}\n{L1}\n")).unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(e.contains("game 1 is recorded twice"), "{e}");
        let old = L2.replace(r#""black_index":1,"white_index":0,"#, "");
        fs::write(&p, format!("{old}\n")).unwrap();
        let e = read(&p).unwrap_err().to_string();
        assert!(
            e.contains("line 1: missing field `black_index`") && e.ends_with("older wuzi-arena?)"),
            "{e}"
        );
        let _ = fs::remove_dir_all(&d);
    }
}
