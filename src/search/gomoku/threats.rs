//! Threat-space search for gomoku: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes), renju-aware.
//!
//! Both are AND/OR proofs over the board's incremental cell codes. At an attacker node the
//! attacker tries only forcing moves; at a defender node every defence must fail. For a four
//! the only defence is the block (found on the lines through the four, so no board scan);
//! for an open three the defences are the board's own forced-move list (the cells that stop
//! every open four, plus the defender's fours), which is exactly what the main search would
//! try there too, so the two searches agree on what a threat is. Renju: black never threatens
//! from a forbidden cell, a black three whose four points are all forbidden is no threat, and
//! white wins outright when black's only block is forbidden.
//!
//! Proofs are exact as far as they go; a search that runs out of nodes, time or depth just
//! answers "not found", so a caller may trust every win it gets. Failed subtrees are
//! remembered in a small private table (key, remaining depth) because threat sequences
//! transpose constantly; wins end the search and need no table. The solver is per thread.

use crate::game::gomoku::{Board, Code, Rule, Verdict};
use crate::game::{Color, Game, Move, Outcome};
use crate::search::Stop;
use std::time::Instant;

/// Nodes between two clock reads.
const CLOCK_INTERVAL: u64 = 256;
/// Salt that keeps VCT entries apart from VCF entries in the shared failure table.
const VCT_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// What bounds one threat search. Running out of any bound means "not found".
#[derive(Clone, Debug, Default)]
pub struct ThreatLimits {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stop: Option<Stop>,
}

impl ThreatLimits {
    /// A node budget only: deterministic.
    pub fn nodes(n: u64) -> ThreatLimits {
        ThreatLimits {
            max_nodes: n,
            ..ThreatLimits::default()
        }
    }
}

/// A proven win for the side to move: the first move and the number of plies to the five
/// (the attacker's longest line against the best defence searched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    pub mv: Move,
    pub plies: u32,
}

/// The per-thread threat searcher: its failure table and counters.
pub struct Solver {
    keys: Vec<u64>,
    depths: Vec<u8>,
    mask: usize,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<Stop>,
    aborted: bool,
    /// Move-list buffers by recursion level, reused to avoid allocating per node.
    lists: Vec<Vec<(Move, Code)>>,
    fives: Vec<Vec<Move>>,
    /// The winning line of the last successful VCF, last move first (built on the way
    /// back up from the five).
    line: Vec<Move>,
    /// Total nodes over the solver's life (for reports and the bench).
    pub total_nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(1 << 16)
    }
}

impl Solver {
    /// A solver whose failure table has `entries` slots (rounded up to a power of two).
    pub fn new(entries: usize) -> Solver {
        let n = entries.max(16).next_power_of_two();
        Solver {
            keys: vec![0; n],
            depths: vec![0; n],
            mask: n - 1,
            nodes: 0,
            limit: 0,
            deadline: None,
            stop: None,
            aborted: false,
            lists: Vec::new(),
            fives: Vec::new(),
            line: Vec::new(),
            total_nodes: 0,
        }
    }

