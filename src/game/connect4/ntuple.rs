//! An n-tuple value network for Connect Four (Lucas 2008; Thill, Bagheri, Koch and Konen
//! 2014): a few hundred short random walks over the cells, each a lookup table indexed by
//! its cells' states (empty and out of reach, empty and playable now, first player's stone,
//! second player's stone); the value is tanh of the sum of the looked-up weights, from the
//! first player's point of view, and the mirror image of every tuple shares its table.
//! Trained by temporal-difference learning on self-play (`pbrain-wuzi solve --train-ntuple`,
//! [`crate::train`]), through [`Tracker`] and [`NTuple::learn`].

use super::bits::Bits;
use super::position::{Geometry, Position};
use crate::rng::Rng;

/// States a cell can take.
const STATES: u32 = 4;
const EMPTY: u8 = 0;
const PLAYABLE: u8 = 1;
const FIRST: u8 = 2;
const SECOND: u8 = 3;
const MAGIC: &[u8; 8] = b"WZNTUP03";

pub struct NTuple {
    pub width: usize,
    pub height: usize,
    /// Cells per tuple.
    n: usize,
    /// Cell ids (`col · height + row`) of every tuple and, next to it, its mirror image:
    /// slot `s` uses the table of tuple `s / 2`.
    slots: Vec<Vec<u16>>,
    /// Per cell: (slot, 4^position of the cell in that slot's tuple).
    by_cell: Vec<Vec<(u32, u32)>>,
    weights: Weights,
}

/// The tables: floats while training; a network read from its file keeps the file's
/// integers (weight × [`QUANT`]), half the memory for the search's scattered reads and the
/// same sums exactly (a sum of multiples of 1/4096 below 4096 is exact in `f32`).
enum Weights {
    Float(Vec<f32>),
    Quantised(Vec<i16>),
}

/// A weight in the file's integer form.
fn quantise(w: f32) -> i16 {
    (w * QUANT).round().clamp(-32767.0, 32767.0) as i16
}

impl NTuple {
    /// `tuples` random walks of `n` distinct cells (8-neighbour steps), seeded.
    pub fn random(width: usize, height: usize, tuples: usize, n: usize, seed: u64) -> NTuple {
        let mut rng = Rng::new(seed);
        let cells = width * height;
        let mut walks = Vec::with_capacity(tuples);
        while walks.len() < tuples {
            let mut walk: Vec<u16> = vec![rng.below(cells) as u16];
            let mut tries = 0;
            while walk.len() < n && tries < 1000 {
                tries += 1;
                let last = *walk.last().unwrap() as usize;
                let (c, r) = ((last / height) as i32, (last % height) as i32);
                let (dc, dr) = (rng.below(3) as i32 - 1, rng.below(3) as i32 - 1);
                let (nc, nr) = (c + dc, r + dr);
                if nc < 0 || nr < 0 || nc >= width as i32 || nr >= height as i32 {
                    continue;
                }
                let id = (nc as usize * height + nr as usize) as u16;
                if !walk.contains(&id) {
                    walk.push(id);
                }
            }
            if walk.len() == n {
                walks.push(walk);
            }
        }
        NTuple::from_tuples(width, height, n, walks, None)
    }

    fn from_tuples(
        width: usize,
        height: usize,
        n: usize,
        tuples: Vec<Vec<u16>>,
        weights: Option<Weights>,
    ) -> NTuple {
        let mirror = |id: u16| {
            let (c, r) = (id as usize / height, id as usize % height);
            ((width - 1 - c) * height + r) as u16
        };
        let mut slots = Vec::with_capacity(2 * tuples.len());
        for t in &tuples {
            slots.push(t.clone());
            slots.push(t.iter().map(|&id| mirror(id)).collect());
        }
        let mut by_cell = vec![Vec::new(); width * height];
        for (s, cells) in slots.iter().enumerate() {
            for (j, &id) in cells.iter().enumerate() {
                by_cell[id as usize].push((s as u32, STATES.pow(j as u32)));
            }
        }
        let size = tuples.len() * (STATES as usize).pow(n as u32);
        NTuple {
            width,
            height,
            n,
            slots,
            by_cell,
            weights: weights.unwrap_or_else(|| Weights::Float(vec![0.0; size])),
        }
    }

    fn table_size(&self) -> usize {
        (STATES as usize).pow(self.n as u32)
    }

