//! The run manifest, `manifest.txt` in every `--out` directory: which run the directory
//! belongs to (the options that fix the games, the shard, the schedule's length), so that
//! `merge` refuses shards of different runs, `--resume` refuses to continue a run with other
//! options, and `merge` and `status` can rebuild the report without the original command.
//!
//! It keeps the arguments as given (without the machine-local ones, see
//! [`RunOptions::schedule_args`]), one a line, and compares runs by parsing them again, so
//! the comparison follows the options' meaning (order and spelled-out defaults do not
//! matter) and names the option that differs. Files the options only point at are compared
//! by content: the openings file and each engine's executable get a digest, since their
//! paths may differ between machines while the contents must not.

use super::cli::{self, Command, RunOptions};
use super::engine::EngineSpec;
use super::shard::Shard;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// The manifest's file name in an output directory.
pub const FILE: &str = "manifest.txt";

/// What one output directory holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The `wuzi-arena` version that wrote it: another version may schedule differently.
    pub version: String,
    pub shard: Shard,
    /// Games in the whole schedule (all shards).
    pub planned: usize,
    /// Digest of the openings file's text, when one is given.
    pub openings: Option<u64>,
    /// Digest of each `--engine` executable (in option order), when it is a file.
    pub executables: Vec<Option<u64>>,
    /// The run's schedule-fixing arguments.
    pub args: Vec<String>,
}

/// A manifest that cannot be used, or two that do not match.
#[derive(Debug)]
pub enum ManifestError {
    Io(PathBuf, std::io::Error),
    /// The directory has results but no manifest.
    Missing(PathBuf),
    Bad {
        path: PathBuf,
        why: String,
    },
    /// Two runs differ in an option.
    Differ {
        option: String,
        a: (PathBuf, String),
        b: (PathBuf, String),
    },
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ManifestError::Missing(d) => write!(
                f,
                "{}: no {FILE}: not a directory written by wuzi-arena --out",
                d.display()
            ),
            ManifestError::Bad { path, why } => write!(f, "{}: {why}", path.display()),
            ManifestError::Differ { option, a, b } => write!(
                f,
                "the runs differ in {option}: {} in {} but {} in {}",
                a.1,
                a.0.display(),
                b.1,
                b.0.display()
            ),
        }
    }
}

impl std::error::Error for ManifestError {}

/// FNV-1a, 64 bits: a content fingerprint for telling files apart, not a secure hash.
pub fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The digest of an engine's executable when its command names a file (a bare name found
/// on `PATH` is a system tool such as an interpreter, allowed to differ between machines).
fn executable_digest(e: &EngineSpec) -> Option<u64> {
    if e.command.components().count() < 2 {
        return None;
    }
    fs::read(&e.command).ok().map(|b| digest(&b))
}

/// Escapes a line's backslashes and newlines, so every argument is one line.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

fn hex(d: Option<u64>) -> String {
    d.map_or("-".into(), |d| format!("{d:016x}"))
}

impl Manifest {
    /// The manifest of a run about to start. `openings_text` is the openings file's text.
    pub fn new(o: &RunOptions, planned: usize, openings_text: Option<&str>) -> Manifest {
        Manifest {
            version: env!("CARGO_PKG_VERSION").to_string(),
            shard: o.shard,
            planned,
            openings: openings_text.map(|t| digest(t.as_bytes())),
            executables: o.engines.iter().map(executable_digest).collect(),
            args: o.schedule_args.clone(),
        }
    }

    pub fn to_text(&self) -> String {
        let mut s = format!(
            "# wuzi-arena run manifest: the options that fix this run's games. merge, status\n\
             # and --resume read it; change nothing here.\n\
             version {}\nshard {}\nplanned {}\nopenings {}\n",
            self.version,
            self.shard,
            self.planned,
            hex(self.openings)
        );
        for (i, d) in self.executables.iter().enumerate() {
            s.push_str(&format!("executable {} {}\n", i + 1, hex(*d)));
        }
        for a in &self.args {
            s.push_str(&format!("arg {}\n", escape(a)));
        }
        s
    }

