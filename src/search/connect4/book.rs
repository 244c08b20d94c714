//! The Connect Four opening book: exact scores and best moves of early positions, in a
//! compact file that is checked before use.
//!
//! An early 7×6 position can take the solver minutes, so the engine cannot find the perfect
//! move in a Gomocup-style turn. The book holds, for every position a perfect player meets
//! early on (built by `pbrain-wuzi solve --book`, [`crate::solve::book`]), the position's exact score and a column that
//! keeps it; past the book the solver is fast enough. A position and its mirror image share
//! one entry (the smaller key), the column then mirrored.
//!
//! The file is a header, the entries sorted by key, and a hash of everything before it:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `WUZI-C4B` |
//! | 4 | format version (little endian), [`VERSION`] |
//! | 1 each | width, height, k, deepest ply stored |
//! | 4 | node threshold the builder used (positions cheaper than this were left out) |
//! | 4 | entry count `n` |
//! | 8·n | entries, `u64` little endian, strictly increasing |
//! | 8 | FNV-1a 64 of all the bytes before |
//!
//! An entry packs the position's key (Pons' `current + mask`, the smaller of it and its
//! mirror's) in bits 10..64, the score + 32 in bits 4..10 and the column in
//! bits 0..4, so that sorting entries sorts keys and a lookup is one binary search. Loading
//! checks the size, the hash, the order and every field; any fault is an error with its
//! reason, and the caller falls back to search.

use crate::game::connect4::bits::Bits;
use crate::game::connect4::position::{Geometry, Position};
use crate::game::connect4::Connect4;
use crate::game::Game;
use std::path::Path;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"WUZI-C4B";
/// The layout described in the module documentation.
pub const VERSION: u32 = 1;
/// Header bytes before the entries.
const HEADER_BYTES: usize = 24;
/// Added to a score to store it in 6 bits (scores of boards up to 54 cells lie in ±27).
const SCORE_OFFSET: i32 = 32;
const COLUMN_BITS: u32 = 4;
const SCORE_BITS: u32 = 6;
const KEY_SHIFT: u32 = COLUMN_BITS + SCORE_BITS;
/// Boards whose key fits beside the score and the column: W·(H+1) bits.
pub const MAX_KEY_BITS: usize = 64 - KEY_SHIFT as usize;

/// What the book knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// Exact score for the side to move (Pons' convention, as the solver's).
    pub score: i32,
    /// A column (0-based) that keeps that score.
    pub column: usize,
}

/// Why a book cannot be used.
#[derive(Debug)]
pub enum BookError {
    Io(std::io::Error),
    /// The bytes do not form a valid book; the reason says which check failed.
    Corrupt(String),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "{e}"),
            BookError::Corrupt(why) => write!(f, "corrupt book: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// The book of one board: its sorted entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// The deepest ply (stones on the board) of a stored position.
    pub max_ply: usize,
    /// Positions the builder's cold solve finished within this many nodes were left out.
    pub node_threshold: u32,
    entries: Vec<u64>,
}

/// FNV-1a, 64 bits: a checksum that catches any changed, lost or swapped byte in practice.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The key a position is stored under and whether it is the mirror image's.
pub fn canonical_key(g: &Geometry<u64>, p: &Position<u64>) -> (u64, bool) {
    let key = p.key();
    let mirrored = g.mirror(key);
    if mirrored < key {
        (mirrored, true)
    } else {
        (key, false)
    }
}

fn pack(key: u64, score: i32, column: usize) -> u64 {
    (key << KEY_SHIFT) | (((score + SCORE_OFFSET) as u64) << COLUMN_BITS) | column as u64
}

fn unpack(e: u64) -> (u64, BookMove) {
    let score = ((e >> COLUMN_BITS) & ((1 << SCORE_BITS) - 1)) as i32 - SCORE_OFFSET;
    let column = (e & ((1 << COLUMN_BITS) - 1)) as usize;
    (e >> KEY_SHIFT, BookMove { score, column })
}

