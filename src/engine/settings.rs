//! The engine's settings: what `INFO` lines and the command line set, and how the
//! transposition table is sized from them within the memory the manager allows.

use crate::game::GameKind;
use crate::game::GomokuRule;
use crate::opening::OpeningRule;
use crate::search::time::Clock;
use std::collections::HashMap;

/// Share of `max_memory` the whole process may use; Gomocup measures the process tree.
pub const MEMORY_SHARE_PERMILLE: u64 = 750;
/// Smallest transposition table the engine plays with.
pub const MIN_TT_BYTES: u64 = 1 << 18;
/// Table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: u64 = 128 << 20;
/// Table bytes per millisecond a move may take, per search thread, when no `hash_size` is
/// given: about twice what one search stores (an entry of 16 bytes a node, about a million
/// nodes a second), so the entries of earlier moves survive. More would buy nothing and
/// cost the first moves of a game: the kernel zeroes a fresh table's pages as the search
/// first writes them, inside the move's time (on a virtual machine measured at 2.3 ms a
/// MiB: a 256 MiB table left the first search of a game at 200 ms at depth 2, not 9).
pub const TT_BYTES_PER_MS: u64 = 32 << 10;
/// Largest table (`hash_size` included).
pub const MAX_TT_BYTES: u64 = 8 << 30;
/// Most search threads `thread_num` may ask for (what `YXSHOWINFO` announces).
pub const MAX_THREADS: usize = 256;
/// The `INFO` keys that give the captured pairs of black and white (capture games).
pub const CAPTURE_KEYS: [&str; 2] = ["captures_black", "captures_white"];

/// Half the machine's physical memory, where the OS tells it: a table sized from an absurd
/// `hash_size` or `max_memory` would otherwise be touched page by page into the OOM killer.
fn ram_cap() -> u64 {
    static CAP: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| parse_mem_total_kib(&t))
            .map_or(MAX_TT_BYTES, |kib| kib.saturating_mul(1024) / 2)
    })
}

/// The `MemTotal:` figure of `/proc/meminfo`, KiB.
fn parse_mem_total_kib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Settings taken from `INFO` lines and the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub rule: GomokuRule,
    /// `INFO game`; None = gomoku.
    pub game: Option<String>,
    /// `INFO k`: win length for Connect Four / m,n,k.
    pub k: Option<usize>,
    pub clock: Clock,
    /// `max_memory` in bytes; 0 = no limit.
    pub max_memory: u64,
    /// `hash_size` in KiB (Rapfi/Yixin convention), overriding the memory-derived size.
    pub hash_kib: Option<u64>,
    pub threads: Option<usize>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// `INFO opening_rule`: Pro / Long-Pro placement rules, or swap1.
    pub opening: OpeningRule,
    /// Every `INFO` key as received (lower-case keys), for modes that read their own.
    pub raw: HashMap<String, String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rule: GomokuRule::Freestyle,
            game: None,
            k: None,
            clock: Clock::default(),
            max_memory: 0,
            hash_kib: None,
            threads: None,
            max_depth: None,
            max_nodes: None,
            opening: OpeningRule::None,
            raw: HashMap::new(),
        }
    }
}

impl Settings {
    /// The game kind these settings select.
    pub fn kind(&self) -> GameKind {
        let kind = match &self.game {
            Some(name) => {
                GameKind::from_name(name, self.rule, self.k).unwrap_or(GameKind::Gomoku(self.rule))
            }
            None => GameKind::Gomoku(self.rule),
        };
        kind.with_capture_search(self.raw.get("capture_search").map(String::as_str))
    }

    /// The bytes the whole process may hold: [`MEMORY_SHARE_PERMILLE`] of `max_memory`;
    /// `None` without a limit.
    pub fn allowed_bytes(&self) -> Option<u64> {
        (self.max_memory > 0).then(|| self.max_memory / 1000 * MEMORY_SHARE_PERMILLE)
    }

    /// The room left for the search's tables when the process holds `fixed` bytes besides
    /// them: `None` without a limit, else at least [`MIN_TT_BYTES`] (the least the engine
    /// plays with, even where that breaks the limit: see [`Settings::floor`]).
    pub fn table_room(&self, fixed: u64) -> Option<u64> {
        self.allowed_bytes()
            .map(|a| a.saturating_sub(fixed).max(MIN_TT_BYTES))
    }

    /// The least `max_memory` under which a process holding `fixed` bytes besides its
    /// tables keeps within its share with the smallest tables.
    pub fn floor(fixed: u64) -> u64 {
        (fixed + MIN_TT_BYTES).div_ceil(MEMORY_SHARE_PERMILLE) * 1000
    }

