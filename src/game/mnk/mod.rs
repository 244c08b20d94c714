//! m,n,k games: k or more in a row on a width × height board (tic-tac-toe is 3,3,3), solved
//! exactly where the board is small and searched with a beam where it is not (both by
//! `crate::search::mnk`; this module holds the rules and the position).
//!
//! The board is built around *windows*: every run of k cells in one of the four directions.
//! Each window keeps its count of black and white stones, updated on play and undo for the
//! (at most 4k) windows through the changed cell. From those counts follow, with no scan of
//! the board: a win (a window reaching k of one colour), the cells where a side wins at once
//! (a window with k−1 of one colour and nothing of the other), whether a side can still win at
//! all (a window without opponent stones), and a k-aware evaluation (live windows weighted by
//! how full they are). The same windows give the move-ordering score of a cell. Zobrist keys
//! are kept under every symmetry of the board (8 for a square, 4 for a rectangle) so that the
//! solver's transposition table folds symmetric positions together. Immutable tables live in
//! one shared `Geometry` so that cloning a position for a search is cheap.

use crate::game::{Color, Game, Move, MoveError, Outcome, ScoredMove};
use std::fmt;
use std::sync::Arc;

/// Smallest and largest board side the protocol may ask for.
pub const MIN_SIDE: usize = 3;
pub const MAX_SIDE: usize = 32;

/// Boards with at most this many cells offer every empty cell as a candidate (and are solved
/// exactly where time allows); larger boards offer only cells near stones.
pub const ALL_CELLS_MAX: usize = 64;
/// Candidate radius (Chebyshev distance to a stone) on boards larger than [`ALL_CELLS_MAX`].
pub const CANDIDATE_RADIUS: usize = 2;

/// Why a board cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// A side outside `MIN_SIDE..=MAX_SIDE`.
    Side(usize),
    /// k outside `1..=max(width, height)` (a longer line fits nowhere).
    K(usize),
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Side(s) => write!(f, "board side {s} outside {MIN_SIDE}..={MAX_SIDE}"),
            SizeError::K(k) => write!(f, "k = {k} does not fit the board"),
        }
    }
}

impl std::error::Error for SizeError {}

/// Per-cell stone codes.
const EMPTY: u8 = 0;

/// Tables shared by every position of one board size: windows, symmetries, Zobrist keys.
#[derive(Debug)]
pub(crate) struct Geometry {
    w: usize,
    h: usize,
    k: usize,
    /// First cell and cell-index step of each window.
    win_start: Vec<u16>,
    win_step: Vec<u16>,
    /// Windows through each cell: `cell_win[cell_win_off[c]..cell_win_off[c + 1]]`.
    cell_win_off: Vec<u32>,
    cell_win: Vec<u32>,
    /// `sym[s][c]`: the image of cell c under symmetry s (s = 0 is the identity).
    pub(crate) sym: Vec<Vec<u16>>,
    /// `sym_inv[s]` undoes `sym[s]`.
    pub(crate) sym_inv: Vec<Vec<u16>>,
    zobrist: Vec<[u64; 2]>,
    side_key: u64,
    /// Evaluation weight of a live window holding `n` stones of its owner, `n` in `0..=k`.
    weight: Vec<i32>,
}

/// Deterministic 64-bit mixer for Zobrist keys (splitmix64).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Weight of a live window with `n` of its owner's stones out of `k`: grows about fivefold per
/// stone near completion, so one almost-full line outweighs many sparse ones, and stays small
/// and bounded far from completion so long lines (large k) cannot overflow.
fn window_weight(n: usize, k: usize) -> i32 {
    if n == 0 {
        return 0;
    }
    match k - n.min(k) {
        // A finished window ends the game; its weight only makes the winning move the
        // first candidate.
        0 => 5000,
        1 => 600,
        2 => 90,
        3 => 16,
        4 => 4,
        _ => 1,
    }
}

