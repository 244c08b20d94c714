//! wuzi (五子): a game engine for gomoku (freestyle, standard, renju, caro), Connect Four and
//! m,n,k games, speaking the Gomocup / Piskvork protocol.
//!
//! Layers, from the outside in: `protocol` parses and prints (and `arena` runs engines as
//! processes), `engine` is the protocol-agnostic facade, `search` chooses moves, `game` holds
//! the rule modes, `base` is the vocabulary they all share. Each uses only the layers below
//! it (`tests/layers.rs` checks); ARCHITECTURE.md at the repository's root is the map.

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
