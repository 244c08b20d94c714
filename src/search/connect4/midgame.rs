//! The default player's search for positions the exact solver cannot finish in time (the
//! first half of a game on 12×6 and other large boards).
//!
//! Iterative deepening over a full-width principal-variation search (null windows after the
//! first move, a re-search when one fails high) with a transposition table: Connect Four is
//! full of transpositions, and the table also hands each iteration the previous one's best
//! move. Moves are ordered by the table's move, then the new threats a move makes, then killer
//! moves and a history of cut-offs, then the centre. The solver's safety rules hold at every
//! node (take a win, never play under the other side's threat, a single forced block is the
//! only move), and a node with one move left is extended rather than counted as a ply: a
//! forced line costs no depth. Leaves are scored by [`Windows::evaluate_leaf`]: the
//! windows by stones, the threats by row parity and by their place above the playable
//! cells, who wins the zugzwang at the end (weights in `game/connect4/eval_weights.rs`).
//!
//! Unlike the classic beam player's search ([`super::heuristic`]) nothing is cut by width:
//! a beam drops the quiet moves that set up a zugzwang many plies later.

use crate::base::score::{from_tt, mate_in, mated_in, to_tt, INFINITE, WIN_MIN};
use crate::game::connect4::bits::{mix64, Bits};
use crate::game::connect4::ntuple::NTuple;
use crate::game::connect4::position::{Geometry, Position, Threats};
use crate::game::connect4::windows::Windows;
use crate::game::connect4::MAX_SIZE;
use crate::search::table_memory::{prefetch, zeroed_box};

use super::deepen::{deepen, BeamResult, Iterated};
use super::heuristic::node_moves_given;

/// Nodes between two polls of the clock and the stop flag: well under a millisecond, so the
/// search stops close to its deadline even when a loaded machine slows it down.
const POLL_INTERVAL: u64 = 256;
/// The n-tuple network's value (−1 to 1) in evaluation units: at its surest, more than a
/// stacked pair of threats. On 12×6 at 300 ms a move against the hand-set terms alone
/// (200 games each): scale 1000 +19 Elo, 2000 +85, 3000 +53.
const NTUPLE_SCALE: f32 = 2000.0;
/// Table entries (16 bytes each): 16 MiB; a 1 s move searches about 2M nodes.
pub const TABLE_ENTRIES: usize = 1 << 20;
/// Deepest ply a killer slot exists for (beyond, no killers).
const MAX_PLY: usize = 128;
/// Ordering weights: the new threats a move makes dominate, then the killers, then history.
const THREAT_ORDER: i32 = 1 << 20;
const KILLER_ORDER: i32 = 1 << 18;
/// Late move reductions: from this depth, moves after the first [`LMR_FULL_MOVES`] that make
/// no new threat and are no killer are searched one ply shallower first (null window), and
/// again at full depth only when they beat alpha; from [`LMR_DEEP_DEPTH`] on, those after
/// the first [`LMR_DEEP_MOVES`] two plies shallower.
const LMR_MIN_DEPTH: u32 = 3;
const LMR_FULL_MOVES: usize = 3;
const LMR_DEEP_DEPTH: u32 = 4;
const LMR_DEEP_MOVES: usize = 5;

/// Threat cells of the mover after a move that it did not have before: a threat kept from
/// earlier does not make every move loud (counted whole, a side with one threat had no
/// quiet move left to reduce).
#[inline]
fn new_threats<B: Bits>(before: B, after: B) -> i32 {
    (after & !before).count_ones() as i32
}

