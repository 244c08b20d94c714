//! The four Gomocup rule families as zero-sized types, so that the board, its pattern tables
//! and the search are monomorphised per rule and every rule test folds at compile time.
//!
//! A rule is described by what counts as a winning line for each colour ([`FiveRule`]) and
//! whether black has forbidden moves (renju). Everything else (patterns, threats, forced
//! moves) is derived from those two facts by the pattern tables.

/// What a run of stones through a cell must look like to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FiveRule {
    /// Five or more in a row wins.
    AtLeastFive,
    /// Exactly five wins; six or more neither wins nor loses (except renju black: forbidden).
    ExactFive,
    /// Caro (INFO rule 8): six or more wins; exactly five wins unless both cells beyond its
    /// ends hold opponent stones (the board edge and walls do not block).
    Caro,
    /// Caro with exactly five (INFO rule 9): only exactly five wins, and only when at least one
    /// end is not an opponent stone.
    CaroExact,
}

impl FiveRule {
    /// Index into per-variant arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A gomoku rule: a compile-time parameter of [`super::Board`].
pub trait Rule: Copy + Default + Send + Sync + 'static {
    /// A short name for logs and messages.
    const NAME: &'static str;
    /// The protocol's `INFO rule` value (without the continuous-game bit).
    const INFO_RULE: u32;
    /// What a five is for black.
    const BLACK: FiveRule;
    /// What a five is for white.
    const WHITE: FiveRule;
    /// Renju: black may not play overlines, double fours or double threes.
    const RENJU: bool;
}

/// INFO rule 0: five or more in a row wins, for both colours.
#[derive(Clone, Copy, Default, Debug)]
pub struct Freestyle;

/// INFO rule 1: exactly five wins; an overline neither wins nor loses.
#[derive(Clone, Copy, Default, Debug)]
pub struct Standard;

/// INFO rule 4: black wins only by exactly five and may not play overlines, double fours or
/// (real) double threes; white wins by five or more and has no restriction.
#[derive(Clone, Copy, Default, Debug)]
pub struct Renju;

/// INFO rule 8: a five blocked at both ends by opponent stones does not win; six or more wins.
#[derive(Clone, Copy, Default, Debug)]
pub struct Caro;

/// INFO rule 9: only exactly five wins, and only if it is not blocked by opponent stones at
/// both ends.
#[derive(Clone, Copy, Default, Debug)]
pub struct CaroExact;

impl Rule for Freestyle {
    const NAME: &'static str = "freestyle";
    const INFO_RULE: u32 = 0;
    const BLACK: FiveRule = FiveRule::AtLeastFive;
    const WHITE: FiveRule = FiveRule::AtLeastFive;
    const RENJU: bool = false;
}

impl Rule for Standard {
    const NAME: &'static str = "standard";
    const INFO_RULE: u32 = 1;
    const BLACK: FiveRule = FiveRule::ExactFive;
    const WHITE: FiveRule = FiveRule::ExactFive;
    const RENJU: bool = false;
}

impl Rule for Renju {
    const NAME: &'static str = "renju";
    const INFO_RULE: u32 = 4;
    const BLACK: FiveRule = FiveRule::ExactFive;
    const WHITE: FiveRule = FiveRule::AtLeastFive;
    const RENJU: bool = true;
}

impl Rule for Caro {
    const NAME: &'static str = "caro";
    const INFO_RULE: u32 = 8;
    const BLACK: FiveRule = FiveRule::Caro;
    const WHITE: FiveRule = FiveRule::Caro;
    const RENJU: bool = false;
}

impl Rule for CaroExact {
    const NAME: &'static str = "caro-exact";
    const INFO_RULE: u32 = 9;
    const BLACK: FiveRule = FiveRule::CaroExact;
    const WHITE: FiveRule = FiveRule::CaroExact;
    const RENJU: bool = false;
}
