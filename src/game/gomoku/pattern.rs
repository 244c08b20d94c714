//! Line patterns: what playing a cell does along one line, for one colour, and the tables
//! that answer it from an incrementally kept line key.
//!
//! A line key holds the 10 cells around a cell along one direction (5 each side, the cell
//! itself excluded), 2 bits each: empty, black, white, or blocked (off the board or a wall).
//! Five cells each side is exactly what is needed to judge every five that includes the cell
//! and its two end cells, so exact-five and caro rules are decided without approximation.
//! The key is kept by XOR on play and undo; the tables map it to a [`Pattern`] "if this
//! colour played here". Tables are colour-relative (own / opponent / blocked): white reads
//! the table through [`swap_colours`]. One table per [`FiveRule`], built once on first use by
//! dynamic programming in descending key order (adding an own stone only raises a key, so
//! every successor is classified before the key that needs it) over 2^20 keys for caro;
//! where an opponent stone and the edge are alike (every other rule) the same recursion runs
//! over the 3^10 base-3 lines instead, so that build and lookups stay small (see
//! [`LineTable`]).
//!
//! Per cell, the four directions combine into a [`Code`], which drives both the evaluation
//! and move ordering, and which the forced-move logic counts.

use super::rules::FiveRule;
use crate::game::Color;
use std::sync::OnceLock;

/// Cells each side of the centre held in a line key.
pub const HALF: i32 = 5;
/// Number of distinct line keys (and table entries).
pub const TABLE_SIZE: usize = 1 << 20;

/// Cell states inside a key (colour-relative in tables, absolute on the board).
pub const EMPTY: u32 = 0;
/// Own stone (tables) or black (board keys).
pub const OWN: u32 = 1;
/// Opponent stone (tables) or white (board keys).
pub const OPP: u32 = 2;
/// Off the board or a wall: blocks both colours.
pub const BLOCKED: u32 = 3;

/// The farthest offset from the centre whose cell can change a `rule` pattern. Every five
/// through the centre lies within four cells of it; only rules where a five's end cells
/// matter (a run that is too long, caro's blocked ends) look one cell further.
pub const fn reach(rule: FiveRule) -> i32 {
    match rule {
        FiveRule::AtLeastFive => HALF - 1,
        _ => HALF,
    }
}

/// The 2-bit slot of a cell `offset` steps from the centre (`offset` in ±1..=±5).
#[inline]
pub const fn slot(offset: i32) -> u32 {
    if offset < 0 {
        (offset + HALF) as u32
    } else {
        (offset + HALF - 1) as u32
    }
}

/// The offset from the centre of a slot (inverse of [`slot`]).
#[inline]
pub const fn offset_of(slot: u32) -> i32 {
    if slot < HALF as u32 {
        slot as i32 - HALF
    } else {
        slot as i32 - HALF + 1
    }
}

/// Exchanges black and white in a key (blocked and empty cells stay), so that white reads the
/// colour-relative tables as "own".
#[inline]
pub const fn swap_colours(key: u32) -> u32 {
    ((key & 0x55555) << 1) | ((key >> 1) & 0x55555)
}

/// What playing a cell makes along one line, for one colour; ordered by strength.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pattern {
    #[default]
    None = 0,
    /// A run of five or more that does not win under the rule: an overline under exact-five
    /// rules, or a caro five blocked by opponent stones at both ends. Forbidden for renju black.
    Overline,
    /// Can become a three in one move.
    Two,
    /// Can become an open three in one move.
    OpenTwo,
    /// Can become a four in one move.
    Three,
    /// Can become a straight (open) four in one move.
    OpenThree,
    /// One way to make five.
    Four,
    /// Two ways to make five on this line that are not a straight four (`X.XXX.X`): two fours
    /// in one line, which is a double four in renju.
    DoubleFour,
    /// A straight four: two adjacent-block ways to make five (`.XXXX.`).
    OpenFour,
    /// Makes a winning five.
    Five,
}

impl Pattern {
    /// Every pattern, in order (index = `pattern as usize`).
    pub const ALL: [Pattern; 10] = [
        Pattern::None,
        Pattern::Overline,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::DoubleFour,
        Pattern::OpenFour,
        Pattern::Five,
    ];

