//! Opening files: the Gomocup "offset" format (`x,y, x,y, …` relative to the centre cell,
//! black first) and the "pos" format (`h8i9j10`: letter = x from `a`, number = y + 1), the
//! eight board symmetries, and writing openings back in either format.
//!
//! Offsets are resolved against a board size when a file is loaded, so the rest of the arena
//! only ever sees absolute [`Move`]s. Legality (occupied cells, a gravity column) is not
//! judged here: the referee replays each opening through the rule implementation.

use crate::game::Move;
use std::fmt;

/// Why an opening line cannot be used on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The text is in neither format.
    Syntax { line: usize, text: String },
    /// A stone falls outside the board.
    OffBoard { line: usize },
    /// The same cell appears twice.
    Repeated { line: usize },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Syntax { line, text } => write!(f, "line {line}: cannot parse {text:?}"),
            OpeningError::OffBoard { line } => write!(f, "line {line}: a stone is off the board"),
            OpeningError::Repeated { line } => write!(f, "line {line}: a cell is repeated"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// The cell the offset format calls `0,0`: Piskvork's `width / 2, height / 2`.
pub fn centre(width: usize, height: usize) -> (i32, i32) {
    ((width / 2) as i32, (height / 2) as i32)
}

/// Parses one line of the offset format into signed offsets.
pub fn parse_offsets(text: &str) -> Option<Vec<(i32, i32)>> {
    let nums: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if nums.is_empty() || !nums.len().is_multiple_of(2) {
        return None;
    }
    let vals: Option<Vec<i32>> = nums.iter().map(|s| s.parse().ok()).collect();
    Some(vals?.chunks(2).map(|c| (c[0], c[1])).collect())
}

/// Parses one line of the pos format (`h8i9`) into absolute `(x, y)`; case-insensitive.
pub fn parse_pos(text: &str) -> Option<Vec<(i32, i32)>> {
    let b = text.trim().as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i].to_ascii_lowercase();
        if !c.is_ascii_lowercase() {
            return None;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let n: i32 = std::str::from_utf8(&b[start..i]).ok()?.parse().ok()?;
        if n < 1 {
            return None;
        }
        out.push(((c - b'a') as i32, n - 1));
    }
    (!out.is_empty()).then_some(out)
}

/// Resolves one opening line of either format on a `width × height` board. `line` numbers
/// the errors. The format is told by the comma: only the offset format has one.
pub fn parse_line(
    text: &str,
    line: usize,
    width: usize,
    height: usize,
) -> Result<Vec<Move>, OpeningError> {
    let cells = if text.contains(',') {
        let (cx, cy) = centre(width, height);
        parse_offsets(text).map(|v| v.into_iter().map(|(x, y)| (x + cx, y + cy)).collect())
    } else {
        parse_pos(text)
    };
    let cells = cells.ok_or_else(|| OpeningError::Syntax {
        line,
        text: text.to_string(),
    })?;
    let mut moves = Vec::with_capacity(cells.len());
    for (x, y) in cells {
        if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
            return Err(OpeningError::OffBoard { line });
        }
        let m = Move::new(x as u8, y as u8);
        if moves.contains(&m) {
            return Err(OpeningError::Repeated { line });
        }
        moves.push(m);
    }
    Ok(moves)
}

/// Parses a whole opening file; blank lines and lines starting with `#` are skipped.
pub fn parse_file(text: &str, width: usize, height: usize) -> Result<Vec<Vec<Move>>, OpeningError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| parse_line(l.trim(), i + 1, width, height))
        .collect()
}

/// The number of symmetries that keep a `width × height` board in place: 8 when square
/// (rotations and reflections), otherwise 4 (the two flips and the half turn).
pub fn symmetry_count(width: usize, height: usize) -> u8 {
    if width == height {
        8
    } else {
        4
    }
}