    /// Transposition-table bytes for these settings when the tables have `room` bytes
    /// ([`Settings::table_room`]): `hash_size` when given, else the room, else
    /// [`DEFAULT_TT_BYTES`], and never more than a move's time can fill.
    pub fn tt_bytes(&self, room: Option<u64>) -> u64 {
        if let Some(kib) = self.hash_kib {
            return (kib.saturating_mul(1024))
                .min(ram_cap())
                .clamp(MIN_TT_BYTES, MAX_TT_BYTES);
        }
        let memory = match room {
            None => DEFAULT_TT_BYTES,
            Some(r) => r.min(MAX_TT_BYTES).min(ram_cap()).max(MIN_TT_BYTES),
        };
        memory.min(self.time_tt_bytes())
    }

    /// The table a move's time can fill ([`TT_BYTES_PER_MS`]), a power of two. Read from
    /// the game's limits (`timeout_turn`, `timeout_match`), not from `time_left`, so that
    /// the size (and the table) stays the same through a game.
    fn time_tt_bytes(&self) -> u64 {
        let clock = Clock {
            left: None,
            ..self.clock
        };
        // The most a move may take early in a game (moves to go: a 15×15 game's half).
        // The lateness first assumed, so the size stays the same through a game.
        let late = crate::search::time::FIRST_LATE_MS as i64;
        let ms = clock.budget(113, late).maximum.as_millis() as u64;
        let threads = self.search_threads() as u64;
        ms.saturating_mul(threads)
            .saturating_mul(TT_BYTES_PER_MS)
            .checked_next_power_of_two()
            .unwrap_or(u64::MAX)
            .max(MIN_TT_BYTES)
    }

    /// Search threads: `thread_num`, else one per core the OS offers.
    pub fn search_threads(&self) -> usize {
        self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::engine_with;
    use crate::engine::Engine;

    #[test]
    fn mem_total_is_read_from_meminfo() {
        let t = "MemTotal:       24684144 kB\nMemFree:        1 kB\n";
        assert_eq!(parse_mem_total_kib(t), Some(24684144));
        assert_eq!(parse_mem_total_kib("MemFree: 3 kB"), None);
        assert_eq!(parse_mem_total_kib("MemTotal: lots"), None);
    }

    /// The table is what a move's time fills, within the memory allowed: a fresh table's
    /// pages cost the first moves of a game their time, so fast games get small tables.
    #[test]
    fn the_table_is_sized_by_the_move_time_within_the_memory() {
        let mut e = engine_with(&[
            ("thread_num", "1"),
            ("max_memory", "367001600"),
            ("timeout_match", "0"),
        ]);
        // 200 ms less the 50 ms reserve: 150 ms × 32 KiB, up to a power of two.
        // The process holds 5 MiB besides its tables.
        let fixed = 5 << 20;
        let tt = |e: &Engine| e.settings.tt_bytes(e.settings.table_room(fixed));
        e.set_info("timeout_turn", "200");
        assert_eq!(tt(&e), 8 << 20);
        e.set_info("timeout_turn", "1000");
        assert_eq!(tt(&e), 32 << 20);
        e.set_info("thread_num", "2");
        assert_eq!(tt(&e), 64 << 20);
        // Slow games: the memory limit decides (75% of it, less what the process holds).
        e.set_info("timeout_turn", "30000");
        let allowed = 367_001_600 / 1000 * MEMORY_SHARE_PERMILLE - fixed;
        assert_eq!(tt(&e), allowed.min(ram_cap()));
        // Below the floor the table is the smallest.
        e.set_info("max_memory", &(Settings::floor(fixed) - 1).to_string());
        assert_eq!(tt(&e), MIN_TT_BYTES);
        e.set_info("max_memory", &Settings::floor(fixed).to_string());
        assert!(fixed + tt(&e) <= e.settings.allowed_bytes().unwrap());
        // Gomocup's fast games (5 s a move, 2 min a game) and no limits at all.
        e.set_info("timeout_turn", "5000");
        e.set_info("timeout_match", "120000");
        e.set_info("max_memory", "0");
        assert_eq!(tt(&e), DEFAULT_TT_BYTES);
        // `time_left` never resizes the table in the middle of a game.
        e.set_info("time_left", "3000");
        assert_eq!(tt(&e), DEFAULT_TT_BYTES);
        // An explicit size is taken as asked.
        e.set_info("timeout_turn", "200");
        e.set_info("hash_size", "65536");
        assert_eq!(tt(&e), 64 << 20);
    }

    #[test]
    fn absurd_limits_are_capped() {
        let mut e = Engine::new();
        e.set_info("thread_num", "100000");
        assert_eq!(e.settings.threads, Some(MAX_THREADS));
        e.set_info("hash_size", "999999999999");
        let b = e.settings.tt_bytes(None);
        assert!(b <= MAX_TT_BYTES && b <= ram_cap().max(MIN_TT_BYTES));
    }
}
