//! The Gomocup / Piskvork protocol loop: reads commands, asks the engine, prints replies.
//!
//! stdin is read on its own thread into a channel, each line stamped with the instant it
//! arrived (a move's clock starts then, not when we get round to it). While the engine
//! thinks on a scoped thread, the loop keeps reading: `YXSTOP`/`STOP` stop the search,
//! `END` and end of input exit at once, and every other line is queued and handled, in
//! order, after the move is out, so a command sent the instant after our move is never lost.
//! The loop also keeps a watchdog on the hard deadline in case the search overruns it.
//!
//! Pondering (`INFO pondering 1`) reuses the same reader: once the engine's move is out and
//! nothing is queued, the engine searches the opponent's position on a scoped thread while
//! this thread blocks on the channel; the first line to arrive (or end of input) raises the
//! stop flag, the ponder thread is joined (the search polls the flag at every node), and
//! only then is the line handled, with its arrival stamp, so a move's clock is the same as
//! without pondering. The ponder search has a silent reporter: it prints nothing.
//!
//! This layer parses and prints only; the engine never sees protocol text.

pub mod command;
pub mod detail;
pub mod output;

use crate::engine::{self, Engine, EngineError, Stone};
use crate::game::{Game, Move};
use crate::search::{Iteration, Limits, Stop};
use command::{Command, Field, Parser};
use std::collections::VecDeque;
use std::io::{BufRead, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line kept; the rest of a longer line is read and dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// How long past the hard deadline the watchdog waits before stopping the search itself.
const WATCHDOG_GRACE: Duration = Duration::from_millis(20);
/// How often the loop wakes while the engine thinks.
const POLL: Duration = Duration::from_millis(5);

/// One thing read from stdin.
enum Input {
    Line(Instant, Vec<u8>),
    Eof,
}

/// Reads lines of at most `MAX_LINE_BYTES` (dropping the excess), stamped on arrival.
fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut r = std::io::BufReader::with_capacity(1 << 16, input);
            loop {
                let mut line = Vec::new();
                let mut got_any = false;
                let eof = loop {
                    let buf = match r.fill_buf() {
                        Ok(b) => b,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => break true,
                    };
                    if buf.is_empty() {
                        break true;
                    }
                    got_any = true;
                    let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                        Some(i) => (&buf[..i], Some(i + 1)),
                        None => (buf, None),
                    };
                    let room = MAX_LINE_BYTES.saturating_sub(line.len());
                    line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                    let used = done.unwrap_or(buf.len());
                    r.consume(used);
                    if done.is_some() {
                        break false;
                    }
                };
                if got_any && tx.send(Input::Line(Instant::now(), line)).is_err() {
                    return;
                }
                if eof {
                    let _ = tx.send(Input::Eof);
                    return;
                }
            }
        })
        .expect("spawning the stdin reader thread");
    rx
}

/// The `ABOUT` answer.
pub fn about_line() -> String {
    format!(
        "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\", country=\"CN\", www=\"https://github.com/wuzi-engine/wuzi\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// The `MESSAGE` line for a finished iteration.
pub fn iteration_message(it: &Iteration) -> String {
    let nps = it.nodes * 1000 / it.elapsed_ms.max(1);
    let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "depth {}-{} ev {} n {} n/s {} tm {} pv {}",
        it.depth,
        it.seldepth,
        it.score,
        it.nodes,
        nps,
        it.elapsed_ms,
        pv.join(" ")
    )
}

/// The `FORBID` line of `YXSHOWFORBID`: two-digit x then two-digit y per point, then `.`.
pub fn forbid_line(points: &[Move]) -> String {
    let mut s = String::from("FORBID ");
    for m in points {
        s.push_str(&format!("{:02}{:02}", m.x, m.y));
    }
    s.push('.');
    s
}

fn to_stones(list: &[(Move, Field)]) -> Vec<(Move, Stone)> {
    list.iter()
        .map(|&(m, f)| {
            let s = match f {
                Field::Own => Stone::Own,
                Field::Opponent => Stone::Opponent,
                Field::Wall => Stone::Wall,
            };
            (m, s)
        })
        .collect()
}

/// What the loop does after a command.
enum Flow {
    Continue,
    /// The engine printed (and played) its move: it may ponder now.
    Moved,
    Exit,
}

/// Commands after which the engine may go on pondering: they neither change the position
/// nor ask for a search (a position change or a new request ends pondering until the
/// engine's next move, and so does `YXSTOP`: a GUI's stop button means stop thinking).
fn keeps_ponder(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Info { .. }
            | Command::About
            | Command::YxShowForbid
            | Command::YxHashClear
            | Command::YxShowHashUsage
            | Command::YxShowInfo
            | Command::YxBlock(_)
            | Command::YxBlockUndo(_)
            | Command::YxBlockReset
            | Command::TraceBoard
            | Command::Unknown(_)
    )
}

