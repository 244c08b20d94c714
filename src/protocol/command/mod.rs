//! Turns the manager's text lines into typed [`Command`]s; it owns nothing but the syntax.
//!
//! The parser is pure (no I/O, no engine state) and stateful only because of the multi-line
//! blocks (`BOARD` … `DONE` and its relatives): a [`Parser`] remembers the open block and the
//! results still to be handed out. Whether a coordinate is on the *current* board, a cell is
//! empty, or a board size suits the chosen mode is the engine's business; here a coordinate only has to be a pair of non-negative
//! integers that fit a [`Move`]. Input is hostile by assumption (arbitrary bytes, megabyte lines,
//! huge numbers), so every path returns a value or a typed [`ParseError`] and nothing panics;
//! text that is echoed back (`UNKNOWN …`, error messages) is clipped and stripped of control
//! characters so that one bad line can never become several lines on the manager's side.
//!
//! A command word met inside an open block aborts the block: the block's error comes out first
//! and the command itself is queued behind it, so nothing is lost. Every call to
//! [`Parser::feed`] hands out at most one result; drain the rest with [`Parser::next_pending`]
//! before feeding the next line.

use crate::game::Move;
use std::collections::VecDeque;
use std::fmt;

mod args;
mod block;

use args::{parse_move, parse_nbest, parse_rectstart, parse_start};
use block::OpenBlock;
pub use block::{BlockKind, LineError};

/// Smallest board side the parser lets through. Each mode has its own minimum (gomoku 5,
/// Connect Four 4, m,n,k 3 for tic-tac-toe's `START 3`), checked by the engine when it builds
/// the board, so the parser only rejects what no mode can use.
pub const MIN_SIZE: usize = 1;
/// Largest board side any mode plays on (one row per 32-bit word in the gomoku board).
pub const MAX_SIZE: usize = 32;
/// A block never holds more entries than a largest board has cells; more is an error, and
/// stops the parser from collecting an unbounded list.
pub const MAX_BLOCK_ENTRIES: usize = MAX_SIZE * MAX_SIZE;
/// Longest piece of input text kept in a [`Command::Unknown`] or an error message, in chars.
pub const MAX_ECHO_CHARS: usize = 120;

/// One thing the manager asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (square) or `START w h` (Yixin-Board's form).
    Start {
        width: usize,
        height: usize,
    },
    /// `RECTSTART w,h`.
    RectStart {
        width: usize,
        height: usize,
    },
    Restart,
    Begin,
    /// `TURN x,y`: the opponent played there; answer a move.
    Turn(Move),
    /// `PLAY x,y`: the manager's answer to a `SUGGEST`.
    Play(Move),
    Takeback(Move),
    /// `BOARD` … `DONE`: clear, set these stones in the listed order, then answer a move.
    /// An empty list means "move first on the empty board".
    Board(Vec<(Move, Field)>),
    /// `YXBOARD` … `DONE`: like `Board` but set the position only, no move is owed.
    YxBoard(Vec<(Move, Field)>),
    /// `SWAP2BOARD` … `DONE`: the stones of the swap2 opening so far (black first).
    Swap2Board(Vec<Move>),
    YxBlock(Vec<Move>),
    YxBlockUndo(Vec<Move>),
    YxBlockReset,
    /// `INFO key value`: `key` lower-cased, `value` the rest of the line, trimmed (may be
    /// empty). Never an error: the protocol forbids answering INFO, so a malformed value is
    /// for the engine to ignore.
    Info {
        key: String,
        value: String,
    },
    End,
    About,
    /// `YXSTOP` or `STOP`: answer the best move found so far.
    Stop,
    YxShowForbid,
    YxHashClear,
    YxShowInfo,
    YxNBest(usize),
    YxSearchDefend,
    YxShowHashUsage,
    /// `TRACEBOARD`: debugging report (board, static evaluation, candidates) as MESSAGEs.
    TraceBoard,
    /// `TRACESEARCH`: short multi-line analysis and forced-win verdict as MESSAGEs.
    TraceSearch,
    /// Any other line (sanitised and clipped), to be answered `UNKNOWN <text>`.
    Unknown(String),
}

/// What a `BOARD` / `YXBOARD` data line says stands on a cell, from the engine's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: the engine's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: continuous-game marker (winning line / forbidden point); a wall for us.
    Wall,
}

