//! A make/undo speed measurement the `bench` subcommand (or a person) can run in release.
//!
//! It plays pseudo-random games (fixed seed, so every run does the same work), undoing each game fully, and counts plays plus
//! undos. It measures the incremental machinery only; the caller times it.

use super::board::Board;
use super::rules::Rule;
use crate::game::{Game, Move};

/// Plays and undoes pseudo-random games on a `size`×`size` board until `ops` plays plus
/// undos are done; returns the exact number done and a checksum of the keys seen (so the
/// work cannot be optimised away and runs can be compared).
pub fn bench_make_undo<R: Rule>(size: usize, ops: u64) -> Result<(u64, u64), super::SizeError> {
    let mut board = Board::<R>::new(size, size)?;
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut done = 0u64;
    let mut checksum = 0u64;
    while done < ops {
        // One game: uniformly random empty cells until it ends (a win or a full board).
        while board.outcome().is_none() && done < ops {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let cell = (rng % (size * size) as u64) as usize;
            let m = Move::new((cell % size) as u8, (cell / size) as u8);
            if !board.is_empty(m) {
                continue;
            }
            board.play(m);
            checksum = checksum.wrapping_add(board.key());
            done += 1;
        }
        while board.ply() > 0 {
            board.undo();
            done += 1;
        }
    }
    Ok((done, checksum))
}
