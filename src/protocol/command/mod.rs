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

/// A block being collected: its kind, the entries so far, and the first error met.
#[derive(Debug)]
struct OpenBlock {
    kind: BlockKind,
    entries: Vec<(Move, Field)>,
    error: Option<ParseError>,
}

impl OpenBlock {
    fn new(kind: BlockKind) -> OpenBlock {
        OpenBlock {
            kind,
            entries: Vec::new(),
            error: None,
        }
    }

    /// Takes one data line; keeps only the first error so the report names the culprit.
    fn push_line(&mut self, line: &str) {
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
    fn finish(self) -> Result<Command, ParseError> {
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
fn parse_start(rest: &str) -> Result<Command, ParseError> {
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
fn parse_rectstart(rest: &str) -> Result<Command, ParseError> {
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
fn parse_nbest(rest: &str) -> Result<Command, ParseError> {
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
fn parse_coord(s: &str) -> Option<u8> {
    parse_uint(s.trim()).and_then(|n| u8::try_from(n).ok())
}

/// `x,y` with exactly one comma (spaces around the numbers tolerated).
fn parse_move(s: &str) -> Result<Move, ()> {
    let mut parts = s.split(',');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(x), Some(y), None) => match (parse_coord(x), parse_coord(y)) {
            (Some(x), Some(y)) => Ok(Move::new(x, y)),
            _ => Err(()),
        },
        _ => Err(()),
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
    fn run(lines: &[&str]) -> Vec<Result<Command, ParseError>> {
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

    fn one(line: &str) -> Result<Command, ParseError> {
        let mut v = run(&[line]);
        assert_eq!(v.len(), 1, "{line:?} gave {v:?}");
        v.pop().unwrap()
    }

    fn mv(x: u8, y: u8) -> Move {
        Move::new(x, y)
    }

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