impl Geometry {
    fn new(w: usize, h: usize, k: usize) -> Geometry {
        let n = w * h;
        let mut win_start = Vec::new();
        let mut win_step = Vec::new();
        // (dx, dy) with the walk going right and/or down so every step is a positive index
        // delta. For k = 1 a single direction suffices: the four would repeat the same cell.
        let dirs: &[(isize, isize)] = if k == 1 {
            &[(1, 0)]
        } else {
            &[(1, 0), (0, 1), (1, 1), (-1, 1)]
        };
        for &(dx, dy) in dirs {
            for y in 0..h as isize {
                for x in 0..w as isize {
                    let ex = x + dx * (k as isize - 1);
                    let ey = y + dy * (k as isize - 1);
                    if ex < 0 || ex >= w as isize || ey >= h as isize {
                        continue;
                    }
                    win_start.push((y as usize * w + x as usize) as u16);
                    win_step.push((dy * w as isize + dx) as u16);
                }
            }
        }
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, (&s, &st)) in win_start.iter().zip(&win_step).enumerate() {
            for j in 0..k {
                per_cell[s as usize + j * st as usize].push(i as u32);
            }
        }
        let mut cell_win_off = Vec::with_capacity(n + 1);
        let mut cell_win = Vec::new();
        for ws in &per_cell {
            cell_win_off.push(cell_win.len() as u32);
            cell_win.extend_from_slice(ws);
        }
        cell_win_off.push(cell_win.len() as u32);

        let sym = symmetries(w, h);
        let sym_inv = sym
            .iter()
            .map(|p| {
                let mut inv = vec![0u16; n];
                for (c, &img) in p.iter().enumerate() {
                    inv[img as usize] = c as u16;
                }
                inv
            })
            .collect();
        let mut seed = 0x6d6e_6b5f_7775_7a69 ^ ((w as u64) << 16 | (h as u64) << 8 | k as u64);
        let zobrist = (0..n)
            .map(|_| [splitmix(&mut seed), splitmix(&mut seed)])
            .collect();
        let side_key = splitmix(&mut seed);
        let weight = (0..=k).map(|c| window_weight(c, k)).collect();
        Geometry {
            w,
            h,
            k,
            win_start,
            win_step,
            cell_win_off,
            cell_win,
            sym,
            sym_inv,
            zobrist,
            side_key,
            weight,
        }
    }

    #[inline]
    fn windows_of(&self, c: usize) -> &[u32] {
        &self.cell_win[self.cell_win_off[c] as usize..self.cell_win_off[c + 1] as usize]
    }

    #[inline]
    fn window_cells(&self, win: usize) -> impl Iterator<Item = usize> {
        let s = self.win_start[win] as usize;
        let st = self.win_step[win] as usize;
        (0..self.k).map(move |j| s + j * st)
    }
}

/// The cell permutations that map the board onto itself: the identity, the two mirrors and
/// the half turn always; on a square board also the transpose family (8 in all).
fn symmetries(w: usize, h: usize) -> Vec<Vec<u16>> {
    let count = if w == h { 8 } else { 4 };
    (0..count)
        .map(|s| {
            (0..w * h)
                .map(|c| {
                    let (x, y) = transform(s, c % w, c / w, w, h);
                    (y * w + x) as u16
                })
                .collect()
        })
        .collect()
}

/// Symmetry `s` applied to (x, y): 0..4 are the identity, the two mirrors and the half
/// turn; 4..8 (square boards only) the same after a transpose.
fn transform(s: usize, x: usize, y: usize, w: usize, h: usize) -> (usize, usize) {
    let (x, y) = if s >= 4 { (y, x) } else { (x, y) };
    match s % 4 {
        0 => (x, y),
        1 => (w - 1 - x, y),
        2 => (x, h - 1 - y),
        _ => (w - 1 - x, h - 1 - y),
    }
}

/// An m,n,k position. Cloning copies the per-position state and shares the tables.
#[derive(Clone, Debug)]
pub struct Mnk {
    pub(crate) geo: Arc<Geometry>,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Stones of each colour in each window.
    counts: Vec<[u8; 2]>,
    /// Per cell and colour: windows where this empty cell is the one missing stone.
    threats: Vec<[u16; 2]>,
    /// Per colour: empty cells where that colour would win at once.
    threat_cells: [u32; 2],
    /// Per colour: windows holding no opponent stone (while any exists, a win is possible).
    live: [u32; 2],
    /// Per colour and stone count: live windows of that colour holding that many of its
    /// stones, at `colour * (k + 1) + count`. The fullest one bounds how soon it can win.
    hist: Vec<u32>,
    /// Per colour: sum of `weight` over its live windows.
    eval: [i32; 2],
    /// Zobrist key of the stones under each symmetry.
    keys: Vec<u64>,
    /// Per cell: stones within [`CANDIDATE_RADIUS`] (Chebyshev), so the beam's candidate set
    /// needs no scan of the neighbourhood.
    near: Vec<u16>,
    /// Cells played, `None` for a pass.
    history: Vec<Option<u16>>,
    stones: usize,
    side: Color,
    winner: Option<Color>,
}

