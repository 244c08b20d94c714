//! What the process holds besides its search tables, and so what is left of the manager's
//! `max_memory` for them.
//!
//! A Gomocup manager counts the whole process against its limit: the binary's pages (with
//! the embedded Connect Four network and book), the pattern tables, thread stacks, buffers.
//! Those are not known at compile time (a static build, another allocator, the kernel's
//! page size all change them), so the engine measures its resident set once, before its
//! first search writes any table, and sizes every table from what is left. What a search
//! adds on top of that (its stacks and move lists, per thread) and what a mode loads only
//! when it first plays (the Connect Four network) are counted from measured figures.

use crate::game::{AnyGame, GameKind};
use crate::search::connect4::data_source::{source, Source};
use std::collections::HashMap;

/// What the process holds beyond the measured resident set once a search runs, bytes: the
/// search's stack, move lists and history, and the pattern tables of a rule not built yet.
/// Measured as peak RSS less the resident set at sizing time, with the smallest table
/// (`tests/memory.rs`, 15×15 gomoku, two 1.5 s moves): 1.4 MiB on one thread; with headroom
/// for what was not measured (larger boards, renju's tables).
pub const SEARCH_BYTES: u64 = 2 << 20;
/// The same for each search thread beyond the first (its stack and its allocator arena):
/// measured 3.1 MiB for the second thread.
pub const THREAD_BYTES: u64 = 4 << 20;
/// What the Connect Four default player (the solver) holds beyond [`SEARCH_BYTES`] while it
/// searches, besides the tables it sizes from `max_memory`: measured 5.5–5.7 MiB in all
/// (7×6 and 12×6, smallest tables), in the search thread's heap.
pub const CONNECT4_BYTES: u64 = 5 << 20;
/// The Connect Four solver adds a near table of this size to a main table of
/// [`NEAR_MIN_BYTES`] or more (`search::connect4::solver`, `NEAR_ENTRIES` × 8 bytes), which
/// its sizing from `max_memory` does not count.
const NEAR_TABLE_BYTES: u64 = 4 << 20;
/// The solver's main table from which it has a near table (`NEAR_MIN_ENTRIES` × 8 bytes);
/// its main table is a third of the `max_memory` it is given, two thirds of the room.
const NEAR_MIN_BYTES: u64 = 16 << 20;
/// The shipped 12×6 Connect Four network as the search holds it (180 tuples of 4^8 16-bit
/// weights, 23.6 MB), with the file's pages the decoder read (`tests/memory.rs` plays
/// 12×6 with it).
pub const NTUPLE_BYTES: u64 = 27 << 20;
/// Where the resident set cannot be read, what it measures on Linux, with headroom.
const HELD_FALLBACK: u64 = 6 << 20;

/// The process's resident set now, bytes (`VmRSS` of `/proc/self/status`), where the OS
/// tells it.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_status_kib(&status, "VmRSS:").map(|kib| kib.saturating_mul(1024))
}

/// A `Key:   N kB` figure of a `/proc/<pid>/status` text, KiB.
fn parse_status_kib(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// What the process holds besides its tables: measured once, then fixed for the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Resident bytes before the first search (binary, pattern tables, idle threads).
    pub held: u64,
    /// Whether the Connect Four network has been loaded: it stays for the process.
    pub network: bool,
}

impl Footprint {
    /// Measures the process now. Call it before any table is written.
    pub fn measure() -> Footprint {
        Footprint {
            held: resident_bytes().unwrap_or(HELD_FALLBACK),
            network: false,
        }
    }

    /// Bytes the process needs besides its tables for a search of `kind` on `threads`
    /// threads, the network included when `network` (it will be loaded, or it already is).
    pub fn fixed(&self, kind: GameKind, threads: usize, network: bool) -> u64 {
        let extra_threads = threads.max(1) as u64 - 1;
        let mode = if matches!(kind, GameKind::Connect4 { .. }) {
            CONNECT4_BYTES
        } else {
            0
        };
        let network = if network || self.network {
            NTUPLE_BYTES
        } else {
            0
        };
        self.held + SEARCH_BYTES + extra_threads * THREAD_BYTES + mode + network
    }
}

/// Whether a search of `game` would load the shipped Connect Four network with these
/// options (the midgame search of a 12×6 board with four in a row, unless `c4_ntuple` says
/// otherwise; a file the option names is the user's own choice and is not counted).
pub fn wants_network(game: &AnyGame, options: &HashMap<String, String>) -> bool {
    let AnyGame::Connect4(c) = game else {
        return false;
    };
    (c.width, c.height, c.k) == (12, 6, 4)
        && matches!(
            source(options.get("c4_ntuple").map(String::as_str)),
            Source::Shipped
        )
}

/// The options a search of another mode than gomoku gets, so that its own tables fit in
/// `room` bytes (`None`: no limit): those searches size their tables from the `max_memory`
/// option, within half of it (Connect Four: a third for the solver, a sixth for the
/// midgame search; m,n,k: half), so they are told twice the room. Without room for the
/// network beside the tables, the Connect Four search plays without it.
pub fn search_options(
    kind: GameKind,
    options: &HashMap<String, String>,
    room: Option<u64>,
    drop_network: bool,
) -> HashMap<String, String> {
    let mut o = options.clone();
    if matches!(kind, GameKind::Gomoku(_)) {
        return o;
    }
    if let Some(mut room) = room {
        // The solver's near table comes on top of what it sizes from the option.
        if matches!(kind, GameKind::Connect4 { .. }) && room / 3 * 2 >= NEAR_MIN_BYTES {
            room -= NEAR_TABLE_BYTES;
        }
        o.insert(
            "max_memory".into(),
            room.saturating_mul(2).max(1).to_string(),
        );
    }
    if drop_network {
        o.insert("c4_ntuple".into(), "none".into());
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_figures_are_read_in_kib() {
        let t = "Name:\tpbrain\nVmHWM:\t  5120 kB\nVmRSS:\t  4096 kB\n";
        assert_eq!(parse_status_kib(t, "VmRSS:"), Some(4096));
        assert_eq!(parse_status_kib(t, "VmHWM:"), Some(5120));
        assert_eq!(parse_status_kib(t, "VmSwap:"), None);
        assert_eq!(parse_status_kib("VmRSS: lots", "VmRSS:"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_resident_set_is_measured() {
        let r = resident_bytes().expect("Linux has /proc/self/status");
        assert!(r > 1 << 20, "{r}");
    }

    #[test]
    fn other_modes_are_told_twice_their_room() {
        let mut raw = HashMap::new();
        raw.insert("max_memory".to_string(), "16777216".to_string());
        let c4 = GameKind::from_name("connect4", crate::game::GomokuRule::Freestyle, None)
            .expect("connect4 is a game");
        let o = search_options(c4, &raw, Some(3 << 20), true);
        assert_eq!(o["max_memory"], (6u64 << 20).to_string());
        assert_eq!(o["c4_ntuple"], "none");
        // A room whose solver table gets a near table: that table is taken off first.
        let o = search_options(c4, &raw, Some(30 << 20), false);
        assert_eq!(o["max_memory"], (52u64 << 20).to_string());
        assert!(!o.contains_key("c4_ntuple"));
        let gomoku = GameKind::Gomoku(crate::game::GomokuRule::Freestyle);
        assert_eq!(search_options(gomoku, &raw, Some(1), true), raw);
    }
}