/// A known command with arguments that do not parse. `Display` gives the reason printed
/// after `ERROR `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A command that needs arguments got none.
    MissingArgument { command: &'static str },
    /// Board size not a number in `MIN_SIZE..=MAX_SIZE` (`text` is the argument as given).
    BadSize { command: &'static str, text: String },
    /// Coordinates that are not two non-negative integers fitting a [`Move`].
    BadCoordinates { command: &'static str, text: String },
    /// A numeric argument that is not a positive integer.
    BadNumber { command: &'static str, text: String },
    /// A data line inside a block was bad; reported at `DONE` (the first such line is kept).
    BadBlockLine {
        block: BlockKind,
        line: String,
        reason: LineError,
    },
    /// More data lines than any board has cells.
    BlockTooLong { block: BlockKind },
    /// A command word arrived before the block's `DONE`; the command follows this error.
    BlockInterrupted { block: BlockKind, by: String },
    /// `DONE` with no open block.
    DoneOutsideBlock,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::MissingArgument { command } => write!(f, "{command} needs an argument"),
            ParseError::BadSize { command, text } => write!(
                f,
                "{command}: unsupported board size \"{text}\" (sides must be {MIN_SIZE}..={MAX_SIZE})"
            ),
            ParseError::BadCoordinates { command, text } => {
                write!(f, "bad coordinates \"{text}\" in {command}")
            }
            ParseError::BadNumber { command, text } => {
                write!(f, "{command}: \"{text}\" is not a positive integer")
            }
            ParseError::BadBlockLine {
                block,
                line,
                reason,
            } => {
                let why = match reason {
                    LineError::BadCoordinates => "bad coordinates",
                    LineError::BadField => "field must be 1, 2 or 3",
                };
                write!(f, "{} line \"{line}\": {why}", block.name())
            }
            ParseError::BlockTooLong { block } => write!(
                f,
                "{} has more than {MAX_BLOCK_ENTRIES} lines",
                block.name()
            ),
            ParseError::BlockInterrupted { block, by } => {
                write!(f, "{} not closed by DONE before {by}", block.name())
            }
            ParseError::DoneOutsideBlock => f.write_str("DONE without an open block"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The stateful line parser. See the module docs for the feeding discipline.
#[derive(Debug, Default)]
pub struct Parser {
    block: Option<OpenBlock>,
    pending: VecDeque<Result<Command, ParseError>>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Feeds one raw line (a trailing `\n` / `\r\n` is allowed) and returns the next result
    /// the parser has: nothing for a blank line or a line inside a block, a command, or a
    /// typed error for a known command with bad arguments. When a command word interrupts a
    /// block, this returns the block's error and queues the command: call
    /// [`Parser::next_pending`] until it returns `None` before feeding the next line.
    pub fn feed(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        self.process(line);
        self.pending.pop_front()
    }

    /// [`Parser::feed`] for raw bytes: invalid UTF-8 becomes U+FFFD, so any byte string is
    /// a line (and at worst an unknown command).
    pub fn feed_bytes(&mut self, line: &[u8]) -> Option<Result<Command, ParseError>> {
        self.feed(&String::from_utf8_lossy(line))
    }

    /// The next queued result, if a line completed more than one.
    pub fn next_pending(&mut self) -> Option<Result<Command, ParseError>> {
        self.pending.pop_front()
    }

    /// True while inside a multi-line block (`BOARD` … `DONE` and the like).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    fn process(&mut self, raw: &str) {
        let line = raw.trim_end_matches(['\n', '\r']).trim();
        if line.is_empty() {
            return;
        }
        let (word, rest) = split_word(line);
        let word = word.to_ascii_uppercase();
        let known = Keyword::from_word(&word);
        if let Some(block) = self.block.take() {
            match known {
                Some(Keyword::Done) => {
                    self.pending.push_back(block.finish());
                    return;
                }
                Some(_) => {
                    self.pending.push_back(Err(ParseError::BlockInterrupted {
                        block: block.kind,
                        by: echo(&word),
                    }));
                    // Fall through: the interrupting line is parsed as the command it is.
                }
                None => {
                    let mut block = block;
                    block.push_line(line);
                    self.block = Some(block);
                    return;
                }
            }
        }
        match known {
            None => self.pending.push_back(Ok(Command::Unknown(echo(line)))),
            Some(kw) => match kw.parse(rest) {
                Parsed::Done(result) => self.pending.push_back(result),
                Parsed::Open(kind) => self.block = Some(OpenBlock::new(kind)),
            },
        }
    }
}

/// The command words this parser knows (upper case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Start,
    RectStart,
    Restart,
    Begin,
    Turn,
    Play,
    Takeback,
    Board,
    YxBoard,
    Swap2Board,
    YxBlock,
    YxBlockUndo,
    YxBlockReset,
    Done,
    Info,
    End,
    About,
    Stop,
    YxShowForbid,
    YxHashClear,
    YxShowInfo,
    YxNBest,
    YxSearchDefend,
    YxShowHashUsage,
    TraceBoard,
    TraceSearch,
}

/// What a command line produced: a finished result, or an opened block.
enum Parsed {
    Done(Result<Command, ParseError>),
    Open(BlockKind),
}

impl Keyword {
    fn from_word(upper: &str) -> Option<Keyword> {
        Some(match upper {
            "START" => Keyword::Start,
            "RECTSTART" => Keyword::RectStart,
            "RESTART" => Keyword::Restart,
            "BEGIN" => Keyword::Begin,
            "TURN" => Keyword::Turn,
            "PLAY" => Keyword::Play,
            "TAKEBACK" => Keyword::Takeback,
            "BOARD" => Keyword::Board,
            "YXBOARD" => Keyword::YxBoard,
            "SWAP2BOARD" => Keyword::Swap2Board,
            "YXBLOCK" => Keyword::YxBlock,
            "YXBLOCKUNDO" => Keyword::YxBlockUndo,
            "YXBLOCKRESET" => Keyword::YxBlockReset,
            "DONE" => Keyword::Done,
            "INFO" => Keyword::Info,
            "END" => Keyword::End,
            "ABOUT" => Keyword::About,
            "YXSTOP" | "STOP" => Keyword::Stop,
            "YXSHOWFORBID" => Keyword::YxShowForbid,
            "YXHASHCLEAR" => Keyword::YxHashClear,
            "YXSHOWINFO" => Keyword::YxShowInfo,
            "YXNBEST" => Keyword::YxNBest,
            "YXSEARCHDEFEND" => Keyword::YxSearchDefend,
            "YXSHOWHASHUSAGE" => Keyword::YxShowHashUsage,
            "TRACEBOARD" => Keyword::TraceBoard,
            "TRACESEARCH" => Keyword::TraceSearch,
            _ => return None,
        })
    }

    /// Parses the arguments (`rest`, already trimmed). Commands without arguments ignore any
    /// trailing words, as the reference skeleton and Rapfi do.
    fn parse(self, rest: &str) -> Parsed {
        let done = |c: Command| Parsed::Done(Ok(c));
        let at = |name: &'static str, wrap: fn(Move) -> Command| {
            Parsed::Done(parse_move(rest).map(wrap).map_err(|()| {
                if rest.is_empty() {
                    ParseError::MissingArgument { command: name }
                } else {
                    ParseError::BadCoordinates {
                        command: name,
                        text: echo(rest),
                    }
                }
            }))
        };
        match self {
            Keyword::Start => Parsed::Done(parse_start(rest)),
            Keyword::RectStart => Parsed::Done(parse_rectstart(rest)),
            Keyword::Restart => done(Command::Restart),
            Keyword::Begin => done(Command::Begin),
            Keyword::Turn => at("TURN", Command::Turn),
            Keyword::Play => at("PLAY", Command::Play),
            Keyword::Takeback => at("TAKEBACK", Command::Takeback),
            Keyword::Board => Parsed::Open(BlockKind::Board),
            Keyword::YxBoard => Parsed::Open(BlockKind::YxBoard),
            Keyword::Swap2Board => Parsed::Open(BlockKind::Swap2Board),
            Keyword::YxBlock => Parsed::Open(BlockKind::YxBlock),
            Keyword::YxBlockUndo => Parsed::Open(BlockKind::YxBlockUndo),
            Keyword::YxBlockReset => done(Command::YxBlockReset),
            Keyword::Done => Parsed::Done(Err(ParseError::DoneOutsideBlock)),
            Keyword::Info => {
                let (key, value) = split_word(rest);
                done(Command::Info {
                    key: key.to_lowercase(),
                    value: value.to_string(),
                })
            }
            Keyword::End => done(Command::End),
            Keyword::About => done(Command::About),
            Keyword::Stop => done(Command::Stop),
            Keyword::YxShowForbid => done(Command::YxShowForbid),
            Keyword::YxHashClear => done(Command::YxHashClear),
            Keyword::YxShowInfo => done(Command::YxShowInfo),
            Keyword::YxNBest => Parsed::Done(parse_nbest(rest)),
            Keyword::YxSearchDefend => done(Command::YxSearchDefend),
            Keyword::YxShowHashUsage => done(Command::YxShowHashUsage),
            Keyword::TraceBoard => done(Command::TraceBoard),
            Keyword::TraceSearch => done(Command::TraceSearch),
        }
    }
}

/// Splits a trimmed line into its first word and the trimmed rest.
fn split_word(line: &str) -> (&str, &str) {
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    }
}

/// Input text made safe to print on one protocol line: control characters (a lone `\r`
/// would end the line on the manager's side) become `?`, and long text is clipped.
fn echo(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(MAX_ECHO_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(MAX_ECHO_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds lines and collects every result, draining the queue after each line.
    pub(super) fn run(lines: &[&str]) -> Vec<Result<Command, ParseError>> {
        let mut p = Parser::new();
        let mut out = Vec::new();
        for l in lines {
            let mut r = p.feed(l);
            while let Some(x) = r {
                out.push(x);
                r = p.next_pending();
            }
        }
        out
    }

    pub(super) fn one(line: &str) -> Result<Command, ParseError> {
        let mut v = run(&[line]);
        assert_eq!(v.len(), 1, "{line:?} gave {v:?}");
        v.pop().unwrap()
    }

    pub(super) fn mv(x: u8, y: u8) -> Move {
        Move::new(x, y)
    }

    #[test]
    fn argumentless_commands() {
        let cases = [
            ("RESTART", Command::Restart),
            ("BEGIN", Command::Begin),
            ("END", Command::End),
            ("ABOUT", Command::About),
            ("YXSTOP", Command::Stop),
            ("stop", Command::Stop),
            ("YXBLOCKRESET", Command::YxBlockReset),
            ("yxshowforbid", Command::YxShowForbid),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("YXSEARCHDEFEND", Command::YxSearchDefend),
            ("YXSHOWHASHUSAGE", Command::YxShowHashUsage),
            ("traceboard", Command::TraceBoard),
            ("TRACESEARCH", Command::TraceSearch),
            ("  Begin  \r\n", Command::Begin),
            ("END now", Command::End),
        ];
        for (line, cmd) in cases {
            assert_eq!(one(line), Ok(cmd), "{line:?}");
        }
    }

    #[test]
    fn feed_without_draining_loses_nothing() {
        let mut p = Parser::new();
        p.feed("BOARD");
        assert!(p.feed("END").unwrap().is_err());
        // The queued END is not drained; the next line's result comes after it.
        assert_eq!(p.feed("ABOUT"), Some(Ok(Command::End)));
        assert_eq!(p.next_pending(), Some(Ok(Command::About)));
        assert_eq!(p.next_pending(), None);
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            one("INFO Timeout_Turn   1000 "),
            Ok(Command::Info {
                key: "timeout_turn".into(),
                value: "1000".into()
            })
        );
        assert_eq!(
            one("info folder C:/My Games/x"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:/My Games/x".into()
            })
        );
        assert_eq!(
            one("INFO"),
            Ok(Command::Info {
                key: String::new(),
                value: String::new()
            })
        );
    }

    #[test]
    fn unknown_lines() {
        assert_eq!(one("FOO bar"), Ok(Command::Unknown("FOO bar".into())));
        assert_eq!(
            one("yxbalanceone 0"),
            Ok(Command::Unknown("yxbalanceone 0".into()))
        );
        assert_eq!(one("TURN7,7"), Ok(Command::Unknown("TURN7,7".into())));
        // A lone CR or NUL inside must not reach stdout raw.
        assert_eq!(one("A\rB\0C"), Ok(Command::Unknown("A?B?C".into())));
    }

    #[test]
    fn blank_lines_give_nothing() {
        assert!(run(&["", "   ", "\r", "\r\n", "\t"]).is_empty());
    }

    #[test]
    fn hostile_input_never_panics() {
        let huge = "7".repeat(1 << 20);
        let long_word = "X".repeat(1 << 20);
        let lines = [
            format!("START {huge}"),
            format!("TURN {huge},{huge}"),
            long_word.clone(),
            format!("INFO {long_word} {long_word}"),
            "\0\0\0".to_string(),
            "ＳＴＡＲＴ １５".to_string(),
            "START ١٥".to_string(),
            "TURN ７,７".to_string(),
            "é,ü,1".to_string(),
        ];
        for l in &lines {
            let _ = run(&[l.as_str()]);
            let _ = run(&["BOARD", l.as_str(), "DONE"]);
        }
        // Unicode digits are not protocol digits.
        assert!(matches!(one("START ١٥"), Err(ParseError::BadSize { .. })));
        assert!(matches!(
            one("TURN ７,７"),
            Err(ParseError::BadCoordinates { .. })
        ));
        // Echoed text is clipped.
        match one(&long_word) {
            Ok(Command::Unknown(t)) => assert_eq!(t.chars().count(), MAX_ECHO_CHARS + 1),
            other => panic!("{other:?}"),
        }
        match one(&format!("START {huge}")) {
            Err(e) => assert!(e.to_string().len() < 400),
            Ok(c) => panic!("{c:?}"),
        }
        let mut p = Parser::new();
        let bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        for chunk in bytes.split(|&b| b == b'\n') {
            let mut r = p.feed_bytes(chunk);
            while r.is_some() {
                r = p.next_pending();
            }
        }
    }
}