impl Mnk {
    /// An empty `width` × `height` board where `k` in a row wins. Sides must be in
    /// `3..=32`; k in `1..=max(width, height)` (k ≥ 3 gives the interesting games; k larger
    /// than the shorter side leaves only the lines along the longer one).
    pub fn new(width: usize, height: usize, k: usize) -> Result<Mnk, SizeError> {
        for s in [width, height] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&s) {
                return Err(SizeError::Side(s));
            }
        }
        if k == 0 || k > width.max(height) {
            return Err(SizeError::K(k));
        }
        let geo = Arc::new(Geometry::new(width, height, k));
        let nwin = geo.win_start.len();
        let nsym = geo.sym.len();
        Ok(Mnk {
            cells: vec![EMPTY; width * height],
            counts: vec![[0, 0]; nwin],
            threats: vec![[if k == 1 { 1 } else { 0 }; 2]; width * height],
            threat_cells: if k == 1 {
                [(width * height) as u32; 2]
            } else {
                [0, 0]
            },
            live: [nwin as u32; 2],
            hist: {
                let mut h = vec![0; 2 * (k + 1)];
                h[0] = nwin as u32;
                h[k + 1] = nwin as u32;
                h
            },
            eval: [0, 0],
            keys: vec![0; nsym],
            near: vec![0; width * height],
            history: Vec::new(),
            stones: 0,
            side: Color::Black,
            winner: None,
            geo,
        })
    }

    /// k: how many in a row win.
    pub fn k(&self) -> usize {
        self.geo.k
    }

    /// Number of cells on the board.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// Number of empty cells.
    #[inline]
    pub fn empties(&self) -> usize {
        self.cells.len() - self.stones
    }

    #[inline]
    pub(crate) fn cell_of(&self, m: Move) -> usize {
        m.y as usize * self.geo.w + m.x as usize
    }

    #[inline]
    pub(crate) fn move_of(&self, c: usize) -> Move {
        Move::new((c % self.geo.w) as u8, (c / self.geo.w) as u8)
    }

    #[inline]
    fn is_empty_cell(&self, c: usize) -> bool {
        self.cells[c] == EMPTY
    }

    /// Whether the side to move wins by playing somewhere now.
    #[inline]
    pub(crate) fn can_win_now(&self) -> bool {
        self.threat_cells[self.side.index()] > 0
    }

    /// Number of distinct empty cells where `color` would win at once.
    #[inline]
    pub(crate) fn threat_count(&self, color: Color) -> u32 {
        self.threat_cells[color.index()]
    }

    /// The empty cells where `color` would win at once, in cell order.
    pub(crate) fn threat_cells_of(&self, color: Color, out: &mut Vec<usize>) {
        out.clear();
        if self.threat_cells[color.index()] == 0 {
            return;
        }
        let ci = color.index();
        out.extend(
            (0..self.cells.len()).filter(|&c| self.cells[c] == EMPTY && self.threats[c][ci] > 0),
        );
    }

    /// Stones in the fullest window still free of opponent stones; `None` when `color` has
    /// no such window left (it can no longer win).
    #[inline]
    pub(crate) fn max_count(&self, color: Color) -> Option<usize> {
        let k = self.geo.k;
        let h = &self.hist[color.index() * (k + 1)..(color.index() + 1) * (k + 1)];
        (0..=k).rev().find(|&n| h[n] > 0)
    }

    /// The symmetry-folded key (minimum over the board's symmetries) and the symmetry that
    /// reaches it, for the solver's table.
    #[inline]
    pub(crate) fn canonical(&self) -> (u64, usize) {
        let mut best = (self.keys[0], 0);
        for (s, &key) in self.keys.iter().enumerate().skip(1) {
            if key < best.0 {
                best = (key, s);
            }
        }
        let side = if self.side == Color::White {
            self.geo.side_key
        } else {
            0
        };
        (best.0 ^ side, best.1)
    }

    /// The sole empty cell of a window that holds k−1 stones.
    fn missing_cell(&self, win: usize) -> usize {
        self.geo
            .window_cells(win)
            .find(|&c| self.cells[c] == EMPTY)
            .unwrap_or(0)
    }

    #[inline]
    fn add_threat(&mut self, c: usize, ci: usize) {
        self.threats[c][ci] += 1;
        if self.threats[c][ci] == 1 {
            self.threat_cells[ci] += 1;
        }
    }

    #[inline]
    fn remove_threat(&mut self, c: usize, ci: usize) {
        self.threats[c][ci] -= 1;
        if self.threats[c][ci] == 0 {
            self.threat_cells[ci] -= 1;
        }
    }

    fn place(&mut self, c: usize) {
        let geo = Arc::clone(&self.geo);
        let k = geo.k;
        let ci = self.side.index();
        let oi = 1 - ci;
        self.cells[c] = ci as u8 + 1;
        for &win in geo.windows_of(c) {
            let win = win as usize;
            let [own, opp] = ordered(self.counts[win], ci);
            let k1 = k + 1;
            if opp == 0 {
                self.hist[ci * k1 + own] -= 1;
                self.hist[ci * k1 + own + 1] += 1;
                self.eval[ci] += geo.weight[own + 1] - geo.weight[own];
                if own + 1 == k {
                    self.winner = Some(self.side);
                }
            }
            if own == 0 {
                self.live[oi] -= 1;
                self.hist[oi * k1 + opp] -= 1;
                self.eval[oi] -= geo.weight[opp];
            }
            // The window's threat (at most one missing cell) changes owner or vanishes.
            if opp == 0 && own == k - 1 {
                self.remove_threat(c, ci);
            }
            if own == 0 && opp == k - 1 {
                self.remove_threat(c, oi);
            }
            self.counts[win][ci] += 1;
            if opp == 0 && own + 1 == k - 1 {
                let e = self.missing_cell(win);
                self.add_threat(e, ci);
            }
        }
        self.stones += 1;
        self.touch_near(c, true);
        for (s, key) in self.keys.iter_mut().enumerate() {
            *key ^= geo.zobrist[geo.sym[s][c] as usize][ci];
        }
    }

    /// Takes back the stone on `c`, which the side *not* to move played.
    fn remove(&mut self, c: usize) {
        let geo = Arc::clone(&self.geo);
        let k = geo.k;
        let ci = self.side.opponent().index();
        let oi = 1 - ci;
        for &win in geo.windows_of(c) {
            let win = win as usize;
            let [own, opp] = ordered(self.counts[win], ci);
            // `own` includes the stone on c, which is still on the board here.
            if opp == 0 && own == k - 1 {
                let e = self.missing_cell(win);
                self.remove_threat(e, ci);
            }
            self.counts[win][ci] -= 1;
            let k1 = k + 1;
            if opp == 0 {
                self.hist[ci * k1 + own] -= 1;
                self.hist[ci * k1 + own - 1] += 1;
                self.eval[ci] -= geo.weight[own] - geo.weight[own - 1];
                if own - 1 == k - 1 {
                    self.add_threat(c, ci);
                }
            }
            if own == 1 {
                self.live[oi] += 1;
                self.hist[oi * k1 + opp] += 1;
                self.eval[oi] += geo.weight[opp];
                if opp == k - 1 {
                    self.add_threat(c, oi);
                }
            }
        }
        self.cells[c] = EMPTY;
        self.stones -= 1;
        self.touch_near(c, false);
        self.winner = None;
        for (s, key) in self.keys.iter_mut().enumerate() {
            *key ^= geo.zobrist[geo.sym[s][c] as usize][ci];
        }
    }

    /// Adds (or removes) the stone on `c` to the neighbour counts around it.
    fn touch_near(&mut self, c: usize, add: bool) {
        let (w, h, r) = (self.geo.w, self.geo.h, CANDIDATE_RADIUS);
        let (x, y) = (c % w, c / w);
        for ny in y.saturating_sub(r)..=(y + r).min(h - 1) {
            for nx in x.saturating_sub(r)..=(x + r).min(w - 1) {
                let n = &mut self.near[ny * w + nx];
                *n = if add { *n + 1 } else { *n - 1 };
            }
        }
    }

    /// Ordering score of playing empty cell `c` for the side to move: what it builds in its
    /// own live windows plus what it spoils in the opponent's, near-complete lines first.
    fn move_score(&self, c: usize) -> i32 {
        let geo = &self.geo;
        let ci = self.side.index();
        let mut s = 0;
        for &win in geo.windows_of(c) {
            let [own, opp] = ordered(self.counts[win as usize], ci);
            if opp == 0 {
                s += geo.weight[own + 1] - geo.weight[own] + 1;
            }
            if own == 0 {
                // Blocking is worth a bit less than building the same line.
                s += (geo.weight[opp + 1] - geo.weight[opp]) * 3 / 4 + 1;
            }
        }
        s
    }

    /// Chebyshev distance between two cells.
    fn distance(&self, a: usize, b: usize) -> usize {
        let w = self.geo.w;
        let (ax, ay, bx, by) = (a % w, a / w, b % w, b / w);
        ax.abs_diff(bx).max(ay.abs_diff(by))
    }

    /// Empty cells as candidates with ordering scores: every empty cell when `near_only` is
    /// false, otherwise those within [`CANDIDATE_RADIUS`] of a stone (the centre on an empty
    /// board).
    pub(crate) fn scored_cells(&self, near_only: bool, out: &mut Vec<(usize, i32)>) {
        out.clear();
        let last = self
            .history
            .iter()
            .rev()
            .flatten()
            .next()
            .map(|&c| c as usize);
        let centre = (self.geo.h / 2) * self.geo.w + self.geo.w / 2;
        for c in 0..self.cells.len() {
            if self.cells[c] != EMPTY {
                continue;
            }
            if near_only && self.near[c] == 0 && !(self.stones == 0 && c == centre) {
                continue;
            }
            let mut s = self.move_score(c) * 8;
            // Replies close to the last move come first among equals: that is where the
            // fight is.
            if let Some(l) = last {
                s += 6usize.saturating_sub(self.distance(c, l)) as i32;
            }
            out.push((c, s));
        }
        // Stable order for equal scores: the lower cell first, so searches are reproducible.
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    }
}