    /// Forgets every remembered failure (a new game).
    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
        self.depths.iter_mut().for_each(|d| *d = 0);
    }

    /// The moves of the last VCF that [`Solver::vcf`] found, attacker's first move first,
    /// down to the five (or to the four the defender cannot stop).
    pub fn vcf_line(&self) -> Vec<Move> {
        self.line.iter().rev().copied().collect()
    }

    /// Nodes of the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn begin(&mut self, limits: &ThreatLimits) {
        self.nodes = 0;
        self.limit = limits.max_nodes;
        self.deadline = limits.deadline;
        self.stop = limits.stop.clone();
        self.aborted = false;
    }

    fn end(&mut self) {
        self.total_nodes += self.nodes;
    }

    /// Counts a node and polls the bounds.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.nodes > self.limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            self.aborted = self.stop.as_ref().is_some_and(|s| s.is_set())
                || self.deadline.is_some_and(|t| Instant::now() >= t);
        }
        self.aborted
    }

    #[inline]
    fn known_failure(&self, key: u64, depth: u32) -> bool {
        let i = key as usize & self.mask;
        self.keys[i] == key && u32::from(self.depths[i]) >= depth
    }

    #[inline]
    fn remember_failure(&mut self, key: u64, depth: u32) {
        if self.aborted {
            return;
        }
        let i = key as usize & self.mask;
        self.keys[i] = key;
        self.depths[i] = depth.min(255) as u8;
    }

    fn take_list(&mut self, level: usize) -> Vec<(Move, Code)> {
        if self.lists.len() <= level {
            self.lists.resize_with(level + 1, Vec::new);
        }
        let mut v = std::mem::take(&mut self.lists[level]);
        v.clear();
        v
    }

    fn take_fives(&mut self, level: usize) -> Vec<Move> {
        if self.fives.len() <= level {
            self.fives.resize_with(level + 1, Vec::new);
        }
        let mut v = std::mem::take(&mut self.fives[level]);
        v.clear();
        v
    }

    /// Searches for a VCF of the side to move with at most `depth` fours. The board is left
    /// as it was.
    pub fn vcf<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        depth: u32,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        self.begin(limits);
        let r = self.vcf_or(b, depth, 0);
        self.end();
        r
    }

    /// Searches for a VCT of the side to move with at most `depth` threats (each threat node
    /// also tries a VCF of `vcf_depth` fours). The board is left as it was.
    ///
    /// Deepened one threat at a time: the tree grows by a factor of tens per threat, so a
    /// search straight to `depth` spends its budget deep in the first lines it tries and
    /// misses the short wins further along (at 150,000 nodes a depth of 8 proved fewer of
    /// the mate suite's wins than 6, and 10 fewer still); each pass costs a fraction of the
    /// next, and the failures it remembers (the VCFs, at their own fixed depth) serve them all.
    pub fn vct<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        depth: u32,
        vcf_depth: u32,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        self.begin(limits);
        let mut r = None;
        for d in depth.min(1)..=depth {
            r = self.vct_or(b, d, vcf_depth, 0);
            if r.is_some() || self.aborted {
                break;
            }
        }
        self.end();
        r
    }

    /// VCF attacker node.
    fn vcf_or<R: Rule>(&mut self, b: &mut Board<R>, depth: u32, level: usize) -> Option<ThreatWin> {
        if self.tick() {
            return None;
        }
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(m) = first_five(b, me) {
            self.line.clear();
            self.line.push(m);
            return Some(ThreatWin { mv: m, plies: 1 });
        }
        if depth == 0 || !b.has_code_at_least(me, Code::Four) {
            return None;
        }
        let key = b.key();
        if self.known_failure(key, depth) {
            return None;
        }
        let mut list = self.take_list(level);
        if !attacker_moves(b, me, opp, Code::Four, &mut list) {
            self.lists[level] = list;
            self.remember_failure(key, depth);
            return None;
        }
        let mut found = None;
        for &(m, code) in list.iter() {
            if let Some(w) =
                self.try_four(b, m, code, me, level, |s, b, l| s.vcf_or(b, depth - 1, l))
            {
                found = Some(w);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.lists[level] = list;
        if found.is_none() {
            self.remember_failure(key, depth);
        }
        found
    }

    /// Plays the attacker's four `m` and the defender's forced block, then asks `next` (an
    /// attacker node). A double four, an open four, or a block that renju forbids wins
    /// outright.
    fn try_four<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        m: Move,
        code: Code,
        me: Color,
        level: usize,
        mut next: impl FnMut(&mut Self, &mut Board<R>, usize) -> Option<ThreatWin>,
    ) -> Option<ThreatWin> {
        let opp = me.opponent();
        if matches!(code, Code::OpenFour | Code::DoubleFour) && b.code_count(opp, Code::Five) == 0 {
            self.line.clear();
            self.line.push(m);
            return Some(ThreatWin { mv: m, plies: 3 });
        }
        b.play(m);
        let mut result = None;
        match b.outcome() {
            Some(Outcome::Win(c)) if c == me => {
                self.line.clear();
                self.line.push(m);
                result = Some(ThreatWin { mv: m, plies: 1 });
            }
            Some(_) => {}
            None if b.code_count(opp, Code::Five) > 0 => {}
            None => {
                let mut blocks = self.take_fives(level);
                b.five_points_around(m, me, &mut blocks);
                if blocks.len() >= 2
                    || (blocks.len() == 1
                        && R::RENJU
                        && opp == Color::Black
                        && b.is_forbidden_black(blocks[0]))
                {
                    self.line.clear();
                    self.line.push(m);
                    result = Some(ThreatWin { mv: m, plies: 3 });
                } else if let Some(&blk) = blocks.first() {
                    b.play(blk);
                    if b.outcome().is_none() {
                        if let Some(w) = next(self, b, level + 1) {
                            self.line.push(blk);
                            self.line.push(m);
                            result = Some(ThreatWin {
                                mv: m,
                                plies: w.plies + 2,
                            });
                        }
                    }
                    b.undo();
                }
                self.fives[level] = blocks;
            }
        }
        b.undo();
        result
    }

    /// VCT attacker node: a VCF first, then every four and open three.
    fn vct_or<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        depth: u32,
        vcf_depth: u32,
        level: usize,
    ) -> Option<ThreatWin> {
        if self.tick() {
            return None;
        }
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(m) = first_five(b, me) {
            return Some(ThreatWin { mv: m, plies: 1 });
        }
        if b.code_count(opp, Code::Five) == 0 {
            if let Some(w) = self.vcf_or(b, vcf_depth, level) {
                return Some(w);
            }
            if self.aborted {
                return None;
            }
        }
        if depth == 0 {
            return None;
        }
        if let Some(w) = self.block_and_hold(b, me, opp, depth, vcf_depth, level) {
            return w;
        }
        if !b.has_code_at_least(me, Code::OpenThree) {
            return None;
        }
        let key = b.key() ^ VCT_SALT;
        if self.known_failure(key, depth) {
            return None;
        }
        let mut list = self.take_list(level);
        if !attacker_moves(b, me, opp, Code::OpenThree, &mut list) {
            self.lists[level] = list;
            self.remember_failure(key, depth);
            return None;
        }
        let mut found = None;
        for &(m, code) in list.iter() {
            let r = if code.is_four() {
                self.try_four(b, m, code, me, level, |s, b, l| {
                    s.vct_or(b, depth - 1, vcf_depth, l)
                })
            } else {
                self.then_defender(b, m, depth - 1, vcf_depth, level)
            };
            if r.is_some() {
                found = r;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.lists[level] = list;
        if found.is_none() {
            self.remember_failure(key, depth);
        }
        found
    }

    /// The defender answered an open three with a four of its own. Its block is forced; when
    /// the block is no threat itself (the move list leaves such a move out), the open three
    /// still stands after it, so the defender must answer it again: without this, any
    /// counter-four whose block is quiet would refute every VCT. `None` when the position
    /// is not that case (the defender has no five point, or the block is itself a threat
    /// and the move list tries it); otherwise the answer for this node.
    fn block_and_hold<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        me: Color,
        opp: Color,
        depth: u32,
        vcf_depth: u32,
        level: usize,
    ) -> Option<Option<ThreatWin>> {
        if b.code_count(opp, Code::Five) == 0 {
            return None;
        }
        let mut blocks = self.take_fives(level);
        b.five_points(opp, &mut blocks);
        let blk = match blocks[..] {
            [blk] => blk,
            _ => {
                self.fives[level] = blocks;
                return Some(None);
            }
        };
        self.fives[level] = blocks;
        if b.code(blk, me) >= Code::OpenThree {
            return None;
        }
        if R::RENJU && me == Color::Black && b.is_forbidden_black(blk) {
            return Some(None);
        }
        // The depth is not spent: the defender's fours are finite, each one a stone.
        Some(self.then_defender(b, blk, depth, vcf_depth, level))
    }

    /// Plays the attacker's `m` (no four) and asks whether every defence then loses within
    /// `depth` threats; the board is left as it was.
    fn then_defender<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        m: Move,
        depth: u32,
        vcf_depth: u32,
        level: usize,
    ) -> Option<ThreatWin> {
        b.play(m);
        let r = if b.outcome().is_none() {
            self.vct_and(b, depth, vcf_depth, level + 1)
                .map(|plies| ThreatWin {
                    mv: m,
                    plies: plies + 1,
                })
        } else {
            None
        };
        b.undo();
        r
    }

    /// VCT defender node after an attacker's open three: every defence must lose. Returns
    /// the plies to the attacker's five against the longest defence.
    fn vct_and<R: Rule>(
        &mut self,
        b: &mut Board<R>,
        depth: u32,
        vcf_depth: u32,
        level: usize,
    ) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let def = b.side_to_move();
        let att = def.opponent();
        if b.code_count(def, Code::Five) > 0 {
            return None;
        }
        if !real_open_three(b, att) {
            return None;
        }
        let mut defences = Vec::new();
        b.candidates(&mut defences);
        let mut worst = 0;
        for d in defences {
            b.play(d.mv);
            let r = match b.outcome() {
                Some(Outcome::Win(c)) if c == att => Some(ThreatWin { mv: d.mv, plies: 0 }),
                Some(_) => None,
                None => self.vct_or(b, depth, vcf_depth, level),
            };
            b.undo();
            match r {
                Some(w) => worst = worst.max(w.plies + 1),
                None => return None,
            }
        }
        Some(worst)
    }
}

