//! `wuzi-arena`'s library: plays protocol engines against each other like a Gomocup
//! manager, judged by the crate's own rule implementations.
//!
//! Split by concern so each part is testable alone: `engine` (one process and its pipes),
//! `referee` (one game: protocol, clocks), `judge` (the time control, the faults that lose a
//! game, the check of a reply), `tournament` (schedule, workers,
//! standings, SPRT stop), `stats` (Elo, LOS, SPRT arithmetic), `opening` (opening files and
//! symmetries), `balance` (generating near-level openings), `swap2` (the swap2 opening
//! phase), `record` (psq, SGF, JSON lines), `thinking` (what engines report
//! while they think, kept per move), `report` (the HTML page of a run), `grid` (parameter grids to CSV), `cli` (the
//! binary's options) and `app` (the run those options describe). Runs past one machine:
//! `shard` (which games a shard plays), `journal` (the crash-safe per-game result file of
//! JSON lines), `manifest` (which run a directory belongs to), `merge` (shards
//! into one report), `status` (shards while they run) and `progress` (the live line and
//! ETAs). The arena is generic over the referee's [`crate::game::Game`] type, built by a
//! factory, so it never carries rules of its own.

pub mod app;
pub mod balance;
pub mod cli;
pub mod engine;
pub mod grid;
pub mod journal;
pub mod judge;
pub mod manifest;
pub mod merge;
pub mod opening;
pub mod progress;
pub mod record;
pub mod referee;
pub mod report;
pub mod shard;
pub mod stats;
pub mod status;
pub mod swap2;
pub mod thinking;
pub mod tournament;
