//! Builds the opening book (`pbrain-wuzi solve --book`): the positions a perfect player
//! meets that its solver could not finish within a move.
//!
//! A book of every 7×6 position to ply d costs more than this machine has: ply 12 alone
//! holds 12 million positions, many taking seconds each. A player only needs the positions
//! it can meet, though. The builder walks the tree of a perfect strategy for each colour: at
//! a position where the player moves (a *player node*) it stores the exact score and one
//! best column, plays it, and visits every reply of the opponent. A player node is left out
//! (a *leaf*: not stored, not expanded) when a cold solve with the engine's own move
//! procedure (weak then exact solve, on a fresh table) finishes within the node threshold, so
//! the engine answers it in a fraction of a short turn. Past `max_ply` a dear node is not
//! stored either, only counted: the engine would have to solve it in play. So the first
//! position off the book that a book-following player meets, whatever the opponent plays,
//! was measured cheap; the positions after it were not measured (they are deeper, and the
//! engine meets them with the table that first solve filled).
//!
//! The solves share one large table for the whole walk (its entries are exact bounds about
//! positions, valid forever), so a node's solve reuses its ancestors' work. A book already
//! on disk is read first and its entries are trusted, so a build can be resumed or deepened;
//! the book is saved every few minutes while building.

use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{column_to_char, Geometry, Position};
use crate::search::connect4::book::{
    canonical_key, fnv1a, Book, BookError, BookMove, MAX_KEY_BITS,
};
use crate::search::connect4::solver::{Solver, TransTable};
use crate::search::connect4::{decide, Solved};
use anyhow::Context;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// Table entries of the cold solve that decides whether a node is a leaf: above what a
/// threshold's search can fill, so the count matches an engine's fresh table.
const PROBE_TT_ENTRIES: usize = 1 << 21;
/// Player nodes up to this ply get a progress line.
const LOG_MAX_PLY: usize = 6;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Player nodes deeper than this are never stored.
    pub max_ply: usize,
    /// A player node whose cold solve takes at most this many nodes is left to the engine.
    pub node_threshold: u64,
    /// Entries of the table the solves share.
    pub tt_entries: usize,
    /// How often the book so far is written out.
    pub checkpoint: Duration,
}

/// Counts per ply, for the build's report.
#[derive(Clone, Debug, Default)]
pub struct PlyStats {
    /// Player nodes stored.
    pub stored: u64,
    /// Nodes the stored positions' solves searched.
    pub solve_nodes: u64,
    pub solve_time: Duration,
    /// Player nodes left to the engine (cold solve within the threshold).
    pub leaves: u64,
    /// The dearest leaf: its nodes and position.
    pub worst_leaf: (u64, String),
    /// Player nodes past `max_ply` that are dearer than the threshold.
    pub too_deep: u64,
}

/// The walk's state.
struct Builder<'a, 'w> {
    g: &'a Geometry<u64>,
    o: &'a BuildOptions,
    big: TransTable,
    probe: TransTable,
    /// Entries found by this build, by canonical key (column as seen from that side).
    entries: HashMap<u64, BookMove>,
    /// Entries of the book read at the start.
    known: HashMap<u64, BookMove>,
    leaves: HashSet<u64>,
    stats: Vec<PlyStats>,
    /// The moves from the empty board to the current node.
    path: String,
    started: Instant,
    last_save: Instant,
    log: &'w mut dyn Write,
    save: &'w mut dyn FnMut(&Book) -> anyhow::Result<()>,
}

impl Builder<'_, '_> {
    fn book(&self) -> Option<Book> {
        let max_ply = self.stats.iter().rposition(|s| s.stored > 0).unwrap_or(0);
        Book::from_entries(
            self.g,
            max_ply,
            u32::try_from(self.o.node_threshold).unwrap_or(u32::MAX),
            self.entries.iter().map(|(&k, &m)| (k, m)),
        )
    }

