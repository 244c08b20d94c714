//! The transposition table: one shared, lock-free table of search results keyed by Zobrist
//! hash, used by every search thread at once.
//!
//! Each slot is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts a slot
//! only when `stored_key ^ data == key`, so a slot torn by two threads writing at once reads
//! as a miss instead of as wrong data (the classic lockless scheme). Slots are grouped in
//! buckets of [`BUCKET`]; replacement prefers the shallowest or oldest entry so deep results
//! survive, and a generation counter ages entries from earlier moves out.
//!
//! Memory is allocated lazily by [`TranspositionTable::resize`] (called before a search, not
//! at `START`), so starting a game stays instant even with a large `max_memory`.

use super::table_memory::{prefetch, zeroed_box};
use crate::game::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// Entries per bucket: one cache line of 4 × 16 bytes.
pub const BUCKET: usize = 4;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    Exact = 3,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Shared transposition table. `&self` methods only: threads share it behind an `Arc`.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: AtomicU8,
    /// Whether anything was stored since the slots were last zeroed.
    written: AtomicBool,
}

// Data layout (low to high): move 11 bits (x 5, y 5, present 1), score 16, depth 8,
// bound 2, generation 6.
fn pack(mv: Option<Move>, score: i32, depth: u8, bound: Bound, gen: u8) -> u64 {
    let m = match mv {
        Some(m) => 0x400 | ((m.y as u64 & 31) << 5) | (m.x as u64 & 31),
        None => 0,
    };
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    m | (s << 11) | ((depth as u64) << 27) | ((bound as u64) << 35) | (((gen & 63) as u64) << 37)
}

fn unpack(d: u64) -> (Entry, u8) {
    let mv = if d & 0x400 != 0 {
        Some(Move::new((d & 31) as u8, ((d >> 5) & 31) as u8))
    } else {
        None
    };
    let score = ((d >> 11) & 0xffff) as u16 as i16 as i32;
    let depth = ((d >> 27) & 0xff) as u8;
    let bound = match (d >> 35) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let gen = ((d >> 37) & 63) as u8;
    (
        Entry {
            mv,
            score,
            depth,
            bound,
        },
        gen,
    )
}

/// `n` empty slots, in lazily zeroed memory advised into huge pages (see
/// [`super::table_memory`]).
fn zeroed_slots(n: usize) -> Box<[Slot]> {
    // SAFETY: an all-zero `Slot` (two `AtomicU64` zeros) is a valid, empty slot.
    unsafe { zeroed_box(n) }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::new()
    }
}

impl TranspositionTable {
    /// An empty table holding nothing until [`resize`](Self::resize).
    pub fn new() -> TranspositionTable {
        TranspositionTable {
            slots: Box::default(),
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
        }
    }

    /// Bytes currently allocated.
    pub fn bytes(&self) -> usize {
        self.slots.len() * ENTRY_BYTES
    }

    /// Re-allocates to the largest power-of-two bucket count within `bytes` (at least one
    /// bucket) and clears. Does nothing when the size is unchanged.
    pub fn resize(&mut self, bytes: usize) {
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let n = buckets * BUCKET;
        if n != self.slots.len() {
            self.slots = Box::default();
            self.slots = zeroed_slots(n);
            *self.written.get_mut() = false;
        }
    }