/// What the main search asks of a game's threat solver. Gomoku boards answer with the
/// solver above; the search is generic over it so that it stays free of mode `if`s.
pub trait Tactics: Game {
    /// A VCF of the side to move with at most `depth` fours.
    fn find_vcf(&mut self, s: &mut Solver, depth: u32, limits: &ThreatLimits) -> Option<ThreatWin>;
    /// A VCT of the side to move with at most `depth` threats.
    fn find_vct(
        &mut self,
        s: &mut Solver,
        depth: u32,
        vcf_depth: u32,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin>;
    /// Whether the side to move can make a four now (O(1)): a VCF needs one.
    fn can_four(&self) -> bool;
    /// Whether the opponent of the side to move can make five next move (O(1)).
    fn facing_five(&self) -> bool;
    /// Whether the opponent of the side to move can make five, or an open four or a double
    /// four, next move (O(1)): the side to move must answer.
    fn facing_threat(&self) -> bool;
    /// Whether the side to move can make five at once (O(1)).
    fn can_five(&self) -> bool;
    /// The result the position's codes prove without a search, where the mode can tell
    /// (gomoku: [`Board::decided`]); every node asks it before it generates a move.
    fn decided(&self) -> Option<Verdict> {
        None
    }
    /// Whether the mode's leaves are judged by a quiescence search of fours
    /// ([`Tactics::quiet_fours`]); otherwise by a VCF probe and the static value.
    const FOUR_QUIESCENCE: bool = false;
    /// The quiescence search's moves: the side to move's fours near its own last stone
    /// (all of its fours when it has none), strongest first; with `plain` false only fours
    /// that also make a three, an open two or a second four.
    fn quiet_fours(&self, _plain: bool, _out: &mut Vec<(Move, Code)>) {}
    /// The codes the side to move and its opponent would get by playing `m`: what the
    /// move makes for the mover, and what it takes away from the opponent.
    fn move_codes(&self, _m: Move) -> [Code; 2] {
        [Code::None; 2]
    }
}

impl<R: Rule> Tactics for Board<R> {
    fn find_vcf(&mut self, s: &mut Solver, depth: u32, limits: &ThreatLimits) -> Option<ThreatWin> {
        s.vcf(self, depth, limits)
    }

