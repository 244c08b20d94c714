//! The two capture variants as zero-sized types, so that [`super::CaptureBoard`] is
//! monomorphised per variant and the variant tests fold at compile time, exactly as the
//! gomoku rules do for [`crate::game::gomoku::Board`].
//!
//! Both variants share the capture itself (a move that flanks exactly two opponent stones in
//! a line removes them) and the two ways to win (five or more in a row, or
//! [`PAIRS_TO_WIN`] captured pairs). Ninuki-renju adds the two rules the programming
//! courses' "gomoku with captures" uses: endgame capture and no double free-three.

/// Captured pairs that win the game (ten stones).
pub const PAIRS_TO_WIN: u8 = 5;

/// A capture variant: a compile-time parameter of [`super::CaptureBoard`].
pub trait Variant: Copy + Default + Send + Sync + 'static {
    /// The name `INFO game` and `--game` use.
    const NAME: &'static str;
    /// A five wins only if the opponent cannot break it by a capture on its next move, and a
    /// side holding four pairs may answer a five by capturing its fifth pair.
    const ENDGAME_CAPTURE: bool;
    /// A move that makes two free threes at once is illegal, unless it captures.
    const NO_DOUBLE_THREE: bool;
}

/// Pente: captures, and a five or five captured pairs wins at once.
#[derive(Clone, Copy, Default, Debug)]
pub struct Pente;

/// Ninuki-renju: Pente's captures plus endgame capture and no double free-three.
#[derive(Clone, Copy, Default, Debug)]
pub struct Ninuki;

impl Variant for Pente {
    const NAME: &'static str = "pente";
    const ENDGAME_CAPTURE: bool = false;
    const NO_DOUBLE_THREE: bool = false;
}

impl Variant for Ninuki {
    const NAME: &'static str = "ninuki";
    const ENDGAME_CAPTURE: bool = true;
    const NO_DOUBLE_THREE: bool = true;
}
