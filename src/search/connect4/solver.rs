//! The exact Connect Four solver, after Pascal Pons' published one.
//!
//! Negamax with alpha-beta on the bitboards of [`crate::game::connect4::position`]; the exact score is found
//! by a sequence of null-window searches that bisect the possible range (biased toward 0,
//! where most positions lie); only moves that do not lose at once are searched, a single
//! forced block is played without branching, and moves are tried by the number of winning
//! cells they create (ties: centre first), after the column that last caused a cut-off in
//! the same position. The transposition table keeps upper bounds after fail-low nodes and
//! lower bounds after cut-offs, in two-entry buckets (the costlier result and the latest):
//! a prime number of buckets indexed by key mod size with a 32-bit check, which is exact
//! for boards of up to 55 bits (7×6 is 49) by the Chinese remainder theorem, and hashed (so
//! near exact) beyond. A position and its mirror image share one entry (the smaller key),
//! and at the root the moves of a mirror-symmetric position are searched on one half only.
//! Beyond Pons: the buckets, the cut-off column and the mirror key, which on the long solves
//! of early 7×6 positions save about a third of the nodes (first move `1`: 603M → 395M);
//! a node prefetches its children's buckets while it sorts its moves (the solve waits on
//! table misses, and this lets them overlap), tries enhanced transposition cut-offs, and
//! scores a move that opens two winning cells without searching it. Measured with
//! `scripts/c4-vs-pons.sh` (150 random positions of 8–14 plies, CPU best of two against
//! Pons' solver in the same run): 1.26× his time before, 0.81× after; 0.50× since the
//! positions near the end live in a small, cache-resident near table of their own
//! ([`NEAR_EMPTY`]): a long solve spent most of its time waiting on memory for them. Only
//! positions of fewer than `MIRROR_MAX_MOVES` stones use the mirror key: deeper, the mirror
//! costs more than the rare shared entry saves. A node where every column has an even
//! number of empty cells bounds its score by Allis' claimeven rule (the opponent answering
//! on top of every stone), which on the empty board saves a tenth of the nodes.
//! Pons' bisection of the score range is kept: probing 0 first, which suits the near-0
//! scores of the opening, made the mid-game positions of the public sets ten times dearer.
//!
//! Scores follow the published convention: 0 draw, a win is (W·H + 1 − stones before the
//! winning stone) / 2, a loss the negative of the opponent's win. The search can be aborted
//! (node budget, deadline, stop flag); an aborted call returns `None`.

use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position};
use crate::search::busy::BusyTable;
use crate::search::table_memory::{advise_huge_pages, prefetch, zeroed_box_plain};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Nodes with at least this many empty cells try the enhanced transposition cut-off (a
/// child whose stored upper bound already refutes the window cuts without a search). With
/// the double-threat check, on 40 random 7×6 positions: 52.0M → 42.1M nodes, CPU time
/// unchanged (6.01 → 5.99 s); public sets 51.8 / 448.0 / 3,292.7 → 51.1 / 408.0 / 2,798.3.
const ETC_MIN_EMPTY: usize = 12;
/// Positions with fewer stones than this share a table entry with their mirror image;
/// deeper ones, rarely symmetric to anything searched, skip the mirror's cost.
const MIRROR_MAX_MOVES: usize = 20;
/// With other threads (see [`super::parallel`]), nodes with at least this many empty cells
/// announce themselves as busy, and their busy children wait for their siblings.
const BUSY_MIN_EMPTY: usize = 16;
/// Nodes with at least this many empty cells try the claimeven bound
/// ([`Solver::claimeven_bound`]); closer to the end the search is cheaper than the check.
const CLAIMEVEN_MIN_EMPTY: usize = 8;
/// How often (in nodes) the abort condition is polled.
const POLL_INTERVAL: u64 = 4096;
/// Default table size: 8M entries of 8 bytes (64 MB), plus the 4 MB near table.
pub const DEFAULT_TT_ENTRIES: usize = 1 << 23;

/// Smallest prime at or above `n` (n ≥ 2).
pub fn next_prime(n: usize) -> usize {
    let is_prime = |m: usize| {
        if m < 2 {
            return false;
        }
        let mut d = 2;
        while d * d <= m {
            if m.is_multiple_of(d) {
                return false;
            }
            d += 1;
        }
        true
    };
    (n.max(2)..).find(|&m| is_prime(m)).unwrap_or(2)
}

/// One table hit: the stored bound (encoded as in [`Solver`]) and the column that last
/// caused a cut-off here, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub value: u16,
    pub column: Option<usize>,
}

