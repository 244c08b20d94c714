//! Boards as text pictures, for tests, benches, logs and docs.

use super::*;

/// Why an ASCII picture could not be turned into a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsciiError {
    /// A character other than `.`, `X`, `O`, `#` (spaces are ignored).
    BadChar(char),
    /// Rows of different lengths.
    Ragged,
    Size(SizeError),
}

impl fmt::Display for AsciiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsciiError::BadChar(c) => write!(f, "unexpected character {c:?} in board picture"),
            AsciiError::Ragged => f.write_str("board picture rows differ in length"),
            AsciiError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AsciiError {}

impl<R: Rule> Board<R> {
    /// Builds a position from a picture: one line per row, `.` empty, `X` black, `O` white,
    /// `#` wall; spaces and blank lines are ignored. Stones are played alternately in
    /// row-major order (passes fill in when one colour has more), then a pass if needed so
    /// that `to_move` is on move. Meant for tests, benches and docs.
    pub fn from_ascii(picture: &str, to_move: Color) -> Result<Board<R>, AsciiError> {
        let rows: Vec<Vec<char>> = picture
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return Err(AsciiError::Ragged);
        }
        let mut b = Board::new(width, rows.len()).map_err(AsciiError::Size)?;
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let m = Move::new(x as u8, y as u8);
                match ch {
                    '.' => {}
                    'X' | 'x' => black.push(m),
                    'O' | 'o' => white.push(m),
                    '#' => {
                        // The cell is on the board and still empty, so this cannot fail.
                        let _ = b.place_wall(m);
                    }
                    other => return Err(AsciiError::BadChar(other)),
                }
            }
        }
        for k in 0..black.len().max(white.len()) {
            for list in [&black, &white] {
                match list.get(k) {
                    Some(&m) => b.play(m),
                    None => {
                        b.pass();
                    }
                }
            }
        }
        // The last round may have ended with a pass for white; drop nothing, just fix the turn.
        if b.side_to_move() != to_move {
            b.pass();
        }
        Ok(b)
    }

    /// A readable picture for logs/tests: one line per row, `.` empty, `X` black, `O` white,
    /// `#` wall.
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                let bit = 1u32 << x;
                s.push(if self.stones[0][y] & bit != 0 {
                    'X'
                } else if self.stones[1][y] & bit != 0 {
                    'O'
                } else if self.walls[y] & bit != 0 {
                    '#'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s
    }
}