/// Ponders until the next input arrives, and returns that input. The ponder search is
/// stopped and joined before returning, so the caller handles the line on an idle engine
/// whose position is exactly what it was.
fn ponder_until_input(engine: &mut Engine, rx: &Receiver<Input>) -> Input {
    let stop = Stop::new();
    let (input, result) = std::thread::scope(|s| {
        let handle = s.spawn(|| engine.ponder(&stop));
        let input = rx.recv().unwrap_or(Input::Eof);
        stop.set();
        (input, handle.join())
    });
    if log::log_enabled!(log::Level::Debug) {
        let late = match &input {
            Input::Line(t, _) => t.elapsed().as_micros(),
            Input::Eof => 0,
        };
        match result {
            Ok(Some(r)) => log::debug!(
                "ponder: depth {} nodes {} best {}; stopped {late} us after the line arrived",
                r.depth,
                r.nodes,
                r.best
            ),
            Ok(None) => log::debug!("ponder: nothing to search"),
            Err(_) => log::warn!("ponder: the search panicked"),
        }
    }
    input
}

/// The protocol loop over this process's stdin; returns when the manager ends the session.
pub fn run(engine: Engine) {
    run_with(engine, std::io::stdin())
}

/// The protocol loop over any input (tests feed it from memory).
pub fn run_with<R: Read + Send + 'static>(mut engine: Engine, input: R) {
    let rx = spawn_reader(input);
    let mut parser = Parser::new();
    let mut queue: VecDeque<Input> = VecDeque::new();
    // Whether the engine's last reply was its move and nothing has changed since.
    let mut may_ponder = false;
    loop {
        let input = match queue.pop_front() {
            Some(i) => i,
            None if may_ponder && !parser.in_block() && engine.pondering() => {
                ponder_until_input(&mut engine, &rx)
            }
            None => rx.recv().unwrap_or(Input::Eof),
        };
        let (received, line) = match input {
            Input::Eof => return,
            Input::Line(t, l) => (t, l),
        };
        let mut next = parser.feed_bytes(&line);
        while let Some(result) = next {
            let flow = match result {
                Ok(cmd) => {
                    may_ponder &= keeps_ponder(&cmd);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        handle(&mut engine, cmd, received, &rx, &mut queue)
                    }));
                    r.unwrap_or_else(|_| {
                        output::error("internal error; the command was not carried out");
                        Flow::Continue
                    })
                }
                Err(e) => {
                    output::error(&e.to_string());
                    Flow::Continue
                }
            };
            match flow {
                Flow::Exit => return,
                Flow::Moved => may_ponder = true,
                Flow::Continue => {}
            }
            next = parser.next_pending();
        }
    }
}

