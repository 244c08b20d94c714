//! The exact solver on several threads sharing one table.
//!
//! Every thread solves the whole position (the same bisection of the score range) on the
//! shared [`TransTable`]; what one thread stores, the others read. Alone, identical threads
//! would walk the same tree side by side. What splits the work is a small table of the nodes
//! being searched ("busy"), as in the simplified ABDADA of parallel chess searches: a node
//! with many empty cells announces itself while its children are searched, and a thread that
//! meets a busy child (not the first of its node, which is the likeliest cut-off) puts it
//! after its siblings. By the time it comes back to it, the other thread has usually stored
//! the child's bound. The first thread to finish answers for all (every thread's answer is
//! exact) and stops the others.

use super::solver::{Solver, TransTable};
use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position};
use crate::search::busy::BusyTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What a parallel solve found: the score and a best column as [`Solver::best_move`] (or
/// the sign as `best_move_weak`) gives them, `None` if stopped; and every thread's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelResult {
    pub result: Option<(i32, Option<usize>)>,
    pub nodes: u64,
}

/// Solves `p` exactly (or its sign with `weak`) on `threads` threads sharing `tt`, until
/// `stop` returns true. One thread is exactly [`Solver::best_move`]; more run on a rayon
/// pool of their own (if the pool cannot be built, one thread does the work).
pub fn solve_parallel<B: Bits>(
    g: &Geometry<B>,
    tt: &mut TransTable,
    p: &Position<B>,
    weak: bool,
    threads: usize,
    stop: &(dyn Fn() -> bool + Sync),
) -> ParallelResult {
    let pool = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("c4-solve-{i}"))
            .build()
            .map_err(|e| log::warn!("solver threads unavailable ({e}); solving on one"))
            .ok()
    } else {
        None
    };
    let Some(pool) = pool else {
        let mut s = Solver::new(g, tt).with_stop(stop);
        let result = s.solve_root(p, weak);
        return ParallelResult {
            result,
            nodes: s.nodes,
        };
    };
    tt.new_search();
    let tt: &TransTable = tt;
    let busy = BusyTable::default();
    let done = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let answer = parking_lot::Mutex::new(None);
    pool.scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| {
                let halt = || done.load(Relaxed) || stop();
                // Each thread keeps the positions near the end in a near table of its own:
                // sharing one, the two threads' writes to the same few megabytes of cache
                // lines cost more than the shared entries saved (empty 7×6 board, two
                // threads: 48.3 s shared, 32.0 s one each).
                let near = tt.has_near().then(TransTable::near_table);
                let mut s = Solver::shared(g, tt).with_stop(&halt).with_busy(&busy);
                if let Some(near) = &near {
                    s = s.with_near(near);
                }
                let r = s.solve_root(p, weak);
                nodes.fetch_add(s.nodes, Relaxed);
                if let Some(r) = r {
                    if !done.swap(true, Relaxed) {
                        *answer.lock() = Some(r);
                    }
                }
            });
        }
    });
    ParallelResult {
        result: answer.into_inner(),
        nodes: nodes.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    /// Every thread count gives the one-thread score and a column that keeps it, on a
    /// small table and on one large enough for the threads' own near tables.
    #[test]
    fn threads_agree_with_one() {
        assert!(TransTable::new(1 << 21).has_near());
        for entries in [1 << 18, 1 << 21] {
            threads_agree_with_one_on(entries);
        }
    }

    fn threads_agree_with_one_on(entries: usize) {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let never = || false;
        for seq in [
            "32164625",
            "243335424257",
            "52753311433677442422121",
            "6146",
        ] {
            let p = parse_sequence(&g, seq).unwrap();
            let mut tt = TransTable::new(entries);
            let one = solve_parallel(&g, &mut tt, &p, false, 1, &never);
            let (score, _) = one.result.unwrap();
            for threads in [2, 3] {
                let mut tt = TransTable::new(entries);
                let r = solve_parallel(&g, &mut tt, &p, false, threads, &never);
                let (s, col) = r.result.unwrap();
                assert_eq!(s, score, "{seq} on {threads} threads");
                let mut child = p;
                let col = col.unwrap();
                child.play(child.possible(&g) & g.column_mask(col));
                let mut tt = TransTable::new(1 << 18);
                let after = Solver::new(&g, &mut tt).solve(&child, false).unwrap();
                assert_eq!(-after, score, "{seq}: column {col} keeps the score");
                assert!(r.nodes > 0);
            }
            let mut tt = TransTable::new(entries);
            let weak = solve_parallel(&g, &mut tt, &p, true, 2, &never);
            assert_eq!(weak.result.map(|r| r.0), Some(score.signum()), "{seq} weak");
        }
    }

    #[test]
    fn stop_ends_every_thread() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut tt = TransTable::new(1 << 16);
        let stopped = || true;
        let r = solve_parallel(&g, &mut tt, &Position::empty(), false, 2, &stopped);
        assert_eq!(r.result, None);
    }
}
