//! `wuzi-arena merge`: the shard directories of one run combined into the report one
//! machine would have written for that schedule — the same table (Elo, fault counts, SPRT
//! state), and with `--out` the same `games.jsonl` (in game order), `.psq`/`.sgf` records,
//! engine logs and a manifest of the whole run.
//!
//! Nothing is replayed or recomputed from moves: the journal lines and record files are
//! copied as the shards wrote them, and the standings are rebuilt from the lines in game
//! order, so the merged report is the shards' own evidence. Merging refuses directories
//! from different runs (naming the option), a shard given twice, and — unless `--partial` —
//! a missing shard or unfinished games, since a report silently missing games would look
//! like a finished tournament.

use super::app;
use super::cli::{MergeOptions, RunOptions};
use super::journal::{self, Contents, Entry, JournalError};
use super::manifest::{Manifest, ManifestError};
use super::shard::Shard;
use super::tournament::Standings;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why shard directories cannot be merged.
#[derive(Debug)]
pub enum MergeError {
    Manifest(ManifestError),
    Journal(JournalError),
    /// The recorded options no longer parse (a manifest edited by hand).
    Options(PathBuf, String),
    /// Two directories are the same shard.
    Twice {
        shard: Shard,
        a: PathBuf,
        b: PathBuf,
    },
    /// A journal holds a game of another shard.
    Foreign {
        dir: PathBuf,
        id: usize,
        shard: Shard,
    },
    /// Missing shards or unfinished games (without `--partial`).
    Incomplete(Vec<String>),
    /// `--out` is one of the shard directories.
    OutIsInput(PathBuf),
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Manifest(e) => write!(f, "{e}"),
            MergeError::Journal(e) => write!(f, "{e}"),
            MergeError::Options(d, e) => write!(f, "{}: recorded options: {e}", d.display()),
            MergeError::Twice { shard, a, b } => write!(
                f,
                "shard {shard} is given twice: {} and {}",
                a.display(),
                b.display()
            ),
            MergeError::Foreign { dir, id, shard } => write!(
                f,
                "{}: game {id} is not part of shard {shard}",
                dir.display()
            ),
            MergeError::Incomplete(gaps) => write!(
                f,
                "the run is not complete:\n  {}\n(resume unfinished shards with --resume, \
                 or merge what is there with --partial)",
                gaps.join("\n  ")
            ),
            MergeError::OutIsInput(d) => write!(
                f,
                "--out {} is one of the shard directories: merge into a new one",
                d.display()
            ),
            MergeError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for MergeError {}

/// One shard's output directory, read.
#[derive(Clone, Debug)]
pub struct ShardDir {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub journal: Contents,
}

impl ShardDir {
    /// Reads a directory's manifest and journal (without changing anything), and checks
    /// that every game in the journal belongs to its shard.
    pub fn open(dir: &Path) -> Result<ShardDir, MergeError> {
        let manifest = Manifest::read(dir).map_err(MergeError::Manifest)?;
        let journal = journal::read(&dir.join(journal::FILE)).map_err(MergeError::Journal)?;
        let shard = manifest.shard;
        if let Some(e) = journal
            .entries
            .iter()
            .find(|e| !shard.contains(e.result.id))
        {
            return Err(MergeError::Foreign {
                dir: dir.to_path_buf(),
                id: e.result.id,
                shard,
            });
        }
        Ok(ShardDir {
            dir: dir.to_path_buf(),
            manifest,
            journal,
        })
    }

    /// The games of this shard not in its journal.
    pub fn unfinished(&self) -> Vec<usize> {
        let done: HashSet<usize> = self.journal.entries.iter().map(|e| e.result.id).collect();
        let mine = self.manifest.shard.games(self.manifest.planned);
        mine.into_iter().filter(|id| !done.contains(id)).collect()
    }