/// Plies a late quiet move's first search is reduced by (within LMR's bounds, depth ≥ 3).
#[inline]
fn lmr_reduction(depth: u32, index: usize) -> u32 {
    if depth >= LMR_DEEP_DEPTH && index >= LMR_DEEP_MOVES {
        2
    } else {
        1
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: u8,
    /// Column + 1 of the best move (0 = none).
    col: u8,
    /// The table's generation when stored.
    age: u8,
}

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

/// The transposition table, kept from move to move: one entry per slot, keyed by the full
/// 64-bit digest. A new entry replaces the old one unless that is another position of the
/// current search ([`Table::next_generation`]) searched more than two plies deeper: deep
/// entries save the most work, yet a slot must not freeze on a stale one, and the deep
/// entries of earlier moves are mostly about positions the game has left behind.
pub struct Table {
    slots: Box<[Entry]>,
    generation: u8,
}

impl Table {
    /// Bytes per entry.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

    pub fn new(entries: usize) -> Table {
        // SAFETY: an entry is plain integers; all zero is the empty entry (bound 0).
        let slots = unsafe { zeroed_box(entries.next_power_of_two().max(1024)) };
        Table {
            slots,
            generation: 0,
        }
    }

    /// Slots in the table.
    pub fn entries(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new search: what earlier ones stored no longer holds its slot against it.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// Asks the memory for a slot the search is about to probe: nearly every probe of a
    /// 16 MiB table misses the caches (three quarters of a node's own time went to it).
    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.slot(key)]);
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        let e = self.slots[self.slot(key)];
        (e.bound != 0 && e.key == key).then_some(e)
    }

    #[inline]
    fn put(&mut self, key: u64, e: Entry) {
        let i = self.slot(key);
        let old = self.slots[i];
        if old.key != key
            && old.bound != 0
            && old.age == self.generation
            && old.depth > e.depth.saturating_add(2)
        {
            return;
        }
        self.slots[i] = Entry {
            key,
            age: self.generation,
            ..e
        };
    }
}

/// A node's moves with their order and the threats of the position each leads to, on the
/// stack: a node allocates nothing.
struct Moves<B: Bits> {
    items: [(B, i32, Threats<B>); MAX_SIZE],
    len: usize,
}

impl<B: Bits> Default for Moves<B> {
    fn default() -> Self {
        let none = Threats {
            mine: B::ZERO,
            theirs: B::ZERO,
        };
        Moves {
            items: [(B::ZERO, 0, none); MAX_SIZE],
            len: 0,
        }
    }
}

impl<B: Bits> Moves<B> {
    fn push(&mut self, mv: B, order: i32, child: Threats<B>) {
        self.items[self.len] = (mv, order, child);
        self.len += 1;
    }

    /// Best order first; equal orders keep their column order.
    fn sort(&mut self) {
        self.items[..self.len].sort_by_key(|m| std::cmp::Reverse(m.1));
    }

    fn as_slice(&self) -> &[(B, i32, Threats<B>)] {
        &self.items[..self.len]
    }
}

/// The search over one geometry.
pub struct MidSearch<'a, B: Bits> {
    g: &'a Geometry<B>,
    win: &'a Windows<B>,
    tt: &'a mut Table,
    pub nodes: u64,
    node_limit: Option<u64>,
    should_stop: &'a dyn Fn() -> bool,
    aborted: bool,
    killers: Vec<[u8; 2]>,
    /// Cut-off credit per cell (`col · height + row`).
    history: Vec<i32>,
    /// The n-tuple network added to the leaf evaluation, and its slot indices per ply
    /// (followed move by move, so that a leaf only sums).
    nt: Option<&'a NTuple>,
    nt_idx: Vec<u32>,
}