    /// The pattern with index `i` (`None` past the end).
    #[inline]
    pub fn from_index(i: usize) -> Pattern {
        Pattern::ALL.get(i).copied().unwrap_or(Pattern::None)
    }

    /// Number of fours this line pattern counts for the renju double-four test.
    #[inline]
    pub const fn fours(self) -> u32 {
        match self {
            Pattern::Four | Pattern::OpenFour => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// The pattern of a run of `run` own stones through the centre whose end cells are
/// `left`/`right`, if the run is five or longer.
fn five_status(rule: FiveRule, run: u32, left: u32, right: u32) -> Option<Pattern> {
    if run < 5 {
        return None;
    }
    let both_opp = left == OPP && right == OPP;
    let wins = match rule {
        FiveRule::AtLeastFive => true,
        FiveRule::ExactFive => run == 5,
        FiveRule::Caro => run >= 6 || !both_opp,
        FiveRule::CaroExact => run == 5 && !both_opp,
    };
    Some(if wins {
        Pattern::Five
    } else {
        Pattern::Overline
    })
}

#[inline]
fn cell(key: u32, slot: u32) -> u32 {
    (key >> (2 * slot)) & 3
}

/// Classifies a line (the 10 cells around the centre, by slot) given `next(s)`: the class of
/// the same line with one more own stone on the empty slot `s`.
fn classify(rule: FiveRule, cells: &[u32; 10], next: impl Fn(usize) -> Pattern) -> Pattern {
    let h = HALF as usize;
    let mut left = 0;
    while left < h && cells[h - 1 - left] == OWN {
        left += 1;
    }
    let mut right = 0;
    while right < h && cells[h + right] == OWN {
        right += 1;
    }
    // A run reaching past the window is at least six long; its ends never matter then.
    let left_end = if left < h { cells[h - 1 - left] } else { EMPTY };
    let right_end = if right < h { cells[h + right] } else { EMPTY };
    if let Some(p) = five_status(rule, (left + right + 1) as u32, left_end, right_end) {
        return p;
    }
    let mut fives = [0usize; 2];
    let mut nfive = 0;
    let mut best = Pattern::None;
    for (s, &c) in cells.iter().enumerate() {
        if c != EMPTY {
            continue;
        }
        let n = next(s);
        if n == Pattern::Five {
            if nfive < 2 {
                fives[nfive] = s;
            }
            nfive += 1;
        } else if n > best {
            best = n;
        }
    }
    match nfive {
        0 => match best {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four | Pattern::DoubleFour => Pattern::Three,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::Three => Pattern::Two,
            _ => Pattern::None,
        },
        1 => Pattern::Four,
        2 if is_straight(cells, fives[0], fives[1]) => Pattern::OpenFour,
        _ => Pattern::DoubleFour,
    }
}

/// Whether two five points enclose a solid block of four (the centre included): a straight
/// four rather than two separate fours on one line.
fn is_straight(cells: &[u32; 10], a: usize, b: usize) -> bool {
    let (oa, ob) = (offset_of(a as u32), offset_of(b as u32));
    if ob - oa != 5 {
        return false;
    }
    (oa + 1..ob).all(|o| o == 0 || cells[slot(o) as usize] == OWN)
}

/// The raw table: every 2-bit key (own 1, opponent 2, blocked 3).
fn build(rule: FiveRule) -> Vec<Pattern> {
    let mut table = vec![Pattern::None; TABLE_SIZE];
    for key in (0..TABLE_SIZE as u32).rev() {
        let mut cells = [0u32; 10];
        for (s, c) in cells.iter_mut().enumerate() {
            *c = cell(key, s as u32);
        }
        let p = classify(rule, &cells, |s| table[(key + (OWN << (2 * s))) as usize]);
        table[key as usize] = p;
    }
    table
}

/// The compact table: every base-3 line (empty 0, own 1, blocked 2 as digits), for rules
/// where an opponent stone and the edge are alike. Adding an own stone adds `3^slot`.
fn build_compact(rule: FiveRule) -> Vec<Pattern> {
    let mut pow = [1usize; 10];
    for s in 1..10 {
        pow[s] = pow[s - 1] * 3;
    }
    let mut table = vec![Pattern::None; COMPACT_SIZE];
    for idx in (0..COMPACT_SIZE).rev() {
        let mut cells = [0u32; 10];
        let mut rest = idx;
        for c in cells.iter_mut() {
            *c = [EMPTY, OWN, BLOCKED][rest % 3];
            rest /= 3;
        }
        let p = classify(rule, &cells, |s| table[idx + pow[s]]);
        table[idx] = p;
    }
    table
}

/// A lookup-ready pattern table for one five rule. Where the rule does not tell an opponent
/// stone from the edge (everything but caro), a colour's view of a line has only three cell
/// states, so the table is indexed by the base-3 number of the 10 cells: 3^10 = 59,049
/// one-byte entries, which stay in cache, where the 2^20-entry raw table would not; freestyle,
/// whose patterns never read the outermost two, by the 8 inner cells (3^8 = 6,561). Caro
/// keeps the raw table (read through [`swap_colours`] for white).
pub struct LineTable {
    index: TableIndex,
    pats: Vec<Pattern>,
}

/// How a [`LineTable`] is indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableIndex {
    /// By the raw 20-bit key (caro: an opponent stone and the edge differ).
    Raw,
    /// By the base-3 number of the 10 cells of the key.
    Compact,
    /// By the base-3 number of the 8 inner cells, for a rule whose patterns never depend on
    /// the cells five away (freestyle, [`reach`] 4): 3^8 = 6,561 entries, small enough to
    /// stay in the first-level cache beside the board, where the 59,049 of
    /// [`TableIndex::Compact`] do not (the lookups were a third of the make's cache misses).
    Inner,
}

/// Base-3 value, per colour view, of the five cells in 10 bits of a key (empty 0, own 1,
/// opponent or blocked 2): a key's index is `lo + 243 * hi` over its two halves.
static HALVES: [[u16; 1024]; 2] = {
    let mut t = [[0u16; 1024]; 2];
    let mut view = 0;
    while view < 2 {
        let mut bits = 0;
        while bits < 1024 {
            let mut v = 0u16;
            let mut w = 1u16;
            let mut s = 0;
            while s < 5 {
                let cell = (bits >> (2 * s)) & 3;
                let digit = match (view, cell) {
                    (_, 0) => 0,
                    (0, 1) | (1, 2) => 1,
                    _ => 2,
                };
                v += digit * w;
                w *= 3;
                s += 1;
            }
            t[view][bits] = v;
            bits += 1;
        }
        view += 1;
    }
    t
};

/// Entries of a compact table.
const COMPACT_SIZE: usize = 59_049;

impl LineTable {
    fn new(rule: FiveRule) -> LineTable {
        match rule {
            FiveRule::Caro | FiveRule::CaroExact => LineTable {
                index: TableIndex::Raw,
                pats: build(rule),
            },
            FiveRule::ExactFive => LineTable {
                index: TableIndex::Compact,
                pats: build_compact(rule),
            },
            FiveRule::AtLeastFive => LineTable {
                index: TableIndex::Inner,
                pats: inner_of(&build_compact(rule)),
            },
        }
    }

    /// The pattern `c` makes by playing the centre of the line with board key `key`
    /// (black = 1, white = 2, blocked = 3 per 2-bit cell).
    #[inline]
    pub fn get(&self, key: u32, c: Color) -> Pattern {
        match self.index {
            TableIndex::Inner => {
                let h = &HALVES[c.index()];
                let i = h[((key >> 2) & 0xFF) as usize] as usize
                    + 81 * h[((key >> 10) & 0xFF) as usize] as usize;
                self.pats[i]
            }
            TableIndex::Compact => {
                let h = &HALVES[c.index()];
                let i = h[(key & 0x3FF) as usize] as usize
                    + 243 * h[((key >> 10) & 0x3FF) as usize] as usize;
                self.pats[i]
            }
            TableIndex::Raw => {
                let k = match c {
                    Color::Black => key,
                    Color::White => swap_colours(key),
                };
                self.pats[k as usize]
            }
        }
    }
}

/// The [`TableIndex::Inner`] table of a compact one whose patterns never depend on the
/// outermost cells: each 8-cell line read with those cells empty.
fn inner_of(compact: &[Pattern]) -> Vec<Pattern> {
    // Inner index i = base-3 digits of slots 1..=8; the compact index puts slot s at 3^s.
    (0..6_561).map(|i| compact[3 * i]).collect()
}

/// [`HALVES`] of both colour views in one entry (black's in the low half), so that the hot
/// update finds both colours' table indices with two loads instead of four.
static HALVES_BOTH: [u32; 1024] = {
    let mut t = [0u32; 1024];
    let mut bits = 0;
    while bits < 1024 {
        t[bits] = HALVES[0][bits] as u32 | (HALVES[1][bits] as u32) << 16;
        bits += 1;
    }
    t
};

/// The patterns black and white make by playing the centre of the line with board key
/// `key`, black's read from `black` and white's from `white` (the rule's tables).
#[inline(always)]
pub fn get_both(black: &LineTable, white: &LineTable, key: u32) -> (Pattern, Pattern) {
    let (i, size) = match (black.index, white.index) {
        (TableIndex::Inner, TableIndex::Inner) => {
            // Four cells a half, each half below 3^4 = 81.
            let lo = HALVES_BOTH[((key >> 2) & 0xFF) as usize];
            let hi = HALVES_BOTH[((key >> 10) & 0xFF) as usize];
            (lo + 81 * hi, 6_561)
        }
        (TableIndex::Compact, TableIndex::Compact) => {
            let lo = HALVES_BOTH[(key & 0x3FF) as usize];
            let hi = HALVES_BOTH[((key >> 10) & 0x3FF) as usize];
            // Each half is below 3^5 = 243, so the packed sum never carries between halves.
            (lo + 243 * hi, COMPACT_SIZE)
        }
        _ => return (black.get(key, Color::Black), white.get(key, Color::White)),
    };
    let (ib, iw) = ((i & 0xFFFF) as usize, (i >> 16) as usize);
    debug_assert!(ib < size && iw < size);
    (black.pats[ib], white.pats[iw])
}

static TABLES: [OnceLock<LineTable>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The pattern table of a five rule, built on first use (a few ms in release).
pub fn table(rule: FiveRule) -> &'static LineTable {
    TABLES[rule.index()].get_or_init(|| LineTable::new(rule))
}

/// Per-cell combination of the four directional patterns of one colour; ordered by strength
/// except [`Code::Forbidden`], which is worth nothing to its owner.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// Renju black: certainly forbidden (overline or double four, no five).
    Forbidden = 0,
    #[default]
    None,
    Two,
    OpenTwo,
    /// Two or more open twos.
    DoubleTwo,
    Three,
    /// A three and an open two.
    ThreeTwo,
    OpenThree,
    /// Two or more open threes (renju black: forbidden if both threes are real).
    DoubleThree,
    /// One four, nothing stronger.
    Four,
    /// A four and an open three.
    FourThree,
    /// Two or more fours (across lines or on one line).
    DoubleFour,
    /// A straight four.
    OpenFour,
    Five,
}

/// Number of [`Code`] variants, for per-code arrays.
pub const NUM_CODES: usize = 14;

impl Code {
    /// All codes in ascending order (index = `code as usize`).
    pub const ALL: [Code; NUM_CODES] = [
        Code::Forbidden,
        Code::None,
        Code::Two,
        Code::OpenTwo,
        Code::DoubleTwo,
        Code::Three,
        Code::ThreeTwo,
        Code::OpenThree,
        Code::DoubleThree,
        Code::Four,
        Code::FourThree,
        Code::DoubleFour,
        Code::OpenFour,
        Code::Five,
    ];

