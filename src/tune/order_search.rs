//! `pbrain-wuzi tune --order-search DEPTH`: the ordering's training positions taken from
//! inside searches instead of from the moves played.
//!
//! What the ordering is for is cutting nodes early: a node that fails high wants the move
//! that cuts tried first. So every game position (one in `STRIDE`) is searched to a fixed
//! depth, and beta cutoffs with at least `MIN_PLIES` plies left become samples: the
//! candidates of the node, the move that cut and the moves tried before it that failed.
//! Every cutoff after failures is kept (it says which move should have come first); of the
//! cutoffs by the first move tried, one in `KEEP_EVERY`. The moves a game played are root
//! decisions of positions both sides steer towards; the cutoffs are the nodes the search
//! spends its time in, most of them lines no one would play. The fit (`super::order`) ranks
//! each cut above the moves that failed before it.

use super::order::OrderSample;
use super::{read_lines, replay_game, PositionVisitor};
use crate::game::gomoku::order_features::OrderCandidate;
use crate::game::gomoku::{Board, Caro, Freestyle, Renju, Rule, Standard};
use crate::game::Move;
use crate::search::alphabeta::{self, Params};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Stop};
use anyhow::Result;
use parking_lot::Mutex;
use std::any::Any;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Game positions searched: one in this many plies of each game.
const STRIDE: usize = 4;
/// Cutoffs nearer the leaves than this are not sampled: the ordering there matters least
/// (the beam is narrow and the subtrees small).
const MIN_PLIES: i32 = 2;
/// One cutoff by the first move tried in this many is kept.
const KEEP_EVERY: usize = 4;
/// The table of each search.
const TT_BYTES: usize = 16 << 20;

/// The samples of the running collection, the id of the game being searched and a counter
/// of the cutoffs seen: the observer the searches call is a plain function, so these are
/// statics (only the searches this module starts call it).
static SAMPLES: Mutex<Vec<OrderSample>> = Mutex::new(Vec::new());
static GAME: AtomicUsize = AtomicUsize::new(0);
static SEEN: AtomicUsize = AtomicUsize::new(0);

/// The candidates of the node `game` when it is a gomoku board, else `None`.
fn features(game: &dyn Any) -> Option<Vec<OrderCandidate>> {
    fn of<R: Rule>(g: &dyn Any) -> Option<Vec<OrderCandidate>> {
        g.downcast_ref::<Board<R>>().map(|b| b.order_features())
    }
    of::<Freestyle>(game)
        .or_else(|| of::<Standard>(game))
        .or_else(|| of::<Renju>(game))
        .or_else(|| of::<Caro>(game))
}

fn observe(game: &dyn Any, m: Move, tried: &[Move], plies: i32) {
    // A cut after failures says which moves should have come first: all of those are kept.
    if plies < MIN_PLIES
        || (tried.is_empty()
            && !SEEN
                .fetch_add(1, Ordering::Relaxed)
                .is_multiple_of(KEEP_EVERY))
    {
        return;
    }
    let Some(cands) = features(game) else {
        return;
    };
    if cands.len() < 2 {
        return;
    }
    if let Some(played) = cands.iter().position(|c| c.mv == m) {
        let failed = tried
            .iter()
            .filter_map(|t| cands.iter().position(|c| c.mv == *t))
            .map(|i| i as u16)
            .collect();
        SAMPLES.lock().push(OrderSample {
            cands,
            played,
            game: GAME.load(Ordering::Relaxed),
            failed,
        });
    }
}

struct SearchPositions {
    tt: Arc<TranspositionTable>,
    depth: u32,
    ply: usize,
}

impl PositionVisitor for SearchPositions {
    fn visit<R: Rule>(&mut self, b: &Board<R>, _next: Move, _pos: &str) {
        self.ply += 1;
        if !self.ply.is_multiple_of(STRIDE) {
            return;
        }
        if let Some(t) = Arc::get_mut(&mut self.tt) {
            t.clear();
        }
        let stop = Stop::new();
        let mut sink = |_: &crate::search::Iteration| {};
        let params = Params {
            cut_observer: Some(observe),
            ..Params::default()
        };
        alphabeta::search(
            b,
            &self.tt,
            &Limits::depth(self.depth),
            &stop,
            params,
            None,
            &mut sink,
        );
    }
}

/// The cutoff samples of fixed-`depth` searches of the games' positions, and the number
/// of games read.
pub fn samples(games: &[PathBuf], depth: u32) -> Result<(Vec<OrderSample>, usize)> {
    SAMPLES.lock().clear();
    SEEN.store(0, Ordering::Relaxed);
    let mut tt = TranspositionTable::new();
    tt.resize(TT_BYTES);
    let mut v = SearchPositions {
        tt: Arc::new(tt),
        depth,
        ply: 0,
    };
    let mut read = 0;
    for path in games {
        read += read_lines(path, read, |g, id| {
            GAME.store(id, Ordering::Relaxed);
            v.ply = 0;
            replay_game(g, &mut v)
        })?;
    }
    Ok((std::mem::take(&mut *SAMPLES.lock()), read))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches of a short game's positions give samples whose move that cut is one of the
    /// node's candidates, and the same samples on a second run (fixed depth, cleared table).
    #[test]
    fn the_searches_cutoffs_become_samples() {
        let dir = std::env::temp_dir().join(format!("wuzi-order-search-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let line = r#"{"width":15,"height":15,"rule":0,"result":"1-0","opening":[[7,7],[8,8],[7,8]],"moves":[[7,6],[6,7],[8,9],[9,10],[6,8],[5,8],[9,6],[8,7],[6,6],[5,5],[8,6],[5,9],[5,6]]}"#;
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let (samples, games) = samples(std::slice::from_ref(&path), 6).unwrap();
        assert_eq!(games, 1);
        assert!(samples.len() >= 10, "only {} samples", samples.len());
        for s in &samples {
            assert!(s.cands.len() >= 2 && s.played < s.cands.len());
            assert!(s.failed.iter().all(|&f| usize::from(f) != s.played));
            assert_eq!(s.game, 0);
        }
        // Some nodes cut only after a first move failed: those are what the fit learns from.
        assert!(samples.iter().any(|s| !s.failed.is_empty()));
        let (again, _) = super::samples(&[path], 6).unwrap();
        let moves =
            |v: &[OrderSample]| -> Vec<Move> { v.iter().map(|s| s.cands[s.played].mv).collect() };
        assert_eq!(moves(&again), moves(&samples));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
