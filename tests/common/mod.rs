//! What several integration tests share.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

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

/// The engine binary with its three pipes, logging warnings and worse to its stderr.
pub fn engine_logging_warnings() -> Child {
    Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}