    /// This shard's number of games.
    pub fn total(&self) -> usize {
        self.manifest.shard.games(self.manifest.planned).len()
    }
}

/// Checks that the directories are distinct shards of one run.
pub fn check_one_run(shards: &[ShardDir]) -> Result<(), MergeError> {
    let Some(first) = shards.first() else {
        return Ok(());
    };
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for s in shards {
        Manifest::check_same_run((&first.manifest, &first.dir), (&s.manifest, &s.dir))
            .map_err(MergeError::Manifest)?;
        if let Some(a) = seen.insert(s.manifest.shard.index, &s.dir) {
            return Err(MergeError::Twice {
                shard: s.manifest.shard,
                a: a.to_path_buf(),
                b: s.dir.clone(),
            });
        }
    }
    Ok(())
}

/// What keeps the shards from being the whole run: missing shards, unfinished games.
pub fn gaps(shards: &[ShardDir]) -> Vec<String> {
    let Some(first) = shards.first() else {
        return vec!["no shard directories".into()];
    };
    let count = first.manifest.shard.count;
    let given: HashSet<usize> = shards.iter().map(|s| s.manifest.shard.index).collect();
    let mut out: Vec<String> = (1..=count)
        .filter(|i| !given.contains(i))
        .map(|i| format!("shard {i}/{count} is missing"))
        .collect();
    for s in shards {
        let missing = s.unfinished();
        if missing.is_empty() {
            continue;
        }
        let list: Vec<String> = missing.iter().take(10).map(usize::to_string).collect();
        let more = if missing.len() > 10 { ", …" } else { "" };
        out.push(format!(
            "shard {} ({}) has {} of {} games; unfinished: {}{more}",
            s.manifest.shard,
            s.dir.display(),
            s.total() - missing.len(),
            s.total(),
            list.join(", ")
        ));
    }
    out
}

/// The run's options, from the first shard's manifest.
pub fn options(shards: &[ShardDir]) -> Result<RunOptions, MergeError> {
    let first = &shards[0];
    first
        .manifest
        .options()
        .map_err(|e| MergeError::Options(first.dir.clone(), e))
}

/// All finished games of the shards, in game order.
pub fn entries(shards: &[ShardDir]) -> Vec<&Entry> {
    let mut all: Vec<&Entry> = shards.iter().flat_map(|s| &s.journal.entries).collect();
    all.sort_by_key(|e| e.result.id);
    all
}

/// The standings of the shards' games together, as the whole run's.
pub fn standings(o: &RunOptions, shards: &[ShardDir]) -> Standings {
    let (engines, _) = app::field(o);
    let planned = shards.first().map_or(0, |s| s.manifest.planned);
    let mut st = Standings::new(engines.iter().map(|e| e.name.clone()).collect(), planned);
    st.sprt = o.sprt.map(|t| (t, super::stats::SprtDecision::Continue));
    for e in entries(shards) {
        st.add_result(&e.result);
    }
    st
}

/// Runs `merge`: the table (or a grid's CSV) to `out`, gaps allowed by `--partial` listed
/// on `progress`, and the merged directory written when asked.
pub fn run(
    m: &MergeOptions,
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<Standings, MergeError> {
    let shards = m
        .dirs
        .iter()
        .map(|d| ShardDir::open(d))
        .collect::<Result<Vec<_>, _>>()?;
    check_one_run(&shards)?;
    let gaps = gaps(&shards);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| MergeError::Io(p, e)
    };
    if !gaps.is_empty() {
        if !m.partial {
            return Err(MergeError::Incomplete(gaps));
        }
        for g in &gaps {
            writeln!(progress, "merge --partial: {g}").map_err(io(Path::new("stderr")))?;
        }
    }
    let o = options(&shards)?;
    let st = standings(&o, &shards);
    if let Some(dir) = &m.out {
        write_dir(dir, &shards)?;
    }
    let csv = m.csv.as_deref();
    app::report(&o, &st, csv, out, progress).map_err(io(csv.unwrap_or(Path::new("stdout"))))?;
    Ok(st)
}

/// Writes the merged directory: journal lines in game order, the records, each engine's
/// log (the shards' logs one after another), and the manifest of the whole run.
fn write_dir(dir: &Path, shards: &[ShardDir]) -> Result<(), MergeError> {
    let same = |a: &Path| {
        fs::canonicalize(a)
            .ok()
            .is_some_and(|a| fs::canonicalize(dir).is_ok_and(|d| d == a))
    };
    if shards.iter().any(|s| same(&s.dir)) {
        return Err(MergeError::OutIsInput(dir.to_path_buf()));
    }
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| MergeError::Io(p, e)
    };
    for sub in ["games", "logs"] {
        fs::create_dir_all(dir.join(sub)).map_err(io(&dir.join(sub)))?;
    }
    let mut lines = String::new();
    let mut sorted: Vec<&ShardDir> = shards.iter().collect();
    sorted.sort_by_key(|s| s.manifest.shard.index);
    for s in &sorted {
        for e in &s.journal.entries {
            for ext in ["psq", "sgf"] {
                let name = format!("{:05}.{ext}", e.result.id);
                let from = s.dir.join("games").join(&name);
                fs::copy(&from, dir.join("games").join(&name)).map_err(io(&from))?;
            }
        }
    }
    for e in entries(shards) {
        lines.push_str(&e.line);
        lines.push('\n');
    }
    let jsonl = dir.join(journal::FILE);
    fs::write(&jsonl, lines).map_err(io(&jsonl))?;
    let mut logs: BTreeMap<std::ffi::OsString, Vec<u8>> = BTreeMap::new();
    for s in &sorted {
        let Ok(list) = fs::read_dir(s.dir.join("logs")) else {
            continue;
        };
        for f in list.flatten() {
            let bytes = fs::read(f.path()).map_err(io(&f.path()))?;
            logs.entry(f.file_name()).or_default().extend(bytes);
        }
    }
    for (name, bytes) in logs {
        let p = dir.join("logs").join(name);
        fs::write(&p, bytes).map_err(io(&p))?;
    }
    let whole = Manifest {
        shard: Shard::WHOLE,
        ..shards[0].manifest.clone()
    };
    whole.write(dir).map_err(MergeError::Manifest)
}