    /// Whether playing here makes at least one four (a forcing move).
    #[inline]
    pub const fn is_four(self) -> bool {
        matches!(
            self,
            Code::Four | Code::FourThree | Code::DoubleFour | Code::OpenFour
        )
    }

    /// Whether playing here makes two five threats at once (open four or double four).
    #[inline]
    pub const fn is_double_five_threat(self) -> bool {
        matches!(self, Code::DoubleFour | Code::OpenFour)
    }
}

/// Counts of the directional patterns around one cell for one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub fives: u32,
    pub overlines: u32,
    pub open_fours: u32,
    /// Fours in the renju sense: a straight four counts one, two fours on a line count two.
    pub fours: u32,
    pub open_threes: u32,
    pub threes: u32,
    pub open_twos: u32,
    pub twos: u32,
}

impl Counts {
    /// Tallies the four directions.
    #[inline]
    pub fn of(pats: &[Pattern; 4]) -> Counts {
        let mut c = Counts::default();
        for &p in pats {
            match p {
                Pattern::Five => c.fives += 1,
                Pattern::Overline => c.overlines += 1,
                Pattern::OpenFour => c.open_fours += 1,
                Pattern::OpenThree => c.open_threes += 1,
                Pattern::Three => c.threes += 1,
                Pattern::OpenTwo => c.open_twos += 1,
                Pattern::Two => c.twos += 1,
                _ => {}
            }
            c.fours += p.fours();
        }
        c
    }