    /// The state of every cell of `p`.
    fn cell_states<B: Bits>(&self, g: &Geometry<B>, p: &Position<B>) -> Vec<u8> {
        let first = if p.moves.is_multiple_of(2) {
            p.current
        } else {
            p.current ^ p.mask
        };
        let mut s = vec![EMPTY; self.width * self.height];
        for c in 0..self.width {
            for r in 0..self.height {
                let b = g.cell(c, r);
                let id = c * self.height + r;
                if (p.mask & b).is_zero() {
                    s[id] = PLAYABLE;
                    break;
                }
                s[id] = if (first & b).is_zero() { SECOND } else { FIRST };
            }
        }
        s
    }

    fn indices(&self, states: &[u8]) -> Vec<u32> {
        self.slots
            .iter()
            .map(|cells| {
                cells.iter().rev().fold(0u32, |acc, &id| {
                    acc * STATES + u32::from(states[id as usize])
                })
            })
            .collect()
    }

    /// The weight sum of the position whose indices are `idx` (its value is the sum's tanh).
    #[inline]
    pub fn sum(&self, idx: &[u32]) -> f32 {
        let t = self.table_size();
        let at = |s: usize, i: u32| (s / 2) * t + i as usize;
        match &self.weights {
            Weights::Float(w) => idx.iter().enumerate().map(|(s, &i)| w[at(s, i)]).sum(),
            Weights::Quantised(w) => {
                let q: i32 = idx
                    .iter()
                    .enumerate()
                    .map(|(s, &i)| i32::from(w[at(s, i)]))
                    .sum();
                q as f32 / QUANT
            }
        }
    }

    /// The tables as floats, for training (a network read from a file is converted).
    fn float_weights(&mut self) -> &mut [f32] {
        if let Weights::Quantised(q) = &self.weights {
            self.weights = Weights::Float(q.iter().map(|&v| f32::from(v) / QUANT).collect());
        }
        match &mut self.weights {
            Weights::Float(w) => w,
            Weights::Quantised(_) => unreachable!("converted above"),
        }
    }

    /// Adds `step` to every weight the position whose indices are `idx` reads: one
    /// gradient step of a training rule on its sum.
    pub fn learn(&mut self, idx: &[u32], step: f32) {
        let t_size = self.table_size();
        let w = self.float_weights();
        for (s, &i) in idx.iter().enumerate() {
            w[(s / 2) * t_size + i as usize] += step;
        }
    }

    /// The value of `p` for the first player, in (−1, 1) (the search follows the indices
    /// instead: [`NTuple::play_indices`], [`NTuple::value_of`]).
    pub fn value<B: Bits>(&self, g: &Geometry<B>, p: &Position<B>) -> f32 {
        self.value_of(&self.root_indices(g, p))
    }

    /// Slots per position (every tuple and its mirror image).
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The slot indices of `p`, for a search that then follows them move by move
    /// ([`NTuple::play_indices`]).
    pub fn root_indices<B: Bits>(&self, g: &Geometry<B>, p: &Position<B>) -> Vec<u32> {
        self.indices(&self.cell_states(g, p))
    }

    /// `child` = the indices of `parent` after a stone of `first` (or the second player)
    /// lands on `(col, row)`.
    #[inline]
    pub fn play_indices(
        &self,
        parent: &[u32],
        child: &mut [u32],
        col: usize,
        row: usize,
        first: bool,
    ) {
        child.copy_from_slice(parent);
        let cell = col * self.height + row;
        let stone = u32::from(if first { FIRST } else { SECOND }) - u32::from(PLAYABLE);
        for &(s, pw) in &self.by_cell[cell] {
            child[s as usize] += stone * pw;
        }
        if row + 1 < self.height {
            for &(s, pw) in &self.by_cell[cell + 1] {
                child[s as usize] += u32::from(PLAYABLE - EMPTY) * pw;
            }
        }
    }

    /// The value for the first player of the position whose indices are `idx`.
    #[inline]
    pub fn value_of(&self, idx: &[u32]) -> f32 {
        self.sum(idx).tanh()
    }