/// Bounds stored per position, two entries per bucket, each packed in one `u64`:
/// bits 0..32 the check (the digest's low 32 bits), 32..48 the encoded bound (0 = empty),
/// 48..53 the cut-off column + 1 (0 = none), 53..56 the search generation, 56..64 the work
/// (log2 of the nodes searched under the entry). A bucket is 16 bytes aligned to 16, so a
/// probe touches one cache line. The first entry keeps the costlier position of the current
/// search (a result that took millions of nodes is not evicted by a leaf), the second is
/// always replaced: on a solve of billions of nodes the table is full and the replacement
/// rule decides how much work is redone. An entry of an earlier search (the engine keeps
/// the table from move to move) stays valid but loses its claim on the first entry, so that
/// stale costly positions do not hold half the table for the rest of the game. The buckets
/// written since the last reset are remembered, so that a reset between small searches (the
/// benchmark solves 1000 positions of a few hundred nodes each) costs what was used rather
/// than the whole table.
pub struct TransTable {
    /// `2 · buckets` entries from `base`, which makes the first one 16-byte aligned. Atomic
    /// so that the threads of [`super::parallel::solve_parallel`] share it: each entry is one `u64` holding
    /// its own check, so a race can lose an entry but never pair a bound with another
    /// position; relaxed loads and stores are plain moves on x86-64. Allocated zeroed, so a
    /// fresh table costs only what is touched.
    slots: Box<[AtomicU64]>,
    base: usize,
    buckets: usize,
    /// Buckets first written since the last reset, while fewer than its capacity:
    /// `touched_len` may run past the capacity (then the reset clears everything).
    touched: Box<[AtomicU32]>,
    touched_len: AtomicUsize,
    /// The current search's generation, already shifted to its bits.
    generation: u64,
    /// The near table: a small one for the positions with fewer than [`NEAR_EMPTY`] empty
    /// cells, present when this one is too large to stay in the cache (see [`NEAR_ENTRIES`]).
    near: Option<Box<TransTable>>,
}

/// Positions with fewer empty cells than this are kept in the near table. Nearly every
/// node of a long solve lies there, and each of them waited on a memory miss for its own
/// bound and those of its children; their subtrees are small, so a cache-sized table that
/// forgets them soon loses little. Empty 7×6 board, one thread, 2^26 entries, same build:
/// 692.4M nodes, 85.6 s without; with a 2^19-entry near table from 18 / 20 / 22 empty
/// cells 844.9M / 889.3M / 932.9M nodes, 53.2 / 53.0 / 57.2 s.
pub const NEAR_EMPTY: usize = 20;
/// Entries of the near table: 4 MB, which the shared L3 cache holds (2^18: 54.4 s,
/// 2^20: 56.8 s, 2^21: 71.3 s on the solve above). At least 2^18, so that it stays exact
/// for 7×6 keys (a prime number of buckets above 2^17 and a 32-bit check: see
/// [`TransTable::slot`]).
const NEAR_ENTRIES: usize = 1 << 19;
/// Main tables from this many entries (16 MB) get a near table; smaller ones (tests,
/// small boards, short engine moves) are cache-sized themselves.
const NEAR_MIN_ENTRIES: usize = 1 << 21;

const CHECK_MASK: u64 = 0xffff_ffff;
const VALUE_SHIFT: u32 = 32;
const COLUMN_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 53;
const GENERATION_MASK: u64 = 0x7 << GENERATION_SHIFT;
const WORK_SHIFT: u32 = 56;

#[inline]
fn entry_value(e: u64) -> u16 {
    (e >> VALUE_SHIFT) as u16
}

#[inline]
fn entry_work(e: u64) -> u64 {
    e >> WORK_SHIFT
}

#[inline]
fn entry_column(e: u64) -> u64 {
    (e >> COLUMN_SHIFT) & 0x1f
}

impl TransTable {
    /// Bytes per entry: check, bound, column and work in one `u64`.
    pub const ENTRY_BYTES: usize = 8;

    /// A table of about `entries` entries: a prime number of two-entry buckets, plus the
    /// near table when it is large (see [`NEAR_EMPTY`]). Memory is zeroed lazily by the
    /// allocator, so a fresh table costs only what is touched.
    pub fn new(entries: usize) -> TransTable {
        let mut table = TransTable::single(entries);
        if entries >= NEAR_MIN_ENTRIES {
            table.near = Some(Box::new(TransTable::near_table()));
        }
        table
    }

    /// A table of the near table's size, for one thread of a parallel solve
    /// ([`Solver::with_near`]).
    pub fn near_table() -> TransTable {
        TransTable::single(NEAR_ENTRIES)
    }

    /// A table without a near table.
    fn single(entries: usize) -> TransTable {
        let buckets = next_prime((entries / 2).max(2));
        // SAFETY: zero is a valid AtomicU64 (the value 0), as below for AtomicU32.
        let slots = unsafe { zeroed_box_plain::<AtomicU64>(2 * buckets + 1) };
        if slots.len() >= HUGE_PAGE_MIN_ENTRIES {
            advise_huge_pages(slots.as_ptr().cast(), std::mem::size_of_val(&*slots));
        }
        let base = (slots.as_ptr() as usize / 8) % 2;
        TransTable {
            slots,
            base,
            buckets,
            touched: unsafe { zeroed_box_plain::<AtomicU32>(buckets / 8) },
            touched_len: AtomicUsize::new(0),
            generation: 0,
            near: None,
        }
    }