    /// A player node: store it and walk the opponent's replies, or leave it to the engine.
    fn player_node(&mut self, p: &Position<u64>) -> anyhow::Result<()> {
        let g = self.g;
        let (key, mirrored) = canonical_key(g, p);
        if self.entries.contains_key(&key) || self.leaves.contains(&key) {
            return Ok(());
        }
        // Decided at once (a win now, or every move loses): the engine needs no help.
        if p.can_win_next(g) || p.non_losing_moves(g).is_zero() {
            return Ok(());
        }
        let ply = p.moves;
        if self.stats.len() <= ply {
            self.stats.resize(ply + 1, PlyStats::default());
        }
        let stored = match self.known.get(&key) {
            Some(&m) => m,
            None => {
                if let Some(nodes) = self.cold_solve(p) {
                    let s = &mut self.stats[ply];
                    s.leaves += 1;
                    if nodes > s.worst_leaf.0 {
                        s.worst_leaf = (nodes, self.path.clone());
                    }
                    self.leaves.insert(key);
                    return Ok(());
                }
                if ply > self.o.max_ply {
                    self.stats[ply].too_deep += 1;
                    self.leaves.insert(key);
                    return Ok(());
                }
                let t0 = Instant::now();
                let mut s = Solver::new(g, &mut self.big);
                let (score, col) = s
                    .best_move(p)
                    .ok_or_else(|| anyhow::anyhow!("solve of {} aborted", self.path))?;
                let col = col.ok_or_else(|| anyhow::anyhow!("no move at {}", self.path))?;
                let st = &mut self.stats[ply];
                st.solve_nodes += s.nodes;
                st.solve_time += t0.elapsed();
                if ply <= LOG_MAX_PLY {
                    writeln!(
                        self.log,
                        "{:>8.1}s ply {ply:>2} {:<8} score {score:>3} column {} nodes {} ({:.1} s), {} stored",
                        self.started.elapsed().as_secs_f64(),
                        if self.path.is_empty() { "-" } else { &self.path },
                        col + 1,
                        s.nodes,
                        t0.elapsed().as_secs_f64(),
                        self.entries.len() + 1,
                    )?;
                }
                let column = if mirrored { g.width - 1 - col } else { col };
                BookMove { score, column }
            }
        };
        self.entries.insert(key, stored);
        self.stats[ply].stored += 1;
        if self.last_save.elapsed() >= self.o.checkpoint {
            self.checkpoint()?;
        }
        let col = if mirrored {
            g.width - 1 - stored.column
        } else {
            stored.column
        };
        if p.is_winning_col(g, col) {
            return Ok(());
        }
        let mut q = *p;
        q.play_col(g, col);
        self.path.push(column_to_char(col));
        for reply in 0..g.width {
            if !q.can_play(g, reply) || q.is_winning_col(g, reply) || q.moves + 1 >= g.cells() {
                continue;
            }
            let mut next = q;
            next.play_col(g, reply);
            self.path.push(column_to_char(reply));
            let r = self.player_node(&next);
            self.path.pop();
            r?;
        }
        self.path.pop();
        Ok(())
    }

    /// The engine's own move procedure on a fresh table, within the threshold: its nodes
    /// when it finished with an exact answer.
    fn cold_solve(&mut self, p: &Position<u64>) -> Option<u64> {
        self.probe.reset();
        let mut s =
            Solver::new(self.g, &mut self.probe).with_node_limit(Some(self.o.node_threshold));
        let solved = decide(&mut s, self.g, p);
        (matches!(solved, Solved::Move(..)) && !s.aborted()).then_some(s.nodes)
    }

    fn checkpoint(&mut self) -> anyhow::Result<()> {
        if let Some(book) = self.book() {
            (self.save)(&book)?;
            writeln!(
                self.log,
                "{:>8.1}s checkpoint: {} entries, {} leaves",
                self.started.elapsed().as_secs_f64(),
                book.len(),
                self.leaves.len()
            )?;
        }
        self.last_save = Instant::now();
        Ok(())
    }
}

/// Builds the book of both colours' perfect strategies. `resume` entries are taken as
/// they are; `save` receives the book at every checkpoint. Returns the book and the
/// statistics per ply.
pub fn build(
    g: &Geometry<u64>,
    o: &BuildOptions,
    resume: Option<&Book>,
    log: &mut dyn Write,
    save: &mut dyn FnMut(&Book) -> anyhow::Result<()>,
) -> anyhow::Result<(Book, Vec<PlyStats>)> {
    let mut b = Builder {
        g,
        o,
        big: TransTable::new(o.tt_entries),
        probe: TransTable::new(PROBE_TT_ENTRIES),
        entries: HashMap::new(),
        known: resume.map(|book| book.iter().collect()).unwrap_or_default(),
        leaves: HashSet::new(),
        stats: Vec::new(),
        path: String::new(),
        started: Instant::now(),
        last_save: Instant::now(),
        log,
        save,
    };
    // The first player's strategy, then the second's after each opening move.
    let empty = Position::empty();
    b.player_node(&empty)?;
    for first in 0..g.width {
        let mut p = empty;
        p.play_col(g, first);
        b.path.push(column_to_char(first));
        b.player_node(&p)?;
        b.path.pop();
    }
    let book = b
        .book()
        .ok_or_else(|| anyhow::anyhow!("the board does not fit the book format"))?;
    Ok((book, b.stats))
}

