//! wuzi (五子): a game engine for gomoku (freestyle, standard, renju, caro), gomoku with
//! captures (Pente, Ninuki), Connect Four and m,n,k games, speaking the Gomocup / Piskvork
//! protocol.
//!
//! Layers, from the outside in: `cli` is `pbrain-wuzi`'s command line; the tools `play`,
//! `tune`, `solve` (the exact solvers' drivers and the Connect Four book builder) and `train`
//! (the n-tuple network's self-play) sit on the engine; `protocol` parses and prints (and
//! `arena` runs engines as processes); `engine` is the protocol-agnostic facade, beside
//! `opening` (the opening rules) and `bench`; `search` chooses moves, one folder per game
//! over the parts they share; `game` holds the rule modes; `base` and `rng` are the
//! vocabulary they all share. Each uses only its layer and the ones below it
//! (`tests/layers.rs` checks); ARCHITECTURE.md at the repository's root is the map.

pub mod arena;
pub mod base;
pub mod bench;
pub mod cli;
pub mod engine;
pub mod game;
pub mod opening;
pub mod play;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod solve;
pub mod train;
pub mod tune;