    /// The network in its file form: a header (magic, width, height, cells per tuple,
    /// tuples), the tuples' cells, then only the non-zero weights (most patterns never
    /// occur: a stone cannot float above an empty cell), each as the gap from the previous
    /// one (LEB128) and the weight times [`QUANT`] (i16), and last an FNV-1a hash of all
    /// that, checked at load.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for v in [self.width, self.height, self.n, self.slots.len() / 2] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for t in self.slots.iter().step_by(2) {
            for &id in t {
                out.extend_from_slice(&id.to_le_bytes());
            }
        }
        let all = self.quantised();
        let quantised: Vec<(usize, i16)> = all
            .into_iter()
            .enumerate()
            .filter(|&(_, q)| q != 0)
            .collect();
        out.extend_from_slice(&(quantised.len() as u32).to_le_bytes());
        let mut next = 0;
        for (i, q) in quantised {
            let mut gap = i - next;
            loop {
                let byte = (gap & 0x7f) as u8;
                gap >>= 7;
                out.push(if gap == 0 { byte } else { byte | 0x80 });
                if gap == 0 {
                    break;
                }
            }
            out.extend_from_slice(&q.to_le_bytes());
            next = i + 1;
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Every weight in the file's integer form.
    fn quantised(&self) -> Vec<i16> {
        match &self.weights {
            Weights::Float(w) => w.iter().map(|&w| quantise(w)).collect(),
            Weights::Quantised(q) => q.clone(),
        }
    }

    /// Reads [`NTuple::to_bytes`]'s form, refusing anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<NTuple, FormatError> {
        let body_len = bytes.len().checked_sub(8).ok_or(FormatError::Truncated)?;
        let (body, hash) = bytes.split_at(body_len);
        if fnv1a(body).to_le_bytes() != hash {
            return Err(FormatError::Hash);
        }
        let mut r = Reader(body);
        if r.take(8)? != MAGIC {
            return Err(FormatError::Magic);
        }
        let [width, height, n, tuples] = [r.u32()?, r.u32()?, r.u32()?, r.u32()?];
        let [width, height, n, tuples] = [width, height, n, tuples].map(|v| v as usize);
        if !(1..=super::MAX_SIZE).contains(&width)
            || !(1..=super::MAX_SIZE).contains(&height)
            || !(1..=MAX_N).contains(&n)
            || !(1..=MAX_TUPLES).contains(&tuples)
        {
            return Err(FormatError::Shape);
        }
        let mut walks = Vec::with_capacity(tuples);
        for _ in 0..tuples {
            let mut t = Vec::with_capacity(n);
            for _ in 0..n {
                let b = r.take(2)?;
                let id = u16::from_le_bytes([b[0], b[1]]);
                if usize::from(id) >= width * height || t.contains(&id) {
                    return Err(FormatError::Shape);
                }
                t.push(id);
            }
            walks.push(t);
        }
        let size = tuples * (STATES as usize).pow(n as u32);
        let mut weights = vec![0i16; size];
        let count = r.u32()? as usize;
        let mut next = 0usize;
        for _ in 0..count {
            let mut gap = 0usize;
            for shift in (0..).step_by(7) {
                let byte = r.take(1)?[0];
                if shift > 28 {
                    return Err(FormatError::Shape);
                }
                gap |= usize::from(byte & 0x7f) << shift;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            let i = next + gap;
            let b = r.take(2)?;
            *weights.get_mut(i).ok_or(FormatError::Shape)? = i16::from_le_bytes([b[0], b[1]]);
            next = i + 1;
        }
        if !r.0.is_empty() {
            return Err(FormatError::Shape);
        }
        Ok(NTuple::from_tuples(
            width,
            height,
            n,
            walks,
            Some(Weights::Quantised(weights)),
        ))
    }
}

/// Weight resolution in the file: 1/4096 (the trained weights stay well inside ±8).
pub const QUANT: f32 = 4096.0;
/// Most cells in a tuple (4^8 weights a table); a file must keep to it.
pub const MAX_N: usize = 8;
/// Most tuples in a network; a file must keep to it.
pub const MAX_TUPLES: usize = 1024;

/// Why bytes are not a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    Truncated,
    Hash,
    Magic,
    Shape,
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FormatError::Truncated => "file too short",
            FormatError::Hash => "hash mismatch (corrupt file)",
            FormatError::Magic => "not an n-tuple network file",
            FormatError::Shape => "malformed contents",
        })
    }
}

impl std::error::Error for FormatError {}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        if self.0.len() < n {
            return Err(FormatError::Truncated);
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// A game's slot indices kept up to date move by move, from the empty board: the positions
/// a self-play game visits, without setting each one up again.
pub struct Tracker {
    states: Vec<u8>,
    idx: Vec<u32>,
}

impl Tracker {
    /// The empty board's indices.
    pub fn new(nt: &NTuple) -> Tracker {
        let mut states = vec![EMPTY; nt.width * nt.height];
        for c in 0..nt.width {
            states[c * nt.height] = PLAYABLE;
        }
        let idx = nt.indices(&states);
        Tracker { states, idx }
    }