    pub fn parse(text: &str, path: &Path) -> Result<Manifest, ManifestError> {
        let bad = |why: String| ManifestError::Bad {
            path: path.to_path_buf(),
            why,
        };
        let mut m = Manifest {
            version: String::new(),
            shard: Shard::WHOLE,
            planned: 0,
            openings: None,
            executables: Vec::new(),
            args: Vec::new(),
        };
        let digest_of = |v: &str| match v {
            "-" => Ok(None),
            h => u64::from_str_radix(h, 16)
                .map(Some)
                .map_err(|_| bad(format!("bad digest {h:?}"))),
        };
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            let (k, v) = l.split_once(' ').unwrap_or((l, ""));
            match k {
                "version" => m.version = v.to_string(),
                "shard" => m.shard = Shard::parse(v).ok_or_else(|| bad(format!("shard {v}")))?,
                "planned" => m.planned = v.parse().map_err(|_| bad(format!("planned {v}")))?,
                "openings" => m.openings = digest_of(v)?,
                "executable" => {
                    let d = v.split_once(' ').map_or(v, |(_, d)| d);
                    m.executables.push(digest_of(d)?);
                }
                "arg" => m.args.push(unescape(v)),
                _ => return Err(bad(format!("unknown line {l:?}"))),
            }
        }
        if m.version.is_empty() {
            return Err(bad("no version line".into()));
        }
        Ok(m)
    }

    /// The manifest of an output directory.
    pub fn read(dir: &Path) -> Result<Manifest, ManifestError> {
        let path = dir.join(FILE);
        match fs::read_to_string(&path) {
            Ok(t) => Manifest::parse(&t, &path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(ManifestError::Missing(dir.to_path_buf()))
            }
            Err(e) => Err(ManifestError::Io(path, e)),
        }
    }

    /// Writes the manifest into `dir` (created if needed), through a temporary file and a
    /// rename, so a process killed meanwhile leaves the old manifest or the new one, never
    /// half of one that would block `--resume`.
    pub fn write(&self, dir: &Path) -> Result<(), ManifestError> {
        let path = dir.join(FILE);
        let part = dir.join(format!("{FILE}.part"));
        fs::create_dir_all(dir)
            .and_then(|()| fs::write(&part, self.to_text()))
            .and_then(|()| fs::rename(&part, &path))
            .map_err(|e| ManifestError::Io(path, e))
    }

    /// The run's options, parsed again from the recorded arguments.
    pub fn options(&self) -> Result<RunOptions, String> {
        match cli::parse(&self.args) {
            Ok(Command::Run(o)) => Ok(*o),
            Ok(_) => Err("the recorded arguments are not a run".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// Everything two shards of one run must agree on, by option name, with the value in a
    /// form people read. Engines are compared by name, file name, arguments and `INFO`s;
    /// their directories and the paths of files are machine-local (the digests stand in).
    fn settings(&self) -> Result<Vec<(String, String)>, String> {
        let o = self.options()?;
        let mut v = vec![
            ("the wuzi-arena version".into(), self.version.clone()),
            (
                "the number of shards (--shard I/N)".into(),
                self.shard.count.to_string(),
            ),
            ("the number of games".into(), self.planned.to_string()),
            ("--engine count".into(), o.engines.len().to_string()),
        ];
        for (i, e) in o.engines.iter().enumerate() {
            let file = e.command.file_name().unwrap_or_default().to_string_lossy();
            let info: Vec<String> = e.info.iter().map(|(k, v)| format!("{k}={v}")).collect();
            v.push((
                format!("--engine {}", i + 1),
                format!(
                    "name={} cmd=…/{file} args={:?} info={:?}",
                    e.name, e.args, info
                ),
            ));
            let d = self.executables.get(i).copied().flatten();
            v.push((format!("--engine {} executable (digest)", i + 1), hex(d)));
        }
        let t = &o.time;
        let mut add = |k: &str, val: String| v.push((k.to_string(), val));
        add("--gauntlet", format!("{:?}", o.format));
        add("--reuse", o.reuse.to_string());
        add("--game/--rule/--k", format!("{:?}", o.setup.kind));
        add("--size", format!("{}x{}", o.setup.width, o.setup.height));
        add("--draw-after", format!("{:?}", o.setup.draw_after));
        add("--openings (file digest)", hex(self.openings));
        add("--opening-rule", o.setup.opening_rule.name().to_string());
        add("--symmetry", o.random_symmetry.to_string());
        add("--rounds", o.rounds.to_string());
        add("--games", format!("{:?}", o.max_games));
        add("--seed", o.seed.to_string());
        add("--timeout-turn", t.turn_ms.to_string());
        add("--timeout-match", t.match_ms.to_string());
        add("--tolerance", t.tolerance_ms.to_string());
        add("--start-timeout", t.start_ms.to_string());
        add("--grace", t.grace_ms.to_string());
        add("--max-memory", t.max_memory.to_string());
        add("--sprt", format!("{:?}", o.sprt));
        add("--grid", format!("{:?}", o.grid));
        Ok(v)
    }

    /// Whether two directories hold parts of the same run; the error names the first
    /// option that differs.
    pub fn check_same_run(
        (a, dir_a): (&Manifest, &Path),
        (b, dir_b): (&Manifest, &Path),
    ) -> Result<(), ManifestError> {
        let settings = |m: &Manifest, d: &Path| {
            m.settings().map_err(|why| ManifestError::Bad {
                path: d.join(FILE),
                why,
            })
        };
        let (sa, sb) = (settings(a, dir_a)?, settings(b, dir_b)?);
        let differ = |option: &str, x: &str, y: &str| ManifestError::Differ {
            option: option.to_string(),
            a: (dir_a.to_path_buf(), x.to_string()),
            b: (dir_b.to_path_buf(), y.to_string()),
        };
        for ((k, x), (_, y)) in sa.iter().zip(&sb) {
            if x != y {
                return Err(differ(k, x, y));
            }
        }
        // same engine count (compared first), so the lists line up to the end
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(s: &str) -> RunOptions {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        match cli::parse(&args).unwrap() {
            Command::Run(o) => *o,
            c => panic!("{c:?}"),
        }
    }

    #[test]
    fn round_trips_through_text() {
        let o = opts("--engine cmd=/bin/true name=a\\b --engine cmd=x --seed 4 --shard 2/3 --out d --concurrency 2");
        let m = Manifest::new(&o, 10, Some("h8\n"));
        assert_eq!(m.shard, Shard { index: 2, count: 3 });
        // the machine-local options are not recorded
        assert!(!m
            .args
            .iter()
            .any(|a| a == "--out" || a == "--concurrency" || a == "--shard"));
        assert!(m.executables[0].is_some() && m.executables[1].is_none());
        let back = Manifest::parse(&m.to_text(), Path::new("m")).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.options().unwrap().engines[0].name, "a\\b");
    }

    #[test]
    fn differing_options_are_named() {
        let m = |s: &str| Manifest::new(&opts(s), 8, None);
        let (da, db) = (Path::new("a"), Path::new("b"));
        let base = "--engine cmd=x --engine cmd=y --timeout-turn 100";
        let same = Manifest::check_same_run(
            (&m(&format!("{base} --shard 1/2 --out a")), da),
            (&m("--timeout-turn 100 --engine cmd=x --engine cmd=y --shard 2/2 --out b --concurrency 4"), db),
        );
        assert!(same.is_ok(), "{same:?}");
        let e = Manifest::check_same_run(
            (&m(base), da),
            (&m(&format!("{base} --timeout-turn 200")), db),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "the runs differ in --timeout-turn: 100 in a but 200 in b"
        );
        let e = Manifest::check_same_run((&m(base), da), (&m(&format!("{base} --seed 9")), db))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--seed: 1 in a but 9 in b"), "{e}");
        let e = Manifest::check_same_run(
            (&m(base), da),
            (
                &m("--engine cmd=x --engine cmd=y arg=-d --timeout-turn 100"),
                db,
            ),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("--engine 2"), "{e}");
    }
}
