//! The runtime choice of game: [`GameKind`] names a mode (chosen by `INFO rule`,
//! `INFO game`, `INFO k` or the command line) and [`AnyGame`] holds a position of that mode.
//!
//! This is the one place that matches on the mode. `AnyGame` implements [`Game`] by
//! forwarding, so the arena and the engine treat every mode alike; the engine's move choice
//! matches once and then runs the monomorphised search for the concrete type.

use super::connect4::Connect4;
use super::gomoku::capture::{CaptureBoard, Ninuki, PairCountError, Pente};
use super::gomoku::{Board, Caro, CaroExact, Freestyle, Renju, Standard};
use super::mnk::Mnk;
use super::{Color, Game, Move, MoveError, Outcome, ScoredMove};
use std::fmt;

/// Gomoku rule variants, as the protocol's `INFO rule` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GomokuRule {
    /// `rule 0`: five or more wins.
    Freestyle,
    /// `rule 1`: exactly five wins; an overline neither wins nor loses.
    Standard,
    /// `rule 4` (also 2 alone, the Yixin convention): black's forbidden moves.
    Renju,
    /// `rule 8`: a five blocked at both ends by the opponent does not win.
    Caro,
    /// `rule 9`: caro with exactly five.
    CaroExact,
}

impl GomokuRule {
    /// Reads the `INFO rule` bit mask. Bit 2 (continuous game) is ignored except that a bare
    /// `2` means renju, as Yixin-Board and Rapfi use it.
    pub fn from_mask(mask: i64) -> GomokuRule {
        if mask & 4 != 0 || mask == 2 {
            GomokuRule::Renju
        } else if mask & 8 != 0 {
            if mask & 1 != 0 {
                GomokuRule::CaroExact
            } else {
                GomokuRule::Caro
            }
        } else if mask & 1 != 0 {
            GomokuRule::Standard
        } else {
            GomokuRule::Freestyle
        }
    }

    /// The `INFO rule` value a manager sends for this rule.
    pub fn mask(self) -> i64 {
        match self {
            GomokuRule::Freestyle => 0,
            GomokuRule::Standard => 1,
            GomokuRule::Renju => 4,
            GomokuRule::Caro => 8,
            GomokuRule::CaroExact => 9,
        }
    }

    /// Lower-case name (`freestyle`, `standard`, `renju`, `caro`, `caro-exact`).
    pub fn name(self) -> &'static str {
        match self {
            GomokuRule::Freestyle => "freestyle",
            GomokuRule::Standard => "standard",
            GomokuRule::Renju => "renju",
            GomokuRule::Caro => "caro",
            GomokuRule::CaroExact => "caro-exact",
        }
    }

    /// Parses a name or an `INFO rule` number.
    pub fn parse(s: &str) -> Option<GomokuRule> {
        let s = s.trim().to_ascii_lowercase();
        if let Ok(n) = s.parse::<i64>() {
            return Some(GomokuRule::from_mask(n));
        }
        [
            GomokuRule::Freestyle,
            GomokuRule::Standard,
            GomokuRule::Renju,
            GomokuRule::Caro,
            GomokuRule::CaroExact,
        ]
        .into_iter()
        .find(|r| r.name() == s || (s == "exact" && *r == GomokuRule::Standard))
    }
}

/// The gomoku variants with captures (`INFO game pente|ninuki`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureRule {
    /// Captures; five in a row or five captured pairs win.
    Pente,
    /// Pente plus endgame capture and no double free-three (Ninuki-renju).
    Ninuki,
}

impl CaptureRule {
    /// Lower-case name, as `INFO game` takes it.
    pub fn name(self) -> &'static str {
        match self {
            CaptureRule::Pente => "pente",
            CaptureRule::Ninuki => "ninuki",
        }
    }

    /// Parses a name (`pente`, `ninuki`, `ninuki-renju`), any case.
    pub fn parse(s: &str) -> Option<CaptureRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "pente" => Some(CaptureRule::Pente),
            "ninuki" | "ninuki-renju" | "ninuki_renju" => Some(CaptureRule::Ninuki),
            _ => None,
        }
    }
}

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Gomoku(GomokuRule),
    /// Gomoku with captures. `aware: false` plays the plain gomoku search on these rules
    /// (`INFO capture_search plain`), a baseline that ignores captures when it judges.
    Capture {
        rule: CaptureRule,
        aware: bool,
    },
    /// Connect Four with win length `k` (4 unless `INFO k` says otherwise).
    Connect4 {
        k: usize,
    },
    /// An m,n,k game (tic-tac-toe is k = 3 on 3×3).
    Mnk {
        k: usize,
    },
}

impl Default for GameKind {
    fn default() -> Self {
        GameKind::Gomoku(GomokuRule::Freestyle)
    }
}