    fn find_vct(
        &mut self,
        s: &mut Solver,
        depth: u32,
        vcf_depth: u32,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        s.vct(self, depth, vcf_depth, limits)
    }

    #[inline]
    fn can_four(&self) -> bool {
        self.has_code_at_least(self.side_to_move(), Code::Four)
    }

    #[inline]
    fn facing_five(&self) -> bool {
        self.code_count(self.side_to_move().opponent(), Code::Five) > 0
    }

    #[inline]
    fn facing_threat(&self) -> bool {
        let opp = self.side_to_move().opponent();
        self.code_count(opp, Code::Five) > 0
            || self.code_count(opp, Code::OpenFour) > 0
            || self.code_count(opp, Code::DoubleFour) > 0
    }

    #[inline]
    fn can_five(&self) -> bool {
        self.code_count(self.side_to_move(), Code::Five) > 0
    }

    #[inline]
    fn decided(&self) -> Option<Verdict> {
        Board::decided(self)
    }

    const FOUR_QUIESCENCE: bool = true;

    fn quiet_fours(&self, plain: bool, out: &mut Vec<(Move, Code)>) {
        Board::quiet_fours(self, self.own_last_move(), plain, out);
    }

    #[inline]
    fn move_codes(&self, m: Move) -> [Code; 2] {
        let me = self.side_to_move();
        [self.code(m, me), self.code(m, me.opponent())]
    }
}

/// A cell where `c` makes five right now, if any.
fn first_five<R: Rule>(b: &Board<R>, c: Color) -> Option<Move> {
    if b.code_count(c, Code::Five) == 0 {
        return None;
    }
    let mut v = Vec::new();
    b.five_points(c, &mut v);
    v.first().copied()
}

/// Whether `att` threatens a straight four (or a double four) next move from a cell it may
/// play: renju black's threes whose four points are all forbidden are no threat.
fn real_open_three<R: Rule>(b: &Board<R>, att: Color) -> bool {
    let open = b.code_count(att, Code::OpenFour) + b.code_count(att, Code::DoubleFour);
    if open == 0 {
        return false;
    }
    if !(R::RENJU && att == Color::Black) {
        return true;
    }
    let mut cells = Vec::new();
    b.threat_cells(att, Code::OpenFour, &mut cells);
    cells
        .iter()
        .any(|&(m, code)| code == Code::OpenFour && !b.is_forbidden_black(m))
}

/// The attacker's forcing moves with a code of at least `min`, strongest first; when the
/// defender has a five point, only its block (and only if it is itself forcing). Renju black
/// fouls are dropped. Returns false when there is nothing to try.
fn attacker_moves<R: Rule>(
    b: &Board<R>,
    me: Color,
    opp: Color,
    min: Code,
    list: &mut Vec<(Move, Code)>,
) -> bool {
    if b.code_count(opp, Code::Five) > 0 {
        let mut blocks = Vec::new();
        b.five_points(opp, &mut blocks);
        if blocks.len() != 1 {
            return false;
        }
        let code = b.code(blocks[0], me);
        if code < min {
            return false;
        }
        list.push((blocks[0], code));
    } else {
        b.threat_cells(me, min, list);
    }
    if R::RENJU && me == Color::Black {
        list.retain(|&(m, code)| {
            !(matches!(code, Code::FourThree | Code::DoubleThree) && b.is_forbidden_black(m))
        });
    }
    // Stable: equal codes keep row-major order, so the search is deterministic.
    list.sort_by_key(|&(_, code)| std::cmp::Reverse(code));
    !list.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Freestyle, Renju};

