//! The arguments of one-line commands: board sizes (`START`, `RECTSTART`), moves (`TURN`,
//! `PLAY`, `TAKEBACK`) and counts (`YXNBEST`).

use super::{echo, Command, ParseError, MAX_SIZE, MIN_SIZE};
use crate::game::Move;

/// A non-negative decimal integer made of ASCII digits only (no sign, no spaces), or `None`
/// if it is anything else or does not fit a `u64`.
fn parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// One board side: an integer in `MIN_SIZE..=MAX_SIZE`.
fn parse_side(s: &str) -> Option<usize> {
    parse_uint(s)
        .filter(|&n| (MIN_SIZE as u64..=MAX_SIZE as u64).contains(&n))
        .map(|n| n as usize)
}

/// `START n` or `START w h`.
pub(super) fn parse_start(rest: &str) -> Result<Command, ParseError> {
    const NAME: &str = "START";
    let bad = || ParseError::BadSize {
        command: NAME,
        text: echo(rest),
    };
    let mut words = rest.split_whitespace();
    let (w, h) = match (words.next(), words.next(), words.next()) {
        (None, _, _) => return Err(ParseError::MissingArgument { command: NAME }),
        (Some(n), None, _) => (n, n),
        (Some(w), Some(h), None) => (w, h),
        _ => return Err(bad()),
    };
    match (parse_side(w), parse_side(h)) {
        (Some(width), Some(height)) => Ok(Command::Start { width, height }),
        _ => Err(bad()),
    }
}

/// `RECTSTART w,h` (spaces around the comma tolerated).
pub(super) fn parse_rectstart(rest: &str) -> Result<Command, ParseError> {
    const NAME: &str = "RECTSTART";
    if rest.is_empty() {
        return Err(ParseError::MissingArgument { command: NAME });
    }
    let mut parts = rest.split(',').map(str::trim);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(w), Some(h), None) => match (parse_side(w), parse_side(h)) {
            (Some(width), Some(height)) => Ok(Command::RectStart { width, height }),
            _ => Err(ParseError::BadSize {
                command: NAME,
                text: echo(rest),
            }),
        },
        _ => Err(ParseError::BadSize {
            command: NAME,
            text: echo(rest),
        }),
    }
}

/// `YXNBEST n` with n ≥ 1.
pub(super) fn parse_nbest(rest: &str) -> Result<Command, ParseError> {
    const NAME: &str = "YXNBEST";
    if rest.is_empty() {
        return Err(ParseError::MissingArgument { command: NAME });
    }
    parse_uint(rest)
        .filter(|&n| n >= 1)
        .and_then(|n| usize::try_from(n).ok())
        .map(Command::YxNBest)
        .ok_or_else(|| ParseError::BadNumber {
            command: NAME,
            text: echo(rest),
        })
}

/// A coordinate component: an integer that fits a `Move` field.
pub(super) fn parse_coord(s: &str) -> Option<u8> {
    parse_uint(s.trim()).and_then(|n| u8::try_from(n).ok())
}

/// `x,y` with exactly one comma (spaces around the numbers tolerated).
pub(super) fn parse_move(s: &str) -> Result<Move, ()> {
    let mut parts = s.split(',');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(x), Some(y), None) => match (parse_coord(x), parse_coord(y)) {
            (Some(x), Some(y)) => Ok(Move::new(x, y)),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tests::{mv, one};

    #[test]
    fn start_square_and_rect() {
        assert_eq!(
            one("START 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            one("start 15 16"),
            Ok(Command::Start {
                width: 15,
                height: 16
            })
        );
        assert_eq!(
            one("START 5"),
            Ok(Command::Start {
                width: 5,
                height: 5
            })
        );
        assert_eq!(
            one("START 32"),
            Ok(Command::Start {
                width: 32,
                height: 32
            })
        );
    }

    #[test]
    fn start_bad_sizes() {
        // Too small for gomoku but not for tic-tac-toe: the engine decides by mode.
        for (line, n) in [("START 1", 1), ("START 3", 3), ("START 4", 4)] {
            assert_eq!(
                one(line),
                Ok(Command::Start {
                    width: n,
                    height: n
                })
            );
        }
        for bad in [
            "START 0",
            "START 33",
            "START 100000",
            "START -15",
            "START abc",
            "START +15",
            "START 15.0",
            "START 99999999999999999999999999",
            "START 15 16 17",
            "START 15 0",
        ] {
            assert!(
                matches!(
                    one(bad),
                    Err(ParseError::BadSize {
                        command: "START",
                        ..
                    })
                ),
                "{bad}"
            );
        }
        assert_eq!(
            one("START"),
            Err(ParseError::MissingArgument { command: "START" })
        );
    }

    #[test]
    fn rectstart() {
        assert_eq!(
            one("RECTSTART 7,6"),
            Ok(Command::RectStart {
                width: 7,
                height: 6
            })
        );
        assert_eq!(
            one("rectstart 20 , 15"),
            Ok(Command::RectStart {
                width: 20,
                height: 15
            })
        );
        for bad in [
            "RECTSTART 7",
            "RECTSTART 7,6,5",
            "RECTSTART 0,6",
            "RECTSTART 7,33",
            "RECTSTART a,b",
            "RECTSTART 7 6",
        ] {
            assert!(matches!(one(bad), Err(ParseError::BadSize { .. })), "{bad}");
        }
        assert_eq!(
            one("RECTSTART"),
            Err(ParseError::MissingArgument {
                command: "RECTSTART"
            })
        );
    }

    #[test]
    fn moves_parse() {
        assert_eq!(one("TURN 7,8"), Ok(Command::Turn(mv(7, 8))));
        assert_eq!(one("turn 0,0\r"), Ok(Command::Turn(mv(0, 0))));
        assert_eq!(one("PLAY 31,2"), Ok(Command::Play(mv(31, 2))));
        assert_eq!(one("TAKEBACK 255,255"), Ok(Command::Takeback(mv(255, 255))));
        assert_eq!(one("TURN 7 , 8"), Ok(Command::Turn(mv(7, 8))));
    }

    #[test]
    fn moves_bad_coordinates() {
        for bad in [
            "TURN -1,5",
            "TURN 5,-1",
            "TURN 256,0",
            "TURN 0,99999999999999999999999",
            "TURN 7 8",
            "TURN 7,8,9",
            "TURN 7,",
            "TURN ,7",
            "TURN x,y",
            "TURN 7,8 9",
            "PLAY 1;2",
            "TAKEBACK 1.5,2",
        ] {
            let r = one(bad);
            assert!(
                matches!(r, Err(ParseError::BadCoordinates { .. })),
                "{bad}: {r:?}"
            );
            assert!(r.unwrap_err().to_string().starts_with("bad coordinates"));
        }
        assert_eq!(
            one("TURN"),
            Err(ParseError::MissingArgument { command: "TURN" })
        );
    }

    #[test]
    fn nbest() {
        assert_eq!(one("YXNBEST 3"), Ok(Command::YxNBest(3)));
        for bad in [
            "YXNBEST 0",
            "YXNBEST -1",
            "YXNBEST x",
            "YXNBEST 99999999999999999999999",
        ] {
            assert!(
                matches!(one(bad), Err(ParseError::BadNumber { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            one("YXNBEST"),
            Err(ParseError::MissingArgument { .. })
        ));
    }
}