impl<'a, B: Bits> MidSearch<'a, B> {
    pub fn new(
        g: &'a Geometry<B>,
        win: &'a Windows<B>,
        nt: Option<&'a NTuple>,
        tt: &'a mut Table,
        node_limit: Option<u64>,
        should_stop: &'a dyn Fn() -> bool,
    ) -> MidSearch<'a, B> {
        MidSearch {
            g,
            win,
            tt,
            nodes: 0,
            node_limit,
            should_stop,
            aborted: false,
            killers: vec![[0; 2]; MAX_PLY],
            history: vec![0; g.cells()],
            nt: nt.filter(|n| (n.width, n.height) == (g.width, g.height)),
            nt_idx: Vec::new(),
        }
    }

    /// Iterative deepening up to `max_depth` (the loop both heuristic searches share); `on_iteration` sees every
    /// finished iteration and returns false to stop deepening. An iteration cut short by the
    /// stop still counts when it searched its first move (the previous best) to the end: the
    /// best move found so far is then at least as well informed. `None` only when not even
    /// depth 1 ended.
    pub fn run(
        &mut self,
        p: &Position<B>,
        max_depth: u32,
        on_iteration: &mut dyn FnMut(&BeamResult) -> bool,
    ) -> Option<BeamResult> {
        let empty = (self.g.cells() - p.moves) as u32;
        // The table hands each iteration the previous best move.
        let mut iterate = |depth, _previous| {
            let found = self.root(p, depth);
            Iterated {
                found,
                ended: !self.aborted,
                nodes: self.nodes,
            }
        };
        deepen(empty, max_depth, &mut iterate, on_iteration)
    }

    fn check_abort(&mut self) -> bool {
        if !self.aborted
            && (self.node_limit.is_some_and(|l| self.nodes >= l)
                || (self.nodes.is_multiple_of(POLL_INTERVAL) && (self.should_stop)()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    #[inline]
    fn cell_index(&self, mv: B) -> (usize, usize) {
        let col = self.g.column_of(mv).unwrap_or(0);
        (col, col * self.g.height + self.g.row_of(mv, col))
    }

    /// The moves of `moves`, best first (see the module notes), each with its order and
    /// the threats of the position it leads to. `t` holds the threats of `p`: the child's
    /// side to move keeps its own (less the cell just filled), and the mover's new ones are
    /// what the ordering counts anyway, so no node works its threats out again.
    fn ordered(
        &self,
        p: &Position<B>,
        t: &Threats<B>,
        moves: B,
        tt_col: u8,
        ply: usize,
    ) -> Moves<B> {
        let g = self.g;
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        let w = g.width as i32;
        let mut v = Moves::default();
        for c in Position::columns_in(g, moves) {
            let mv = moves & g.column_mask(c);
            let tag = c as u8 + 1;
            let child = Threats {
                mine: t.theirs & !mv,
                theirs: g.winning_cells(p.current | mv, p.mask | mv),
            };
            let s = if tag == tt_col {
                i32::MAX
            } else {
                let row = g.row_of(mv, c);
                let centre = w - (2 * c as i32 - (w - 1)).abs();
                let killer = if killers.contains(&tag) {
                    KILLER_ORDER
                } else {
                    0
                };
                THREAT_ORDER * new_threats(t.mine, child.theirs)
                    + killer
                    + self.history[c * g.height + row].min(KILLER_ORDER - 1000)
                    + centre
            };
            v.push(mv, s, child);
        }
        v.sort();
        v
    }

    /// One iteration at the root: (score, column), or `None` when stopped before the
    /// first move was searched.
    fn root(&mut self, p: &Position<B>, depth: u32) -> Option<(i32, usize)> {
        let g = self.g;
        self.nodes += 1;
        let possible = p.possible(g);
        if possible.is_zero() {
            return None;
        }
        let wins = p.winning(g) & possible;
        if !wins.is_zero() {
            return Position::columns_in(g, wins)
                .next()
                .map(|c| (mate_in(1), c));
        }
        let nl = p.non_losing_moves(g);
        if nl.is_zero() {
            let pool = p.opponent_winning(g) & possible;
            let pool = if pool.is_zero() { possible } else { pool };
            return Position::columns_in(g, pool)
                .next()
                .map(|c| (mated_in(2), c));
        }
        if let Some(nt) = self.nt {
            let n = nt.slot_count();
            self.nt_idx = vec![0; n * (MAX_PLY + 2)];
            self.nt_idx[..n].copy_from_slice(&nt.root_indices(g, p));
        }
        let key = mix64(p.key().digest());
        let tt_col = self.tt.get(key).map_or(0, |e| e.col);
        let moves = self.ordered(p, &p.threats(g), nl, tt_col, 0);
        let mut alpha = -INFINITE;
        let beta = INFINITE;
        let mut best: Option<(i32, usize)> = None;
        for (i, &(mv, _, ref ct)) in moves.as_slice().iter().enumerate() {
            self.nt_play(p, mv, 0);
            let mut child = *p;
            child.play(mv);
            let s = if i == 0 {
                -self.negamax(&child, ct, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(&child, ct, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.aborted {
                    -self.negamax(&child, ct, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            if best.is_none() || s > alpha {
                alpha = s;
                best = g.column_of(mv).map(|c| (s, c));
            }
        }
        if let Some((s, c)) = best {
            if !self.aborted {
                self.tt.put(
                    key,
                    Entry {
                        key,
                        score: to_tt(s, 0),
                        depth: depth.min(255) as u8,
                        bound: EXACT,
                        col: c as u8 + 1,
                        age: 0,
                    },
                );
            }
        }
        best
    }

    /// `t` holds the threats of `p`.
    fn negamax(
        &mut self,
        p: &Position<B>,
        t: &Threats<B>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        let g = self.g;
        let nl = match node_moves_given(g, p, ply, t) {
            Ok(nl) => nl,
            Err(score) => return score,
        };
        // A forced move costs no depth.
        let depth = if nl.has_several() { depth } else { depth + 1 };
        if depth == 0 {
            return self.leaf(p, t, ply as usize);
        }
        let key = mix64(p.key().digest());
        let mut tt_col = 0;
        if let Some(e) = self.tt.get(key) {
            tt_col = e.col;
            if u32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let alpha0 = alpha;
        let moves = self.ordered(p, t, nl, tt_col, ply as usize);
        let mut best = -INFINITE;
        let mut best_mv = B::ZERO;
        for (i, &(mv, order, ref ct)) in moves.as_slice().iter().enumerate() {
            self.nt_play(p, mv, ply as usize);
            let mut child = *p;
            child.play(mv);
            if depth >= 2 {
                self.tt.prefetch(mix64(child.key().digest()));
            }
            let s = if i == 0 {
                -self.negamax(&child, ct, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let quiet = order < KILLER_ORDER;
                let mut s = alpha + 1;
                if quiet && depth >= LMR_MIN_DEPTH && i >= LMR_FULL_MOVES {
                    let reduced = depth - 1 - lmr_reduction(depth, i);
                    s = -self.negamax(&child, ct, reduced, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && !self.aborted {
                    s = -self.negamax(&child, ct, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(&child, ct, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_mv = mv;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        self.credit_cutoff(mv, depth, ply as usize);
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        let col = g.column_of(best_mv).map_or(0, |c| c as u8 + 1);
        self.tt.put(
            key,
            Entry {
                key,
                score: to_tt(best, ply),
                depth: depth.min(255) as u8,
                bound,
                col,
                age: 0,
            },
        );
        best
    }

    /// The n-tuple indices of ply + 1 after `mv` from `p` at `ply`.
    #[inline]
    fn nt_play(&mut self, p: &Position<B>, mv: B, ply: usize) {
        let Some(nt) = self.nt else { return };
        if ply + 1 >= MAX_PLY + 2 {
            return;
        }
        let n = nt.slot_count();
        let (col, cell) = self.cell_index(mv);
        let row = cell - col * self.g.height;
        let (head, tail) = self.nt_idx.split_at_mut((ply + 1) * n);
        nt.play_indices(
            &head[ply * n..],
            &mut tail[..n],
            col,
            row,
            p.moves.is_multiple_of(2),
        );
    }

    /// The hand-set evaluation plus, when there is a network, its value scaled by
    /// [`NTUPLE_SCALE`].
    fn leaf(&self, p: &Position<B>, t: &Threats<B>, ply: usize) -> i32 {
        let hand = self.win.evaluate_leaf(self.g, p, t);
        let Some(nt) = self.nt else {
            return hand;
        };
        let n = nt.slot_count();
        let v = if ply < MAX_PLY + 2 {
            nt.value_of(&self.nt_idx[ply * n..(ply + 1) * n])
        } else {
            nt.value(self.g, p)
        };
        let mine = if p.moves.is_multiple_of(2) { v } else { -v };
        (hand + (mine * NTUPLE_SCALE) as i32).clamp(-WIN_MIN + 1, WIN_MIN - 1)
    }

    fn credit_cutoff(&mut self, mv: B, depth: u32, ply: usize) {
        let (col, cell) = self.cell_index(mv);
        let tag = col as u8 + 1;
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != tag {
                k[1] = k[0];
                k[0] = tag;
            }
        }
        let h = &mut self.history[cell];
        *h = h.saturating_add((depth * depth) as i32);
    }
}

/// Opening positions on 12×6 (solver notation) for the rate `pbrain-wuzi bench` prints.
const BENCH_POSITIONS: [&str; 7] = ["6885", "7bc5", "4b41", "6857", "1c5a", "3344", "7766a"];

/// Searches each bench position to `depth` on 12×6, one table for all (a new generation
/// each, as the default player's midgame keeps it from move to move), and returns the
/// nodes: the same count on every machine, so nodes per second compare builds that search
/// the same tree.
pub fn bench_nodes(depth: u32) -> u64 {
    let Some(g) = Geometry::<u128>::new(12, 6, 4) else {
        return 0;
    };
    let win = Windows::new(&g);
    // As the default player searches 12×6: with the shipped network.
    let nt = super::shipped_ntuple::network_for(None, g.width, g.height, g.k);
    let mut tt = Table::new(TABLE_ENTRIES);
    let never = || false;
    let mut nodes = 0;
    for seq in BENCH_POSITIONS {
        let Ok(p) = crate::game::connect4::position::parse_sequence(&g, seq) else {
            continue;
        };
        tt.next_generation();
        let mut s = MidSearch::new(&g, &win, nt.as_deref(), &mut tt, None, &never);
        s.run(&p, depth, &mut |_| true);
        nodes += s.nodes;
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::score::is_decisive;
    use crate::game::connect4::position::parse_sequence;
    use crate::game::connect4::windows::STACKED_THREATS;

    fn search<B: Bits>(g: &Geometry<B>, seq: &str, depth: u32) -> BeamResult {
        let w = Windows::new(g);
        let p = parse_sequence(g, seq).unwrap();
        let mut tt = Table::new(1 << 16);
        let never = || false;
        let mut s = MidSearch::new(g, &w, None, &mut tt, Some(2_000_000), &never);
        s.run(&p, depth, &mut |_| true).unwrap()
    }

    /// From a 12×6 game the engine lost as the first player: White's stone at column 4
    /// makes a threat right above another one in column 5, which wins. (A check of the
    /// beam search with the threat terms, the default player's search then, until this
    /// search replaced it.)
    #[test]
    fn stacked_threats_count() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let w = Windows::new(&g);
        let before = parse_sequence(&g, "6487823774468874").unwrap();
        let opp = before.current ^ before.mask;
        let theirs = g.winning_cells(opp, before.mask);
        assert!(
            !(theirs & theirs.shl(1)).is_zero(),
            "White's stacked pair in column 5"
        );
        assert!(w.evaluate(&g, &before) <= -STACKED_THREATS + 500);
        // Black to move before 7 and 4: column 7 (the game's move) allows the pair.
        let p = parse_sequence(&g, "64878237744688").unwrap();
        let never = || false;
        let mut tt = Table::new(1 << 16);
        let mut s = MidSearch::new(&g, &w, None, &mut tt, Some(300_000), &never);
        let r = s.run(&p, 8, &mut |_| true).unwrap();
        assert_ne!(r.col, 6, "column 7 lets White stack two threats");
    }

    #[test]
    fn wins_blocks_and_sees_the_open_three() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        // X to move with three in a row on the bottom: wins at once.
        let r = search(&g, "4a5b6c", 6);
        assert_eq!(r.score, mate_in(1));
        assert!(r.col == 2 || r.col == 6);
        // X to move with 4 and 5 on the bottom, both sides open: the open three (3 or 6)
        // wins, and the search proves it.
        let r = search(&g, "4a5b", 6);
        assert!(r.col == 2 || r.col == 5, "played {}", r.col);
        assert!(r.score >= mate_in(7), "score {}", r.score);
        // O to move must keep X from that open three: a stone beside the pair or one
        // further out.
        let r = search(&g, "4a5", 6);
        assert!([1, 2, 5, 6].contains(&r.col), "played {}", r.col);
        assert!(!is_decisive(r.score), "score {}", r.score);
        // The same on 7×6 (the u64 path).
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let r = search(&g, "4151", 6);
        assert!(r.col == 2 || r.col == 5, "played {}", r.col);
        assert!(r.score >= mate_in(7), "score {}", r.score);
    }

    #[test]
    fn the_network_joins_the_leaf_and_keeps_the_tactics() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let w = Windows::new(&g);
        let nt = super::super::shipped_ntuple::network_for(None, 12, 6, 4).unwrap();
        let never = || false;
        // The first player has 4-5-6 on the bottom row, 3 is taken: block at 7 at once.
        let p = parse_sequence(&g, "43516").unwrap();
        let mut tt = Table::new(1 << 12);
        let mut s = MidSearch::new(&g, &w, Some(&nt), &mut tt, Some(200_000), &never);
        let r = s.run(&p, 6, &mut |_| true).unwrap();
        assert_eq!(r.col, 6, "{r:?}");
        // The leaf is the hand-set evaluation plus the scaled network value.
        let q = parse_sequence(&g, "66771").unwrap();
        let mut tt = Table::new(1 << 12);
        let mut s = MidSearch::new(&g, &w, Some(&nt), &mut tt, None, &never);
        s.nt_idx = nt.root_indices(&g, &q);
        let t = q.threats(&g);
        let v = nt.value(&g, &q);
        let mine = if q.moves.is_multiple_of(2) { v } else { -v };
        assert_eq!(
            s.leaf(&q, &t, 0),
            w.evaluate_leaf(&g, &q, &t) + (mine * NTUPLE_SCALE) as i32
        );
        assert_ne!(s.leaf(&q, &t, 0), w.evaluate_leaf(&g, &q, &t));
    }

    #[test]
    fn a_threat_kept_from_before_leaves_the_other_moves_quiet() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let w = Windows::new(&g);
        // X holds 2-3-4 on the second row over empty cells at both ends: two threats.
        let p = parse_sequence(&g, "32244939").unwrap();
        let t = p.threats(&g);
        assert_eq!(t.mine.count_ones(), 2);
        let mut tt = Table::new(1 << 12);
        let never = || false;
        let s = MidSearch::new(&g, &w, None, &mut tt, None, &never);
        let moves = s.ordered(&p, &t, p.possible(&g), 0, 1);
        let order_of = |col| {
            let m = moves
                .as_slice()
                .iter()
                .find(|m| g.column_of(m.0) == Some(col));
            m.unwrap().1
        };
        // A stone far away adds nothing: quiet, so late move reductions may take it.
        assert!(order_of(11) < KILLER_ORDER, "{}", order_of(11));
        // A third stone in column 3 makes a new (vertical) threat: ordered first.
        assert!(order_of(2) >= THREAT_ORDER, "{}", order_of(2));
        assert_eq!(moves.as_slice()[0].0, p.possible(&g) & g.column_mask(2));
        assert_eq!(lmr_reduction(3, 8), 1);
        assert_eq!(lmr_reduction(LMR_DEEP_DEPTH, LMR_DEEP_MOVES - 1), 1);
        assert_eq!(lmr_reduction(LMR_DEEP_DEPTH, LMR_DEEP_MOVES), 2);
    }

    /// The bench's count is a signature: every run of the same build searches the same
    /// tree, and a deeper search more of it.
    #[test]
    fn bench_nodes_are_a_signature() {
        let shallow = bench_nodes(3);
        assert!(shallow > 0);
        assert_eq!(bench_nodes(3), shallow);
        assert!(bench_nodes(5) > shallow);
    }

    #[test]
    fn table_keeps_the_deeper_entry() {
        let mut t = Table::new(1024);
        let e = |depth, score| Entry {
            key: 0,
            score,
            depth,
            bound: EXACT,
            col: 1,
            age: 0,
        };
        t.put(5, e(9, 10));
        // Another position in the same slot, much shallower: the deep entry stays.
        t.put(5 + 1024, e(2, 20));
        assert_eq!(t.get(5).map(|x| x.score), Some(10));
        assert!(t.get(5 + 1024).is_none());
        // The same position always replaces.
        t.put(5, e(1, 30));
        assert_eq!(t.get(5).map(|x| x.score), Some(30));
        t.put(5, e(9, 10));
        // The next move's search: the deep entry of the last one gives way.
        t.next_generation();
        t.put(5 + 1024, e(2, 20));
        assert_eq!(t.get(5 + 1024).map(|x| x.score), Some(20));
        assert!(t.get(5).is_none());
    }
}