/// `pbrain-wuzi solve --book PATH`: builds (or, when `PATH` holds a valid book, resumes
/// and deepens) the book of a board, saving it to `PATH` as it goes; the progress goes to
/// `log` and a table per ply to `out`.
pub fn book_cli(
    width: usize,
    height: usize,
    k: usize,
    o: &BuildOptions,
    path: &Path,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> anyhow::Result<()> {
    let g = Geometry::<u64>::new(width, height, k)
        .filter(|_| width * (height + 1) <= MAX_KEY_BITS)
        .with_context(|| format!("a {width}x{height} board does not fit the book format"))?;
    let resume = match Book::load(path) {
        Ok(book) if (book.width, book.height, book.k) == (width, height, k) => Some(book),
        Ok(_) => anyhow::bail!("{} is a book of another board", path.display()),
        Err(BookError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if let Some(book) = &resume {
        writeln!(
            log,
            "resuming from {} ({} entries)",
            path.display(),
            book.len()
        )?;
    }
    let mut save = |book: &Book| {
        book.save(path)
            .with_context(|| format!("writing {}", path.display()))
    };
    let started = Instant::now();
    let (book, stats) = build(&g, o, resume.as_ref(), log, &mut save)?;
    save(&book)?;
    writeln!(
        out,
        "# book {}x{} k={k}, positions to ply {} whose cold solve takes over {} nodes",
        width, height, o.max_ply, o.node_threshold
    )?;
    writeln!(
        out,
        "ply stored solve_nodes solve_s leaves worst_leaf_nodes worst_leaf too_deep"
    )?;
    for (ply, s) in stats.iter().enumerate() {
        writeln!(
            out,
            "{ply} {} {} {:.1} {} {} {} {}",
            s.stored,
            s.solve_nodes,
            s.solve_time.as_secs_f64(),
            s.leaves,
            s.worst_leaf.0,
            if s.worst_leaf.1.is_empty() {
                "-"
            } else {
                &s.worst_leaf.1
            },
            s.too_deep
        )?;
    }
    let bytes = book.to_bytes();
    writeln!(
        out,
        "# {} entries, {} bytes, fnv1a {:016x}, {:.1} s",
        book.len(),
        bytes.len(),
        fnv1a(&bytes),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::connect4::solver::Solver;

    /// On a small board the build stores only dear nodes, and every stored move keeps the
    /// exact score the solver gives.
    #[test]
    fn stored_moves_are_exact_and_leaves_are_cheap() {
        let g = Geometry::<u64>::new(5, 4, 4).unwrap();
        let o = BuildOptions {
            max_ply: 20,
            node_threshold: 200,
            tt_entries: 1 << 16,
            checkpoint: Duration::from_secs(3600),
        };
        let mut log = Vec::new();
        let (book, stats) = build(&g, &o, None, &mut log, &mut |_| Ok(())).unwrap();
        assert!(!book.is_empty());
        assert!(stats.iter().all(|s| s.worst_leaf.0 <= 200));
        let mut tt = TransTable::new(1 << 16);
        let mut checked = 0;
        walk(&g, &mut |p| {
            let Some(m) = book.probe(&g, p) else { return };
            let exact = Solver::new(&g, &mut tt).solve(p, false).unwrap();
            assert_eq!(m.score, exact);
            let mut child = *p;
            if !p.is_winning_col(&g, m.column) {
                child.play_col(&g, m.column);
                let after = Solver::new(&g, &mut tt).solve(&child, false).unwrap();
                assert_eq!(-after, exact, "column {} keeps the score", m.column);
            }
            checked += 1;
        });
        assert_eq!(checked, book.len() * 2 - symmetric(&g, &book));
        // Resuming from the book finds the same book without solving anything.
        let (again, stats) = build(&g, &o, Some(&book), &mut log, &mut |_| Ok(())).unwrap();
        assert_eq!(again, book);
        assert_eq!(stats.iter().map(|s| s.solve_nodes).sum::<u64>(), 0);
    }

    /// Book entries whose position is its own mirror image (probed once by `walk`).
    fn symmetric(g: &Geometry<u64>, book: &Book) -> usize {
        book.iter().filter(|&(k, _)| g.mirror(k) == k).count()
    }

    /// Visits every open position once.
    fn walk(g: &Geometry<u64>, f: &mut dyn FnMut(&Position<u64>)) {
        fn go(
            g: &Geometry<u64>,
            p: &Position<u64>,
            seen: &mut HashSet<u64>,
            f: &mut dyn FnMut(&Position<u64>),
        ) {
            if !seen.insert(p.key()) || p.moves >= g.cells() {
                return;
            }
            f(p);
            for c in 0..g.width {
                if p.can_play(g, c) && !p.is_winning_col(g, c) {
                    let mut q = *p;
                    q.play_col(g, c);
                    go(g, &q, seen, f);
                }
            }
        }
        go(g, &Position::empty(), &mut HashSet::new(), f)
    }
}
