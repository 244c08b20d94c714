//! Lists the entries of a Connect Four opening book as move sequences another solver can
//! read: `cargo run --release --example c4_book_dump [BOOK]` (the book built into the
//! engine when no file is given). One line per entry:
//!
//! `PLY SEQUENCE SCORE COLUMN CHILD`
//!
//! `SEQUENCE` reaches the stored position (columns 1-based, as Pascal Pons' solver reads
//! them), `SCORE` is the book's exact score for the side to move (Pons' convention),
//! `COLUMN` the book's best column (1-based), and `CHILD` the sequence with that column
//! played, whose score must then be `-SCORE`, or `-` when the column wins at once (no
//! solver is asked about a finished game). `scripts/c4-book-vs-pons.sh` compares both with
//! Pons' solver.
//!
//! The book stores a position by its key (Pons' `current + mask`), not by how it was
//! reached, so a sequence is rebuilt from the stones: taken off the top of the columns
//! last move first, colours alternating. Any such order is a legal game, since a position
//! with no four in a row has none in its earlier positions either.

use std::path::Path;
use wuzi::game::connect4::position::{Geometry, Position};
use wuzi::search::connect4::book::Book;
use wuzi::search::connect4::shipped_book::book_for;

fn main() -> anyhow::Result<()> {
    let book = match std::env::args().nth(1) {
        Some(path) => Book::load(Path::new(&path))
            .map_err(|e| anyhow::anyhow!("cannot read the book {path}: {e}"))?,
        None => book_for(None)
            .ok_or_else(|| anyhow::anyhow!("the built-in book does not load"))?
            .as_ref()
            .clone(),
    };
    let g = Geometry::<u64>::new(book.width, book.height, book.k)
        .ok_or_else(|| anyhow::anyhow!("{}x{} is no 64-bit board", book.width, book.height))?;
    for (key, m) in book.iter() {
        let cols = columns_of(key, book.width, book.height);
        let seq = sequence(&cols).ok_or_else(|| anyhow::anyhow!("no game reaches {key:#x}"))?;
        let mut p = Position::<u64>::empty();
        for &c in &seq {
            p.play_col(&g, c);
        }
        anyhow::ensure!(
            p.key() == key,
            "the sequence for {key:#x} reaches {:#x}",
            p.key()
        );
        let text: String = seq.iter().map(|c| char::from(b'1' + *c as u8)).collect();
        let child = if p.is_winning_col(&g, m.column) {
            "-".to_string()
        } else {
            format!("{text}{}", m.column + 1)
        };
        println!(
            "{} {} {} {} {child}",
            seq.len(),
            if text.is_empty() { "-" } else { &text },
            m.score,
            m.column + 1
        );
    }
    Ok(())
}

/// The stones of a key, column by column from the bottom: `true` for the side to move.
fn columns_of(key: u64, width: usize, height: usize) -> Vec<Vec<bool>> {
    let bits = height + 1;
    (0..width)
        .map(|c| {
            // current + mask, where the mask is the column's lowest `h` bits: the sum lies
            // in 2^h - 1 ..= 2^(h+1) - 2, so `h` is the bit length of sum + 1, less one.
            let col = (key >> (c * bits)) & ((1 << bits) - 1);
            let h = (64 - (col + 1).leading_zeros() - 1) as usize;
            let current = col - ((1 << h) - 1);
            (0..h).map(|r| current >> r & 1 == 1).collect()
        })
        .collect()
}

/// A move order (0-based columns) that builds these columns, or `None` if none does.
fn sequence(cols: &[Vec<bool>]) -> Option<Vec<usize>> {
    let mut cols: Vec<Vec<bool>> = cols.to_vec();
    let mut reversed = Vec::new();
    // The last stone was the other side's (not the side to move).
    take(&mut cols, false, &mut reversed).then(|| {
        reversed.reverse();
        reversed
    })
}

/// Takes the stones off, `mover`'s (side to move or not) first, by backtracking.
fn take(cols: &mut [Vec<bool>], mover: bool, out: &mut Vec<usize>) -> bool {
    if cols.iter().all(Vec::is_empty) {
        return true;
    }
    for c in 0..cols.len() {
        if cols[c].last() == Some(&mover) {
            cols[c].pop();
            out.push(c);
            if take(cols, !mover, out) {
                return true;
            }
            out.pop();
            cols[c].push(mover);
        }
    }
    false
}