/// A window's counts as (own, opponent) for colour index `ci`.
#[inline]
fn ordered(c: [u8; 2], ci: usize) -> [usize; 2] {
    [c[ci] as usize, c[1 - ci] as usize]
}

impl Game for Mnk {
    fn width(&self) -> usize {
        self.geo.w
    }
    fn height(&self) -> usize {
        self.geo.h
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
    fn stone_at(&self, m: Move) -> Option<Color> {
        if m.x as usize >= self.geo.w || m.y as usize >= self.geo.h {
            return None;
        }
        match self.cells[self.cell_of(m)] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    fn last_move(&self) -> Option<Move> {
        self.history
            .last()
            .copied()
            .flatten()
            .map(|c| self.move_of(c as usize))
    }
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if m.x as usize >= self.geo.w || m.y as usize >= self.geo.h {
            return Err(MoveError::OffBoard);
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.is_empty_cell(self.cell_of(m)) {
            return Err(MoveError::Occupied);
        }
        Ok(())
    }
    fn play(&mut self, m: Move) {
        let c = self.cell_of(m);
        self.place(c);
        self.history.push(Some(c as u16));
        self.side = self.side.opponent();
    }
    /// Passing is allowed (BOARD set-ups with unequal counts) except once the game is over.
    fn pass(&mut self) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        self.history.push(None);
        self.side = self.side.opponent();
        true
    }
    fn undo(&mut self) {
        match self.history.pop() {
            None => {}
            Some(None) => self.side = self.side.opponent(),
            Some(Some(c)) => {
                self.remove(c as usize);
                self.side = self.side.opponent();
            }
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner {
            Some(Outcome::Win(w))
        } else if self.stones == self.cells.len() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn key(&self) -> u64 {
        self.keys[0]
            ^ if self.side == Color::White {
                self.geo.side_key
            } else {
                0
            }
    }
    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let mut scored = Vec::new();
        self.scored_cells(self.cells.len() > ALL_CELLS_MAX, &mut scored);
        out.extend(scored.into_iter().map(|(c, score)| ScoredMove {
            mv: self.move_of(c),
            score,
        }));
    }
    fn evaluate(&self) -> i32 {
        let ci = self.side.index();
        let raw = self.eval[ci] - self.eval[1 - ci];
        // A small bonus for having the move: the side to move completes lines first.
        (raw + 10).clamp(
            -crate::base::score::WIN_MIN + 1,
            crate::base::score::WIN_MIN - 1,
        )
    }
}

#[cfg(test)]
mod tests;
