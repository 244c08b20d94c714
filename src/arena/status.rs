//! `wuzi-arena status DIR…`: where a sharded run stands, read from the shards' result
//! files while they play (on a shared filesystem, or after copying the directories back),
//! so watching a cluster run needs no connection to the processes.
//!
//! One line per shard (games done of its total, time since its last result, ETA), a total,
//! then the table of the results so far. A directory without a manifest yet is a shard
//! that has not started (queued in Slurm, say), not an error.

use super::journal;
use super::manifest::ManifestError;
use super::merge::{self, MergeError, ShardDir};
use super::progress::{eta_from_ends, fmt_duration};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Writes the summary of `dirs` to `out`.
pub fn run(dirs: &[PathBuf], out: &mut dyn Write) -> Result<(), MergeError> {
    let io = |e| MergeError::Io(PathBuf::from("stdout"), e);
    let mut shards = Vec::new();
    for d in dirs {
        match ShardDir::open(d) {
            Ok(s) => shards.push(s),
            Err(MergeError::Manifest(ManifestError::Missing(_))) => {
                writeln!(out, "{}: not started (no results yet)", d.display()).map_err(io)?
            }
            Err(e) => return Err(e),
        }
    }
    merge::check_one_run(&shards)?;
    if shards.is_empty() {
        return Ok(());
    }
    shards.sort_by_key(|s| s.manifest.shard.index);
    let now = journal::now_ms();
    let mut slowest: Option<Duration> = None;
    let mut running = 0;
    for s in &shards {
        let done = s.journal.entries.len();
        let total = s.total();
        let ends: Vec<u64> = s
            .journal
            .entries
            .iter()
            .filter_map(|e| e.ended_ms)
            .collect();
        let last = ends.iter().max().map(|&t| {
            let ago = Duration::from_millis(now.saturating_sub(t));
            format!("  last result {} ago", fmt_duration(Some(ago)))
        });
        let state = if done == total {
            "  done".to_string()
        } else {
            running += 1;
            let eta = eta_from_ends(&ends, total - done);
            slowest = slowest.max(eta);
            format!("  eta {}", fmt_duration(eta))
        };
        writeln!(
            out,
            "shard {}  {}  games {done}/{total}{}{state}",
            s.manifest.shard,
            s.dir.display(),
            last.unwrap_or_default()
        )
        .map_err(io)?;
    }
    let o = merge::options(&shards)?;
    let st = merge::standings(&o, &shards);
    let count = shards[0].manifest.shard.count;
    let eta = if running > 0 {
        format!("  eta {}", fmt_duration(slowest))
    } else {
        String::new()
    };
    writeln!(
        out,
        "total: {} of {count} shards seen, {}{eta}",
        shards.len(),
        st.progress_line()
    )
    .map_err(io)?;
    write!(out, "{}", st.table()).map_err(io)
}