    fn board<R: Rule>(pic: &str, to_move: Color) -> Board<R> {
        Board::<R>::from_ascii(pic, to_move).expect("valid picture")
    }

    const EMPTYISH: &str = "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        .......X.......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............";

    #[test]
    fn no_threats_no_win() {
        let mut b = board::<Freestyle>(EMPTYISH, Color::White);
        let mut s = Solver::new(1024);
        assert_eq!(s.vcf(&mut b, 20, &ThreatLimits::nodes(10_000)), None);
        assert_eq!(s.vct(&mut b, 6, 10, &ThreatLimits::nodes(10_000)), None);
        b.check_invariants().unwrap();
    }

    #[test]
    fn five_now_is_a_one_ply_win() {
        let pic = "
            ..........
            .XXXX.....
            .OOO......
            ..........
            ....O.....
            ..........";
        let mut b = board::<Freestyle>(pic, Color::Black);
        let mut s = Solver::new(1024);
        let w = s.vcf(&mut b, 4, &ThreatLimits::nodes(100)).unwrap();
        assert_eq!(w.plies, 1);
        assert!(w.mv == Move::new(0, 1) || w.mv == Move::new(5, 1));
    }

    #[test]
    fn vcf_with_two_fours_is_found_and_the_board_is_unchanged() {
        // Black's open three on row 3 becomes a straight four.
        let pic = "
            ...............
            ...............
            ...............
            .....XXX.O.....
            .........O.....
            .........X.....
            .........X.....
            .........X.....
            ........O......
            ...............
            ...............
            ...O...........
            ...............
            ...............
            ...............";
        let mut b = board::<Freestyle>(pic, Color::Black);
        let before = b.key();
        let mut s = Solver::new(1024);
        let w = s.vcf(&mut b, 10, &ThreatLimits::nodes(100_000));
        assert!(w.is_some(), "{w:?}");
        assert_eq!(s.vcf_line().first().copied(), w.map(|w| w.mv));
        assert_eq!(b.key(), before);
        b.check_invariants().unwrap();
    }