fn handle(
    engine: &mut Engine,
    cmd: Command,
    received: Instant,
    rx: &Receiver<Input>,
    queue: &mut VecDeque<Input>,
) -> Flow {
    // A command that starts a new game is judged by the settings in force, not by a
    // complaint about the game it replaces.
    let new_game = matches!(
        cmd,
        Command::Start { .. } | Command::RectStart { .. } | Command::Restart
    );
    if !new_game && !matches!(cmd, Command::Info { .. } | Command::End | Command::About) {
        if let Some(e) = engine.take_pending_error() {
            output::error(&e.to_string());
            return Flow::Continue;
        }
    }
    let reply = |r: Result<(), EngineError>| match r {
        Ok(()) => output::ok(),
        Err(e) => output::error(&e.to_string()),
    };
    match cmd {
        Command::Start { width, height } | Command::RectStart { width, height } => {
            reply(engine.start(width, height))
        }
        Command::Restart => reply(engine.restart()),
        Command::Info { key, value } => engine.set_info(&key, &value),
        Command::About => output::line(&about_line()),
        Command::End => return Flow::Exit,
        Command::Begin => {
            if engine.game().is_some_and(|g| g.ply() > 0) {
                // BEGIN means "move first on the empty board"; on a started game it still
                // asks for our move, so answer for the current position.
                log::warn!("BEGIN on a non-empty board");
            }
            return think(engine, received, rx, queue, Job::Move);
        }
        Command::Turn(m) => match engine.opponent_move(m) {
            Ok(()) => return think(engine, received, rx, queue, Job::Move),
            Err(e) => output::error(&e.to_string()),
        },
        Command::Board(list) => match engine.set_board(&to_stones(&list)) {
            Ok(()) => return think(engine, received, rx, queue, Job::Move),
            Err(e) => output::error(&e.to_string()),
        },
        Command::YxBoard(list) => {
            if let Err(e) = engine.set_board(&to_stones(&list)) {
                output::error(&e.to_string());
            }
        }
        Command::Play(m) => match engine.play_own(m) {
            Ok(()) => output::mv(m),
            Err(e) => output::error(&e.to_string()),
        },
        Command::Takeback(m) => reply(engine.takeback(m)),
        Command::Stop => {
            // Nothing is being searched: a stop outside a search has nothing to answer.
        }
        Command::YxShowForbid => match engine.game() {
            Some(g) => output::line(&forbid_line(&g.forbidden_points())),
            None => output::error(&EngineError::NoGame.to_string()),
        },
        Command::YxHashClear => engine.clear_hash(),
        Command::YxShowHashUsage => {
            output::message(&format!("hash usage {} permille", engine.hashfull()))
        }
        Command::YxShowInfo => {
            output::message(&format!("wuzi {}", env!("CARGO_PKG_VERSION")));
            output::message("INFO MAX_THREAD_NUM 256");
            output::message("INFO MAX_HASH_SIZE 22");
        }
        Command::Swap2Board(stones) => {
            return think(engine, received, rx, queue, Job::Swap2(stones));
        }
        Command::YxBlock(list) => engine.block(&list),
        Command::YxBlockUndo(list) => engine.unblock(&list),
        Command::YxBlockReset => engine.reset_blocks(),
        Command::YxNBest(n) => return think(engine, received, rx, queue, Job::NBest(n)),
        Command::YxSearchDefend => return think(engine, received, rx, queue, Job::Defend),
        Command::TraceBoard => match engine.trace() {
            Ok(t) => {
                let board = engine.game().map(detail::board_lines).unwrap_or_default();
                for l in board.iter().chain(detail::trace_lines(&t).iter()) {
                    output::message(l);
                }
            }
            Err(e) => output::error(&e.to_string()),
        },
        Command::TraceSearch => return think(engine, received, rx, queue, Job::Analyse),
        Command::Unknown(text) => output::unknown(&text),
    }
    Flow::Continue
}

/// Commands that act while a search runs instead of waiting their turn.
enum Urgent {
    Stop,
    End,
}

/// Whether a raw line is one of the commands that act during a search.
fn urgent_word(line: &[u8]) -> Option<Urgent> {
    let s = String::from_utf8_lossy(line);
    let word = s
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    match word.as_str() {
        "YXSTOP" | "STOP" => Some(Urgent::Stop),
        "END" => Some(Urgent::End),
        _ => None,
    }
}

/// A request that makes the engine think and owes one reply line.
enum Job {
    /// `BEGIN` / `TURN` / `BOARD`: a move.
    Move,
    /// `YXNBEST n`: n lines as MESSAGEs, then the best move (played).
    NBest(usize),
    /// `YXSEARCHDEFEND`: the moves that do not lose, then the best (played).
    Defend,
    /// `SWAP2BOARD`: the swap answer.
    Swap2(Vec<Move>),
    /// `TRACESEARCH`: a short analysis, then the threat solver's VCF and VCT verdicts, as
    /// MESSAGEs; no reply line, nothing played.
    Analyse,
}