impl Book {
    /// A book from (canonical key, score, column) triples, in any order; `None` when the
    /// board or a value does not fit the format.
    pub fn from_entries(
        g: &Geometry<u64>,
        max_ply: usize,
        node_threshold: u32,
        items: impl IntoIterator<Item = (u64, BookMove)>,
    ) -> Option<Book> {
        if g.width * (g.height + 1) > MAX_KEY_BITS || g.width > 1 << COLUMN_BITS {
            return None;
        }
        let mut entries = Vec::new();
        for (key, m) in items {
            let fits = key >> MAX_KEY_BITS == 0
                && m.column < g.width
                && (0..1 << SCORE_BITS).contains(&(m.score + SCORE_OFFSET));
            if !fits {
                return None;
            }
            entries.push(pack(key, m.score, m.column));
        }
        entries.sort_unstable();
        entries.dedup_by_key(|e| *e >> KEY_SHIFT);
        Some(Book {
            width: g.width,
            height: g.height,
            k: g.k,
            max_ply,
            node_threshold,
            entries,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, BookMove)> + '_ {
        self.entries.iter().map(|&e| unpack(e))
    }

    /// The entry of a canonical key.
    pub fn get(&self, key: u64) -> Option<BookMove> {
        let i = self
            .entries
            .binary_search_by_key(&key, |&e| e >> KEY_SHIFT)
            .ok()?;
        Some(unpack(self.entries[i]).1)
    }

    /// The book's answer for a bitboard position of its board (the column in the
    /// position's own orientation).
    pub fn probe(&self, g: &Geometry<u64>, p: &Position<u64>) -> Option<BookMove> {
        if p.moves > self.max_ply {
            return None;
        }
        let (key, mirrored) = canonical_key(g, p);
        let m = self.get(key)?;
        let column = if mirrored {
            g.width - 1 - m.column
        } else {
            m.column
        };
        Some(BookMove { column, ..m })
    }

    /// The book's answer for a game, when the game is on the book's board.
    pub fn lookup(&self, game: &Connect4) -> Option<BookMove> {
        if (game.width, game.height, game.k) != (self.width, self.height, self.k)
            || game.ply() > self.max_ply
        {
            return None;
        }
        let g = Geometry::<u64>::new(self.width, self.height, self.k)?;
        self.probe(&g, &game.position(&g))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + 8 * self.entries.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in [self.width, self.height, self.k, self.max_ply] {
            out.push(v as u8);
        }
        out.extend_from_slice(&self.node_threshold.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.to_le_bytes());
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Parses and checks a book: size, hash, header fields, entry order and contents.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let bad = |why: String| Err(BookError::Corrupt(why));
        if bytes.len() < HEADER_BYTES + 8 {
            return bad(format!("{} bytes, shorter than any book", bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return bad("not a Connect Four book (magic)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return bad(format!("format version {version}, expected {VERSION}"));
        }
        let (width, height, k, max_ply) = (
            bytes[12] as usize,
            bytes[13] as usize,
            bytes[14] as usize,
            bytes[15] as usize,
        );
        let node_threshold = u32_at(16);
        let count = u32_at(20) as usize;
        let expected = HEADER_BYTES + 8 * count + 8;
        if bytes.len() != expected {
            return bad(format!(
                "{} bytes, but {count} entries make {expected}",
                bytes.len()
            ));
        }
        let body = expected - 8;
        let (stored, computed) = (u64_at(body), fnv1a(&bytes[..body]));
        if stored != computed {
            return bad(format!(
                "hash {stored:016x}, contents hash to {computed:016x}"
            ));
        }
        let Some(g) = Geometry::<u64>::new(width, height, k) else {
            return bad(format!("board {width}x{height} does not fit 64 bits"));
        };
        if width * (height + 1) > MAX_KEY_BITS || max_ply > width * height {
            return bad(format!("board {width}x{height}, depth {max_ply}"));
        }
        let entries: Vec<u64> = (0..count).map(|i| u64_at(HEADER_BYTES + 8 * i)).collect();
        if let Some(i) = entries
            .windows(2)
            .position(|w| w[0] >> KEY_SHIFT >= w[1] >> KEY_SHIFT)
        {
            return bad(format!("entries {i} and {} out of order", i + 1));
        }
        let max_score = (g.cells() as i32 + 1) / 2;
        // A key `current + mask` may carry into the spare bit on top of a column, no further.
        let key_bits = g.board | Bits::shl(g.bottom, height);
        if let Some((key, m)) = entries
            .iter()
            .map(|&e| unpack(e))
            .find(|(key, m)| m.column >= width || m.score.abs() > max_score || key & !key_bits != 0)
        {
            return bad(format!("entry {key:x} holds {m:?}"));
        }
        Ok(Book {
            width,
            height,
            k,
            max_ply,
            node_threshold,
            entries,
        })
    }

    /// Reads and checks a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(BookError::Io)?;
        Book::from_bytes(&bytes)
    }

    /// Writes the book atomically (a temporary file renamed over `path`).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::position::parse_sequence;

    fn g7() -> Geometry<u64> {
        Geometry::new(7, 6, 4).unwrap()
    }

    fn sample() -> Book {
        let g = g7();
        // Every move in the centre column, which is its own mirror image.
        let items = ["", "4", "43", "1", "7"].map(|s| {
            let p = parse_sequence(&g, s).unwrap();
            let score = -3 + s.len() as i32;
            (canonical_key(&g, &p).0, BookMove { score, column: 3 })
        });
        Book::from_entries(&g, 4, 1000, items).unwrap()
    }

    #[test]
    fn round_trip_and_lookup() {
        let g = g7();
        let book = sample();
        // "1" and "7" are mirror images: one entry.
        assert_eq!(book.len(), 4);
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(again, book);
        let p = parse_sequence(&g, "43").unwrap();
        assert_eq!(
            book.probe(&g, &p),
            Some(BookMove {
                score: -1,
                column: 3
            })
        );
        // The mirror of "43" is "45": same score, column mirrored (3 ↔ 3 here).
        let q = parse_sequence(&g, "45").unwrap();
        assert_eq!(book.probe(&g, &q).map(|m| m.score), Some(-1));
        assert_eq!(book.probe(&g, &parse_sequence(&g, "44").unwrap()), None);
        let mut game = Connect4::standard();
        game.play_column(6).unwrap();
        assert_eq!(book.lookup(&game).map(|m| m.score), Some(-2));
        assert_eq!(Connect4::new(8, 6, 4).map(|c| book.lookup(&c)), Ok(None));
    }

    #[test]
    fn a_mirrored_entry_mirrors_its_column() {
        let g = g7();
        let p = parse_sequence(&g, "12").unwrap();
        let (key, mirrored) = canonical_key(&g, &p);
        // Stored as seen from the canonical side: column 6 there is column 0 for `p`.
        let stored = if mirrored { 6 } else { 0 };
        let book = Book::from_entries(
            &g,
            4,
            0,
            [(
                key,
                BookMove {
                    score: 2,
                    column: stored,
                },
            )],
        )
        .unwrap();
        assert_eq!(book.probe(&g, &p).map(|m| m.column), Some(0));
        let m = p.mirrored(&g);
        assert_eq!(book.probe(&g, &m).map(|m| m.column), Some(6));
    }

    #[test]
    fn every_kind_of_damage_is_refused() {
        let bytes = sample().to_bytes();
        let corrupt = |b: &[u8]| matches!(Book::from_bytes(b), Err(BookError::Corrupt(_)));
        assert!(corrupt(&bytes[..bytes.len() - 1]), "truncated");
        assert!(corrupt(&[]), "empty");
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(corrupt(&longer), "trailing byte");
        for i in [0, 9, 13, 20, HEADER_BYTES + 3, bytes.len() - 2] {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(corrupt(&b), "byte {i} flipped");
        }
        // Valid hash over a bad entry: still refused (order and contents are checked).
        let mut b = bytes[..bytes.len() - 8].to_vec();
        let (first, second) = b[HEADER_BYTES..HEADER_BYTES + 16].split_at_mut(8);
        first.swap_with_slice(second);
        let h = fnv1a(&b);
        b.extend_from_slice(&h.to_le_bytes());
        assert!(corrupt(&b), "swapped entries");
        let err = Book::from_bytes(&bytes[..30]).unwrap_err().to_string();
        assert!(err.contains("shorter"), "{err}");
    }

    #[test]
    fn out_of_range_values_do_not_pack() {
        let g = g7();
        let too_big = BookMove {
            score: 40,
            column: 0,
        };
        assert_eq!(Book::from_entries(&g, 1, 0, [(1, too_big)]), None);
        let bad_col = BookMove {
            score: 0,
            column: 7,
        };
        assert_eq!(Book::from_entries(&g, 1, 0, [(1, bad_col)]), None);
        let wide = Geometry::<u64>::new(9, 6, 4).unwrap();
        assert_eq!(Book::from_entries(&wide, 1, 0, []), None);
    }

    #[test]
    fn save_and_load_a_file() {
        let dir = std::env::temp_dir().join(format!("wuzi-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.book");
        sample().save(&path).unwrap();
        assert_eq!(Book::load(&path).unwrap(), sample());
        assert!(matches!(
            Book::load(&dir.join("missing.book")),
            Err(BookError::Io(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
