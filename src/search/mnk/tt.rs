//! The m,n,k solver's transposition table: keys folded over the board's symmetries, scores
//! on the shared mate scale, and a depth that says how far below the entry was searched.
//!
//! Two slots per bucket: one kept by depth (the expensive results near the root survive) and
//! one always replaced (recent results stay available deep in the tree). A depth equal to
//! the number of empty cells marks an exact result (the whole subtree was searched), which
//! any later search may use whatever depth it asks for. Mate scores are stored relative to
//! the entry's own position so they stay right when the same position is reached at another
//! ply. The table lives inside one search and is single-threaded, so entries are plain data.

use crate::base::score::{from_tt, to_tt};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// Slots are (key, data) pairs of u64s; all-zero data is an empty slot, which lets the
/// table come from zeroed memory at no cost.
/// Data layout: score (i16) in bits 0..16, depth in 16..32, bound (1 exact, 2 lower,
/// 3 upper) in 32..40, move in 40..56 (`u16::MAX` when none).
#[inline]
fn pack(score: i32, depth: u32, bound: Bound, mv: Option<u16>) -> u64 {
    let b: u64 = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (score as i16 as u16 as u64)
        | (depth.min(u16::MAX as u32) as u64) << 16
        | b << 32
        | (mv.unwrap_or(u16::MAX) as u64) << 40
}

#[inline]
fn bound_of(data: u64) -> u8 {
    (data >> 32) as u8
}

#[inline]
fn depth_of(data: u64) -> u32 {
    (data >> 16) as u16 as u32
}

#[inline]
fn move_of(data: u64) -> u16 {
    (data >> 40) as u16
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
    pub mv: Option<u16>,
}

/// A bucketed table of two-slot buckets: slot 0 kept by depth, slot 1 always replaced.
/// Bucket `b` is `table[4b..4b + 4]`: key 0, data 0, key 1, data 1.
pub struct Tt {
    table: Vec<u64>,
    mask: usize,
}

/// Bytes per bucket, for sizing from a memory budget.
pub const BUCKET_BYTES: usize = 4 * std::mem::size_of::<u64>();

impl Tt {
    /// A table of at most `bytes` bytes (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Tt {
        let want = (bytes / BUCKET_BYTES).max(1);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        // Zeroed u64s come straight from the allocator (lazily mapped pages), so even a
        // large table costs nothing until it is used.
        Tt {
            table: vec![0u64; 4 * n],
            mask: n - 1,
        }
    }

    /// Forgets every entry. A fresh zeroed allocation instead of a fill: the pages are
    /// only mapped as they are used again, so clearing a large, sparsely used table is free.
    pub fn clear(&mut self) {
        self.table = vec![0u64; self.table.len()];
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Mix the high bits in; the full key is checked on probe.
        4 * (((key >> 32) ^ key) as usize & self.mask)
    }

    /// The entry for `key`, with a mate score brought back to `ply` plies from the root.
    pub fn probe(&self, key: u64, ply: u32) -> Option<Hit> {
        let i = self.index(key);
        let d = [i, i + 2]
            .into_iter()
            .find(|&j| self.table[j] == key && bound_of(self.table[j + 1]) != 0)
            .map(|j| self.table[j + 1])?;
        Some(Hit {
            score: from_tt(d as u16 as i16 as i32, ply),
            depth: depth_of(d),
            bound: match bound_of(d) {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            mv: (move_of(d) != u16::MAX).then_some(move_of(d)),
        })
    }

    /// Stores a result found `ply` plies from the root.
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        score: i32,
        depth: u32,
        bound: Bound,
        mv: Option<u16>,
    ) {
        let i = self.index(key);
        let (deep_key, deep) = (self.table[i], self.table[i + 1]);
        let mut mv = mv;
        if mv.is_none() && deep_key == key && move_of(deep) != u16::MAX {
            // Keep the move of an earlier result of the same position.
            mv = Some(move_of(deep));
        }
        let data = pack(to_tt(score, ply), depth, bound, mv);
        if bound_of(deep) == 0 || deep_key == key || depth >= depth_of(deep) {
            if deep_key != key && bound_of(deep) != 0 {
                self.table[i + 2] = deep_key;
                self.table[i + 3] = deep;
            }
            self.table[i] = key;
            self.table[i + 1] = data;
        } else {
            self.table[i + 2] = key;
            self.table[i + 3] = data;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::score::{mate_in, mated_in};

    #[test]
    fn mate_scores_are_relative_to_the_entry() {
        let mut tt = Tt::with_bytes(1 << 12);
        tt.store(42, 5, mate_in(9), 10, Bound::Exact, Some(3));
        let hit = tt.probe(42, 2).unwrap();
        // Won 4 plies below the entry: from ply 2 that is a win at ply 6.
        assert_eq!(hit.score, mate_in(6));
        assert_eq!(hit.mv, Some(3));
        tt.store(43, 1, mated_in(3), 4, Bound::Upper, None);
        assert_eq!(tt.probe(43, 3).unwrap().score, mated_in(5));
        assert!(tt.probe(44, 0).is_none());
    }

    #[test]
    fn shallow_results_do_not_evict_deep_ones() {
        let mut tt = Tt::with_bytes(BUCKET_BYTES); // one bucket
        tt.store(1, 0, 7, 30, Bound::Exact, None);
        tt.store(2, 0, 8, 3, Bound::Lower, None);
        tt.store(3, 0, 9, 2, Bound::Upper, None);
        assert_eq!(tt.probe(1, 0).unwrap().score, 7);
        assert!(tt.probe(2, 0).is_none());
        assert_eq!(tt.probe(3, 0).unwrap().bound, Bound::Upper);
    }
}
