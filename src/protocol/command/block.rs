//! The multi-line blocks (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`, each
//! closed by `DONE`): their kinds, the data lines and how a block becomes a [`Command`].

use super::args::parse_coord;
use super::{echo, Command, Field, ParseError, MAX_BLOCK_ENTRIES};
use crate::game::Move;

/// The multi-line blocks, each closed by `DONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
    YxBlock,
    YxBlockUndo,
}

impl BlockKind {
    /// The command word that opens the block.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }

    /// Whether data lines carry a third field (`x,y,f`) or only `x,y`.
    fn has_field(self) -> bool {
        matches!(self, BlockKind::Board | BlockKind::YxBoard)
    }
}

/// Why a data line inside a block was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Not two non-negative integers that fit a coordinate.
    BadCoordinates,
    /// The third field is not 1, 2 or 3 (or is missing / followed by more fields).
    BadField,
}

/// A block being collected: its kind, the entries so far, and the first error met.
#[derive(Debug)]
pub(super) struct OpenBlock {
    pub(super) kind: BlockKind,
    entries: Vec<(Move, Field)>,
    error: Option<ParseError>,
}

impl OpenBlock {
    pub(super) fn new(kind: BlockKind) -> OpenBlock {
        OpenBlock {
            kind,
            entries: Vec::new(),
            error: None,
        }
    }

    /// Takes one data line; keeps only the first error so the report names the culprit.
    pub(super) fn push_line(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        if self.entries.len() >= MAX_BLOCK_ENTRIES {
            self.error = Some(ParseError::BlockTooLong { block: self.kind });
            return;
        }
        match parse_data_line(line, self.kind.has_field()) {
            Ok(entry) => self.entries.push(entry),
            Err(reason) => {
                self.error = Some(ParseError::BadBlockLine {
                    block: self.kind,
                    line: echo(line),
                    reason,
                })
            }
        }
    }

    /// The command the block stands for, or its first error.
    pub(super) fn finish(self) -> Result<Command, ParseError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let entries = self.entries;
        let moves = || entries.iter().map(|&(m, _)| m).collect::<Vec<_>>();
        Ok(match self.kind {
            BlockKind::Swap2Board => Command::Swap2Board(moves()),
            BlockKind::YxBlock => Command::YxBlock(moves()),
            BlockKind::YxBlockUndo => Command::YxBlockUndo(moves()),
            BlockKind::Board => Command::Board(entries),
            BlockKind::YxBoard => Command::YxBoard(entries),
        })
    }
}