/// Lines `TRACESEARCH` lists, and its depth cap.
const ANALYSE_LINES: usize = 3;
const ANALYSE_DEPTH: u32 = 8;

/// What a finished job prints: MESSAGE texts, then (maybe) the reply line.
struct Reply {
    messages: Vec<String>,
    line: Option<String>,
}

/// Turns search progress into MESSAGE lines and, when a GUI asked with `INFO show_detail`,
/// the realtime marks and detail blocks.
struct Progress {
    bits: u32,
    num_pv: usize,
    start: Instant,
    /// Nodes of the lines finished before the current one.
    nodes_done: u64,
    line: usize,
    line_nodes: u64,
}

impl Progress {
    fn new(bits: u32, num_pv: usize, start: Instant) -> Progress {
        if bits & detail::SHOW_REALTIME != 0 {
            output::message("REALTIME REFRESH");
        }
        Progress {
            bits,
            num_pv,
            start,
            nodes_done: 0,
            line: 0,
            line_nodes: 0,
        }
    }

    fn iteration(&mut self, line: usize, it: &Iteration) {
        if line != self.line {
            self.nodes_done += self.line_nodes;
            self.line = line;
        }
        self.line_nodes = it.nodes;
        let prefix = if self.num_pv > 1 {
            format!("pv {} ", line + 1)
        } else {
            String::new()
        };
        output::message(&format!("{prefix}{}", iteration_message(it)));
        if self.bits & detail::SHOW_REALTIME != 0 {
            for l in detail::realtime(line, it) {
                output::message(&l);
            }
        }
        if self.bits & detail::SHOW_DETAIL != 0 {
            let total = self.nodes_done + it.nodes;
            let ms = self.start.elapsed().as_millis() as u64;
            for l in detail::detail_block(line, self.num_pv, it, total, ms) {
                output::line(&l);
            }
        }
    }
}

/// Runs `job` for the engine. What the engine has to tell the manager about its resources
/// (a memory limit it cannot keep) is printed first, before the search's own lines.
fn run_job(
    engine: &mut Engine,
    job: Job,
    limits: Limits,
    stop: &Stop,
) -> Result<Reply, EngineError> {
    if engine.game().is_some() {
        engine.prepare(limits.threads);
    }
    for n in engine.take_notices() {
        output::message(&n);
    }
    run_job_inner(engine, job, limits, stop)
}

/// The job itself: the part that needs no search, or the search.
fn run_job_inner(
    engine: &mut Engine,
    job: Job,
    limits: Limits,
    stop: &Stop,
) -> Result<Reply, EngineError> {
    let bits = detail::show_detail_bits(engine.settings.raw.get("show_detail"));
    let start = limits.start.unwrap_or_else(Instant::now);
    match job {
        Job::Move => {
            let mut p = Progress::new(bits, 1, start);
            let r = engine.think(limits, stop, &mut |it| p.iteration(0, it))?;
            Ok(Reply {
                messages: Vec::new(),
                line: Some(r.best.to_string()),
            })
        }
        job @ (Job::NBest(_) | Job::Defend) => {
            let n = if let Job::NBest(n) = job {
                n
            } else {
                engine::DEFEND_MAX_LINES
            };
            let mut p = Progress::new(bits, n, start);
            let mut report = |i: usize, it: &Iteration| p.iteration(i, it);
            let lines = match job {
                Job::NBest(n) => engine.nbest(n, limits, stop, &mut report)?,
                _ => engine.search_defend(limits, stop, &mut report)?,
            };
            let title = match job {
                Job::NBest(_) => format!("nbest: {} line(s)", lines.len()),
                _ => format!(
                    "defend: {} move(s) that do not lose",
                    lines
                        .iter()
                        .filter(|r| r.score > -crate::search::score::WIN_MIN)
                        .count()
                ),
            };
            let mut messages = vec![title];
            messages.extend(
                lines
                    .iter()
                    .enumerate()
                    .map(|(i, r)| detail::pv_summary(i, r)),
            );
            Ok(Reply {
                messages,
                line: lines.first().map(|r| r.best.to_string()),
            })
        }
        Job::Swap2(stones) => {
            let a = engine.swap2(&stones, limits, stop)?;
            Ok(Reply {
                messages: Vec::new(),
                line: Some(detail::swap_answer(&a)),
            })
        }
        Job::Analyse => {
            // The threat solver first, on at most half of the hard time (it is node-bounded
            // and usually far quicker), so the analysis always keeps the other half.
            let half = Limits {
                maximum: limits
                    .maximum
                    .map(|t| start + t.saturating_duration_since(start) / 2),
                ..limits.clone()
            };
            let threats = engine.threats(&half, stop)?;
            let lines = engine.analyse(ANALYSE_LINES, ANALYSE_DEPTH, limits, stop)?;
            let mut messages: Vec<String> = lines
                .iter()
                .enumerate()
                .map(|(i, r)| detail::pv_summary(i, r))
                .collect();
            messages.push(detail::verdict(lines.first()));
            messages.extend(detail::threat_lines(threats.as_ref()));
            Ok(Reply {
                messages,
                line: None,
            })
        }
    }
}

