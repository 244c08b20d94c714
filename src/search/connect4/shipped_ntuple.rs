//! Which n-tuple network the default player's midgame search adds to its leaf evaluation:
//! the 12×6 network built into the binary, another file named by `INFO c4_ntuple`, or none.
//!
//! The shipped network (`ntuple-12x6.bin` beside this file, trained by `pbrain-wuzi solve
//! --width 12 --height 6 --train-ntuple FILE`, then further with games ended by the solver,
//! `--ntuple-from`, `--ntuple-solve-from`, and last with games whose moves a depth-4
//! midgame search chose, `--ntuple-search-depth`: the commands are in docs/tuning.md) is compiled
//! in like the opening book and checked (hash, shape) when first used. A network that cannot be used, or one
//! made for another board, is never fatal: the engine logs one warning and evaluates with
//! the hand-set terms alone. Each source is read and checked once per process.

use super::data_source::{source, Kind, LastFile, Source};
use crate::game::connect4::ntuple::NTuple;
use std::sync::{Arc, OnceLock};

/// The network built into the binary, and its board.
static SHIPPED_BYTES: &[u8] = include_bytes!("ntuple-12x6.bin");
const SHIPPED_BOARD: (usize, usize) = (12, 6);
/// The win length every network is trained for.
const K: usize = 4;

const KIND: Kind = Kind {
    name: "n-tuple network",
    without: "evaluating without it",
};

/// The network a `c4_ntuple` option value asks for on a `width` × `height` board with `k`
/// in a row: the shipped one when `None` (or `shipped`) and the board is its board, none
/// for `none`/`off`/`0`, otherwise the file at that path when it is for this board.
pub fn network_for(
    option: Option<&str>,
    width: usize,
    height: usize,
    k: usize,
) -> Option<Arc<NTuple>> {
    if k != K {
        return None;
    }
    match source(option) {
        Source::Shipped if (width, height) == SHIPPED_BOARD => shipped(),
        Source::Shipped | Source::Off => None,
        Source::File(path) => {
            // Keyed by board too, so that a file for another board warns once, not every move.
            static LAST: LastFile<NTuple> = LastFile::new();
            LAST.get(&format!("{width}x{height} {path}"), |_| {
                let nt = match std::fs::read(path) {
                    Ok(bytes) => KIND.checked(path, NTuple::from_bytes(&bytes)),
                    Err(e) => KIND.checked(path, Err(e)),
                }?;
                for_board(nt, width, height)
            })
        }
    }
}

/// The network when it was made for a `width` × `height` board, else a warning and `None`.
fn for_board(nt: Arc<NTuple>, width: usize, height: usize) -> Option<Arc<NTuple>> {
    if (nt.width, nt.height) != (width, height) {
        log::warn!(
            "Connect Four n-tuple network is for {}x{}, the board is {width}x{height}; evaluating without it",
            nt.width,
            nt.height
        );
        return None;
    }
    Some(nt)
}

fn shipped() -> Option<Arc<NTuple>> {
    static NET: OnceLock<Option<Arc<NTuple>>> = OnceLock::new();
    NET.get_or_init(|| KIND.checked("the built-in network", NTuple::from_bytes(SHIPPED_BYTES)))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_network_loads_for_its_board_only() {
        assert!(network_for(None, 12, 6, 4).is_some());
        assert!(network_for(Some("shipped"), 12, 6, 4).is_some());
        assert!(network_for(None, 7, 6, 4).is_none());
        assert!(network_for(None, 12, 6, 5).is_none());
        assert!(network_for(Some("off"), 12, 6, 4).is_none());
    }

    #[test]
    fn a_bad_file_falls_back_to_none() {
        let dir = std::env::temp_dir().join(format!("wuzi-nt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.bin");
        let mut bytes = SHIPPED_BYTES.to_vec();
        bytes[100] ^= 0x40;
        std::fs::write(&bad, &bytes).unwrap();
        assert!(network_for(bad.to_str(), 12, 6, 4).is_none());
        let good = dir.join("good.bin");
        std::fs::write(&good, SHIPPED_BYTES).unwrap();
        assert!(network_for(good.to_str(), 12, 6, 4).is_some());
        assert!(network_for(good.to_str(), 8, 7, 4).is_none());
        assert!(network_for(dir.join("missing.bin").to_str(), 12, 6, 4).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
