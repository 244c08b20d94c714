//! The swap2 opening phase between two engines, run by the referee before a game when the
//! match uses `--opening-rule swap2` (the `SWAP2BOARD` flow of the protocol reference, §3).
//!
//! The first engine (the proposer, the schedule's "black") places three stones; the second
//! answers `SWAP` (it takes black), one move (it takes white and plays stone 4) or two more
//! stones (a white and a black one); in that last case the proposer chooses: `SWAP` (black)
//! or one move (white, stone 6). Every answer is judged by the referee's own rules, stone
//! by stone (occupied, off the board, a renju foul by a black stone, an opening that already
//! ends the game); an answer of the wrong shape, a refusal (`ERROR`, `UNKNOWN`), a late
//! answer or a crash loses the game for the engine that gave it, as a move would. The
//! answers are parsed as GomocupJudge does: a line starting with `swap` in any case is a
//! swap, anything else must be whitespace-separated `x,y` cells.
//!
//! Parsing and the shape rules are pure functions so each case is a unit test; the flow
//! talks to the engines through the referee's request helpers and clock.

use super::engine::{EngineProcess, Recv};
use super::judge::{judge, Failure, Fault, Player, TimeControl};
use crate::game::{Game, Move};
use std::fmt;
use std::time::Instant;

/// How the opening of each game is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningRule {
    /// The schedule's opening (from `--openings`, or the empty board) is played as given.
    #[default]
    Given,
    /// The engines negotiate the opening and the colours with swap2.
    Swap2,
}

impl OpeningRule {
    /// `none` or `swap2`, as `--opening-rule` spells it.
    pub fn parse(text: &str) -> Option<OpeningRule> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "given" => Some(OpeningRule::Given),
            "swap2" => Some(OpeningRule::Swap2),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OpeningRule::Given => "none",
            OpeningRule::Swap2 => "swap2",
        }
    }
}

/// One swap2 answer as written by an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `SWAP`: take black (the colour that just placed a stone).
    Swap,
    /// Cells, in the order given (not yet judged).
    Cells(Vec<(i64, i64)>),
}

/// Parses a swap2 answer line; `None` when it is neither a swap nor a list of `x,y` cells.
pub fn parse_answer(line: &str) -> Option<Answer> {
    let t = line.trim();
    if t.len() >= 4 && t[..4].eq_ignore_ascii_case("swap") {
        return Some(Answer::Swap);
    }
    let cells: Option<Vec<(i64, i64)>> = t
        .split_whitespace()
        .map(|tok| {
            let (a, b) = tok.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect();
    cells.filter(|c| !c.is_empty()).map(Answer::Cells)
}

/// What an answer means at one step, before its cells are judged on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Place these opening stones (3 from the proposer, or white + black from the chooser).
    Place(Vec<(i64, i64)>),
    /// Take black; the other engine plays the next (white) stone.
    TakeBlack,
    /// Take white and play this stone as white's move.
    TakeWhite((i64, i64)),
}

/// The meaning of `answer` to a request showing `given` stones (0, 3 or 5), or why it is
/// not allowed there.
pub fn decide(given: usize, answer: Answer) -> Result<Decision, String> {
    match (given, answer) {
        (0, Answer::Cells(c)) if c.len() == 3 => Ok(Decision::Place(c)),
        (0, a) => Err(format!(
            "{} given for the three opening stones",
            describe(&a)
        )),
        (3 | 5, Answer::Swap) => Ok(Decision::TakeBlack),
        (3 | 5, Answer::Cells(c)) if c.len() == 1 => Ok(Decision::TakeWhite(c[0])),
        (3, Answer::Cells(c)) if c.len() == 2 => Ok(Decision::Place(c)),
        (3, a) => Err(format!(
            "{} given; after three stones: SWAP, one move or two stones",
            describe(&a)
        )),
        (5, a) => Err(format!(
            "{} given; after five stones: SWAP or one move",
            describe(&a)
        )),
        (k, _) => Err(format!("no swap2 step shows {k} stones")),
    }
}

fn describe(a: &Answer) -> String {
    match a {
        Answer::Swap => "SWAP".to_string(),
        Answer::Cells(c) if c.len() == 1 => "1 cell".to_string(),
        Answer::Cells(c) => format!("{} cells", c.len()),
    }
}

/// The settled opening: who is black, the stones placed, and white's first move if a
/// chooser answered with one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// Seat that plays black: 0 is the proposer, 1 the other engine.
    pub black_seat: usize,
    /// Opening stones in move order (3 or 5), black first.
    pub stones: Vec<Move>,
    /// White's move answered with the choice (stone 4 or 6) and the milliseconds it took.
    pub white_move: Option<(Move, u64)>,
    /// The exchange as text, one entry per answer, for the game record.
    pub log: Vec<String>,
}

