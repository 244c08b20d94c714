//! Which positions the threads of a parallel search are searching right now: a thread
//! defers a child another one is in (the simplified ABDADA of parallel chess searches), so
//! that the threads spread over siblings instead of all walking the same subtree. Used by
//! the Connect Four solver's threads ([`super::connect4::parallel`]) and by the alpha-beta's
//! Lazy SMP ([`super::gomoku::alphabeta`]).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots of the busy table: far more than the nodes two threads can be inside at once, few
/// enough to stay in the cache.
const BUSY_SLOTS: usize = 1 << 14;

/// Which positions threads are searching right now, by key (a table digest or a Zobrist
/// key; one slot per key hash: a collision can only make a thread defer a child it need
/// not have).
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl BusyTable {
    #[inline]
    fn slot(&self, digest: u64) -> &AtomicU64 {
        // The digest's low bits are its table check; mix so that nearby keys spread.
        let h = digest.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50;
        &self.slots[h as usize & (BUSY_SLOTS - 1)]
    }

    /// Marks `digest` as being searched; false when the slot already holds a position
    /// (then nothing is marked and [`BusyTable::leave`] must not be called).
    #[inline]
    pub fn enter(&self, digest: u64) -> bool {
        let tag = digest | 1 << 63;
        self.slot(digest)
            .compare_exchange(0, tag, Relaxed, Relaxed)
            .is_ok()
    }

    /// Clears the mark [`BusyTable::enter`] made.
    #[inline]
    pub fn leave(&self, digest: u64) {
        self.slot(digest).store(0, Relaxed);
    }

    /// Whether some thread is searching `digest` now.
    #[inline]
    pub fn is_busy(&self, digest: u64) -> bool {
        self.slot(digest).load(Relaxed) == digest | 1 << 63
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_marks_and_clears() {
        let b = BusyTable::default();
        assert!(!b.is_busy(42));
        assert!(b.enter(42));
        assert!(b.is_busy(42));
        assert!(!b.enter(42), "a marked slot is not marked twice");
        b.leave(42);
        assert!(!b.is_busy(42));
        assert!(!b.is_busy(0), "the empty slot is no position");
    }
}
