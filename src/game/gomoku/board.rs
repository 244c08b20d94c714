//! The gomoku board: stones as one bit row per colour, and every derived structure the
//! evaluation and the search read, all kept incrementally.
//!
//! Per cell and direction a line key (see [`super::pattern`]) is updated by XOR for the at
//! most 40 cells on the four lines through a played stone; for each of those that is empty,
//! its directional patterns, its [`Code`] per colour and its evaluation value are looked up
//! again. Totals over empty cells (value per colour, number of cells per code and colour) are
//! adjusted by removing a cell's old contribution and adding its new one, so the evaluation
//! and the forced-move tests are O(1) reads. Patterns of occupied cells are left stale (they
//! are what they were when the stone went down). Influence and the Zobrist key are updated the
//! same way. Undo of a move replays the key XORs and copies back what the move changed (the
//! cells whose patterns it changed, saved as it played, and the totals), so a take-back costs
//! no table lookups; [`Board::take`], for stones taken out of order (captures), recomputes
//! instead. The per-ply record also keeps the outcome the move produced (renju fouls need a
//! recursive search). Walls (continuous-mode `BOARD` field 3) are set-up only and never undone.

use super::params;
use super::pattern::{
    get_both, reach, slot, table, Code, LineTable, Pattern, BLOCKED, HALF, NUM_CODES,
};
use super::rules::Rule;
use crate::game::{Color, Game, Move, MoveError, Outcome, ScoredMove};
use std::fmt;
use std::marker::PhantomData;

mod ascii;
mod cell_terms;
mod invariants;

pub use ascii::AsciiError;

use cell_terms::{cell_terms, combo_index, combo_table};

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side (one `u32` row mask per colour).
pub const MAX_SIZE: usize = 32;

/// The four line directions as `(dx, dy)`: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A board size outside `MIN_SIZE..=MAX_SIZE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError {
    pub width: usize,
    pub height: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {}x{} is not supported (each side {}..={})",
            self.width, self.height, MIN_SIZE, MAX_SIZE
        )
    }
}

impl std::error::Error for SizeError {}