/// A loss during the phase: which seat (0 proposer, 1 chooser), why, and the exchange and
/// the opening stones accepted so far.
pub struct Lost {
    pub seat: usize,
    pub failure: Failure,
    pub log: Vec<String>,
    pub stones: Vec<Move>,
}

impl fmt::Debug for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {} lost: {}", self.seat, self.failure.detail)
    }
}

/// Plays the cells of `decision` on `board` (a copy of the referee's), judging each stone
/// as a move of the side to move; renju fouls by black stones count.
fn place<G: Game>(board: &mut G, cells: &[(i64, i64)]) -> Result<Vec<Move>, Failure> {
    let mut placed = Vec::with_capacity(cells.len());
    for &c in cells {
        let m = judge(board, c)?;
        board.play(m);
        placed.push(m);
        if board.outcome().is_some() {
            return Err(Failure::new(
                Fault::Illegal,
                format!("{m}: the opening stones end the game"),
            ));
        }
    }
    Ok(placed)
}

/// Runs the swap2 phase on the empty `board`; `procs[0]` proposes. On success the board
/// holds the opening (and white's move, when one was answered) and each player's clock is
/// charged for its answers.
pub fn negotiate<G: Game>(
    board: &mut G,
    procs: [&mut EngineProcess; 2],
    players: &mut [Player; 2],
    tc: &TimeControl,
    names: [&str; 2],
) -> Result<Settled, Lost> {
    let mut log = Vec::new();
    let mut stones: Vec<Move> = Vec::new();
    // (seat asked, stones shown): proposer with 0, chooser with 3, proposer with 5.
    for (seat, shown) in [(0usize, 0usize), (1, 3), (0, 5)] {
        let lose = |failure: Failure, log: &Vec<String>| Lost {
            seat,
            failure,
            log: log.clone(),
            stones: stones.clone(),
        };
        let (answer, ms) = match request(&mut *procs[seat], &stones, &mut players[seat], tc) {
            Ok(a) => a,
            Err(f) => return Err(lose(f, &log)),
        };
        let decision = match decide(shown, answer) {
            Ok(d) => d,
            Err(e) => {
                log.push(format!("{}: {e} ({ms} ms)", names[seat]));
                return Err(lose(
                    Failure::new(Fault::Illegal, format!("swap2: {e}")),
                    &log,
                ));
            }
        };
        match decision {
            Decision::Place(cells) => match place(board, &cells) {
                Ok(placed) => {
                    let what = if shown == 0 { "proposes" } else { "adds" };
                    log.push(format!(
                        "{} {what} {} ({ms} ms)",
                        names[seat],
                        cells_text(&placed)
                    ));
                    stones.extend(placed);
                }
                Err(f) => {
                    log.push(format!("{}: rejected stones ({ms} ms)", names[seat]));
                    let f = Failure::new(f.fault, format!("swap2: {}", f.detail));
                    return Err(lose(f, &log));
                }
            },
            Decision::TakeBlack => {
                log.push(format!("{} takes black: SWAP ({ms} ms)", names[seat]));
                return Ok(Settled {
                    black_seat: seat,
                    stones,
                    white_move: None,
                    log,
                });
            }
            Decision::TakeWhite(c) => {
                let m = match place(board, &[c]) {
                    Ok(p) => p[0],
                    Err(f) => {
                        log.push(format!("{}: rejected move ({ms} ms)", names[seat]));
                        let f = Failure::new(f.fault, format!("swap2: {}", f.detail));
                        return Err(lose(f, &log));
                    }
                };
                log.push(format!(
                    "{} takes white and plays {m} ({ms} ms)",
                    names[seat]
                ));
                return Ok(Settled {
                    black_seat: 1 - seat,
                    stones,
                    white_move: Some((m, ms)),
                    log,
                });
            }
        }
    }
    // The proposer's answer to five stones always settles it (or loses above).
    Err(Lost {
        seat: 0,
        failure: Failure::new(Fault::Illegal, "swap2: no choice after five stones"),
        log,
        stones,
    })
}