/// Thinks on a scoped thread while still reading input, then prints the job's reply.
fn think(
    engine: &mut Engine,
    received: Instant,
    rx: &Receiver<Input>,
    queue: &mut VecDeque<Input>,
    job: Job,
) -> Flow {
    let plays = matches!(job, Job::Move | Job::NBest(_) | Job::Defend);
    let limits = engine.limits(received);
    let hard = limits.maximum;
    let stop = Stop::new();
    let result = std::thread::scope(|s| {
        // The thinking thread prints its own reply the moment it has one: handing it to this
        // thread would cost a wake-up, and on a loaded machine a wake-up can wait tens of
        // milliseconds for a core while the manager's clock runs.
        let handle = s.spawn(|| {
            let r = run_job(engine, job, limits, &stop);
            print_reply(&r);
            r.map(|reply| reply.line.is_some())
        });
        // After end of input the channel answers at once; polling it would spin a core for
        // the rest of the search, so the loop then only sleeps.
        let mut eof = matches!(queue.back(), Some(Input::Eof));
        while !handle.is_finished() {
            if eof {
                std::thread::sleep(POLL);
            }
            let polled = if eof {
                Err(RecvTimeoutError::Timeout)
            } else {
                rx.recv_timeout(POLL)
            };
            match polled {
                Ok(Input::Line(t, l)) => match urgent_word(&l) {
                    Some(Urgent::Stop) => stop.set(),
                    // END from a manager arrives alone: leave now. Behind other queued
                    // lines it is the end of a piped script: keep it in order.
                    Some(Urgent::End) if queue.is_empty() => std::process::exit(0),
                    _ => queue.push_back(Input::Line(t, l)),
                },
                // End of input: finish this move and whatever is queued, then exit.
                Ok(Input::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    eof = true;
                    if !matches!(queue.back(), Some(Input::Eof)) {
                        queue.push_back(Input::Eof);
                    }
                    // A closed channel answers at once: without this the loop spins a core.
                    std::thread::sleep(POLL);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if hard.is_some_and(|t| Instant::now() > t + WATCHDOG_GRACE) {
                stop.set();
            }
        }
        handle.join()
    });
    match result {
        Ok(Ok(true)) if plays => Flow::Moved,
        Ok(_) => Flow::Continue,
        Err(_) => {
            output::error("internal error while thinking");
            Flow::Continue
        }
    }
}

/// Prints a finished job's MESSAGE lines and reply line, or its error.
fn print_reply(r: &Result<Reply, EngineError>) {
    match r {
        Ok(reply) => {
            for m in &reply.messages {
                output::message(m);
            }
            if let Some(l) = &reply.line {
                output::line(l);
            }
        }
        Err(e) => output::error(&e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;
    use std::sync::mpsc;

    fn engine_after_own_move() -> Engine {
        let mut e = Engine::new();
        e.set_info("thread_num", "1");
        e.set_info("hash_size", "256");
        e.set_info("pondering", "1");
        e.start(15, 15).unwrap();
        e.opponent_move(Move::new(7, 7)).unwrap();
        e.think(Limits::depth(2), &Stop::new(), &mut |_| {})
            .unwrap();
        e
    }

    #[test]
    fn a_ponder_stopped_by_turn_leaves_the_engine_exact() {
        let mut e = engine_after_own_move();
        assert!(e.pondering());
        let g = e.game().unwrap();
        let (key, ply) = (g.key(), g.ply());
        let (tx, rx) = mpsc::channel();
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            tx.send(Input::Line(Instant::now(), b"TURN 3,3".to_vec()))
                .unwrap();
            tx
        });
        let input = ponder_until_input(&mut e, &rx);
        drop(sender.join());
        let Input::Line(_, line) = input else {
            panic!("the TURN must come back")
        };
        assert_eq!(line, b"TURN 3,3");
        let g = e.game().unwrap();
        assert_eq!(
            (g.key(), g.ply()),
            (key, ply),
            "pondering changed the position"
        );
        // The TURN then applies as usual and the engine answers a legal move.
        let mut parser = Parser::new();
        let Some(Ok(Command::Turn(m))) = parser.feed_bytes(&line) else {
            panic!("TURN parses")
        };
        e.opponent_move(m).unwrap();
        let before = e.game().unwrap().clone();
        let r = e
            .think(Limits::depth(2), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(before.check_move(r.best).is_ok(), "{} is not legal", r.best);
        let g = e.game().unwrap();
        assert_eq!(g.ply(), ply + 2);
        assert_eq!(g.stone_at(Move::new(3, 3)), Some(Color::Black));
        assert_eq!(g.stone_at(r.best), Some(Color::White));
    }

    #[test]
    fn end_of_input_ends_a_ponder() {
        let mut e = engine_after_own_move();
        let (tx, rx) = mpsc::channel::<Input>();
        drop(tx);
        assert!(matches!(ponder_until_input(&mut e, &rx), Input::Eof));
    }

    #[test]
    fn a_capped_ponder_searches_the_opponents_position_and_warms_the_table() {
        let mut e = engine_after_own_move();
        e.set_info("max_depth", "4");
        let key = e.game().unwrap().key();
        let r = e.ponder(&Stop::new()).expect("a position to ponder");
        assert!(r.depth >= 1 && r.nodes > 0, "{r:?}");
        // The move is the opponent's (black's): a legal cell of the unchanged position.
        assert!(e.game().unwrap().check_move(r.best).is_ok());
        assert_eq!(e.game().unwrap().key(), key);
        assert!(e.hashfull() > 0, "the ponder search stored nothing");
    }

    #[test]
    fn no_ponder_while_the_table_awaits_a_resize() {
        let mut e = engine_after_own_move();
        e.set_info("max_depth", "2");
        assert!(e.ponder(&Stop::new()).is_some());
        e.set_info("hash_size", "512");
        assert!(
            e.ponder(&Stop::new()).is_none(),
            "the resize is the next search's"
        );
        e.think(Limits::depth(1), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(e.ponder(&Stop::new()).is_some());
        // A size the table rounds down (not a power of two) still ponders once it is set.
        e.set_info("hash_size", "700");
        e.think(Limits::depth(1), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(e.ponder(&Stop::new()).is_some());
    }

    #[test]
    fn nothing_to_ponder_without_a_live_gomoku_game() {
        let mut e = Engine::new();
        assert!(e.ponder(&Stop::new()).is_none(), "no game");
        e.set_info("game", "connect4");
        e.start(7, 6).unwrap();
        assert!(e.ponder(&Stop::new()).is_none(), "connect4 keeps no table");
        assert!(!e.pondering(), "pondering is off by default");
        e.set_info("pondering", "0");
        assert!(!e.pondering());
    }

    #[test]
    fn only_passive_commands_keep_pondering() {
        assert!(keeps_ponder(&Command::About));
        assert!(keeps_ponder(&Command::Info {
            key: "time_left".into(),
            value: "1000".into()
        }));
        assert!(!keeps_ponder(&Command::Turn(Move::new(1, 1))));
        assert!(!keeps_ponder(&Command::Restart));
        assert!(!keeps_ponder(&Command::Stop));
        assert!(!keeps_ponder(&Command::TraceSearch));
    }
}
