//! One game between two engine processes, judged by the crate's own rules.
//!
//! The referee is any [`Game`] built fresh by the caller's factory, so every rule mode the
//! engine knows (gomoku under each rule, Connect Four, m,n,k) is judged by exactly the code
//! the engine plays with, never by a second implementation. The manager side follows the
//! Gomocup managers: `START`/`RECTSTART` answered by `OK`, the `INFO` limits, `INFO
//! time_left` before each request, `BEGIN`, `BOARD` (the position so far, fields from the
//! engine's own view) for an engine's first move and `TURN` afterwards. Any fault (late
//! reply, crash, illegal move, renju foul, non-protocol output, failed `START`) loses the
//! game for the engine at fault and is recorded with its reason and a detail line.
//! Under swap2 (`GameSetup::opening_rule`) the opening and the colours are first negotiated
//! by the two engines (`swap2`), and the game then goes on from that position.

use super::engine::{classify, EngineProcess, EngineSpec, Recv, Reply};
pub use super::judge::{judge, Failure, Fault, Player, TimeControl};
use super::swap2::{self, OpeningRule};
use super::thinking::{Listener, Thinking};
use crate::game::{Color, Game, Move, MoveError, Outcome};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What the referee and the engines play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Gomoku under an `INFO rule` value: 0 freestyle, 1 exactly five, 4 renju, 8 caro,
    /// 9 caro with exactly five.
    Gomoku { rule: u32 },
    /// Connect Four with `k` in a row to win (`INFO game connect4`, `INFO k` when not 4).
    Connect4 { k: u32 },
    /// k in a row on the board (`INFO game mnk`, `INFO k`).
    Mnk { k: u32 },
    /// Gomoku with captures (`INFO game pente`).
    Pente,
    /// Pente with endgame capture and no double free-three (`INFO game ninuki`).
    Ninuki,
}

/// The game and board every game of a match uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub kind: GameKind,
    pub width: usize,
    pub height: usize,
    /// Adjudicate a draw once this many stones are on the board (GomocupJudge draws renju
    /// games at 200 stones on 15×15); `None` plays on until the board is full.
    pub draw_after: Option<usize>,
    /// Whether the opening is given or negotiated (swap2, gomoku only).
    pub opening_rule: OpeningRule,
}

impl GameSetup {
    /// `INFO` lines that must precede `START`: the alternate game, so the engine reads the
    /// board size in the right mode.
    pub fn pre_start_info(&self) -> Vec<String> {
        match self.kind {
            GameKind::Gomoku { .. } => Vec::new(),
            GameKind::Connect4 { k: 4 } => vec!["INFO game connect4".into()],
            GameKind::Connect4 { k } => vec!["INFO game connect4".into(), format!("INFO k {k}")],
            GameKind::Mnk { k } => vec!["INFO game mnk".into(), format!("INFO k {k}")],
            GameKind::Pente => vec!["INFO game pente".into()],
            GameKind::Ninuki => vec!["INFO game ninuki".into()],
        }
    }

    /// `START n` on a square board, `RECTSTART w,h` otherwise.
    pub fn start_command(&self) -> String {
        if self.width == self.height {
            format!("START {}", self.width)
        } else {
            format!("RECTSTART {},{}", self.width, self.height)
        }
    }

    /// The name of a game with captures (`pente`, `ninuki`), which the rule number does not
    /// tell; None for the others.
    pub fn game_name(&self) -> Option<String> {
        match self.kind {
            GameKind::Pente => Some("pente".into()),
            GameKind::Ninuki => Some("ninuki".into()),
            _ => None,
        }
    }