    /// The table that keeps positions with `empty` empty cells: the near table for
    /// positions close to the end when there is one, else this one.
    #[inline]
    pub fn for_empty(&self, empty: usize) -> &TransTable {
        match &self.near {
            Some(near) if empty < NEAR_EMPTY => near,
            _ => self,
        }
    }

    /// Whether positions near the end have a near table (the table is large).
    pub fn has_near(&self) -> bool {
        self.near.is_some()
    }

    /// Number of entries (twice a prime), the near table's not counted.
    pub fn entries(&self) -> usize {
        2 * self.buckets
    }

    /// The bucket and the check. The bucket index is the digest modulo a prime and the
    /// check its low 32 bits, so by the Chinese remainder theorem the pair determines a
    /// digest below `buckets · 2^32`: exact for keys of up to 55 bits with the default
    /// table (7×6 keys have 49).
    #[inline]
    fn slot(&self, digest: u64) -> (usize, u64) {
        let bucket = (digest % self.buckets as u64) as usize;
        (self.base + 2 * bucket, digest & CHECK_MASK)
    }

    /// The entry stored for `digest`, if any.
    #[inline]
    pub fn get(&self, digest: u64) -> Option<Probe> {
        let (i, check) = self.slot(digest);
        self.slots[i..i + 2]
            .iter()
            .map(|e| e.load(Relaxed))
            .find(|&e| e & CHECK_MASK == check && entry_value(e) != 0)
            .map(|e| Probe {
                value: entry_value(e),
                column: entry_column(e).checked_sub(1).map(|c| c as usize),
            })
    }

    /// Asks the memory for the bucket of `digest` ahead of its probe. A solve waits on the
    /// table at nearly every node; a node prefetches its children's buckets before sorting
    /// its moves, so that their misses overlap instead of coming one after another.
    #[inline]
    pub fn prefetch(&self, digest: u64) {
        let (i, _) = self.slot(digest);
        prefetch(&self.slots[i]);
    }

    /// Stores a bound (`value` ≠ 0), the cut-off column (kept from an older entry of the
    /// same position when `None`) and the work it took.
    #[inline]
    pub fn put(&self, digest: u64, value: u16, column: Option<usize>, work: u32) {
        let (i, check) = self.slot(digest);
        let (first, second) = (self.slots[i].load(Relaxed), self.slots[i + 1].load(Relaxed));
        if first == 0 && second == 0 && self.touched_len.load(Relaxed) < self.touched.len() {
            let at = self.touched_len.fetch_add(1, Relaxed);
            if let Some(t) = self.touched.get(at) {
                t.store(i as u32, Relaxed);
            }
        }
        let same = |e: u64| e != 0 && e & CHECK_MASK == check;
        let old_column = if same(first) {
            entry_column(first)
        } else if same(second) {
            entry_column(second)
        } else {
            0
        };
        let column = column.map_or(old_column, |c| (c as u64 + 1) & 0x1f);
        let work = u64::from(work.min(255));
        let e = check
            | (u64::from(value) << VALUE_SHIFT)
            | (column << COLUMN_SHIFT)
            | self.generation
            | (work << WORK_SHIFT);
        if same(first) {
            self.slots[i].store(e, Relaxed);
        } else if first == 0
            || first & GENERATION_MASK != self.generation
            || work >= entry_work(first)
        {
            // The costlier result takes the first entry; the one it displaces goes to the
            // second (over this position's own older entry, if that is where it was).
            if first != 0 {
                self.slots[i + 1].store(first, Relaxed);
            }
            self.slots[i].store(e, Relaxed);
        } else {
            self.slots[i + 1].store(e, Relaxed);
        }
    }

    /// Starts a new search: the entries stored so far keep their bounds but no longer
    /// outrank the new ones in the replacement rule.
    pub fn new_search(&mut self) {
        if let Some(near) = &mut self.near {
            near.new_search();
        }
        self.generation = (self.generation + (1 << GENERATION_SHIFT)) & GENERATION_MASK;
    }

    /// Empties the table: only the written buckets when few were, else everything.
    pub fn reset(&mut self) {
        if let Some(near) = &mut self.near {
            near.reset();
        }
        let used = *self.touched_len.get_mut();
        if used < self.touched.len() {
            for t in &mut self.touched[..used] {
                let i = *t.get_mut() as usize;
                *self.slots[i].get_mut() = 0;
                *self.slots[i + 1].get_mut() = 0;
            }
        } else {
            self.slots.iter_mut().for_each(|e| *e.get_mut() = 0);
        }
        *self.touched_len.get_mut() = 0;
    }

    /// Whether every entry is empty (the near table's too).
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.slots.iter().all(|e| e.load(Relaxed) == 0)
            && self.near.as_ref().is_none_or(|n| n.is_empty())
    }
}

/// Tables from this many entries (32 MB) ask for huge pages. Nearly every probe of a solve
/// misses the caches, and with 4 KB pages it also misses the TLB; on the random mid-game
/// positions of `scripts/c4-vs-pons.sh` the default table (2^23 entries) solved them 12%
/// faster with huge pages (9.79 → 8.60 s CPU, same nodes, same run). Small tables (tests,
/// the m,n,k-sized boards) stay on normal pages: the kernel may compact memory to serve a
/// huge page, a stall a tiny search should not pay.
const HUGE_PAGE_MIN_ENTRIES: usize = 1 << 22;