/// Applies symmetry `sym` (0 = identity, below [`symmetry_count`]) to a cell. Bit 0 flips x,
/// bit 1 flips y, bit 2 transposes (square boards only).
pub fn transform(m: Move, sym: u8, width: usize, height: usize) -> Move {
    let (mut x, mut y) = (m.x as usize, m.y as usize);
    if sym & 4 != 0 && width == height {
        std::mem::swap(&mut x, &mut y);
    }
    if sym & 1 != 0 {
        x = width - 1 - x;
    }
    if sym & 2 != 0 {
        y = height - 1 - y;
    }
    Move::new(x as u8, y as u8)
}

/// An opening in the pos format, e.g. `h8i9j10`. Columns past `z` are not representable
/// there; they wrap to the next ASCII letters, which no board this engine plays reaches.
pub fn to_pos(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| format!("{}{}", (b'a' + m.x) as char, m.y as u32 + 1))
        .collect()
}

/// An opening in the offset format relative to the centre of a `width × height` board.
pub fn to_offsets(moves: &[Move], width: usize, height: usize) -> String {
    let (cx, cy) = centre(width, height);
    moves
        .iter()
        .map(|m| format!("{},{}", m.x as i32 - cx, m.y as i32 - cy))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_line_resolves_around_the_centre() {
        let m = parse_line("0,0, 1,0, -1,3", 1, 15, 15).unwrap();
        assert_eq!(m, vec![Move::new(7, 7), Move::new(8, 7), Move::new(6, 10)]);
        let m = parse_line("0,0, 1,1", 1, 20, 20).unwrap();
        assert_eq!(m, vec![Move::new(10, 10), Move::new(11, 11)]);
    }

    #[test]
    fn pos_line_reads_letters_and_numbers() {
        let m = parse_line("h8i9j10", 1, 15, 15).unwrap();
        assert_eq!(m, vec![Move::new(7, 7), Move::new(8, 8), Move::new(9, 9)]);
        assert_eq!(parse_line("H8", 1, 15, 15).unwrap(), vec![Move::new(7, 7)]);
    }

    #[test]
    fn bad_lines_are_typed_errors() {
        assert!(matches!(
            parse_line("0,0, 1", 3, 15, 15),
            Err(OpeningError::Syntax { line: 3, .. })
        ));
        assert!(matches!(
            parse_line("h0", 1, 15, 15),
            Err(OpeningError::Syntax { .. })
        ));
        assert!(matches!(
            parse_line("8h", 1, 15, 15),
            Err(OpeningError::Syntax { .. })
        ));
        assert_eq!(
            parse_line("0,0, 8,0", 2, 15, 15),
            Err(OpeningError::OffBoard { line: 2 })
        );
        assert_eq!(
            parse_line("p1", 2, 15, 15),
            Err(OpeningError::OffBoard { line: 2 })
        );
        assert_eq!(
            parse_line("a1a1", 4, 15, 15),
            Err(OpeningError::Repeated { line: 4 })
        );
    }

    #[test]
    fn file_skips_comments_and_blanks() {
        let f = "# classic\n\n0,0, 1,1\nh8\n";
        let v = parse_file(f, 15, 15).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1], vec![Move::new(7, 7)]);
    }

    #[test]
    fn shared_openings_convert_losslessly() {
        let text = "0,0, 1,0, 1,3\n0,0, -1,1, 1,-2\n";
        for size in [15usize, 20] {
            for o in parse_file(text, size, size).unwrap() {
                assert_eq!(parse_line(&to_pos(&o), 1, size, size).unwrap(), o);
                assert_eq!(
                    parse_line(&to_offsets(&o, size, size), 1, size, size).unwrap(),
                    o
                );
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_stay_on_board() {
        let m = Move::new(1, 3);
        let mut seen: Vec<Move> = (0..8).map(|s| transform(m, s, 15, 15)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 8);
        assert_eq!(transform(Move::new(0, 0), 3, 7, 6), Move::new(6, 5));
        assert_eq!(symmetry_count(7, 6), 4);
        // the centre of an odd square board is fixed by every symmetry
        assert!((0..8).all(|s| transform(Move::new(7, 7), s, 15, 15) == Move::new(7, 7)));
    }
}
