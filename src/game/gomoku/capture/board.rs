//! The capture board: a freestyle gomoku [`Board`] for the stones and every pattern
//! structure, plus the captured-pair counts and a per-ply record of what each move took.
//!
//! A move is played on the inner board like any gomoku move, then the pairs it flanks are
//! lifted off with the inner board's own incremental `take`, so the line keys, patterns,
//! cell codes, evaluation totals, influence and Zobrist key stay exact through captures
//! with no second bookkeeping; undo puts the same stones back with `put` before the inner
//! undo. A ply stores only the capture directions (one byte: the captured cells follow from
//! the move), the outcome and, under endgame capture, the cell of a five the opponent may
//! still break. The inner board's history stays in step (one entry per ply), so its side to
//! move, its candidates and its evaluation are those of this position.
//!
//! The outcome is judged here, not by the inner board: five pairs win, a five wins at once
//! in Pente and, in Ninuki, only when no capture can break it (otherwise the opponent must
//! break it on its next move or lose).

use super::lines::{captured_cells, cells_of, Rows, DIRS8};
use super::rules::{Variant, PAIRS_TO_WIN};
use crate::game::gomoku::board::stone_bits;
use crate::game::gomoku::{Board, Code, Freestyle, SizeError};
use crate::game::{Color, Game, Move, MoveError, Outcome, ScoredMove};
use std::fmt;
use std::marker::PhantomData;

/// Most captured pairs the key table distinguishes; counts above share the last key (a
/// count of five or more ends the game, so only absurd set-ups reach it).
const MAX_KEYED_PAIRS: usize = 15;

/// Zobrist keys for the captured-pair counts, `[colour][pairs]`; zero pairs have key 0, so
/// a position without captures hashes exactly as its stones do.
static PAIR_KEYS: [[u64; MAX_KEYED_PAIRS + 1]; 2] = {
    let mut t = [[0u64; MAX_KEYED_PAIRS + 1]; 2];
    let mut s = 0x4341_5054_5552_4553u64;
    let mut c = 0;
    while c < 2 {
        let mut n = 1;
        while n <= MAX_KEYED_PAIRS {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[c][n] = z ^ (z >> 31);
            n += 1;
        }
        c += 1;
    }
    t
};

/// A captured-pair count outside what a position may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairCountError(pub u32);

impl fmt::Display for PairCountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "captured pairs {} out of range 0..={} (five pairs end the game)",
            self.0,
            PAIRS_TO_WIN - 1
        )
    }
}

impl std::error::Error for PairCountError {}

/// The per-ply record.
#[derive(Clone, Copy, Debug)]
struct Ply {
    /// None for a pass.
    mv: Option<Move>,
    /// Bit `i`: the move captured the pair in direction `DIRS8[i]`.
    captures: u8,
    outcome: Option<Outcome>,
    /// Endgame capture: the move made a five that the opponent can still break.
    open_five: Option<Move>,
}

/// A position of a capture variant. See the module documentation.
#[derive(Clone)]
pub struct CaptureBoard<V: Variant> {
    pub(crate) board: Board<Freestyle>,
    /// Pairs captured by black and white, set-up counts included.
    pairs: [u8; 2],
    plies: Vec<Ply>,
    /// Stones plus walls on the board.
    filled: usize,
    /// Whether the capture-aware evaluation, move list and threat search are used; false
    /// plays the plain gomoku search on the capture rules (a baseline for measurements).
    pub(crate) aware: bool,
    _variant: PhantomData<V>,
}

impl<V: Variant> fmt::Debug for CaptureBoard<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "CaptureBoard<{}> pairs black {} white {}",
            V::NAME,
            self.pairs[0],
            self.pairs[1]
        )?;
        f.write_str(&self.board.to_ascii())
    }
}

impl<V: Variant> CaptureBoard<V> {
    /// An empty board with the capture-aware search; sides in `MIN_SIZE..=MAX_SIZE`.
    pub fn new(width: usize, height: usize) -> Result<CaptureBoard<V>, SizeError> {
        Ok(CaptureBoard {
            board: Board::new(width, height)?,
            pairs: [0; 2],
            plies: Vec::with_capacity(width * height),
            filled: 0,
            aware: true,
            _variant: PhantomData,
        })
    }

    /// Chooses between the capture-aware search (true, the default) and the plain gomoku
    /// search, which ignores captures in its evaluation, move list and threat search.
    pub fn set_capture_aware(&mut self, aware: bool) {
        self.aware = aware;
    }

    /// Whether the capture-aware search is on.
    pub fn capture_aware(&self) -> bool {
        self.aware
    }

    /// Pairs `c` has captured.
    #[inline]
    pub fn captured_pairs(&self, c: Color) -> u8 {
        self.pairs[c.index()]
    }

    /// Sets the pairs `c` has captured, for restoring a position (the stones alone do not
    /// tell). Later captures add to it and undo never goes below it.
    pub fn set_captured_pairs(&mut self, c: Color, pairs: u32) -> Result<(), PairCountError> {
        if pairs >= u32::from(PAIRS_TO_WIN) {
            return Err(PairCountError(pairs));
        }
        self.pairs[c.index()] = pairs as u8;
        Ok(())
    }

