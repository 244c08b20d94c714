//! What several integration tests share.

use std::path::{Path, PathBuf};

/// The ways a data file the engine reads can be broken, written into `dir` from a good
/// file's bytes: missing, truncated, one bit flipped in the middle, empty. Returns each case's
/// name and path (the missing one is not written).
pub fn damaged_copies(good: &[u8], dir: &Path, ext: &str) -> Vec<(&'static str, PathBuf)> {
    let mut flipped = good.to_vec();
    let i = flipped.len() / 2;
    flipped[i] ^= 0x40;
    let cases = [
        ("missing", None),
        ("truncated", Some(good[..good.len() - 5].to_vec())),
        ("flipped", Some(flipped)),
        ("empty", Some(Vec::new())),
    ];
    cases
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.join(format!("{name}.{ext}"));
            if let Some(b) = bytes {
                std::fs::write(&path, b).unwrap();
            }
            (name, path)
        })
        .collect()
}