    /// Renju black: certainly forbidden (no five; an overline or two fours).
    #[inline]
    pub fn surely_forbidden(&self) -> bool {
        self.fives == 0 && (self.overlines > 0 || self.fours >= 2)
    }

    /// Renju black: forbidden if at least two of the open threes are real threes.
    #[inline]
    pub fn maybe_double_three(&self) -> bool {
        self.fives == 0 && self.open_threes >= 2
    }
}

/// Combines four directional patterns into a cell code. `renju_black` turns certain fouls
/// into [`Code::Forbidden`].
#[inline]
pub fn combine(pats: &[Pattern; 4], renju_black: bool) -> Code {
    let c = Counts::of(pats);
    if c.fives > 0 {
        return Code::Five;
    }
    if renju_black && c.surely_forbidden() {
        return Code::Forbidden;
    }
    if c.open_fours > 0 {
        Code::OpenFour
    } else if c.fours >= 2 {
        Code::DoubleFour
    } else if c.fours == 1 && c.open_threes > 0 {
        Code::FourThree
    } else if c.fours == 1 {
        Code::Four
    } else if c.open_threes >= 2 {
        Code::DoubleThree
    } else if c.open_threes == 1 {
        Code::OpenThree
    } else if c.threes > 0 && c.open_twos > 0 {
        Code::ThreeTwo
    } else if c.threes > 0 {
        Code::Three
    } else if c.open_twos >= 2 {
        Code::DoubleTwo
    } else if c.open_twos == 1 {
        Code::OpenTwo
    } else if c.twos > 0 {
        Code::Two
    } else {
        Code::None
    }
}