    #[test]
    fn renju_white_wins_when_the_block_is_forbidden() {
        // White's four on column 4 can only be blocked at (4,7), which would give black six
        // in a row on row 7: an overline, forbidden, so the four wins at once.
        let pic = "
            ...............
            ...............
            ....X..........
            ....O..........
            ....O..........
            ....O..........
            ...............
            .XXX.XX........
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............";
        let mut b = board::<Renju>(pic, Color::White);
        assert!(b.is_forbidden_black(Move::new(4, 7)));
        let mut s = Solver::new(1024);
        let w = s.vcf(&mut b, 4, &ThreatLimits::nodes(10_000)).unwrap();
        assert_eq!(
            w,
            ThreatWin {
                mv: Move::new(4, 6),
                plies: 3
            }
        );
        // The same picture under freestyle rules is no win: black just blocks.
        let mut f = board::<Freestyle>(pic, Color::White);
        assert_eq!(s.vcf(&mut f, 4, &ThreatLimits::nodes(10_000)), None);
    }

    #[test]
    fn vcf_line_is_a_playable_forcing_sequence() {
        // Three fours: (8,4) forces (7,5), then (8,7) is a double four.
        let pic = "
            ............O..
            ...........X...
            ..........X....
            ........OX.....
            ...............
            ........X......
            ........X......
            ...OXXX........
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............
            ...............";
        let mut b = board::<Freestyle>(pic, Color::Black);
        let mut s = Solver::new(1024);
        let w = s.vcf(&mut b, 10, &ThreatLimits::nodes(100_000)).unwrap();
        let line = s.vcf_line();
        assert_eq!(line.len() as u32, w.plies - 2);
        assert_eq!(line[0], w.mv);
        for &m in &line {
            b.check_move(m).unwrap();
            b.play(m);
        }
        // The attacker moved last and now has two five points.
        assert_eq!(b.side_to_move(), Color::White);
        assert!(b.code_count(Color::Black, Code::Five) >= 2);
    }