    /// Forgets every entry (`YXHASHCLEAR`, new game). The slots are zeroed in place, not
    /// swapped for fresh pages: the kernel zeroes a fresh page only when a search first
    /// writes it, which on a big table cost the next game's first move a large share of its
    /// time (about 2 ms a MiB on a virtual machine), while writing over mapped memory takes
    /// about 0.1 ms a MiB, here, during `START`/`RESTART`, which no turn's time includes.
    pub fn clear(&mut self) {
        if *self.written.get_mut() {
            // SAFETY: the table is borrowed exclusively, and an all-zero `Slot` (two
            // `AtomicU64` zeros) is a valid, empty slot.
            unsafe { std::ptr::write_bytes(self.slots.as_mut_ptr(), 0, self.slots.len()) };
            *self.written.get_mut() = false;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let buckets = self.slots.len() / BUCKET;
        // Multiply-shift maps the key's high bits uniformly onto the bucket range.
        let i = ((key as u128 * buckets as u128) >> 64) as usize;
        &self.slots[i * BUCKET..(i + 1) * BUCKET]
    }

    /// Asks the memory for the bucket of `key` ahead of its probe: the search issues it for
    /// a child before playing the move, so the miss overlaps the board's update.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if !self.slots.is_empty() {
            prefetch(&self.bucket(key)[0]);
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        for s in self.bucket(key) {
            let d = s.data.load(Ordering::Relaxed);
            if d != 0 && s.check.load(Ordering::Relaxed) ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    /// Stores a result. Keeps an existing move when the new result has none.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: u8, bound: Bound) {
        if self.slots.is_empty() {
            return;
        }
        // Read before written: the flag's cache line stays shared between the threads.
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let gen = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let d = s.data.load(Ordering::Relaxed);
            if d == 0 {
                victim = i;
                break;
            }
            let (e, g) = unpack(d);
            if s.check.load(Ordering::Relaxed) ^ d == key {
                // Same position: keep the deeper exact result unless this one is as deep.
                if depth + 2 < e.depth && bound != Bound::Exact && g == gen {
                    return;
                }
                let mv = mv.or(e.mv);
                let nd = pack(mv, score, depth, bound, gen);
                s.data.store(nd, Ordering::Relaxed);
                s.check.store(key ^ nd, Ordering::Relaxed);
                return;
            }
            let age = (gen.wrapping_sub(g) & 63) as i32;
            let worth = e.depth as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let nd = pack(mv, score, depth, bound, gen);
        bucket[victim].data.store(nd, Ordering::Relaxed);
        bucket[victim].check.store(key ^ nd, Ordering::Relaxed);
    }

    /// Permille of sampled slots holding an entry of the current generation.
    pub fn hashfull(&self) -> usize {
        let gen = self.generation.load(Ordering::Relaxed) & 63;
        let n = self.slots.len().min(4000);
        if n == 0 {
            return 0;
        }
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == gen
            })
            .count();
        used * 1000 / n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        for &(mv, score, depth, bound) in &[
            (Some(Move::new(31, 31)), -30000, 255u8, Bound::Exact),
            (None, 29999, 0, Bound::Lower),
            (Some(Move::new(0, 7)), 0, 13, Bound::Upper),
        ] {
            let (e, g) = unpack(pack(mv, score, depth, bound, 5));
            assert_eq!(
                e,
                Entry {
                    mv,
                    score,
                    depth,
                    bound,
                }
            );
            assert_eq!(g, 5);
        }
    }

    #[test]
    fn stores_and_finds_by_key_only() {
        let mut tt = TranspositionTable::new();
        assert_eq!(tt.probe(42), None);
        tt.resize(1 << 16);
        tt.store(42, Some(Move::new(3, 4)), 17, 6, Bound::Lower);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (Some(Move::new(3, 4)), 17, 6));
        assert_eq!(tt.probe(43), None);
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn a_clear_forgets_a_big_table_in_place() {
        let mut tt = TranspositionTable::new();
        tt.resize(4 << 20);
        let before = tt.slots.as_ptr();
        // Keys spread over the whole table.
        let keys: Vec<u64> = (1..=1000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for &k in &keys {
            tt.store(k, None, 1, 3, Bound::Exact);
        }
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        // The same pages, so the next game's search does not fault them in again.
        assert_eq!(tt.slots.as_ptr(), before);
        tt.store(7, Some(Move::new(2, 2)), 5, 1, Bound::Lower);
        assert_eq!(tt.probe(7).map(|e| e.mv), Some(Some(Move::new(2, 2))));
    }

    #[test]
    fn keeps_move_when_new_result_has_none() {
        let mut tt = TranspositionTable::new();
        tt.resize(1 << 12);
        tt.store(9, Some(Move::new(1, 1)), 5, 4, Bound::Exact);
        tt.store(9, None, -3, 5, Bound::Upper);
        let e = tt.probe(9).unwrap();
        assert_eq!(
            (e.mv, e.score, e.bound),
            (Some(Move::new(1, 1)), -3, Bound::Upper)
        );
    }

    #[test]
    fn full_bucket_evicts_the_shallowest() {
        let mut tt = TranspositionTable::new();
        tt.resize(BUCKET * ENTRY_BYTES); // one bucket: every key collides
        for k in 1..=BUCKET as u64 {
            tt.store(k, None, 0, 10 + k as u8, Bound::Exact);
        }
        tt.store(100, None, 0, 20, Bound::Exact);
        assert!(
            tt.probe(1).is_none(),
            "depth 11 entry should have been replaced"
        );
        assert!(tt.probe(100).is_some() && tt.probe(4).is_some());
    }

    #[test]
    fn resize_rounds_down_to_power_of_two_buckets() {
        let mut tt = TranspositionTable::new();
        tt.resize(3 * BUCKET * ENTRY_BYTES);
        assert_eq!(tt.bytes(), 2 * BUCKET * ENTRY_BYTES);
        tt.resize(0);
        assert_eq!(tt.bytes(), BUCKET * ENTRY_BYTES);
    }
}