impl GameKind {
    /// The mode named by `INFO game` / `--game` (`gomoku`, `connect4`, `mnk`, or a rule
    /// name), with the given gomoku rule and win length where they apply.
    pub fn from_name(name: &str, rule: GomokuRule, k: Option<usize>) -> Option<GameKind> {
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "gomoku" => Some(GameKind::Gomoku(rule)),
            "connect4" | "connectfour" | "connect-four" | "c4" => {
                Some(GameKind::Connect4 { k: k.unwrap_or(4) })
            }
            "mnk" | "morpion" | "tictactoe" | "tic-tac-toe" => {
                Some(GameKind::Mnk { k: k.unwrap_or(3) })
            }
            _ => match CaptureRule::parse(&name) {
                Some(rule) => Some(GameKind::Capture { rule, aware: true }),
                None => GomokuRule::parse(&name).map(GameKind::Gomoku),
            },
        }
    }

    /// The same kind with the capture games' search chosen by `INFO capture_search`
    /// (`aware`, the default, or `plain`); other kinds are unchanged.
    pub fn with_capture_search(self, search: Option<&str>) -> GameKind {
        match self {
            GameKind::Capture { rule, .. } => GameKind::Capture {
                rule,
                aware: !search.is_some_and(|s| s.trim().eq_ignore_ascii_case("plain")),
            },
            other => other,
        }
    }

    /// Human-readable name of the mode.
    pub fn describe(&self) -> String {
        match self {
            GameKind::Gomoku(r) => format!("gomoku ({})", r.name()),
            GameKind::Capture { rule, aware: true } => rule.name().to_string(),
            GameKind::Capture { rule, aware: false } => {
                format!("{} (plain gomoku search)", rule.name())
            }
            GameKind::Connect4 { k } => format!("connect four (k={k})"),
            GameKind::Mnk { k } => format!("m,n,k (k={k})"),
        }
    }
}

/// A board size or game parameter the mode does not support.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameError(pub String);

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NewGameError {}

/// A position of any mode.
#[derive(Clone)]
pub enum AnyGame {
    Freestyle(Board<Freestyle>),
    Standard(Board<Standard>),
    Renju(Board<Renju>),
    Caro(Board<Caro>),
    CaroExact(Board<CaroExact>),
    Pente(CaptureBoard<Pente>),
    Ninuki(CaptureBoard<Ninuki>),
    Connect4(Connect4),
    Mnk(Mnk),
}

/// Runs `$body` with `$g` bound to the concrete game inside `$self`.
#[macro_export]
macro_rules! with_game {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            $crate::game::AnyGame::Freestyle($g) => $body,
            $crate::game::AnyGame::Standard($g) => $body,
            $crate::game::AnyGame::Renju($g) => $body,
            $crate::game::AnyGame::Caro($g) => $body,
            $crate::game::AnyGame::CaroExact($g) => $body,
            $crate::game::AnyGame::Pente($g) => $body,
            $crate::game::AnyGame::Ninuki($g) => $body,
            $crate::game::AnyGame::Connect4($g) => $body,
            $crate::game::AnyGame::Mnk($g) => $body,
        }
    };
}

/// Runs `$body` with `$g` bound to a position the alpha-beta search plays (gomoku under
/// any rule, and the capture variants), or evaluates `$other`.
#[macro_export]
macro_rules! with_alphabeta {
    ($self:expr, $g:ident => $body:expr, _ => $other:expr) => {
        match $self {
            $crate::game::AnyGame::Freestyle($g) => $body,
            $crate::game::AnyGame::Standard($g) => $body,
            $crate::game::AnyGame::Renju($g) => $body,
            $crate::game::AnyGame::Caro($g) => $body,
            $crate::game::AnyGame::CaroExact($g) => $body,
            $crate::game::AnyGame::Pente($g) => $body,
            $crate::game::AnyGame::Ninuki($g) => $body,
            _ => $other,
        }
    };
}

/// Runs `$body` with `$g` bound to the capture board inside `$self`, or evaluates `$other`.
#[macro_export]
macro_rules! with_capture {
    ($self:expr, $g:ident => $body:expr, _ => $other:expr) => {
        match $self {
            $crate::game::AnyGame::Pente($g) => $body,
            $crate::game::AnyGame::Ninuki($g) => $body,
            _ => $other,
        }
    };
}

/// Runs `$body` with `$g` bound to the gomoku board inside `$self`, or evaluates `$other`.
#[macro_export]
macro_rules! with_gomoku {
    ($self:expr, $g:ident => $body:expr, _ => $other:expr) => {
        match $self {
            $crate::game::AnyGame::Freestyle($g) => $body,
            $crate::game::AnyGame::Standard($g) => $body,
            $crate::game::AnyGame::Renju($g) => $body,
            $crate::game::AnyGame::Caro($g) => $body,
            $crate::game::AnyGame::CaroExact($g) => $body,
            _ => $other,
        }
    };
}

