//! The gomoku search, for every gomoku rule and the capture variants: the alpha-beta
//! (`alphabeta`, with its quiescence search of fours), its tunable parameters (`params`),
//! the threat solver (`threats`: VCF and VCT, and the [`threats::Tactics`] the alpha-beta
//! asks of a board), the capture variants' solver (`capture`), and what the search does at
//! the root around its iterations (`root`: the threat searches before, the safety check
//! after, the fallback move). The table, clock and busy table it uses are the shared ones
//! in [`crate::search`].

pub mod alphabeta;
pub mod capture;
pub mod params;
mod root;
pub mod threats;