/// Exact score of a position the side to move wins with its next stone.
#[inline]
pub fn immediate_win_score(cells: usize, moves: usize) -> i32 {
    ((cells + 1 - moves) / 2) as i32
}

/// The solver for one geometry. Holds the table by reference so a caller may reuse it.
pub struct Solver<'a, B: Bits> {
    g: &'a Geometry<B>,
    tt: &'a TransTable,
    /// Column order for ties: centre first, alternating outwards.
    order: Vec<usize>,
    /// Range of scores, for the bound encoding in the table.
    min_score: i32,
    max_score: i32,
    pub nodes: u64,
    node_limit: Option<u64>,
    should_stop: Option<&'a dyn Fn() -> bool>,
    aborted: bool,
    /// The nodes other threads are searching (parallel solves only).
    busy: Option<&'a BusyTable>,
    /// This thread's own near table, in place of the shared table's (parallel solves).
    near: Option<&'a TransTable>,
    /// The rows of the cells the side to move ends with under claimeven: those whose
    /// parity is the board height's (the spare row on top included).
    claimeven_rows: B,
}

impl<'a, B: Bits> Solver<'a, B> {
    pub fn new(g: &'a Geometry<B>, tt: &'a mut TransTable) -> Solver<'a, B> {
        tt.new_search();
        Solver::shared(g, tt)
    }

    /// A solver on a table that other solvers may be using at the same time (the threads
    /// of [`super::parallel::solve_parallel`]); the caller starts the table's new search.
    pub fn shared(g: &'a Geometry<B>, tt: &'a TransTable) -> Solver<'a, B> {
        let w = g.width;
        // Pons' column order: centre, then alternately left and right of it.
        let order = (0..w as i64)
            .map(|i| (w as i64 / 2 + (1 - 2 * (i % 2)) * ((i + 1) / 2)) as usize)
            .collect::<Vec<_>>();
        let cells = g.cells() as i32;
        Solver {
            g,
            tt,
            order,
            min_score: -cells / 2,
            max_score: (cells + 1) / 2,
            nodes: 0,
            node_limit: None,
            should_stop: None,
            aborted: false,
            busy: None,
            near: None,
            claimeven_rows: {
                let mut rows = B::ZERO;
                for c in 0..w {
                    for r in (0..=g.height).filter(|r| r % 2 == g.height % 2) {
                        rows = rows | B::bit(c * (g.height + 1) + r);
                    }
                }
                rows
            },
        }
    }

    /// Abort once this many nodes have been searched (counted from creation).
    pub fn with_node_limit(mut self, limit: Option<u64>) -> Self {
        self.node_limit = limit;
        self
    }

    /// Abort when this returns true (polled every few thousand nodes).
    pub fn with_stop(mut self, stop: &'a dyn Fn() -> bool) -> Self {
        self.should_stop = Some(stop);
        self
    }

    /// Share the work with other threads through `busy` (see [`super::parallel`]).
    pub fn with_busy(mut self, busy: &'a BusyTable) -> Self {
        self.busy = Some(busy);
        self
    }

    /// Keep the positions near the end in `near` (a [`TransTable::near_table`]) rather
    /// than in the shared table's near table.
    pub fn with_near(mut self, near: &'a TransTable) -> Self {
        self.near = Some(near);
        self
    }

    pub fn aborted(&self) -> bool {
        self.aborted
    }

    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|l| self.nodes >= l)
            || (self.nodes.is_multiple_of(POLL_INTERVAL) && self.should_stop.is_some_and(|f| f()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Exact score (or only its sign with `weak`); `None` if aborted.
    /// The position must not be over (no alignment on the board, not full is fine).
    pub fn solve(&mut self, p: &Position<B>, weak: bool) -> Option<i32> {
        self.solve_root(p, weak).map(|(s, _)| s)
    }

    /// Exact score and a best column (fastest win, slowest loss); the column is `None` only
    /// when the board is full. `None` if aborted.
    pub fn best_move(&mut self, p: &Position<B>) -> Option<(i32, Option<usize>)> {
        self.solve_root(p, false)
    }

    /// The sign of the score (1 win, 0 draw, −1 loss) and, unless the position is lost, a
    /// column that keeps it: a move player's first question, answered several times faster
    /// than the exact score. `None` if aborted.
    pub fn best_move_weak(&mut self, p: &Position<B>) -> Option<(i32, Option<usize>)> {
        self.solve_root(p, true)
    }

    /// [`Self::best_move`], or [`Self::best_move_weak`] with `weak`.
    pub fn solve_root(&mut self, p: &Position<B>, weak: bool) -> Option<(i32, Option<usize>)> {
        let g = self.g;
        let cells = g.cells();
        if p.moves >= cells {
            return Some((0, None));
        }
        if p.can_win_next(g) {
            let col = Position::columns_in(g, p.winning(g) & p.possible(g)).next();
            let s = immediate_win_score(cells, p.moves);
            return Some((if weak { s.signum() } else { s }, col));
        }
        let mut min = -((cells - p.moves) as i32) / 2;
        let mut max = ((cells + 1 - p.moves) as i32) / 2;
        if weak {
            min = -1;
            max = 1;
        }
        let mut best = None;
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let (r, col) = self.root(p, med, med + 1);
            if self.aborted {
                return None;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
                best = col.or(best);
            }
        }
        if best.is_none() {
            // Every move scores the bound we started from: take the first non-losing one,
            // else any legal column.
            let nl = p.non_losing_moves(g);
            let pool = if nl.is_zero() { p.possible(g) } else { nl };
            best = self
                .order
                .iter()
                .copied()
                .find(|&c| !(pool & g.column_mask(c)).is_zero());
        }
        // A weak search's window only separates the signs; the bound it returns may be
        // larger than 1 in magnitude.
        Some((if weak { min.signum() } else { min }, best))
    }

    /// Sorted moves (best first) of a mask: the table's cut-off column `first`, then by
    /// threats created, then centre order. For an inner node (`inner`) it also prefetches
    /// each child's table bucket (the digest goes with the move) and answers `None` when a
    /// move leaves two winning cells open: that move wins with our next stone (after a
    /// non-losing move the opponent cannot win at once, and blocks only one cell), the
    /// best score left, with no child searched.
    fn sorted_moves(
        &self,
        p: &Position<B>,
        moves: B,
        first: Option<usize>,
        inner: bool,
        out: &mut [(B, u32, (u64, bool)); 16],
    ) -> Option<usize> {
        let g = self.g;
        let mut n = 0;
        // Insertion in reverse centre order, popping from the back: among equal scores the
        // centre comes first, exactly as Pons' MoveSorter.
        for &c in self.order.iter().rev() {
            let mv = moves & g.column_mask(c);
            if mv.is_zero() {
                continue;
            }
            let threats = g.winning_cells(p.current | mv, p.mask);
            let mut digest = (0, false);
            if inner {
                let mut child = *p;
                child.play(mv);
                if (threats & child.possible(g)).has_several() {
                    return None;
                }
                digest = self.digest(&child);
                self.table(child.moves).prefetch(digest.0);
            }
            let score = if first == Some(c) {
                u32::MAX
            } else {
                threats.count_ones()
            };
            let mut pos = n;
            while pos > 0 && out[pos - 1].1 > score {
                out[pos] = out[pos - 1];
                pos -= 1;
            }
            out[pos] = (mv, score, digest);
            n += 1;
        }
        Some(n)
    }

    /// The root of one null-window iteration: negamax that also names the move.
    fn root(&mut self, p: &Position<B>, mut alpha: i32, beta: i32) -> (i32, Option<usize>) {
        let g = self.g;
        self.nodes += 1;
        let possible = p.non_losing_moves(g);
        if possible.is_zero() {
            return (-((g.cells() - p.moves) as i32) / 2, None);
        }
        if p.moves + 2 >= g.cells() {
            return (0, Position::columns_in(g, possible).next());
        }
        let symmetric = p.mirrored(g) == *p;
        let mut moves = [(B::ZERO, 0u32, (0u64, false)); 16];
        let n = self
            .sorted_moves(p, possible, None, false, &mut moves)
            .unwrap_or(0);
        let mut best = None;
        for i in (0..n).rev() {
            let mv = moves[i].0;
            let col = g.column_of(mv);
            if symmetric && col.is_some_and(|c| c > g.width - 1 - c) {
                continue;
            }
            let mut child = *p;
            child.play(mv);
            let key = self.digest(&child);
            let score = -self.negamax(&child, key, -beta, -alpha);
            if self.aborted {
                return (alpha, best);
            }
            if score >= beta {
                return (score, col);
            }
            if score > alpha {
                alpha = score;
                best = col;
            }
        }
        (alpha, best)
    }

    /// The table digest of a position and whether it is the mirror image's: a position and
    /// its mirror share one entry (same value, columns mirrored).
    #[inline]
    fn digest(&self, p: &Position<B>) -> (u64, bool) {
        let key = p.key().digest();
        if p.moves >= MIRROR_MAX_MOVES {
            return (key, false);
        }
        let mirrored = self.g.mirror(p.key()).digest();
        if mirrored < key {
            (mirrored, true)
        } else {
            (key, false)
        }
    }

    /// [`Self::search`], marked busy for the other threads while it runs when it is deep
    /// enough to be worth sharing.
    #[inline]
    fn negamax(&mut self, p: &Position<B>, key: (u64, bool), alpha: i32, beta: i32) -> i32 {
        match self.busy {
            Some(busy) if p.moves + BUSY_MIN_EMPTY <= self.g.cells() => {
                let marked = busy.enter(key.0);
                let score = self.search(p, key, alpha, beta);
                if marked {
                    busy.leave(key.0);
                }
                score
            }
            _ => self.search(p, key, alpha, beta),
        }
    }

    /// Pons' negamax, with the cut-off column and the work stored in the table.
    /// Precondition: the side to move cannot win at once.
    /// `key` is the position's [`Self::digest`], which the parent computed to prefetch it.
    fn search(&mut self, p: &Position<B>, key: (u64, bool), mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        let nodes_before = self.nodes;
        let g = self.g;
        let cells = g.cells();
        let possible = p.non_losing_moves(g);
        if possible.is_zero() {
            return -((cells - p.moves) as i32) / 2;
        }
        if p.moves + 2 >= cells {
            return 0;
        }
        let mut min = -((cells - 2 - p.moves) as i32) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = ((cells - 1 - p.moves) as i32) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if p.moves + CLAIMEVEN_MIN_EMPTY <= cells {
            if let Some(bound) = self.claimeven_bound(p) {
                if beta > bound {
                    beta = bound;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        }
        let (digest, flipped) = key;
        let orient = |c: usize| if flipped { g.width - 1 - c } else { c };
        let tt = self.table(p.moves);
        let mut tt_column = None;
        if let Some(probe) = tt.get(digest) {
            let val = probe.value as i32;
            tt_column = probe.column.filter(|&c| c < g.width).map(orient);
            if val > self.max_score - self.min_score + 1 {
                min = val + 2 * self.min_score - self.max_score - 2;
                if alpha < min {
                    alpha = min;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = val + self.min_score - 1;
                if beta > max {
                    beta = max;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        }
        let mut moves = [(B::ZERO, 0u32, (0u64, false)); 16];
        let Some(n) = self.sorted_moves(p, possible, tt_column, true, &mut moves) else {
            return ((cells - 1 - p.moves) as i32) / 2;
        };
        if p.moves + ETC_MIN_EMPTY <= cells {
            // Enhanced transposition cut-off: a child whose stored upper bound is low
            // enough refutes this node's window without being searched.
            for &(mv, _, (child_digest, _)) in &moves[..n] {
                if let Some(probe) = self.table(p.moves + 1).get(child_digest) {
                    let val = probe.value as i32;
                    if val <= self.max_score - self.min_score + 1 {
                        let score = -(val + self.min_score - 1);
                        if score >= beta {
                            let v = score + self.max_score - 2 * self.min_score + 2;
                            let col = g.column_of(mv).map(orient);
                            let work = self.work_since(nodes_before);
                            tt.put(digest, v as u16, col, work);
                            return score;
                        }
                    }
                }
            }
        }
        // With other threads, a child one of them is searching (not the first, the
        // likeliest cut-off) waits until the siblings are done: its bound is then usually
        // in the table.
        let busy = self.busy.filter(|_| p.moves + 1 + BUSY_MIN_EMPTY <= cells);
        let (mut deferred, mut waiting, mut taken) = ([0u8; 16], 0, 0);
        let mut next = n;
        loop {
            let i = if next > 0 {
                next -= 1;
                if next + 1 < n && busy.is_some_and(|b| b.is_busy(moves[next].2 .0)) {
                    deferred[waiting] = next as u8;
                    waiting += 1;
                    continue;
                }
                next
            } else if taken < waiting {
                taken += 1;
                deferred[taken - 1] as usize
            } else {
                break;
            };
            let mut child = *p;
            child.play(moves[i].0);
            let score = -self.negamax(&child, moves[i].2, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                let v = score + self.max_score - 2 * self.min_score + 2;
                let col = g.column_of(moves[i].0).map(orient);
                let work = self.work_since(nodes_before);
                tt.put(digest, v as u16, col, work);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        let work = self.work_since(nodes_before);
        tt.put(digest, (alpha - self.min_score + 1) as u16, None, work);
        alpha
    }

    /// An upper bound on the score of the side to move from Allis' claimeven rule, when
    /// it applies. With an even number of empty cells in every column, the opponent can
    /// answer every stone on top of it until the board is full; we then end with exactly
    /// the empty cells of [`Self::claimeven_rows`]. If those and our stones hold no line,
    /// we cannot win (bound 0); if the opponent's cells also hold one, we lose (−1).
    #[inline]
    fn claimeven_bound(&self, p: &Position<B>) -> Option<i32> {
        let g = self.g;
        // The cell above each column's top stone (the spare bit for a full column) lies
        // on a claimeven row exactly when the column's empty count is even.
        let landing = p.mask.wrapping_add(g.bottom);
        if !(landing & !self.claimeven_rows).is_zero() {
            return None;
        }
        let empty = g.board & !p.mask;
        if g.has_line(p.current | (empty & self.claimeven_rows)) {
            return None;
        }
        let theirs = (p.current ^ p.mask) | (empty & !self.claimeven_rows);
        Some(if g.has_line(theirs) { -1 } else { 0 })
    }

    /// The table that keeps the positions of `moves` stones.
    #[inline]
    fn table(&self, moves: usize) -> &'a TransTable {
        let empty = self.g.cells() - moves;
        match self.near {
            Some(near) if empty < NEAR_EMPTY => near,
            _ => self.tt.for_empty(empty),
        }
    }

    /// log2 of the nodes searched since `before` (the replacement priority in the table).
    #[inline]
    fn work_since(&self, before: u64) -> u32 {
        64 - (self.nodes - before).leading_zeros()
    }
}

/// Converts an exact solver score into the engine's score scale (plies to the result).
pub fn to_engine_score(score: i32, cells: usize, moves: usize) -> i32 {
    use crate::base::score::{mate_in, mated_in};
    let cells = cells as i32;
    let moves = moves as i32;
    if score > 0 {
        // The mover wins with its j-th next stone (j = 0: now).
        let j = (cells + 1 - moves) / 2 - score;
        mate_in((2 * j + 1).max(1) as u32)
    } else if score < 0 {
        let j = (cells - moves) / 2 + score;
        mated_in((2 * j + 2).max(2) as u32)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    fn solve7(seq: &str) -> (i32, u64) {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(1 << 16);
        let p = parse_sequence(&g, seq).unwrap();
        let mut s = Solver::new(&g, &mut tt);
        let score = s.solve(&p, false).unwrap();
        (score, s.nodes)
    }

    #[test]
    fn centre_out_order() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(16);
        assert_eq!(Solver::new(&g, &mut tt).order, vec![3, 2, 4, 1, 5, 0, 6]);
        let g = Geometry::<u64>::new(4, 4, 4).unwrap();
        let mut tt = TransTable::new(16);
        assert_eq!(Solver::new(&g, &mut tt).order, vec![2, 1, 3, 0]);
    }

    #[test]
    fn reset_forgets_every_entry() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        for entries in [1 << 16, 64] {
            // 64 entries fill up: the reset takes the full-clear path.
            let mut tt = TransTable::new(entries);
            let p = parse_sequence(&g, "4453").unwrap();
            let first = {
                let mut s = Solver::new(&g, &mut tt).with_node_limit(Some(5_000));
                let _ = s.solve(&p, false);
                s.nodes
            };
            tt.reset();
            assert!(tt.is_empty());
            let mut s = Solver::new(&g, &mut tt).with_node_limit(Some(5_000));
            let _ = s.solve(&p, false);
            assert_eq!(s.nodes, first, "a reset table searches the same tree");
        }
    }

    /// The costlier entry keeps its place in a full bucket; the column and the bound of
    /// a position survive its other entries' churn, and a bound without a column keeps the
    /// older column.
    #[test]
    fn table_keeps_costly_entries_and_columns() {
        let mut tt = TransTable::new(4);
        let buckets = (tt.entries() / 2) as u64;
        let (a, b, c) = (7, 7 + buckets, 7 + 2 * buckets); // one bucket, three keys
        tt.put(a, 30, Some(3), 20);
        tt.put(b, 31, None, 2);
        tt.put(c, 32, Some(15), 1);
        assert_eq!(
            tt.get(a),
            Some(Probe {
                value: 30,
                column: Some(3)
            })
        );
        assert_eq!(tt.get(b), None, "the cheap entry made room");
        assert_eq!(tt.get(c).map(|p| p.column), Some(Some(15)));
        tt.put(a, 12, None, 25);
        assert_eq!(
            tt.get(a),
            Some(Probe {
                value: 12,
                column: Some(3)
            })
        );
        tt.put(b, 40, Some(0), 30);
        assert_eq!(tt.get(b).map(|p| p.value), Some(40));
        assert_eq!(tt.get(a).map(|p| p.value), Some(12), "demoted, not lost");
        // A new search: the costly old entry still answers, but a cheap new one displaces it.
        tt.new_search();
        assert_eq!(tt.get(b).map(|p| p.value), Some(40));
        tt.put(c, 33, None, 1);
        assert_eq!(tt.get(c).map(|p| p.value), Some(33));
        assert_eq!(tt.get(b).map(|p| p.value), Some(40), "demoted, not lost");
        assert_eq!(tt.get(a), None);
    }

    /// A large table keeps the positions near the end in its near table; the scores stay
    /// exact, and a reset empties both tables.
    #[test]
    fn near_table_holds_the_endgame_and_keeps_scores_exact() {
        let small = TransTable::new(1 << 16);
        assert!(
            std::ptr::eq(small.for_empty(1), &small),
            "small tables have none"
        );
        let mut tt = TransTable::new(NEAR_MIN_ENTRIES);
        let near: *const TransTable = tt.for_empty(NEAR_EMPTY - 1);
        assert!(!std::ptr::eq(near, &tt));
        assert!(std::ptr::eq(tt.for_empty(NEAR_EMPTY), &tt));
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        // Positions of the public sets with their published scores (Test_L1_R1, then a
        // draw from Test_L2_R1).
        for (seq, score) in [
            ("32164625", 11),
            ("265756512", -12),
            ("17516442226766", 8),
            ("2737772244262123677516643354", 0),
        ] {
            let p = parse_sequence(&g, seq).unwrap();
            assert_eq!(solve7(seq).0, score, "{seq} on a small table");
            assert_eq!(
                Solver::new(&g, &mut tt).solve(&p, false),
                Some(score),
                "{seq}"
            );
        }
        assert!(!tt.is_empty());
        tt.reset();
        assert!(tt.is_empty());
    }

    /// Win (1), draw (0) or loss (−1) for the side to move, by plain minimax.
    fn outcome(g: &Geometry<u64>, p: &Position<u64>) -> i32 {
        if p.can_win_next(g) {
            return 1;
        }
        let moves = p.possible(g);
        if moves.is_zero() {
            return 0;
        }
        Position::columns_in(g, moves)
            .map(|c| {
                let mut child = *p;
                child.play_col(g, c);
                -outcome(g, &child)
            })
            .max()
            .unwrap_or(0)
    }

    /// The claimeven bound never claims less than the true outcome, and it does apply:
    /// positions of random 7×6 games in which nobody completes a line, taken whenever
    /// every column has an even number of empty cells and at most 10 are left, checked by
    /// plain minimax.
    #[test]
    fn claimeven_bounds_the_outcome() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(1 << 10);
        let s = Solver::new(&g, &mut tt);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut none, mut draws, mut losses) = (0, 0, 0);
        for _ in 0..300 {
            let mut p = Position::<u64>::empty();
            loop {
                if p.moves >= 32 && p.moves.is_multiple_of(2) && p.moves < 42 {
                    match s.claimeven_bound(&p) {
                        None => none += 1,
                        Some(bound) => {
                            let truth = outcome(&g, &p);
                            assert!(truth <= bound, "{p:?}: bound {bound}, outcome {truth}");
                            if bound == 0 {
                                draws += 1;
                            } else {
                                losses += 1;
                            }
                        }
                    }
                }
                let quiet: Vec<usize> = (0..7)
                    .filter(|&c| p.can_play(&g, c) && !p.is_winning_col(&g, c))
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.play_col(&g, quiet[(seed % quiet.len() as u64) as usize]);
            }
        }
        assert!(
            draws > 0 && losses > 0,
            "bounds 0: {draws}, -1: {losses}, none: {none}"
        );
    }

    #[test]
    fn primes() {
        assert_eq!(next_prime(8), 11);
        assert_eq!(next_prime(13), 13);
        assert_eq!(next_prime(1 << 23), 8_388_617);
    }

    /// Positions and scores from the public Test_L3_R1 set.
    #[test]
    fn endgame_scores_are_exact() {
        assert_eq!(solve7("2252576253462244111563365343671351441").0, -1);
        assert_eq!(solve7("7422341735647741166133573473242566").0, 1);
        assert_eq!(solve7("23163416124767223154467471272416755633").0, 0);
    }

    #[test]
    fn immediate_win_and_forced_loss() {
        // X has three in column 1 and is to move: wins with the 7th stone: (43 - 6) / 2.
        assert_eq!(solve7("121212").0, 18);
        // O to move cannot stop two threats: X wins with its 4th stone... as a loss for O.
        let (s, _) = solve7("4455");
        assert!(
            s > 0,
            "the first player to move with 44 55 played wins: {s}"
        );
    }

    #[test]
    fn node_limit_aborts() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(1 << 16);
        let p = Position::empty();
        let mut s = Solver::new(&g, &mut tt).with_node_limit(Some(1000));
        assert_eq!(s.solve(&p, false), None);
        assert!(s.aborted());
    }

    #[test]
    fn best_move_finds_the_fastest_win() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(1 << 16);
        // X: 4,4,4 (col 3) ; O: 1,1 ; X to move wins in column 4 at once.
        let p = parse_sequence(&g, "414141").unwrap();
        let mut s = Solver::new(&g, &mut tt);
        assert_eq!(s.best_move(&p), Some((18, Some(3))));
    }

    #[test]
    fn small_boards_and_other_k() {
        // 4×4, k=4: a known draw.
        let g = Geometry::<u64>::new(4, 4, 4).unwrap();
        let mut tt = TransTable::new(1 << 16);
        assert_eq!(
            Solver::new(&g, &mut tt).solve(&Position::empty(), false),
            Some(0)
        );
        // k=3 on 5×4: the first player wins (three in a row is easy to force).
        let g = Geometry::<u64>::new(5, 4, 3).unwrap();
        let mut tt = TransTable::new(1 << 16);
        let s = Solver::new(&g, &mut tt)
            .solve(&Position::empty(), false)
            .unwrap();
        assert!(s > 0);
    }

    #[test]
    fn engine_score_conversion() {
        use crate::base::score::{mate_in, mated_in};
        // Immediate win at move 6 on 7x6: score 18 → mate in 1 ply.
        assert_eq!(to_engine_score(18, 42, 6), mate_in(1));
        assert_eq!(to_engine_score(17, 42, 6), mate_in(3));
        // Loss: the opponent wins with its next stone: opponent score (42-6)/2 = 18.
        assert_eq!(to_engine_score(-18, 42, 6), mated_in(2));
        assert_eq!(to_engine_score(0, 42, 6), 0);
    }
}