/// Cell value in line keys for a stone of colour `c`.
#[inline]
pub(super) fn stone_bits(c: Color) -> u32 {
    c.index() as u32 + 1
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys per colour and cell (`y * 32 + x`, so the same cell has the same key on
/// every board size), then the side-to-move key; a fixed seed keeps them reproducible.
static ZOBRIST: ([[u64; MAX_SIZE * MAX_SIZE]; 2], u64) = {
    let mut t = [[0u64; MAX_SIZE * MAX_SIZE]; 2];
    let mut s = 0x5755_5A49_474F_4D4Bu64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_SIZE * MAX_SIZE {
            let (ns, v) = splitmix64(s);
            s = ns;
            t[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(s);
    (t, side)
};

#[inline]
fn zobrist(c: Color, x: usize, y: usize) -> u64 {
    ZOBRIST.0[c.index()][y * MAX_SIZE + x]
}

/// The on-board cells of a `width` × `height` board whose window along direction `d` holds
/// `(x, y)`: those at offsets `o` in `lo..=hi` (`o` ≠ 0) from it, cell `base − o·step` by
/// index, where `(x, y)` sits in slot `slot(o)` of the cell's key. The cells of a line are a
/// fixed index step apart and the slot goes up by one per offset (0 skipped), so the walk
/// needs no per-cell bounds test.
#[inline(always)]
fn window_span(
    (width, height): (usize, usize),
    x: usize,
    y: usize,
    d: usize,
) -> (i32, i32, i32, i32) {
    let (w, h) = (width as i32, height as i32);
    let (x, y) = (x as i32, y as i32);
    let (dx, dy) = DIRS[d];
    let (mut lo, mut hi) = (-HALF, HALF);
    if dx == 1 {
        lo = lo.max(x - (w - 1));
        hi = hi.min(x);
    }
    match dy {
        1 => {
            lo = lo.max(y - (h - 1));
            hi = hi.min(y);
        }
        -1 => {
            lo = lo.max(-y);
            hi = hi.min(h - 1 - y);
        }
        _ => {}
    }
    // The slot walk starts at the first offset that is a cell of the window.
    let lo = if lo == 0 { 1 } else { lo };
    (y * w + x, dx + dy * w, lo, hi)
}

/// Everything kept per cell. Patterns, codes and values are meaningful only while the cell
/// is empty; keys always are. (Influence is kept beside the cells, in `Board::influence`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cell {
    pub key: [u32; 4],
    pub pat: [[Pattern; 4]; 2],
    pub code: [Code; 2],
    /// Eval value by colour and role (0: that colour is to move, 1: it waits).
    pub value: [[i32; 2]; 2],
    /// Move-ordering rank by colour: 0 when that colour plays here (attack), 1 when its
    /// opponent does (defence). Influence is added when moves are ordered.
    pub order: [[i32; 2]; 2],
}

/// What [`Board::put_saved`] changed besides the keys, influence and stones: the totals as
/// they were, and from which entry of `Board::saved` its changed cells are.
#[derive(Clone, Copy, Debug)]
struct PutRecord {
    code_count: [[u16; NUM_CODES]; 2],
    eval_total: [[i32; 2]; 2],
    saved_from: u32,
    /// The stone's own cell as it was: an occupied cell's terms go stale when a capture
    /// takes a neighbour out and puts it back, so they are not trusted on the way back.
    own: SavedCell,
}

/// A cell's derived terms as they were before a put changed its patterns.
#[derive(Clone, Copy, Debug)]
struct SavedCell {
    index: u32,
    pat: [[Pattern; 4]; 2],
    code: [Code; 2],
    value: [[i32; 2]; 2],
    order: [[i32; 2]; 2],
}

/// The per-ply record: the move (None for a pass) and the outcome it produced.
#[derive(Clone, Copy, Debug)]
struct StateInfo {
    mv: Option<Move>,
    outcome: Option<Outcome>,
}

/// A gomoku position under rule `R`. See the module documentation for what is kept.
#[derive(Clone)]
pub struct Board<R: Rule> {
    width: usize,
    height: usize,
    stones: [[u32; MAX_SIZE]; 2],
    walls: [u32; MAX_SIZE],
    pub(super) cells: Vec<Cell>,
    code_count: [[u16; NUM_CODES]; 2],
    /// Sums of the empty cells' values, by colour and role.
    eval_total: [[i32; 2]; 2],
    hash: u64,
    history: Vec<StateInfo>,
    /// Influence by cell index and colour: apart from the cells, so that spreading a stone's
    /// influence writes a few contiguous bytes per row.
    pub(super) influence: Vec<[u16; 2]>,
    /// Whether each cell (by index) holds a stone or a wall: the hot update reads this
    /// instead of the bit rows, which would need a division to find a cell's row.
    filled: Vec<bool>,
    /// One record per [`Board::put_saved`] not yet taken back, and the cells they changed.
    puts: Vec<PutRecord>,
    saved: Vec<SavedCell>,
    /// Stones plus walls.
    occupied: usize,
    tables: [&'static LineTable; 2],
    _rule: PhantomData<R>,
}

impl<R: Rule> fmt::Debug for Board<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board<{}> {}x{}", R::NAME, self.width, self.height)?;
        f.write_str(&self.to_ascii())
    }
}

impl<R: Rule> Board<R> {
    /// An empty board; each side must be in `MIN_SIZE..=MAX_SIZE`. Builds the rule's pattern
    /// tables on first use.
    pub fn new(width: usize, height: usize) -> Result<Board<R>, SizeError> {
        let ok = |s: usize| (MIN_SIZE..=MAX_SIZE).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(SizeError { width, height });
        }
        let mut b = Board {
            width,
            height,
            stones: [[0; MAX_SIZE]; 2],
            walls: [0; MAX_SIZE],
            cells: vec![Cell::default(); width * height],
            code_count: [[0; NUM_CODES]; 2],
            eval_total: [[0; 2]; 2],
            hash: 0,
            history: Vec::with_capacity(width * height),
            filled: vec![false; width * height],
            influence: vec![[0; 2]; width * height],
            puts: Vec::with_capacity(width * height),
            saved: Vec::new(),
            occupied: 0,
            tables: [table(R::BLACK), table(R::WHITE)],
            _rule: PhantomData,
        };
        for y in 0..height {
            for x in 0..width {
                let i = b.idx(x, y);
                b.cells[i].key = b.scratch_keys(x, y);
                b.refresh_all_dirs(i);
                b.recode(i);
                b.add_contribution(i);
            }
        }
        Ok(b)
    }

    /// Field 3 of BOARD (continuous mode): a cell blocked for both sides. Counted in no
    /// player's patterns (acts as a block for both; in caro it does not count as an opponent
    /// stone). Ok only on an empty on-board cell. Walls are not moves: undo keeps them.
    pub fn place_wall(&mut self, m: Move) -> Result<(), MoveError> {
        let (x, y) = self.coords(m).ok_or(MoveError::OffBoard)?;
        if !self.is_empty_xy(x, y) {
            return Err(MoveError::Occupied);
        }
        self.put(x, y, BLOCKED);
        Ok(())
    }

    /// Renju: every empty cell forbidden for black right now (any side to move), row-major.
    /// Empty under other rules.
    pub fn forbidden_points(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if !R::RENJU {
            return out;
        }
        let mut scratch: Option<Board<R>> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if !self.is_empty_xy(x, y) {
                    continue;
                }
                let m = Move::new(x as u8, y as u8);
                if self.forbidden_with(&mut scratch, x, y) {
                    out.push(m);
                }
            }
        }
        out
    }

    // ---- pattern accessors (for evaluation, ordering and threat search) ----

    /// The combined threat code `c` gets by playing the empty cell `m` (None for occupied or
    /// off-board cells). Renju black: [`Code::Forbidden`] marks certain fouls; a
    /// [`Code::DoubleThree`] may still be a fake one (see [`Board::is_forbidden_black`]).
    #[inline]
    pub fn code(&self, m: Move, c: Color) -> Code {
        match self.coords(m) {
            Some((x, y)) if self.is_empty_xy(x, y) => self.cells[self.idx(x, y)].code[c.index()],
            _ => Code::None,
        }
    }

    /// The pattern `c` makes along direction `dir` (index into [`DIRS`]) by playing the empty
    /// cell `m` (None for occupied or off-board cells or `dir > 3`).
    #[inline]
    pub fn pattern(&self, m: Move, c: Color, dir: usize) -> Pattern {
        match self.coords(m) {
            Some((x, y)) if dir < 4 && self.is_empty_xy(x, y) => {
                self.cells[self.idx(x, y)].pat[c.index()][dir]
            }
            _ => Pattern::None,
        }
    }

    /// The four directional patterns `c` makes by playing the empty cell `m`.
    #[inline]
    pub fn patterns(&self, m: Move, c: Color) -> [Pattern; 4] {
        match self.coords(m) {
            Some((x, y)) if self.is_empty_xy(x, y) => self.cells[self.idx(x, y)].pat[c.index()],
            _ => [Pattern::None; 4],
        }
    }

    /// Weighted count of `c`'s stones near `m` (see [`params::INFLUENCE`]); 0 off the board.
    #[inline]
    pub fn influence(&self, m: Move, c: Color) -> u16 {
        self.coords(m)
            .map_or(0, |(x, y)| self.influence[self.idx(x, y)][c.index()])
    }

    /// How many empty cells give `c` the code `code` right now (O(1)).
    #[inline]
    pub fn code_count(&self, c: Color, code: Code) -> usize {
        self.code_count[c.index()][code as usize] as usize
    }

    /// The empty cells where `c` has code `code`, row-major.
    pub fn cells_with_code(&self, c: Color, code: Code) -> Vec<Move> {
        let mut v = Vec::new();
        if self.code_count(c, code) == 0 {
            return v;
        }
        self.for_each_empty(|b, x, y| {
            if b.cells[b.idx(x, y)].code[c.index()] == code {
                v.push(Move::new(x as u8, y as u8));
            }
        });
        v
    }

    /// Sum of the evaluation values of the empty cells for `c` (eval points), valued as the
    /// side to move (`to_move`) or as the side waiting.
    #[inline]
    pub fn eval_total(&self, c: Color, to_move: bool) -> i32 {
        self.eval_total[c.index()][usize::from(!to_move)]
    }

    /// Whether `m` is on the board and holds neither a stone nor a wall.
    #[inline]
    pub fn is_empty(&self, m: Move) -> bool {
        self.coords(m).is_some_and(|(x, y)| self.is_empty_xy(x, y))
    }

    /// The side to move's own last stone (two plies back), if the last two plies were moves.
    pub fn own_last_move(&self) -> Option<Move> {
        let n = self.history.len();
        if n < 2 {
            return None;
        }
        self.history[n - 2].mv
    }

    /// Whether any stone (not counting walls) is on the board.
    #[inline]
    pub fn has_stones(&self) -> bool {
        self.stones.iter().flatten().any(|&r| r != 0)
    }

    // ---- internals ----

    #[inline]
    pub(super) fn idx(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    #[inline]
    pub(super) fn coords(&self, m: Move) -> Option<(usize, usize)> {
        let (x, y) = (m.x as usize, m.y as usize);
        (x < self.width && y < self.height).then_some((x, y))
    }

    #[inline]
    pub(super) fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    #[inline]
    pub(super) fn is_empty_xy(&self, x: usize, y: usize) -> bool {
        (self.stones[0][y] | self.stones[1][y] | self.walls[y]) & (1 << x) == 0
    }

    #[inline]
    pub(super) fn color_at(&self, x: usize, y: usize) -> Option<Color> {
        let bit = 1u32 << x;
        if self.stones[0][y] & bit != 0 {
            Some(Color::Black)
        } else if self.stones[1][y] & bit != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The rows of `c`'s stones as bit masks (bit `x` of row `y` is the cell `x,y`): the
    /// capture variants find flanked pairs with a few shifts per row.
    #[inline]
    pub(super) fn stone_rows(&self, c: Color) -> &[u32; MAX_SIZE] {
        &self.stones[c.index()]
    }

    /// The rows of walls (`BOARD` field 3) as bit masks.
    #[inline]
    pub(super) fn wall_rows(&self) -> &[u32; MAX_SIZE] {
        &self.walls
    }

    /// Calls `f` for every empty cell, row-major, by walking the free bits of each row.
    pub(super) fn for_each_empty(&self, mut f: impl FnMut(&Self, usize, usize)) {
        let full = self.row_mask();
        for y in 0..self.height {
            let mut free = !(self.stones[0][y] | self.stones[1][y] | self.walls[y]) & full;
            while free != 0 {
                let x = free.trailing_zeros() as usize;
                free &= free - 1;
                f(self, x, y);
            }
        }
    }

    #[inline]
    pub(super) fn row_mask(&self) -> u32 {
        if self.width == 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        }
    }

    /// Empty cells within `params::NEAR` (Chebyshev) of a stone, as row masks.
    pub(super) fn near_mask(&self) -> [u32; MAX_SIZE] {
        let full = self.row_mask();
        let mut spread = [0u32; MAX_SIZE];
        for (y, s) in spread.iter_mut().enumerate().take(self.height) {
            let mut m = self.stones[0][y] | self.stones[1][y];
            for k in 1..=params::NEAR {
                m |= (m << k) | (m >> k);
            }
            *s = m & full;
        }
        let mut near = [0u32; MAX_SIZE];
        for (y, n) in near.iter_mut().enumerate().take(self.height) {
            let lo = y.saturating_sub(params::NEAR);
            let hi = (y + params::NEAR).min(self.height - 1);
            let mut m = 0;
            for s in &spread[lo..=hi] {
                m |= s;
            }
            *n = m & !(self.stones[0][y] | self.stones[1][y] | self.walls[y]);
        }
        near
    }

    /// The line keys of a cell computed by reading the board (also the reference for the
    /// incremental keys in [`Board::check_invariants`]).
    fn scratch_keys(&self, x: usize, y: usize) -> [u32; 4] {
        let mut keys = [0u32; 4];
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            for o in (-HALF..0).chain(1..=HALF) {
                let (qx, qy) = (x as i32 + o * dx, y as i32 + o * dy);
                let v = if !self.on_board(qx, qy) {
                    BLOCKED
                } else {
                    let (qx, qy) = (qx as usize, qy as usize);
                    match self.color_at(qx, qy) {
                        Some(c) => stone_bits(c),
                        None if self.walls[qy] & (1 << qx) != 0 => BLOCKED,
                        None => 0,
                    }
                };
                keys[d] |= v << (2 * super::pattern::slot(o));
            }
        }
        keys
    }

    #[inline]
    fn refresh_dir(&mut self, i: usize, d: usize) {
        let key = self.cells[i].key[d];
        let cell = &mut self.cells[i];
        cell.pat[0][d] = self.tables[0].get(key, Color::Black);
        cell.pat[1][d] = self.tables[1].get(key, Color::White);
    }

    fn refresh_all_dirs(&mut self, i: usize) {
        for d in 0..4 {
            self.refresh_dir(i, d);
        }
    }

    /// Recomputes a cell's codes and values from its patterns.
    #[inline]
    fn recode(&mut self, i: usize) {
        self.recode_colour(i, 0);
        self.recode_colour(i, 1);
    }

    /// Recomputes colour `col`'s code and values of a cell from its patterns.
    #[inline(always)]
    fn recode_colour(&mut self, i: usize, col: usize) {
        let table = combo_table();
        let cell = &mut self.cells[i];
        let t = &table[usize::from(R::RENJU && col == 0)][combo_index(&cell.pat[col])];
        cell.code[col] = t.code;
        cell.value[col] = t.value;
        cell.order[col] = t.order;
    }

    #[inline]
    fn add_contribution(&mut self, i: usize) {
        let cell = &self.cells[i];
        for col in 0..2 {
            self.code_count[col][cell.code[col] as usize] += 1;
            self.eval_total[col][0] += cell.value[col][0];
            self.eval_total[col][1] += cell.value[col][1];
        }
    }

    #[inline]
    fn remove_contribution(&mut self, i: usize) {
        let cell = &self.cells[i];
        for col in 0..2 {
            self.code_count[col][cell.code[col] as usize] -= 1;
            self.eval_total[col][0] -= cell.value[col][0];
            self.eval_total[col][1] -= cell.value[col][1];
        }
    }

    /// The farthest offset along a line at which a stone can change a cell's patterns
    /// under `R`: under freestyle the outermost cells of a key never do, so their lookups
    /// are skipped.
    const REACH: i32 = {
        let (b, w) = (reach(R::BLACK), reach(R::WHITE));
        if b > w {
            b
        } else {
            w
        }
    };

    /// XORs `v` into the keys of every cell whose window holds `(x, y)` and refreshes the
    /// empty ones within [`Self::REACH`]; with `SAVE`, each refreshed cell's old terms go on
    /// `self.saved` first. Only the colour whose pattern changed is recoded.
    #[inline(always)]
    fn update_lines<const SAVE: bool>(&mut self, x: usize, y: usize, v: u32) {
        let dims = (self.width, self.height);
        let [black_table, white_table] = self.tables;
        let combos = combo_table();
        // The eval totals' changes, summed here and added once: the cells are written
        // through a pointer the compiler cannot tell from the totals, which would otherwise
        // be reloaded and stored around every cell.
        let mut totals = [[0i32; 2]; 2];
        for d in 0..4 {
            // Cell index, and bit c set when colour c's pattern changed.
            let mut changed = [(0u32, 0u8); 2 * HALF as usize];
            let mut n = 0;
            let (base, step, lo, hi) = window_span(dims, x, y, d);
            let (mut q, mut shift) = (base - lo * step, 2 * slot(lo));
            for o in lo..=hi {
                if o == 0 {
                    q -= step;
                    continue;
                }
                let at = q as usize;
                q -= step;
                let slot_shift = shift;
                shift += 2;
                let q = at;
                let cell = &mut self.cells[q];
                let key = cell.key[d] ^ (v << slot_shift);
                cell.key[d] = key;
                if self.filled[q] || (Self::REACH < HALF && (o == HALF || o == -HALF)) {
                    continue;
                }
                let (black, white) = get_both(black_table, white_table, key);
                // Far cells often keep their pattern: then code and value stand too.
                let which =
                    u8::from(cell.pat[0][d] != black) | u8::from(cell.pat[1][d] != white) << 1;
                if which != 0 {
                    if SAVE {
                        self.saved.push(SavedCell {
                            index: q as u32,
                            pat: cell.pat,
                            code: cell.code,
                            value: cell.value,
                            order: cell.order,
                        });
                    }
                    cell.pat[0][d] = black;
                    cell.pat[1][d] = white;
                    changed[n] = (q as u32, which);
                    n += 1;
                }
            }
            for &(q, which) in &changed[..n] {
                let cell = &mut self.cells[q as usize];
                for col in 0..2 {
                    if which & (1 << col) != 0 {
                        let t =
                            &combos[usize::from(R::RENJU && col == 0)][combo_index(&cell.pat[col])];
                        let counts = &mut self.code_count[col];
                        counts[cell.code[col] as usize] -= 1;
                        counts[t.code as usize] += 1;
                        totals[col][0] += t.value[0] - cell.value[col][0];
                        totals[col][1] += t.value[1] - cell.value[col][1];
                        cell.code[col] = t.code;
                        cell.value[col] = t.value;
                        cell.order[col] = t.order;
                    }
                }
            }
        }
        for (sum, delta) in self.eval_total.iter_mut().zip(totals) {
            sum[0] += delta[0];
            sum[1] += delta[1];
        }
    }

    /// XORs `v` into the keys of every cell whose window holds `(x, y)`, nothing else (the
    /// undo of [`Board::put_saved`], which restores the rest from its record).
    #[inline(always)]
    fn xor_keys(&mut self, x: usize, y: usize, v: u32) {
        let (dims, cells) = ((self.width, self.height), &mut self.cells);
        for d in 0..4 {
            let (base, step, lo, hi) = window_span(dims, x, y, d);
            let (mut q, mut shift) = (base - lo * step, 2 * slot(lo));
            for o in lo..=hi {
                if o != 0 {
                    cells[q as usize].key[d] ^= v << shift;
                    shift += 2;
                }
                q -= step;
            }
        }
    }

    fn spread_influence(&mut self, x: usize, y: usize, c: Color, add: bool) {
        let (x0, x1) = (x.saturating_sub(2), (x + 2).min(self.width - 1));
        let (y0, y1) = (y.saturating_sub(2), (y + 2).min(self.height - 1));
        let col = c.index();
        for qy in y0..=y1 {
            let weights = &params::INFLUENCE[qy + 2 - y][x0 + 2 - x..=x1 + 2 - x];
            let row = qy * self.width;
            let cells = &mut self.influence[row + x0..=row + x1];
            if add {
                cells.iter_mut().zip(weights).for_each(|(c, w)| c[col] += w);
            } else {
                cells.iter_mut().zip(weights).for_each(|(c, w)| c[col] -= w);
            }
        }
    }

    /// Puts a stone (`v` = 1 black, 2 white) or a wall (`v` = 3) on an empty cell, updating
    /// every derived structure. No history, no side to move: `play` and the renju
    /// foul test build on this.
    pub(super) fn put(&mut self, x: usize, y: usize, v: u32) {
        self.put_bits(x, y, v);
        self.update_lines::<false>(x, y, v);
    }

    /// [`Board::put`] that also records what it changed, so that [`Board::unput`] can take the
    /// stone back without recomputing anything. Every `put_saved` must be undone by an
    /// `unput` of the same cell before any earlier one is (captures, which take stones out of
    /// order, go through [`Board::take`] and [`Board::put`] in between, which leave the
    /// position as they found it).
    pub(super) fn put_saved(&mut self, x: usize, y: usize, v: u32) {
        let i = self.idx(x, y);
        let cell = &self.cells[i];
        self.puts.push(PutRecord {
            code_count: self.code_count,
            eval_total: self.eval_total,
            saved_from: self.saved.len() as u32,
            own: SavedCell {
                index: i as u32,
                pat: cell.pat,
                code: cell.code,
                value: cell.value,
                order: cell.order,
            },
        });
        self.put_bits(x, y, v);
        self.update_lines::<true>(x, y, v);
    }

    /// Exactly undoes the last [`Board::put_saved`], which put `v` on `(x, y)`.
    pub(super) fn unput(&mut self, x: usize, y: usize, v: u32) {
        let Some(rec) = self.puts.pop() else {
            return self.take(x, y, v);
        };
        self.take_bits(x, y, v);
        self.xor_keys(x, y, v);
        let from = rec.saved_from as usize;
        for s in self.saved[from..].iter().chain(std::iter::once(&rec.own)) {
            let cell = &mut self.cells[s.index as usize];
            cell.pat = s.pat;
            cell.code = s.code;
            cell.value = s.value;
            cell.order = s.order;
        }
        self.saved.truncate(from);
        self.code_count = rec.code_count;
        self.eval_total = rec.eval_total;
    }

    /// Exactly undoes [`Board::put`] of the same `v`, recomputing the cells around it.
    pub(super) fn take(&mut self, x: usize, y: usize, v: u32) {
        self.take_bits(x, y, v);
        self.update_lines::<false>(x, y, v);
        let i = self.idx(x, y);
        self.refresh_all_dirs(i);
        self.recode(i);
        self.add_contribution(i);
    }

    /// The stone or wall itself: bits, Zobrist key, influence, count, and the cell's own
    /// contribution to the totals (an occupied cell has none).
    #[inline]
    fn put_bits(&mut self, x: usize, y: usize, v: u32) {
        let i = self.idx(x, y);
        self.remove_contribution(i);
        self.filled[i] = true;
        match v {
            1 | 2 => {
                let c = if v == 1 { Color::Black } else { Color::White };
                self.stones[c.index()][y] |= 1 << x;
                self.hash ^= zobrist(c, x, y);
                self.spread_influence(x, y, c, true);
            }
            _ => self.walls[y] |= 1 << x,
        }
        self.occupied += 1;
    }

    /// Undoes [`Board::put_bits`] but for the totals, which the callers restore.
    #[inline]
    fn take_bits(&mut self, x: usize, y: usize, v: u32) {
        let i = self.idx(x, y);
        self.filled[i] = false;
        match v {
            1 | 2 => {
                let c = if v == 1 { Color::Black } else { Color::White };
                self.stones[c.index()][y] &= !(1 << x);
                self.hash ^= zobrist(c, x, y);
                self.spread_influence(x, y, c, false);
            }
            _ => self.walls[y] &= !(1 << x),
        }
        self.occupied -= 1;
    }

    /// The outcome of `c` playing the empty cell `(x, y)`, judged before the stone goes down.
    fn outcome_of(&mut self, x: usize, y: usize, c: Color) -> Option<Outcome> {
        let i = self.idx(x, y);
        if self.cells[i].pat[c.index()].contains(&Pattern::Five) {
            return Some(Outcome::Win(c));
        }
        if R::RENJU && c == Color::Black && self.forbidden_at(x, y, params::FORBIDDEN_DEPTH) {
            return Some(Outcome::Win(Color::White));
        }
        None
    }
}