    fn set(&mut self, nt: &NTuple, cell: usize, state: u8) {
        let old = self.states[cell];
        self.states[cell] = state;
        let d = i64::from(state) - i64::from(old);
        for &(s, pw) in &nt.by_cell[cell] {
            let i = &mut self.idx[s as usize];
            *i = (i64::from(*i) + d * i64::from(pw)) as u32;
        }
    }

    /// The indices of the position reached ([`NTuple::sum`] reads them).
    pub fn indices(&self) -> &[u32] {
        &self.idx
    }

    /// Plays in column `col` at `row` for `first` (or the second player).
    pub fn play(&mut self, nt: &NTuple, col: usize, row: usize, first: bool) {
        let cell = col * nt.height + row;
        self.set(nt, cell, if first { FIRST } else { SECOND });
        if row + 1 < nt.height {
            self.set(nt, cell + 1, PLAYABLE);
        }
    }

    /// Takes back [`Tracker::play`] at `col`, `row`.
    pub fn unplay(&mut self, nt: &NTuple, col: usize, row: usize) {
        let cell = col * nt.height + row;
        if row + 1 < nt.height {
            self.set(nt, cell + 1, EMPTY);
        }
        self.set(nt, cell, PLAYABLE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    #[test]
    fn tracker_matches_the_states_of_the_position() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let nt = NTuple::random(12, 6, 30, 6, 7);
        let mut p = Position::<u128>::empty();
        let mut tr = Tracker::new(&nt);
        let mut heights = [0usize; 12];
        for (i, c) in [5, 5, 6, 0, 11, 5, 5, 5, 5, 7].into_iter().enumerate() {
            tr.play(&nt, c, heights[c], i.is_multiple_of(2));
            heights[c] += 1;
            p.play_col(&g, c);
            assert_eq!(tr.states, nt.cell_states(&g, &p));
            assert_eq!(tr.idx, nt.indices(&tr.states));
            assert_eq!(nt.sum(&tr.idx).tanh(), nt.value(&g, &p));
        }
    }

    #[test]
    fn play_indices_follow_the_position() {
        let g = Geometry::<u128>::new(12, 6, 4).unwrap();
        let nt = NTuple::random(12, 6, 40, 7, 11);
        let mut rng = Rng::new(5);
        let mut p = Position::<u128>::empty();
        let mut idx = nt.root_indices(&g, &p);
        let mut child = vec![0; nt.slot_count()];
        while p.moves < 60 {
            let cols: Vec<usize> = Position::columns_in(&g, p.possible(&g)).collect();
            let c = cols[rng.below(cols.len())];
            let row = (0..6).find(|&r| (p.mask & g.cell(c, r)).is_zero()).unwrap();
            nt.play_indices(&idx, &mut child, c, row, p.moves.is_multiple_of(2));
            p.play_col(&g, c);
            assert_eq!(child, nt.root_indices(&g, &p));
            assert_eq!(nt.value_of(&child), nt.value(&g, &p));
            std::mem::swap(&mut idx, &mut child);
        }
    }

    #[test]
    fn file_form_keeps_the_values_and_refuses_damage() {
        let g = Geometry::<u64>::new(7, 6, 4).unwrap();
        let mut nt = NTuple::random(7, 6, 12, 5, 3);
        let mut rng = Rng::new(1);
        for seq in ["4453", "44444", "1234567", "4"] {
            let idx = nt.root_indices(&g, &parse_sequence(&g, seq).unwrap());
            nt.learn(&idx, (rng.unit() as f32 - 0.5) * 0.3);
        }
        let bytes = nt.to_bytes();
        let back = NTuple::from_bytes(&bytes).unwrap();
        for seq in ["", "4453", "44444"] {
            let p = parse_sequence(&g, seq).unwrap();
            // Quantised to 1/4096 per weight, 24 weights a position.
            assert!((nt.value(&g, &p) - back.value(&g, &p)).abs() < 0.01);
        }
        assert!(nt.value(&g, &parse_sequence(&g, "4453").unwrap()) != 0.0);
        assert_eq!(back.to_bytes(), bytes);
        let mut bad = bytes.clone();
        bad[30] ^= 1;
        assert_eq!(NTuple::from_bytes(&bad).err(), Some(FormatError::Hash));
        assert!(NTuple::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(NTuple::from_bytes(&[]).is_err());
    }
}