/// Number of pattern combinations a cell can have when the order of its four directions is
/// ignored: multisets of four out of ten patterns, C(13, 4).
pub const NUM_COMBOS: usize = 715;

/// The class of a cell's four directional patterns with their order ignored, in
/// `0..NUM_COMBOS`; class 0 is four [`Pattern::None`]. The evaluation gives every class its
/// own fitted value on top of the per-pattern and per-code ones, so that combinations the
/// codes lump together (a four with a three that is not open, two open twos and a three…)
/// are valued apart.
#[inline]
pub fn combo_class(pats: &[Pattern; 4]) -> usize {
    static CLASS: OnceLock<Vec<u16>> = OnceLock::new();
    let class = CLASS.get_or_init(|| {
        // Classes are numbered in the lexicographic order of the sorted tuples.
        let mut ids = vec![0u16; 10_000];
        let mut next = 0u16;
        for a in 0..10 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        ids[((a * 10 + b) * 10 + c) * 10 + d] = next;
                        next += 1;
                    }
                }
            }
        }
        for i in 0..10_000 {
            let mut p = [i / 1000, i / 100 % 10, i / 10 % 10, i % 10];
            p.sort_unstable();
            ids[i] = ids[((p[0] * 10 + p[1]) * 10 + p[2]) * 10 + p[3]];
        }
        ids
    });
    let i = ((pats[0] as usize * 10 + pats[1] as usize) * 10 + pats[2] as usize) * 10
        + pats[3] as usize;
    usize::from(class[i])
}