impl<R: Rule> Game for Board<R> {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        if self.history.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn stone_at(&self, m: Move) -> Option<Color> {
        self.coords(m).and_then(|(x, y)| self.color_at(x, y))
    }

    fn last_move(&self) -> Option<Move> {
        self.history.last().and_then(|s| s.mv)
    }

    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let (x, y) = self.coords(m).ok_or(MoveError::OffBoard)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.is_empty_xy(x, y) {
            return Err(MoveError::Occupied);
        }
        Ok(())
    }

    fn play(&mut self, m: Move) {
        let Some((x, y)) = self.coords(m) else {
            return;
        };
        if !self.is_empty_xy(x, y) {
            return;
        }
        let c = self.side_to_move();
        let decided = self.outcome_of(x, y, c);
        self.put_saved(x, y, stone_bits(c));
        let outcome = decided
            .or_else(|| (self.occupied == self.width * self.height).then_some(Outcome::Draw));
        self.history.push(StateInfo {
            mv: Some(m),
            outcome,
        });
    }

    fn pass(&mut self) -> bool {
        let outcome = self.history.last().and_then(|s| s.outcome);
        self.history.push(StateInfo { mv: None, outcome });
        true
    }

    fn undo(&mut self) {
        let Some(st) = self.history.pop() else {
            return;
        };
        if let Some(m) = st.mv {
            // After the pop, the side to move is the one that played `m`.
            let c = self.side_to_move();
            self.unput(m.x as usize, m.y as usize, stone_bits(c));
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.history.last() {
            Some(st) => st.outcome,
            None => (self.occupied == self.width * self.height).then_some(Outcome::Draw),
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        match self.side_to_move() {
            Color::Black => self.hash,
            Color::White => self.hash ^ ZOBRIST.1,
        }
    }

    #[inline]
    fn key_after(&self, m: Move) -> Option<u64> {
        let c = self.side_to_move();
        Some(self.key() ^ zobrist(c, m.x as usize, m.y as usize) ^ ZOBRIST.1)
    }

    fn is_forbidden(&self, m: Move) -> bool {
        R::RENJU && self.side_to_move() == Color::Black && self.is_forbidden_black(m)
    }

    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        self.generate(out);
        // Stable: equal scores keep row-major order.
        out.sort_by_key(|s| std::cmp::Reverse(s.score));
    }

    fn candidates_unsorted(&self, out: &mut Vec<ScoredMove>) {
        self.generate(out);
    }

    fn evaluate(&self) -> i32 {
        self.static_eval()
    }
}