/// A block data line: `x,y,f` when `with_field`, else `x,y`. Blocks without a field get
/// [`Field::Own`] as a filler that [`OpenBlock::finish`] drops.
fn parse_data_line(line: &str, with_field: bool) -> Result<(Move, Field), LineError> {
    let parts: Vec<&str> = line.splitn(4, ',').collect();
    let coords_ok = |x: &str, y: &str| match (parse_coord(x), parse_coord(y)) {
        (Some(x), Some(y)) => Ok(Move::new(x, y)),
        _ => Err(LineError::BadCoordinates),
    };
    match (with_field, parts.as_slice()) {
        (false, [x, y]) => Ok((coords_ok(x, y)?, Field::Own)),
        (true, [x, y, f]) => {
            let m = coords_ok(x, y)?;
            let field = match f.trim() {
                "1" => Field::Own,
                "2" => Field::Opponent,
                "3" => Field::Wall,
                _ => return Err(LineError::BadField),
            };
            Ok((m, field))
        }
        // Two fields where three are needed: the coordinates may be fine, the field is missing.
        (true, [x, y]) => {
            coords_ok(x, y)?;
            Err(LineError::BadField)
        }
        (true, [x, y, _, _]) => {
            coords_ok(x, y)?;
            Err(LineError::BadField)
        }
        _ => Err(LineError::BadCoordinates),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tests::{mv, one, run};
    use super::super::Parser;

    #[test]
    fn board_block() {
        let mut p = Parser::new();
        assert_eq!(p.feed("BOARD"), None);
        assert!(p.in_block());
        assert_eq!(p.feed("7,7,1"), None);
        assert_eq!(p.feed(""), None);
        assert_eq!(p.feed("8,8,2\r"), None);
        assert_eq!(p.feed("9,9,3"), None);
        assert_eq!(
            p.feed("done"),
            Some(Ok(Command::Board(vec![
                (mv(7, 7), Field::Own),
                (mv(8, 8), Field::Opponent),
                (mv(9, 9), Field::Wall),
            ])))
        );
        assert!(!p.in_block());
        assert_eq!(p.next_pending(), None);
    }

    #[test]
    fn empty_board_and_other_blocks() {
        assert_eq!(run(&["BOARD", "DONE"]), vec![Ok(Command::Board(vec![]))]);
        assert_eq!(
            run(&["yxboard", "1,2,2", "DONE"]),
            vec![Ok(Command::YxBoard(vec![(mv(1, 2), Field::Opponent)]))]
        );
        assert_eq!(
            run(&["SWAP2BOARD", "7,7", "8,8", "9,9", "DONE"]),
            vec![Ok(Command::Swap2Board(vec![mv(7, 7), mv(8, 8), mv(9, 9)]))]
        );
        assert_eq!(
            run(&["YXBLOCK", "3,4", "DONE"]),
            vec![Ok(Command::YxBlock(vec![mv(3, 4)]))]
        );
        assert_eq!(
            run(&["YXBLOCKUNDO", "3,4", "DONE"]),
            vec![Ok(Command::YxBlockUndo(vec![mv(3, 4)]))]
        );
        // SWAP2BOARD lines carry no field.
        assert!(matches!(
            run(&["SWAP2BOARD", "7,7,1", "DONE"])[..],
            [Err(ParseError::BadBlockLine {
                reason: LineError::BadCoordinates,
                ..
            })]
        ));
    }

    #[test]
    fn board_bad_line_reported_at_done() {
        for bad in [
            "7,7,4", "7,7,0", "7,7", "7,7,1,1", "garbage", "-1,2,1", "7,x,1",
        ] {
            let mut p = Parser::new();
            assert_eq!(p.feed("BOARD"), None);
            assert_eq!(p.feed("1,1,1"), None);
            assert_eq!(p.feed(bad), None, "{bad}");
            assert_eq!(p.feed("2,2,2"), None);
            let r = p.feed("DONE");
            match r {
                Some(Err(ParseError::BadBlockLine { block, line, .. })) => {
                    assert_eq!(block, BlockKind::Board);
                    assert_eq!(line, bad);
                }
                other => panic!("{bad}: {other:?}"),
            }
            assert!(!p.in_block());
            assert_eq!(p.next_pending(), None);
        }
        let e = run(&["BOARD", "7,7,4", "DONE"]);
        assert_eq!(
            e[0].as_ref().unwrap_err().to_string(),
            "BOARD line \"7,7,4\": field must be 1, 2 or 3"
        );
    }

    #[test]
    fn command_inside_block_aborts_and_is_kept() {
        for (word, cmd) in [
            ("END", Ok(Command::End)),
            (
                "START 15",
                Ok(Command::Start {
                    width: 15,
                    height: 15,
                }),
            ),
            ("begin", Ok(Command::Begin)),
            ("TURN 3,3", Ok(Command::Turn(mv(3, 3)))),
            (
                "INFO timeout_turn 500",
                Ok(Command::Info {
                    key: "timeout_turn".into(),
                    value: "500".into(),
                }),
            ),
            (
                "START 0",
                Err(ParseError::BadSize {
                    command: "START",
                    text: "0".into(),
                }),
            ),
        ] {
            let out = run(&["BOARD", "7,7,1", word]);
            assert_eq!(out.len(), 2, "{word}: {out:?}");
            assert!(
                matches!(
                    &out[0],
                    Err(ParseError::BlockInterrupted {
                        block: BlockKind::Board,
                        ..
                    })
                ),
                "{word}"
            );
            assert_eq!(out[1], cmd, "{word}");
        }
        // A new block opened by the interrupting line is itself collected.
        let out = run(&["BOARD", "7,7,1", "BOARD", "8,8,2", "DONE"]);
        assert_eq!(out.len(), 2);
        assert!(out[0].is_err());
        assert_eq!(
            out[1],
            Ok(Command::Board(vec![(mv(8, 8), Field::Opponent)]))
        );
    }

    #[test]
    fn done_outside_block() {
        assert_eq!(one("DONE"), Err(ParseError::DoneOutsideBlock));
    }

    #[test]
    fn block_too_long() {
        let mut p = Parser::new();
        p.feed("BOARD");
        for i in 0..(MAX_BLOCK_ENTRIES + 10) {
            assert_eq!(p.feed(&format!("{},{},1", i % 32, i / 32)), None);
        }
        assert_eq!(
            p.feed("DONE"),
            Some(Err(ParseError::BlockTooLong {
                block: BlockKind::Board
            }))
        );
    }
}