    /// The `INFO rule` value: gomoku's own, 0 for the alternate games.
    pub fn rule(&self) -> u32 {
        match self.kind {
            GameKind::Gomoku { rule } => rule,
            _ => 0,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Won on the board (a five, four in a row…).
    Line,
    /// The board is full.
    BoardFull,
    /// Adjudicated at [`GameSetup::draw_after`] stones.
    MoveLimit,
    /// The loser is at fault.
    Fault(Fault),
}

impl Termination {
    pub fn name(self) -> &'static str {
        match self {
            Termination::Line => "line",
            Termination::BoardFull => "board-full",
            Termination::MoveLimit => "move-limit",
            Termination::Fault(f) => f.name(),
        }
    }

    /// The termination a [`Termination::name`] stands for (results read back from disk).
    pub fn from_name(name: &str) -> Option<Termination> {
        [
            Termination::Line,
            Termination::BoardFull,
            Termination::MoveLimit,
        ]
        .into_iter()
        .chain(Fault::ALL.map(Termination::Fault))
        .find(|t| t.name() == name)
    }
}

/// A move as played, with the time its engine took and what it reported while thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedMove {
    pub mv: Move,
    pub ms: u64,
    pub thinking: Option<Thinking>,
}

/// Everything about one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub id: usize,
    /// Engine indices in the tournament.
    pub black: usize,
    pub white: usize,
    pub black_name: String,
    pub white_name: String,
    pub setup: GameSetup,
    pub opening: Vec<Move>,
    pub moves: Vec<TimedMove>,
    pub outcome: Outcome,
    pub termination: Termination,
    /// A human-readable line on what happened (e.g. the garbage text).
    pub detail: String,
    /// The swap2 exchange, one entry per answer (empty when the opening was given). The
    /// stones it placed are in `opening`; a chooser's move is the first of `moves`.
    pub swap: Vec<String>,
    /// Pairs captured by black and white at the end (games with captures only).
    pub captures: Option<[u8; 2]>,
}

impl GameRecord {
    /// The index of the engine that lost, if any.
    pub fn loser(&self) -> Option<usize> {
        loser(self.outcome, self.black, self.white)
    }
}

/// The engine that lost a game with this outcome, if any.
pub fn loser(outcome: Outcome, black: usize, white: usize) -> Option<usize> {
    match outcome {
        Outcome::Win(Color::Black) => Some(white),
        Outcome::Win(Color::White) => Some(black),
        Outcome::Draw => None,
    }
}

/// A game the arena could not set up: the referee rejected the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Opening {
        index: usize,
        error: MoveError,
    },
    OpeningEndsGame,
    /// Swap2 negotiates the opening from the empty board: a given opening cannot be used.
    Swap2WithOpening,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Opening { index, error } => {
                write!(f, "opening stone {} rejected: {error}", index + 1)
            }
            SetupError::OpeningEndsGame => f.write_str("the opening already ends the game"),
            SetupError::Swap2WithOpening => {
                f.write_str("swap2 starts from the empty board: no opening can be given")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// One side of a game: who plays, and the process if one is already running (reused).
pub struct Seat<'a> {
    pub index: usize,
    pub spec: &'a EngineSpec,
    pub process: Option<EngineProcess>,
    /// Where the process's stderr goes when it is started.
    pub stderr_log: Option<PathBuf>,
    /// Whether the process is kept for the next game (`START` again) or ended.
    pub reuse: bool,
}