    /// The stones as row masks, for the capture geometry.
    #[inline]
    pub(crate) fn rows(&self) -> Rows<'_> {
        Rows {
            black: self.board.stone_rows(Color::Black),
            white: self.board.stone_rows(Color::White),
            walls: self.board.wall_rows(),
            width: self.board.width(),
            height: self.board.height(),
        }
    }

    /// A cell blocked for both players (`BOARD` field 3): set-up only, never undone.
    pub fn place_wall(&mut self, m: Move) -> Result<(), MoveError> {
        self.board.place_wall(m)?;
        self.filled += 1;
        Ok(())
    }

    /// Ninuki: the empty cells where the side to move may not play (two free threes made
    /// without a capture), row-major. Empty in Pente.
    pub fn forbidden_points(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if !V::NO_DOUBLE_THREE || self.outcome().is_some() {
            return out;
        }
        let me = self.side_to_move();
        for m in self.board.cells_with_code(me, Code::DoubleThree) {
            if self.rows().capture_mask(me, m) == 0 {
                out.push(m);
            }
        }
        out
    }

    /// Whether the side to move playing the empty cell `m` makes two free threes without
    /// capturing (always false in Pente). The free threes are the inner board's open
    /// threes: a cell whose code is a double three.
    #[inline]
    pub(super) fn is_double_three(&self, m: Move) -> bool {
        if !V::NO_DOUBLE_THREE {
            return false;
        }
        let me = self.side_to_move();
        self.board.code(m, me) == Code::DoubleThree && self.rows().capture_mask(me, m) == 0
    }

    /// A picture of the stones (see [`Board::to_ascii`]).
    pub fn to_ascii(&self) -> String {
        self.board.to_ascii()
    }

    /// Whether the last move left a five its opponent may still break (endgame capture).
    #[inline]
    pub(crate) fn open_five(&self) -> Option<Move> {
        self.plies.last().and_then(|p| p.open_five)
    }

    /// Puts a stone for the side to move as part of setting up a position (`BOARD`): no
    /// captures happen, but the stone counts for the outcome as a move would.
    pub fn place(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_cell(m)?;
        self.put_stone(m, false);
        Ok(())
    }

    /// The checks every stone needs: on the board, game not over, cell empty.
    fn check_cell(&self, m: Move) -> Result<(), MoveError> {
        if m.x as usize >= self.board.width() || m.y as usize >= self.board.height() {
            return Err(MoveError::OffBoard);
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.board.is_empty(m) {
            return Err(MoveError::Occupied);
        }
        Ok(())
    }

    /// Plays `m` for the side to move (capturing when `capture`), lifts the flanked pairs
    /// off and records the ply.
    fn put_stone(&mut self, m: Move, capture: bool) {
        let me = self.side_to_move();
        let mask = if capture {
            self.rows().capture_mask(me, m)
        } else {
            0
        };
        self.board.play(m);
        // The inner board judged the stone alone: a five of the mover's is exactly that.
        let five = self.board.outcome() == Some(Outcome::Win(me));
        let bits = stone_bits(me.opponent());
        for i in 0..DIRS8.len() {
            if mask & (1 << i) != 0 {
                for c in captured_cells(m, i) {
                    self.board.take(c.x as usize, c.y as usize, bits);
                }
            }
        }
        let n = mask.count_ones() as u8;
        self.pairs[me.index()] += n;
        self.filled = self.filled + 1 - 2 * n as usize;
        let (outcome, open_five) = self.judge(me, m, five);
        self.plies.push(Ply {
            mv: Some(m),
            captures: mask,
            outcome,
            open_five,
        });
    }

    /// The outcome after `me` played `m` (captures done), and the cell of a five of `me`'s
    /// that the opponent may still break. Fifth pair first: it wins even against a five.
    fn judge(&self, me: Color, m: Move, five: bool) -> (Option<Outcome>, Option<Move>) {
        let opp = me.opponent();
        if self.pairs[me.index()] >= PAIRS_TO_WIN {
            return (Some(Outcome::Win(me)), None);
        }
        if let Some(f) = self.open_five() {
            // The opponent's five from the last move: not broken now, it wins.
            if self.rows().five_near(opp, f, &[]) {
                return (Some(Outcome::Win(opp)), None);
            }
        }
        if five {
            if V::ENDGAME_CAPTURE && self.can_answer_five(me, m) {
                return (None, Some(m));
            }
            return (Some(Outcome::Win(me)), None);
        }
        if self.filled == self.board.width() * self.board.height() {
            return (Some(Outcome::Draw), None);
        }
        (None, None)
    }

    /// Endgame capture: whether the opponent of `me`, whose five runs through `m`, can
    /// answer it with a capture, either one that breaks every five or its fifth pair.
    fn can_answer_five(&self, me: Color, m: Move) -> bool {
        let opp = me.opponent();
        let rows = self.rows();
        let (cells, pairs) = rows.capture_cells(opp);
        if pairs == 0 {
            return false;
        }
        if self.pairs[opp.index()] + 1 >= PAIRS_TO_WIN {
            return true;
        }
        let breaks = cells_of(&cells, self.board.height()).any(|c| {
            let mask = rows.capture_mask(opp, c);
            let removed: Vec<Move> = (0..DIRS8.len())
                .filter(|&i| mask & (1 << i) != 0)
                .flat_map(|i| captured_cells(c, i))
                .collect();
            !rows.five_near(me, m, &removed)
        });
        breaks
    }

    /// Recomputes everything from scratch and compares: the inner board's derived state,
    /// the pair counts against the plies (above the set-up counts), the stone count, and
    /// the stones against a replay of the moves on a fresh board with the same set-up
    /// counts (only meaningful for positions reached by `play` from the empty board, which
    /// is what `replay` says). A test aid; `Err` names the first difference.
    pub fn check_invariants(&self, base: [u8; 2], replay: bool) -> Result<(), String> {
        self.board.check_derived()?;
        let mut pairs = base;
        for (k, p) in self.plies.iter().enumerate() {
            pairs[k % 2] += p.captures.count_ones() as u8;
        }
        if pairs != self.pairs {
            return Err(format!(
                "pair counts {:?} differ from the plies {pairs:?}",
                self.pairs
            ));
        }
        let rows = self.rows();
        let stones: usize = (0..self.board.height())
            .map(|y| (rows.black[y] | rows.white[y] | rows.walls[y]).count_ones() as usize)
            .sum();
        if stones != self.filled {
            return Err("filled count differs".into());
        }
        if replay {
            let mut fresh = CaptureBoard::<V>::new(self.board.width(), self.board.height())
                .map_err(|e| e.to_string())?;
            for c in [Color::Black, Color::White] {
                fresh
                    .set_captured_pairs(c, u32::from(base[c.index()]))
                    .map_err(|e| e.to_string())?;
            }
            for p in &self.plies {
                match p.mv {
                    Some(m) => fresh.play(m),
                    None => {
                        fresh.pass();
                    }
                }
            }
            if fresh.board.to_ascii() != self.board.to_ascii() || fresh.key() != self.key() {
                return Err("stones or key differ from a replay of the moves".into());
            }
        }
        Ok(())
    }
}