impl AnyGame {
    /// An empty board of `kind`, `width` × `height`.
    pub fn new(kind: GameKind, width: usize, height: usize) -> Result<AnyGame, NewGameError> {
        fn e(x: impl fmt::Display) -> NewGameError {
            NewGameError(x.to_string())
        }
        Ok(match kind {
            GameKind::Gomoku(r) => match r {
                GomokuRule::Freestyle => AnyGame::Freestyle(Board::new(width, height).map_err(e)?),
                GomokuRule::Standard => AnyGame::Standard(Board::new(width, height).map_err(e)?),
                GomokuRule::Renju => AnyGame::Renju(Board::new(width, height).map_err(e)?),
                GomokuRule::Caro => AnyGame::Caro(Board::new(width, height).map_err(e)?),
                GomokuRule::CaroExact => AnyGame::CaroExact(Board::new(width, height).map_err(e)?),
            },
            GameKind::Capture { rule, aware } => {
                let mut g = match rule {
                    CaptureRule::Pente => {
                        AnyGame::Pente(CaptureBoard::new(width, height).map_err(e)?)
                    }
                    CaptureRule::Ninuki => {
                        AnyGame::Ninuki(CaptureBoard::new(width, height).map_err(e)?)
                    }
                };
                with_capture!(&mut g, b => b.set_capture_aware(aware), _ => ());
                g
            }
            GameKind::Connect4 { k } => {
                AnyGame::Connect4(Connect4::new(width, height, k).map_err(e)?)
            }
            GameKind::Mnk { k } => AnyGame::Mnk(Mnk::new(width, height, k).map_err(e)?),
        })
    }

    /// A cell blocked for both players (`BOARD` field 3). Gomoku only.
    pub fn place_wall(&mut self, m: Move) -> Result<(), MoveError> {
        with_gomoku!(self, g => g.place_wall(m), _ => {
            with_capture!(self, g => g.place_wall(m), _ => Err(MoveError::Unsupported))
        })
    }

    /// Renju forbidden points for black, Ninuki's double free-threes for the side to move
    /// (empty for other modes and rules).
    pub fn forbidden_points(&self) -> Vec<Move> {
        with_gomoku!(self, g => g.forbidden_points(), _ => {
            with_capture!(self, g => g.forbidden_points(), _ => Vec::new())
        })
    }

    /// Sets the pairs `c` has captured (`INFO captures_black|white`). `Ok(false)` where the
    /// mode has no captures (nothing changes).
    pub fn set_captured_pairs(&mut self, c: Color, pairs: u32) -> Result<bool, PairCountError> {
        with_capture!(self, g => g.set_captured_pairs(c, pairs).map(|()| true), _ => Ok(false))
    }
}

impl Game for AnyGame {
    fn width(&self) -> usize {
        with_game!(self, g => g.width())
    }
    fn height(&self) -> usize {
        with_game!(self, g => g.height())
    }
    fn side_to_move(&self) -> Color {
        with_game!(self, g => g.side_to_move())
    }
    fn ply(&self) -> usize {
        with_game!(self, g => g.ply())
    }
    fn stone_at(&self, m: Move) -> Option<Color> {
        with_game!(self, g => g.stone_at(m))
    }
    fn last_move(&self) -> Option<Move> {
        with_game!(self, g => g.last_move())
    }
    fn check_move(&self, m: Move) -> Result<(), MoveError> {
        with_game!(self, g => g.check_move(m))
    }
    fn play(&mut self, m: Move) {
        with_game!(self, g => g.play(m))
    }
    fn pass(&mut self) -> bool {
        with_game!(self, g => g.pass())
    }
    fn undo(&mut self) {
        with_game!(self, g => g.undo())
    }
    fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }
    fn key(&self) -> u64 {
        with_game!(self, g => g.key())
    }
    fn key_after(&self, m: Move) -> Option<u64> {
        with_game!(self, g => g.key_after(m))
    }
    fn is_forbidden(&self, m: Move) -> bool {
        with_game!(self, g => g.is_forbidden(m))
    }
    fn candidates(&self, out: &mut Vec<ScoredMove>) {
        with_game!(self, g => g.candidates(out))
    }
    fn evaluate(&self) -> i32 {
        with_game!(self, g => g.evaluate())
    }
    fn place(&mut self, m: Move) -> Result<(), MoveError> {
        with_game!(self, g => g.place(m))
    }
    fn captures(&self) -> Option<[u8; 2]> {
        with_game!(self, g => g.captures())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_masks_map_as_managers_send_them() {
        assert_eq!(GomokuRule::from_mask(0), GomokuRule::Freestyle);
        assert_eq!(GomokuRule::from_mask(1), GomokuRule::Standard);
        assert_eq!(GomokuRule::from_mask(2), GomokuRule::Renju);
        assert_eq!(GomokuRule::from_mask(3), GomokuRule::Standard);
        assert_eq!(GomokuRule::from_mask(4), GomokuRule::Renju);
        assert_eq!(GomokuRule::from_mask(6), GomokuRule::Renju);
        assert_eq!(GomokuRule::from_mask(8), GomokuRule::Caro);
        assert_eq!(GomokuRule::from_mask(9), GomokuRule::CaroExact);
        assert_eq!(GomokuRule::from_mask(10), GomokuRule::Caro);
        for r in [
            GomokuRule::Freestyle,
            GomokuRule::Standard,
            GomokuRule::Renju,
            GomokuRule::Caro,
            GomokuRule::CaroExact,
        ] {
            assert_eq!(GomokuRule::from_mask(r.mask()), r);
            assert_eq!(GomokuRule::parse(r.name()), Some(r));
        }
    }
}