/// Plays one game. `seats[0]` plays black, `seats[1]` white; the opening stones alternate
/// colours from black. Under swap2, `seats[0]` proposes the opening and the seats are
/// swapped in place when the negotiation gives black to `seats[1]`. After the game each
/// process is kept in its seat if it is reusable and did not fault, and is otherwise ended.
pub fn play_game<G: Game>(
    id: usize,
    referee: G,
    setup: &GameSetup,
    tc: &TimeControl,
    opening: &[Move],
    seats: &mut [Seat<'_>; 2],
) -> Result<GameRecord, SetupError> {
    let swap2 = setup.opening_rule == OpeningRule::Swap2;
    if swap2 && !opening.is_empty() {
        return Err(SetupError::Swap2WithOpening);
    }
    let mut board = referee;
    for (i, &m) in opening.iter().enumerate() {
        // Placed, not played: the engines get the opening as a `BOARD`, which captures
        // nothing either.
        board
            .place(m)
            .map_err(|error| SetupError::Opening { index: i, error })?;
        if board.outcome().is_some() {
            return Err(SetupError::OpeningEndsGame);
        }
    }
    let mut history: Vec<Move> = opening.to_vec();
    let mut moves = Vec::new();
    let initial_left = if tc.match_ms > 0 {
        tc.match_ms as i64
    } else {
        TimeControl::UNLIMITED_LEFT
    };
    let mut players = [0, 1].map(|_| Player {
        time_left: initial_left,
        synced: 0,
    });

    let ids = |seats: &[Seat<'_>; 2]| {
        (
            [seats[0].index, seats[1].index],
            [seats[0].spec.name.clone(), seats[1].spec.name.clone()],
        )
    };
    let (mut index, mut names) = ids(seats);
    let mut opening = opening.to_vec();
    let mut swap_log: Vec<String> = Vec::new();
    let end = |index: [usize; 2],
               names: &[String; 2],
               opening: &[Move],
               swap: &[String],
               outcome,
               termination,
               detail: String,
               moves: Vec<TimedMove>| GameRecord {
        id,
        black: index[0],
        white: index[1],
        black_name: names[0].clone(),
        white_name: names[1].clone(),
        setup: *setup,
        opening: opening.to_vec(),
        moves,
        outcome,
        termination,
        detail,
        swap: swap.to_vec(),
        captures: None,
    };

    // Both engines are started before the first move, as GomocupJudge does, so START time
    // never counts against a move and a game where neither starts is not a win for either.
    let starts = [0, 1].map(|s| start_engine(&mut seats[s], setup, tc).err());
    let faulted_start = [starts[0].is_some(), starts[1].is_some()];
    let mut faulted = faulted_start;
    let mut early_end = match starts {
        [None, None] => None,
        [Some(f), None] | [None, Some(f)] => {
            let s = usize::from(faulted_start[1]);
            let loser = if s == 0 { Color::Black } else { Color::White };
            Some(end(
                index,
                &names,
                &opening,
                &[],
                Outcome::Win(loser.opponent()),
                Termination::Fault(f.fault),
                format!("{}: {}", seats[s].spec.name, f.detail),
                Vec::new(),
            ))
        }
        [Some(a), Some(b)] => Some(end(
            index,
            &names,
            &opening,
            &[],
            Outcome::Draw,
            Termination::Fault(a.fault.min(b.fault)),
            format!(
                "{}: {}; {}: {}",
                seats[0].spec.name, a.detail, seats[1].spec.name, b.detail
            ),
            Vec::new(),
        )),
    };
    if swap2 && early_end.is_none() {
        let [s0, s1] = seats;
        match (s0.process.as_mut(), s1.process.as_mut()) {
            (Some(p0), Some(p1)) => {
                let name_refs = [names[0].as_str(), names[1].as_str()];
                match swap2::negotiate(&mut board, [p0, p1], &mut players, tc, name_refs) {
                    Ok(settled) => {
                        swap_log = settled.log;
                        opening = settled.stones;
                        history = opening.clone();
                        if settled.black_seat == 1 {
                            seats.swap(0, 1);
                            players.swap(0, 1);
                            (index, names) = ids(seats);
                        }
                        if let Some((m, ms)) = settled.white_move {
                            history.push(m);
                            moves.push(TimedMove {
                                mv: m,
                                ms,
                                thinking: None,
                            });
                        }
                        // Every engine gets the agreed position as a whole `BOARD`.
                        for p in &mut players {
                            p.synced = 0;
                        }
                    }
                    Err(lost) => {
                        faulted[lost.seat] = lost.failure.fault != Fault::Foul;
                        let loser = if lost.seat == 0 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        early_end = Some(end(
                            index,
                            &names,
                            &lost.stones,
                            &lost.log,
                            Outcome::Win(loser.opponent()),
                            Termination::Fault(lost.failure.fault),
                            format!("{}: {}", names[lost.seat], lost.failure.detail),
                            Vec::new(),
                        ));
                    }
                }
            }
            _ => {
                early_end = Some(end(
                    index,
                    &names,
                    &opening,
                    &[],
                    Outcome::Draw,
                    Termination::Fault(Fault::Crash),
                    "swap2: an engine process is missing".into(),
                    Vec::new(),
                ))
            }
        }
    }
    let end = |outcome, termination, detail: String, moves: Vec<TimedMove>| {
        end(
            index,
            &names,
            &opening,
            &swap_log,
            outcome,
            termination,
            detail,
            moves,
        )
    };
    let record = early_end.unwrap_or_else(|| loop {
        if let Some(o) = board.outcome() {
            // A swap2 move can only end the game on tiny boards; judge it all the same.
            let t = match o {
                Outcome::Win(_) => Termination::Line,
                Outcome::Draw => Termination::BoardFull,
            };
            break end(o, t, String::new(), moves);
        }
        let side = board.side_to_move();
        let s = side.index();
        let seat = &mut seats[s];
        let request = position_request(&board, side, &history, players[s].synced);
        let reply = request_move(seat, request, &mut players[s], tc);
        let (coord, ms, thinking) = match reply {
            Ok(r) => r,
            Err(f) => {
                faulted[s] = true;
                break end(
                    Outcome::Win(side.opponent()),
                    Termination::Fault(f.fault),
                    format!("{}: {}", seat.spec.name, f.detail),
                    moves,
                );
            }
        };
        let verdict = judge(&board, coord);
        let mv = match verdict {
            Ok(m) => m,
            Err(f) => {
                faulted[s] = f.fault != Fault::Foul;
                break end(
                    Outcome::Win(side.opponent()),
                    Termination::Fault(f.fault),
                    format!("{}: {}", seat.spec.name, f.detail),
                    moves,
                );
            }
        };
        board.play(mv);
        history.push(mv);
        players[s].synced = history.len();
        moves.push(TimedMove { mv, ms, thinking });
        match board.outcome() {
            Some(o @ Outcome::Win(_)) => break end(o, Termination::Line, String::new(), moves),
            Some(Outcome::Draw) => {
                break end(Outcome::Draw, Termination::BoardFull, String::new(), moves)
            }
            None => {}
        }
        if setup.draw_after.is_some_and(|n| history.len() >= n) {
            break end(Outcome::Draw, Termination::MoveLimit, String::new(), moves);
        }
    });
    let record = GameRecord {
        captures: board.captures(),
        ..record
    };
    for (seat, bad) in seats.iter_mut().zip(faulted) {
        if let Some(p) = seat.process.take() {
            if seat.reuse && !bad {
                seat.process = Some(p);
            } else {
                p.quit(Duration::from_millis(tc.grace_ms));
            }
        }
    }
    Ok(record)
}

/// Starts (or restarts) the seat's engine: `START` answered by `OK`, then the `INFO` lines.
fn start_engine(seat: &mut Seat<'_>, setup: &GameSetup, tc: &TimeControl) -> Result<(), Failure> {
    if let Some(p) = seat.process.as_mut() {
        if !p.is_alive() {
            seat.process = None;
        }
    }
    if seat.process.is_none() {
        let p = EngineProcess::spawn(seat.spec, seat.stderr_log.as_deref())
            .map_err(|e| Failure::new(Fault::Crash, format!("cannot start: {e}")))?;
        seat.process = Some(p);
    }
    let Some(p) = seat.process.as_mut() else {
        return Err(Failure::new(Fault::Crash, "no process"));
    };
    let gone = |e: std::io::Error| Failure::new(Fault::Crash, format!("stdin closed: {e}"));
    for l in setup.pre_start_info() {
        p.send(&l).map_err(gone)?;
    }
    p.send(&setup.start_command()).map_err(gone)?;
    let deadline = Instant::now() + Duration::from_millis(tc.start_ms);
    loop {
        match p.recv(deadline) {
            Recv::Line(l) => match classify(&l) {
                Reply::Message(_) => continue,
                Reply::Protocol(t) if t.is_empty() => continue,
                Reply::Protocol(t) if t == "OK" => break,
                _ => {
                    return Err(Failure::new(
                        Fault::Start,
                        format!("answered START with {l:?}"),
                    ))
                }
            },
            Recv::Closed => return Err(Failure::new(Fault::Crash, "exited during START")),
            Recv::Timeout => {
                return Err(Failure::new(
                    Fault::Start,
                    format!("no OK to START within {} ms", tc.start_ms),
                ))
            }
        }
    }
    let mut info = vec![
        format!("INFO timeout_turn {}", tc.turn_ms),
        format!("INFO timeout_match {}", tc.match_ms),
        format!("INFO max_memory {}", tc.max_memory),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", setup.rule()),
    ];
    info.extend(seat.spec.info.iter().map(|(k, v)| format!("INFO {k} {v}")));
    for l in info {
        p.send(&l).map_err(gone)?;
    }
    Ok(())
}

/// An engine's answer to a move request: the raw coordinates, the milliseconds taken and
/// what it reported while thinking.
type Answer = ((i64, i64), u64, Option<Thinking>);

/// Sends `INFO time_left` and the move request, and waits for the engine's `X,Y`.
/// Returns the raw coordinates, the milliseconds taken and what the engine reported while
/// thinking; charges the clock.
fn request_move(
    seat: &mut Seat<'_>,
    request: Vec<String>,
    player: &mut Player,
    tc: &TimeControl,
) -> Result<Answer, Failure> {
    let Some(p) = seat.process.as_mut() else {
        return Err(Failure::new(Fault::Crash, "no process"));
    };
    let gone = |e: std::io::Error| Failure::new(Fault::Crash, format!("stdin closed: {e}"));
    let mut lines = vec![format!("INFO time_left {}", player.time_left)];
    lines.extend(request);
    for l in &lines {
        p.send(l).map_err(gone)?;
    }
    let budget = tc.move_budget(player.time_left);
    let sent = Instant::now();
    let deadline = sent + budget;
    let mut listener = Listener::default();
    loop {
        match p.recv(deadline) {
            Recv::Line(l) => match classify(&l) {
                Reply::Coord(x, y) => {
                    let ms = sent.elapsed().as_millis() as u64;
                    if tc.match_ms > 0 {
                        player.time_left -= ms as i64;
                    }
                    return Ok(((x, y), ms, listener.finish()));
                }
                Reply::Message(m) => listener.read_line(&m),
                Reply::Protocol(_) => continue,
                Reply::Garbage(g) => {
                    return Err(Failure::new(Fault::Garbage, format!("not protocol: {g:?}")))
                }
            },
            Recv::Closed => return Err(Failure::new(Fault::Crash, "exited while thinking")),
            Recv::Timeout => {
                return Err(Failure::new(
                    Fault::Timeout,
                    format!("no move within {} ms", budget.as_millis()),
                ))
            }
        }
    }
}

/// The request for a move in `board`'s position: [`request_lines`], except that in games
/// with captures a `BOARD` lists the stones that are on the board (captured ones are gone,
/// so the moves played are not the position) and is preceded by the captured pairs as
/// `INFO captures_black` / `INFO captures_white`, which the stones cannot tell.
pub fn position_request<G: Game>(
    board: &G,
    side: Color,
    history: &[Move],
    synced: usize,
) -> Vec<String> {
    let lines = request_lines(side, history, synced);
    let Some([black, white]) = board.captures() else {
        return lines;
    };
    if lines.first().map(String::as_str) != Some("BOARD") {
        return lines;
    }
    let mut v = vec![
        format!("INFO captures_black {black}"),
        format!("INFO captures_white {white}"),
        "BOARD".to_string(),
    ];
    for y in 0..board.height() {
        for x in 0..board.width() {
            let m = Move::new(x as u8, y as u8);
            if let Some(c) = board.stone_at(m) {
                let field = if c == side { 1 } else { 2 };
                v.push(format!("{m},{field}"));
            }
        }
    }
    v.push("DONE".to_string());
    v
}

/// The request for a move: `BEGIN` on an empty board, `BOARD` with every stone for an
/// engine that has not seen the position, `TURN` with the opponent's last move otherwise.
pub fn request_lines(side: Color, history: &[Move], synced: usize) -> Vec<String> {
    if synced > 0 && synced + 1 == history.len() {
        if let Some(last) = history.last() {
            return vec![format!("TURN {last}")];
        }
    }
    if history.is_empty() {
        return vec!["BEGIN".to_string()];
    }
    let mut v = vec!["BOARD".to_string()];
    for (i, m) in history.iter().enumerate() {
        let colour = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let field = if colour == side { 1 } else { 2 };
        v.push(format!("{},{},{field}", m.x, m.y));
    }
    v.push("DONE".to_string());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_games_get_the_stones_on_the_board_and_the_captured_pairs() {
        use crate::game::gomoku::capture::{CaptureBoard, Pente};
        let mut b = CaptureBoard::<Pente>::new(19, 19).unwrap();
        // Black 3,0 captures white's 1,0 2,0.
        let h = [(0, 0), (1, 0), (9, 9), (2, 0), (3, 0)].map(|(x, y)| Move::new(x, y));
        for m in h {
            b.play(m);
        }
        assert_eq!(
            position_request(&b, Color::White, &h, 0),
            vec![
                "INFO captures_black 1",
                "INFO captures_white 0",
                "BOARD",
                "0,0,2",
                "3,0,2",
                "9,9,2",
                "DONE"
            ]
        );
        // A synchronised engine just gets the move.
        assert_eq!(position_request(&b, Color::White, &h, 4), vec!["TURN 3,0"]);
    }

    #[test]
    fn requests_begin_board_and_turn() {
        assert_eq!(request_lines(Color::Black, &[], 0), vec!["BEGIN"]);
        let h = [Move::new(7, 7), Move::new(8, 8), Move::new(9, 9)];
        assert_eq!(
            request_lines(Color::White, &h, 0),
            vec!["BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE"]
        );
        assert_eq!(request_lines(Color::White, &h, 2), vec!["TURN 9,9"]);
        // a desynchronised engine gets the whole position again
        assert_eq!(request_lines(Color::White, &h, 1).len(), 5);
    }

    #[test]
    fn setup_commands() {
        let g = GameSetup {
            kind: GameKind::Gomoku { rule: 4 },
            width: 15,
            height: 15,
            draw_after: None,
            opening_rule: OpeningRule::Given,
        };
        assert_eq!(g.start_command(), "START 15");
        assert!(g.pre_start_info().is_empty());
        assert_eq!(g.rule(), 4);
        let c = GameSetup {
            kind: GameKind::Connect4 { k: 4 },
            width: 7,
            height: 6,
            draw_after: None,
            opening_rule: OpeningRule::Given,
        };
        assert_eq!(c.start_command(), "RECTSTART 7,6");
        assert_eq!(c.pre_start_info(), vec!["INFO game connect4"]);
        let m = GameSetup {
            kind: GameKind::Mnk { k: 4 },
            ..c
        };
        assert_eq!(m.pre_start_info(), vec!["INFO game mnk", "INFO k 4"]);
    }
}