impl<V: Variant> Game for CaptureBoard<V> {
    fn width(&self) -> usize {
        self.board.width()
    }

    fn height(&self) -> usize {
        self.board.height()
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    fn ply(&self) -> usize {
        self.plies.len()
    }

    fn stone_at(&self, m: Move) -> Option<Color> {
        self.board.stone_at(m)
    }

    fn last_move(&self) -> Option<Move> {
        self.plies.last().and_then(|p| p.mv)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        self.check_cell(m)?;
        if self.is_double_three(m) {
            return Err(MoveError::DoubleThree);
        }
        Ok(())
    }

    fn play(&mut self, m: Move) {
        // Off-board, occupied or after the end: nothing to play (callers check first).
        if self.check_cell(m).is_err() {
            return;
        }
        self.put_stone(m, true);
    }

    fn pass(&mut self) -> bool {
        let passer = self.side_to_move();
        // A pass does not break the opponent's five either.
        let outcome = match self.open_five() {
            Some(f) if self.rows().five_near(passer.opponent(), f, &[]) => {
                Some(Outcome::Win(passer.opponent()))
            }
            _ => self.plies.last().and_then(|p| p.outcome),
        };
        self.board.pass();
        self.plies.push(Ply {
            mv: None,
            captures: 0,
            outcome,
            open_five: None,
        });
        true
    }

    fn undo(&mut self) {
        let Some(p) = self.plies.pop() else {
            return;
        };
        if let Some(m) = p.mv {
            // The inner board still has the move: its side to move is the mover's opponent.
            let mover = self.board.side_to_move().opponent();
            let bits = stone_bits(mover.opponent());
            for i in 0..DIRS8.len() {
                if p.captures & (1 << i) != 0 {
                    for c in captured_cells(m, i) {
                        self.board.put(c.x as usize, c.y as usize, bits);
                    }
                }
            }
            let n = p.captures.count_ones() as u8;
            self.pairs[mover.index()] -= n;
            self.filled = self.filled + 2 * n as usize - 1;
        }
        self.board.undo();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.plies.last() {
            Some(p) => p.outcome,
            None => {
                (self.filled == self.board.width() * self.board.height()).then_some(Outcome::Draw)
            }
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        let k = |c: usize| PAIR_KEYS[c][usize::from(self.pairs[c]).min(MAX_KEYED_PAIRS)];
        self.board.key() ^ k(0) ^ k(1)
    }

    fn is_forbidden(&self, m: Move) -> bool {
        self.board.is_empty(m) && self.is_double_three(m)
    }

    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        self.generate(out);
    }

    fn evaluate(&self) -> i32 {
        self.static_eval()
    }

    fn place(&mut self, m: Move) -> Result<(), MoveError> {
        CaptureBoard::place(self, m)
    }

    fn captures(&self) -> Option<[u8; 2]> {
        Some(self.pairs)
    }
}