/// Builds a colour-relative key from a picture of the line: 11 characters with the centre
/// in the middle (its character is ignored), `X` own, `O` opponent, `#` blocked, `.` empty.
/// Returns `None` for a malformed picture. Meant for tests and documentation examples.
pub fn key_from_line(line: &str) -> Option<u32> {
    let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 2 * HALF as usize + 1 {
        return None;
    }
    let mut key = 0;
    for (i, ch) in cells.iter().enumerate() {
        let o = i as i32 - HALF;
        if o == 0 {
            continue;
        }
        let v = match ch {
            '.' => EMPTY,
            'X' | 'x' => OWN,
            'O' | 'o' => OPP,
            '#' => BLOCKED,
            _ => return None,
        };
        key |= v << (2 * slot(o));
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rules_reach_is_the_farthest_cell_its_patterns_read() {
        let pow = |s: u32| 3usize.pow(s);
        let outer = [slot(HALF), slot(-HALF)];
        for rule in [FiveRule::AtLeastFive, FiveRule::ExactFive] {
            let pats = build_compact(rule);
            // Does some line's pattern change when its two outermost cells are emptied?
            let reads_outer = (0..COMPACT_SIZE).any(|idx| {
                let near = outer
                    .iter()
                    .fold(idx, |i, &s| i - (i / pow(s) % 3) * pow(s));
                pats[idx] != pats[near]
            });
            assert_eq!(reads_outer, reach(rule) == HALF, "{rule:?}");
        }
    }

    #[test]
    fn combo_classes_ignore_direction_order_and_cover_every_multiset() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..10_000usize {
            let p = [i / 1000, i / 100 % 10, i / 10 % 10, i % 10].map(Pattern::from_index);
            let class = combo_class(&p);
            assert!(class < NUM_COMBOS);
            assert_eq!(class, combo_class(&[p[3], p[1], p[0], p[2]]));
            seen.insert(class);
        }
        assert_eq!(seen.len(), NUM_COMBOS);
        assert_eq!(combo_class(&[Pattern::None; 4]), 0);
        assert_ne!(
            combo_class(&[Pattern::Four, Pattern::Three, Pattern::None, Pattern::None]),
            combo_class(&[
                Pattern::Four,
                Pattern::OpenThree,
                Pattern::None,
                Pattern::None
            ])
        );
    }

    use super::*;

    fn pat(rule: FiveRule, line: &str) -> Pattern {
        table(rule).get(key_from_line(line).expect("valid line"), Color::Black)
    }

    #[test]
    fn compact_tables_agree_with_raw_ones() {
        for rule in [FiveRule::AtLeastFive, FiveRule::ExactFive] {
            let raw = build(rule);
            let t = table(rule);
            for key in 0..TABLE_SIZE as u32 {
                assert_eq!(
                    t.get(key, Color::Black),
                    raw[key as usize],
                    "{rule:?} {key:x}"
                );
                let w = swap_colours(key);
                assert_eq!(
                    t.get(key, Color::White),
                    raw[w as usize],
                    "{rule:?} {key:x}"
                );
            }
        }
    }

    #[test]
    fn both_colours_read_at_once_agree_with_each_read_alone() {
        let rules = [
            FiveRule::AtLeastFive,
            FiveRule::ExactFive,
            FiveRule::Caro,
            FiveRule::CaroExact,
        ];
        for black in rules {
            for white in rules {
                let (b, w) = (table(black), table(white));
                for key in (0..TABLE_SIZE as u32).step_by(7) {
                    assert_eq!(
                        get_both(b, w, key),
                        (b.get(key, Color::Black), w.get(key, Color::White)),
                        "{black:?} {white:?} {key:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn slots_round_trip_and_swap() {
        for o in (-HALF..0).chain(1..=HALF) {
            assert_eq!(offset_of(slot(o)), o);
        }
        let k = key_from_line("#OX..*..XO#").unwrap();
        let w = key_from_line("#XO..*..OX#").unwrap();
        assert_eq!(swap_colours(k), w);
    }

    #[test]
    fn fives_by_rule() {
        use FiveRule::*;
        // the centre '*' is where the colour plays
        assert_eq!(pat(AtLeastFive, "...XX*XX..."), Pattern::Five);
        assert_eq!(pat(AtLeastFive, "..XXX*XX..."), Pattern::Five);
        assert_eq!(pat(ExactFive, "..XXX*XX..."), Pattern::Overline);
        assert_eq!(pat(ExactFive, "...XX*XX..."), Pattern::Five);
        assert_eq!(pat(Caro, "..OXX*XXO.."), Pattern::Overline);
        assert_eq!(pat(Caro, "..#XX*XXO.."), Pattern::Five);
        assert_eq!(pat(Caro, ".OXXX*XXO.."), Pattern::Five);
        assert_eq!(pat(CaroExact, ".OXXX*XXO.."), Pattern::Overline);
        assert_eq!(pat(CaroExact, "...OX*XXXO."), Pattern::Overline);
        assert_eq!(pat(CaroExact, "....X*XXXO."), Pattern::Five);
        // the board edge does not block in caro
        assert_eq!(pat(Caro, "####X*XXXO."), Pattern::Five);
    }

    #[test]
    fn fours_and_threes() {
        use FiveRule::*;
        assert_eq!(pat(AtLeastFive, "....X*XX..."), Pattern::OpenFour);
        assert_eq!(pat(AtLeastFive, "...OX*XX..."), Pattern::Four);
        assert_eq!(pat(AtLeastFive, "....X*.XX.."), Pattern::Four);
        assert_eq!(pat(AtLeastFive, "..X.X*X.X.."), Pattern::DoubleFour);
        assert_eq!(pat(ExactFive, "..X.X*X.X.."), Pattern::DoubleFour);
        assert_eq!(pat(AtLeastFive, ".....*XX..."), Pattern::OpenThree);
        assert_eq!(pat(AtLeastFive, "....O*XX..."), Pattern::Three);
        assert_eq!(pat(AtLeastFive, ".....*X...."), Pattern::OpenTwo);
        assert_eq!(pat(AtLeastFive, "....O*X...."), Pattern::Two);
        assert_eq!(pat(AtLeastFive, "...O.*.O..."), Pattern::None);
        // X.XXXX.: under exact five the left five point makes an overline, so only a four
        assert_eq!(pat(ExactFive, "X.XXX*....."), Pattern::Four);
        assert_eq!(pat(AtLeastFive, "X.XXX*....."), Pattern::OpenFour);
        assert_eq!(pat(ExactFive, "X..XX*....."), Pattern::OpenThree);
        assert_eq!(pat(ExactFive, "#..XX*....#"), Pattern::OpenThree);
        // only four cells of room: nothing can ever come of it
        assert_eq!(pat(ExactFive, "#####*XX.##"), Pattern::None);
    }

    #[test]
    fn codes_combine_directions() {
        use Pattern as P;
        assert_eq!(
            combine(&[P::Four, P::OpenThree, P::None, P::None], false),
            Code::FourThree
        );
        assert_eq!(
            combine(&[P::Four, P::Four, P::None, P::None], false),
            Code::DoubleFour
        );
        assert_eq!(
            combine(&[P::Four, P::Four, P::None, P::None], true),
            Code::Forbidden
        );
        assert_eq!(
            combine(&[P::Five, P::Overline, P::Four, P::Four], true),
            Code::Five
        );
        assert_eq!(
            combine(&[P::DoubleFour, P::None, P::None, P::None], true),
            Code::Forbidden
        );
        assert_eq!(
            combine(&[P::OpenThree, P::OpenThree, P::None, P::None], true),
            Code::DoubleThree
        );
        for (i, c) in Code::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
        for (i, p) in Pattern::ALL.iter().enumerate() {
            assert_eq!(Pattern::from_index(i), *p);
        }
    }
}