fn cells_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Sends `INFO time_left` and `SWAP2BOARD` with `stones`, and waits for the answer line.
/// Returns the parsed answer and the milliseconds taken; charges the clock.
fn request(
    p: &mut EngineProcess,
    stones: &[Move],
    player: &mut Player,
    tc: &TimeControl,
) -> Result<(Answer, u64), Failure> {
    let gone = |e: std::io::Error| Failure::new(Fault::Crash, format!("stdin closed: {e}"));
    let mut lines = vec![
        format!("INFO time_left {}", player.time_left),
        "SWAP2BOARD".to_string(),
    ];
    lines.extend(stones.iter().map(|m| m.to_string()));
    lines.push("DONE".to_string());
    for l in &lines {
        p.send(l).map_err(gone)?;
    }
    let budget = tc.move_budget(player.time_left);
    let sent = Instant::now();
    let deadline = sent + budget;
    loop {
        let line = match p.recv(deadline) {
            Recv::Line(l) => l,
            Recv::Closed => return Err(Failure::new(Fault::Crash, "exited during swap2")),
            Recv::Timeout => {
                return Err(Failure::new(
                    Fault::Timeout,
                    format!("no swap2 answer within {} ms", budget.as_millis()),
                ))
            }
        };
        let t = line.trim();
        let word = t.split_whitespace().next().unwrap_or("");
        if t.is_empty() || matches!(word, "MESSAGE" | "DEBUG" | "OK") {
            continue;
        }
        let ms = sent.elapsed().as_millis() as u64;
        if tc.match_ms > 0 {
            player.time_left -= ms as i64;
        }
        if matches!(word, "ERROR" | "UNKNOWN") {
            return Err(Failure::new(
                Fault::Illegal,
                format!("swap2: answered SWAP2BOARD with {t:?}"),
            ));
        }
        return match parse_answer(t) {
            Some(a) => Ok((a, ms)),
            None => Err(Failure::new(
                Fault::Garbage,
                format!("swap2: not an answer: {t:?}"),
            )),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_like_gomocupjudge() {
        assert_eq!(parse_answer("SWAP"), Some(Answer::Swap));
        assert_eq!(parse_answer(" swap "), Some(Answer::Swap));
        assert_eq!(parse_answer("Swapping"), Some(Answer::Swap));
        assert_eq!(parse_answer("7,7"), Some(Answer::Cells(vec![(7, 7)])));
        assert_eq!(
            parse_answer("7,7 8,8  -1,20"),
            Some(Answer::Cells(vec![(7, 7), (8, 8), (-1, 20)]))
        );
        assert_eq!(parse_answer(""), None);
        assert_eq!(parse_answer("7,7 x"), None);
        assert_eq!(parse_answer("7;7"), None);
        assert_eq!(parse_answer("sw"), None);
    }

    #[test]
    fn each_step_allows_only_its_answers() {
        let cells = |n: usize| Answer::Cells((0..n as i64).map(|i| (i, i)).collect());
        assert_eq!(
            decide(0, cells(3)),
            Ok(Decision::Place(vec![(0, 0), (1, 1), (2, 2)]))
        );
        assert!(decide(0, Answer::Swap).is_err());
        assert!(decide(0, cells(2)).is_err());
        assert_eq!(decide(3, Answer::Swap), Ok(Decision::TakeBlack));
        assert_eq!(decide(3, cells(1)), Ok(Decision::TakeWhite((0, 0))));
        assert_eq!(
            decide(3, cells(2)),
            Ok(Decision::Place(vec![(0, 0), (1, 1)]))
        );
        assert!(decide(3, cells(3)).unwrap_err().contains("3 cells"));
        assert_eq!(decide(5, Answer::Swap), Ok(Decision::TakeBlack));
        assert_eq!(decide(5, cells(1)), Ok(Decision::TakeWhite((0, 0))));
        assert!(decide(5, cells(2))
            .unwrap_err()
            .contains("SWAP or one move"));
        assert!(decide(4, Answer::Swap).is_err());
    }

    #[test]
    fn rule_names_round_trip() {
        for r in [OpeningRule::Given, OpeningRule::Swap2] {
            assert_eq!(OpeningRule::parse(r.name()), Some(r));
        }
        assert_eq!(OpeningRule::parse("SWAP2"), Some(OpeningRule::Swap2));
        assert_eq!(OpeningRule::parse("swap1"), None);
    }
}