    #[test]
    fn vct_deepens_one_threat_at_a_time() {
        // Position 12 of the mate suite (scripts/data/rapfi-mates-free15.jsonl), white to
        // move with a VCT. Searched straight to 8 threats, the solver spent 79,000 nodes in
        // the first deep lines it tried and came back with a 35-ply win; deepened one
        // threat at a time it proves a 21-ply win in about 20,000.
        let mut b = Board::<Freestyle>::new(15, 15).unwrap();
        for (x, y) in [
            (4, 6),
            (5, 11),
            (5, 6),
            (10, 9),
            (9, 6),
            (7, 8),
            (13, 12),
            (7, 9),
            (3, 6),
            (6, 6),
            (7, 7),
        ] {
            b.play(Move::new(x, y));
        }
        assert_eq!(b.side_to_move(), Color::White);
        let before = b.key();
        let w = Solver::new(1 << 16)
            .vct(&mut b, 8, 12, &ThreatLimits::nodes(40_000))
            .expect("a VCT within 40,000 nodes");
        assert!(w.plies <= 21, "{w:?}");
        assert_eq!(b.key(), before);
        // A deeper limit finds the same short win in the same budget: the passes up to
        // its length are all it searches.
        let deep = Solver::new(1 << 16).vct(&mut b, 30, 12, &ThreatLimits::nodes(40_000));
        assert_eq!(deep, Some(w));
        // With no threat left to chain, only a VCF counts, and there is none.
        assert_eq!(
            Solver::new(1 << 16).vct(&mut b, 0, 12, &ThreatLimits::nodes(40_000)),
            None
        );
    }

    #[test]
    fn vct_survives_a_counter_four_whose_block_is_quiet() {
        // Black's double three at (7,7) wins, but white can first make a four on row 12.
        // Black's block there makes no threat of its own; the two threes still stand after
        // it, so the win holds and the solver must see through the counter-four.
        let pic = "
            ...............
            ...............
            ...............
            ...............
            ...............
            .......X.......
            .......X.......
            .....XX........
            ...............
            ...............
            ...............
            ...............
            .XOOO..........
            ...............
            ...............";
        let mut b = board::<Freestyle>(pic, Color::Black);
        let before = b.key();
        let mut s = Solver::new(1024);
        let w = s.vct(&mut b, 4, 10, &ThreatLimits::nodes(100_000)).unwrap();
        assert_eq!(w.mv, Move::new(7, 7));
        // Double three, the counter-four and its block, a defence, the straight four, a
        // block, the five: the longest defence delays the five to the seventh ply.
        assert!(w.plies >= 7, "{w:?}");
        assert_eq!(b.key(), before);
        b.check_invariants().unwrap();
        // Without white's counter-fours the same win is shorter.
        let quiet = pic.replace(".XOOO", ".....");
        let mut q = board::<Freestyle>(&quiet, Color::Black);
        let wq = s.vct(&mut q, 4, 10, &ThreatLimits::nodes(100_000)).unwrap();
        assert!(wq.plies < w.plies, "{wq:?} against {w:?}");
    }

    #[test]
    fn budget_exhaustion_means_not_found() {
        let pic = "
            ...............
            ...............
            ...............
            .....XXX.O.....
            .........O.....
            .........X.....
            .........X.....
            .........X.....
            ........O......
            ...............
            ...............
            ...O...........
            ...............
            ...............
            ...............";
        let mut b = board::<Freestyle>(pic, Color::Black);
        let mut s = Solver::new(1024);
        assert_eq!(s.vcf(&mut b, 10, &ThreatLimits::nodes(0)), None);
        assert!(s.vcf(&mut b, 10, &ThreatLimits::nodes(10)).is_some());
    }
}
