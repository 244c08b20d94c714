//! Protocol transcripts: scripted conversations with the real `pbrain-wuzi` binary.
//!
//! Each `protocol-tests/*.txt` file lists lines sent to the engine and the replies expected
//! (format in `protocol-tests/README.md`); each file is one test here. The runner drives the
//! binary as a manager would: stdin/stdout pipes, a reader thread feeding a channel so that
//! every read has a deadline and no test can hang, and a kill when the runner is done. It also
//! tracks the board the transcript sets up (through the library's own command parser), so a
//! `< MOVE` expectation checks that the engine's move is on the board and on an empty cell.
//!
//! The transcripts run one at a time (a lock), because several of them measure reply times
//! and the machine is small. The runner checks itself against a fake engine
//! (`tests/fixtures/fake_engine.py`) that can be told to misbehave, so a passing transcript
//! means the engine passed, not that the runner looked away.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use wuzi::game::Move;
use wuzi::protocol::command::{Command as Cmd, Field, Parser};

/// How long a `<` expectation waits when no `= timeout` / `= within` says otherwise, in ms.
const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// How long after the last send a line may still have been written before the engine read
/// it (see `= exit`), ms.
const END_RACE_MS: u64 = 200;
/// How many exchanged lines a failure report shows.
const LOG_TAIL: usize = 25;

// ---------------------------------------------------------------------------------------------
// Transcript format

/// One instruction of a transcript, with its 1-based line number.
#[derive(Debug)]
struct Step {
    line: usize,
    text: String,
    op: Op,
}

#[derive(Debug)]
enum Op {
    /// `> text`: the bytes to send (escapes resolved), without the newline.
    Send(Vec<u8>),
    /// `< pattern || pattern …`: the next reply must match one of them.
    Expect(Vec<Pattern>),
    /// `= silent MS`
    Silent(u64),
    /// `= within MS`: the next expected reply must arrive within MS of the last send.
    Within(u64),
    /// `= exit MS`
    Exit(u64),
    /// `= eof`
    Eof,
    /// `= wait MS`
    Wait(u64),
    /// `= maybe MS`: the next `<` is also satisfied by no reply at all within MS.
    Maybe(u64),
    /// `= timeout MS`
    Timeout(u64),
}

#[derive(Debug, Clone, PartialEq)]
enum Pattern {
    /// `MOVE`: a legal move (on the board, on an empty cell); played on the tracked board.
    Move,
    /// `MOVE a,b|c,d`: one of these, and legal.
    MoveOneOf(Vec<Move>),
    /// `COORDS n`: n space-separated distinct legal cells (swap2 answers); not played.
    Coords(usize),
    /// `text*`
    Prefix(String),
    /// anything else: the exact line.
    Exact(String),
}

impl Pattern {
    fn parse(s: &str) -> Result<Pattern, String> {
        let s = s.trim().replace("{version}", env!("CARGO_PKG_VERSION"));
        if s == "MOVE" {
            return Ok(Pattern::Move);
        }
        if let Some(list) = s.strip_prefix("MOVE ") {
            let moves = list
                .split('|')
                .map(|m| parse_move_text(m.trim()).ok_or(format!("bad move {m:?} in pattern")))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Pattern::MoveOneOf(moves));
        }
        if let Some(n) = s.strip_prefix("COORDS ") {
            return n
                .trim()
                .parse()
                .map(Pattern::Coords)
                .map_err(|_| format!("bad count in {s:?}"));
        }
        if let Some(p) = s.strip_suffix('*') {
            return Ok(Pattern::Prefix(p.to_string()));
        }
        Ok(Pattern::Exact(s))
    }

    /// Whether this pattern is about MESSAGE/DEBUG lines (which are otherwise skipped).
    fn wants_chatter(&self) -> bool {
        match self {
            Pattern::Prefix(t) | Pattern::Exact(t) => is_chatter(t),
            _ => false,
        }
    }
}

fn is_chatter(line: &str) -> bool {
    line.starts_with("MESSAGE") || line.starts_with("DEBUG")
}

/// `x,y` exactly as a manager parses a move: digits, one comma, no spaces.
fn parse_move_text(s: &str) -> Option<Move> {
    let (x, y) = s.split_once(',')?;
    let num = |t: &str| -> Option<u8> {
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    Some(Move::new(num(x)?, num(y)?))
}

/// Resolves `\r \n \t \0 \\ \xHH` in a `>` line.
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let c = *bytes.get(i + 1).ok_or("dangling backslash")?;
        i += 2;
        match c {
            b'r' => out.push(b'\r'),
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'0' => out.push(0),
            b'\\' => out.push(b'\\'),
            b'x' => {
                let hex = s.get(i..i + 2).ok_or("short \\x escape")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| "bad \\x escape")?);
                i += 2;
            }
            _ => return Err(format!("unknown escape \\{}", c as char)),
        }
    }
    Ok(out)
}

fn parse_transcript(text: &str) -> Result<Vec<Step>, (usize, String)> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let err = |m: String| (line, m);
        let op = if let Some(rest) = raw.strip_prefix("> ") {
            Op::Send(unescape(rest).map_err(err)?)
        } else if trimmed == ">" {
            Op::Send(Vec::new())
        } else if let Some(rest) = trimmed.strip_prefix("< ") {
            let pats = rest
                .split(" || ")
                .map(Pattern::parse)
                .collect::<Result<Vec<_>, _>>()
                .map_err(err)?;
            Op::Expect(pats)
        } else if let Some(rest) = trimmed.strip_prefix("= ") {
            let mut words = rest.split_whitespace();
            let name = words.next().unwrap_or("");
            if name == "long" {
                // `= long N TEXT`: TEXT followed by N 'x' bytes, one line.
                let n = words.next().and_then(|w| w.parse::<usize>().ok());
                let Some(n) = n else {
                    return Err((line, "`= long` needs a byte count".into()));
                };
                let prefix = words.collect::<Vec<_>>().join(" ");
                let mut bytes = unescape(&prefix).map_err(err)?;
                bytes.extend(std::iter::repeat_n(b'x', n));
                steps.push(Step {
                    line,
                    text: trimmed.to_string(),
                    op: Op::Send(bytes),
                });
                continue;
            }
            let arg = words.next().map(|w| w.parse::<u64>());
            let ms = |arg: Option<Result<u64, _>>| match arg {
                Some(Ok(v)) => Ok(v),
                _ => Err((line, format!("`= {name}` needs a number of milliseconds"))),
            };
            match name {
                "silent" => Op::Silent(ms(arg)?),
                "within" => Op::Within(ms(arg)?),
                "exit" => Op::Exit(ms(arg)?),
                "wait" => Op::Wait(ms(arg)?),
                "timeout" => Op::Timeout(ms(arg)?),
                "maybe" => Op::Maybe(ms(arg)?),
                "eof" => Op::Eof,
                _ => return Err((line, format!("unknown directive {name:?}"))),
            }
        } else {
            return Err((line, format!("cannot read transcript line {raw:?}")));
        };
        steps.push(Step {
            line,
            text: trimmed.to_string(),
            op,
        });
    }
    Ok(steps)
}

// ---------------------------------------------------------------------------------------------
// The board the transcript has set up

#[derive(Clone, Copy, Debug, PartialEq)]
enum Stone {
    Engine,
    Opponent,
    Wall,
}

/// What the last command will do to the board if the engine accepts it.
#[derive(Debug)]
enum Change {
    Reset(usize, usize),
    Restart,
    Place(Move),
    Remove(Move),
    Set(Vec<(Move, Field)>),
}

/// A board as the transcript has set it up.
#[derive(Clone, Debug, Default)]
struct Board {
    size: Option<(usize, usize)>,
    cells: HashMap<Move, Stone>,
}

impl Board {
    fn apply(&mut self, c: &Change) {
        match c {
            Change::Reset(w, h) => {
                self.size = Some((*w, *h));
                self.cells.clear();
            }
            Change::Restart => self.cells.clear(),
            Change::Place(m) => {
                self.cells.insert(*m, Stone::Opponent);
            }
            Change::Remove(m) => {
                self.cells.remove(m);
            }
            Change::Set(list) => {
                self.cells.clear();
                for &(m, f) in list {
                    let s = match f {
                        Field::Own => Stone::Engine,
                        Field::Opponent => Stone::Opponent,
                        Field::Wall => Stone::Wall,
                    };
                    self.cells.insert(m, s);
                }
            }
        }
    }

    /// Why `m` is not a legal move for the engine now, if it is not.
    fn illegal(&self, m: Move) -> Option<String> {
        let Some((w, h)) = self.size else {
            return Some("no board size known (no START accepted)".into());
        };
        if m.x as usize >= w || m.y as usize >= h {
            return Some(format!("{m} is off the {w}x{h} board"));
        }
        self.cells
            .get(&m)
            .map(|s| format!("{m} is occupied ({s:?} stone)"))
    }
}

/// The board plus the effects of commands sent but not yet answered: those are committed
/// when a reply other than ERROR/UNKNOWN comes (or the next command is sent), dropped on
/// ERROR/UNKNOWN.
#[derive(Debug, Default)]
struct Tracker {
    board: Board,
    tentative: Vec<Change>,
    parser: Parser,
}

impl Tracker {
    fn sent(&mut self, bytes: &[u8]) {
        let mut r = self.parser.feed_bytes(bytes);
        while let Some(res) = r {
            if let Ok(cmd) = res {
                // A new command means the previous one was accepted silently.
                self.commit();
                match cmd {
                    Cmd::Start { width, height } | Cmd::RectStart { width, height } => {
                        self.tentative.push(Change::Reset(width, height))
                    }
                    Cmd::Restart => self.tentative.push(Change::Restart),
                    Cmd::Turn(m) => self.tentative.push(Change::Place(m)),
                    Cmd::Takeback(m) => self.tentative.push(Change::Remove(m)),
                    Cmd::Board(list) | Cmd::YxBoard(list) => self.tentative.push(Change::Set(list)),
                    _ => {}
                }
            }
            r = self.parser.next_pending();
        }
    }

    fn commit(&mut self) {
        for c in std::mem::take(&mut self.tentative) {
            self.board.apply(&c);
        }
    }

    /// The board as it will be if the pending commands are accepted.
    fn preview(&self) -> Board {
        let mut b = self.board.clone();
        for c in &self.tentative {
            b.apply(c);
        }
        b
    }
}

// ---------------------------------------------------------------------------------------------
// Running the engine

/// How to start an engine.
#[derive(Clone, Debug)]
struct EngineCmd {
    program: PathBuf,
    args: Vec<String>,
}

impl EngineCmd {
    /// The engine under test: this build's binary, or the command in `WUZI_ENGINE` (split on
    /// spaces, e.g. `wine target/windows/…/pbrain-wuzi.exe`), so that
    /// `scripts/test-windows.sh` runs the same transcripts against the Windows build.
    fn wuzi() -> EngineCmd {
        match std::env::var("WUZI_ENGINE") {
            Ok(cmd) if !cmd.trim().is_empty() => {
                let mut words = cmd.split_whitespace().map(String::from);
                EngineCmd {
                    program: PathBuf::from(words.next().unwrap_or_default()),
                    args: words.collect(),
                }
            }
            _ => EngineCmd {
                program: PathBuf::from(env!("CARGO_BIN_EXE_pbrain-wuzi")),
                args: vec![],
            },
        }
    }

    fn fake(flags: &[&str]) -> EngineCmd {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
        let mut args = vec![script.to_string_lossy().into_owned()];
        args.extend(flags.iter().map(|s| s.to_string()));
        EngineCmd {
            program: PathBuf::from("python3"),
            args,
        }
    }
}

/// A running engine; killed when dropped, so no test leaves a process behind.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    log: Vec<String>,
    last_send: Instant,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Session {
    fn start(cmd: &EngineCmd) -> Result<Session, String> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd.program.display()))?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let mut err_pipe = child.stderr.take().expect("stderr was piped");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf);
                        let s = s.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send((Instant::now(), s)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut v = sink.lock().unwrap_or_else(|p| p.into_inner());
                // Keep only the tail: a chatty engine must not grow the test's memory.
                if v.len() > 64 * 1024 {
                    v.drain(..32 * 1024);
                }
                v.extend_from_slice(&chunk[..n]);
            }
        });
        Ok(Session {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            log: Vec::new(),
            last_send: Instant::now(),
        })
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        let mut data = bytes.to_vec();
        data.push(b'\n');
        stdin
            .write_all(&data)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("engine stopped reading: {e}"))?;
        self.last_send = Instant::now();
        let shown: String = String::from_utf8_lossy(bytes).chars().take(200).collect();
        self.log.push(format!("> {}", shown.escape_debug()));
        Ok(())
    }

    /// The next line before `deadline`: `Ok(None)` on timeout, `Err` if stdout closed.
    fn recv(&mut self, deadline: Instant) -> Result<Option<(Instant, String)>, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((t, l)) => {
                self.log.push(format!(
                    "< {l}   (+{} ms)",
                    t.duration_since(self.last_send).as_millis()
                ));
                Ok(Some((t, l)))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err("engine closed stdout (exited?)".into()),
        }
    }

    fn report(&self) -> String {
        let tail = &self.log[self.log.len().saturating_sub(LOG_TAIL)..];
        let err = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        let err = String::from_utf8_lossy(&err);
        let err_tail: String = {
            let lines: Vec<&str> = err.lines().collect();
            lines[lines.len().saturating_sub(10)..].join("\n")
        };
        format!(
            "--- last exchanges ---\n{}\n--- engine stderr (tail) ---\n{}",
            tail.join("\n"),
            err_tail
        )
    }
}

/// Where and why a transcript failed.
#[derive(Debug)]
struct Failure {
    name: String,
    line: usize,
    step: String,
    msg: String,
    context: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: `{}`: {}\n{}",
            self.name, self.line, self.step, self.msg, self.context
        )
    }
}

/// Checks one reply against the alternatives; on success plays a matched move on the board.
fn check_reply(line: &str, pats: &[Pattern], tracker: &mut Tracker) -> Result<(), String> {
    let mut why = Vec::new();
    for p in pats {
        let verdict = match p {
            Pattern::Exact(t) if line == t => Ok(()),
            Pattern::Prefix(t) if line.starts_with(t.as_str()) => Ok(()),
            Pattern::Exact(t) => Err(format!("not {t:?}")),
            Pattern::Prefix(t) => Err(format!("does not start with {t:?}")),
            Pattern::Move | Pattern::MoveOneOf(_) => match parse_move_text(line) {
                None => Err("not a move x,y".into()),
                Some(m) => match (tracker.preview().illegal(m), p) {
                    (Some(e), _) => Err(e),
                    (None, Pattern::MoveOneOf(ok)) if !ok.contains(&m) => {
                        Err(format!("{m} is not one of the expected moves"))
                    }
                    _ => {
                        tracker.commit();
                        tracker.board.cells.insert(m, Stone::Engine);
                        return Ok(());
                    }
                },
            },
            Pattern::Coords(n) => {
                let cells: Option<Vec<Move>> =
                    line.split(' ').map(parse_move_text).collect::<Option<_>>();
                match cells {
                    None => Err("not space-separated moves".into()),
                    Some(c) if c.len() != *n => Err(format!("{} moves, not {n}", c.len())),
                    Some(c) => {
                        let board = tracker.preview();
                        let mut seen = std::collections::HashSet::new();
                        let bad = c.iter().find_map(|&m| {
                            board
                                .illegal(m)
                                .or_else(|| (!seen.insert(m)).then(|| format!("{m} twice")))
                        });
                        bad.map_or(Ok(()), Err)
                    }
                }
            }
        };
        match verdict {
            Ok(()) => {
                if line.starts_with("ERROR") || line.starts_with("UNKNOWN") {
                    tracker.tentative.clear();
                } else {
                    tracker.commit();
                }
                return Ok(());
            }
            Err(e) => why.push(e),
        }
    }
    Err(format!("reply {line:?}: {}", why.join("; ")))
}

fn run_transcript(engine: &EngineCmd, name: &str, text: &str) -> Result<(), Failure> {
    let steps = parse_transcript(text).map_err(|(line, msg)| Failure {
        name: name.into(),
        line,
        step: String::new(),
        msg: format!("bad transcript: {msg}"),
        context: String::new(),
    })?;
    let mut s = Session::start(engine).map_err(|msg| Failure {
        name: name.into(),
        line: 0,
        step: String::new(),
        msg,
        context: String::new(),
    })?;
    let mut tracker = Tracker::default();
    let mut timeout = Duration::from_millis(DEFAULT_TIMEOUT_MS);
    let mut within: Option<Duration> = None;
    let mut maybe: Option<Duration> = None;
    let mut exited = false;
    for step in &steps {
        let fail = |s: &Session, msg: String| Failure {
            name: name.into(),
            line: step.line,
            step: step.text.clone(),
            msg,
            context: s.report(),
        };
        match &step.op {
            Op::Send(bytes) => {
                s.send(bytes).map_err(|m| fail(&s, m))?;
                tracker.sent(bytes);
            }
            Op::Timeout(ms) => timeout = Duration::from_millis(*ms),
            Op::Within(ms) => within = Some(Duration::from_millis(*ms)),
            Op::Maybe(ms) => maybe = Some(Duration::from_millis(*ms)),
            Op::Wait(ms) => thread::sleep(Duration::from_millis(*ms)),
            Op::Eof => {
                s.stdin = None;
                // Closing stdin is the manager's last word, like a sent END.
                s.last_send = Instant::now();
                s.log.push("= eof".into());
            }
            Op::Expect(pats) => {
                let limit = within.take();
                let optional = maybe.take();
                let deadline = match (optional, limit) {
                    (Some(m), _) => Instant::now() + m,
                    (None, Some(w)) => s.last_send + w,
                    (None, None) => Instant::now() + timeout,
                };
                let chatter_wanted = pats.iter().any(Pattern::wants_chatter);
                loop {
                    let got = s.recv(deadline).map_err(|m| fail(&s, m))?;
                    let Some((_, line)) = got else {
                        if optional.is_some() {
                            break;
                        }
                        let msg = match limit {
                            Some(w) => {
                                format!("no reply within {} ms of the last send", w.as_millis())
                            }
                            None => format!("no reply within {} ms", timeout.as_millis()),
                        };
                        return Err(fail(&s, msg));
                    };
                    if is_chatter(&line) && !chatter_wanted {
                        continue;
                    }
                    check_reply(&line, pats, &mut tracker).map_err(|m| fail(&s, m))?;
                    break;
                }
            }
            Op::Silent(ms) => {
                let deadline = Instant::now() + Duration::from_millis(*ms);
                match s.recv(deadline) {
                    Ok(None) => {}
                    Ok(Some((_, line))) => {
                        return Err(fail(&s, format!("expected silence, got {line:?}")))
                    }
                    Err(m) => return Err(fail(&s, m)),
                }
            }
            Op::Exit(ms) => {
                // Output sent after the last command (END, EOF) breaks "print nothing more";
                // MESSAGE lines of the search before it are just unread chatter, but an
                // unread reply means the transcript missed something. A line read up to
                // END_RACE_MS after the last send still counts as sent before it: a search
                // prints its iterations until the engine has read END, and on a loaded machine
                // this runner's reader and the engine's input thread both wait for a core.
                // After EOF nobody reads stdout any more: only the exit itself matters.
                let judge = |s: &Session, t: Instant, line: String| -> Result<(), Failure> {
                    if s.stdin.is_none() {
                        Ok(())
                    } else if t >= s.last_send + Duration::from_millis(END_RACE_MS) {
                        Err(fail(s, format!("output after the last command: {line:?}")))
                    } else if is_chatter(&line) {
                        Ok(())
                    } else {
                        Err(fail(
                            s,
                            format!("unexpected reply before the exit: {line:?}"),
                        ))
                    }
                };
                let deadline = Instant::now() + Duration::from_millis(*ms);
                loop {
                    let poll = Instant::now() + Duration::from_millis(5);
                    if let Ok(Some((t, line))) = s.recv(poll) {
                        judge(&s, t, line)?;
                        continue;
                    }
                    match s.child.try_wait() {
                        Ok(Some(_)) => break,
                        Ok(None) if Instant::now() < deadline => {}
                        Ok(None) => {
                            return Err(fail(&s, format!("engine still running after {ms} ms")))
                        }
                        Err(e) => return Err(fail(&s, format!("wait failed: {e}"))),
                    }
                }
                // Lines printed just before the exit may still be in the pipe.
                let drain_until = Instant::now() + Duration::from_millis(100);
                while let Ok(Some((t, line))) = s.recv(drain_until) {
                    judge(&s, t, line)?;
                }
                exited = true;
            }
        }
    }
    if std::env::var_os("WUZI_TRANSCRIPT_LOG").is_some() {
        eprintln!("=== {name}\n{}", s.log.join("\n"));
    }
    if !exited {
        let last = steps.last().map_or(0, |st| st.line);
        return Err(Failure {
            name: name.into(),
            line: last,
            step: String::new(),
            msg: "transcript ends with the engine still running (end it with `= exit MS`)".into(),
            context: s.report(),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The transcript tests

/// Transcripts measure reply times: run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn transcript_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests")
}

fn run_file(name: &str) {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let path = transcript_dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if let Err(f) = run_transcript(
        &EngineCmd::wuzi(),
        &format!("protocol-tests/{name}.txt"),
        &text,
    ) {
        panic!("{f}");
    }
}

/// One test per transcript. `name = "reason"` marks a transcript that shows a known engine
/// discrepancy: ignored by default (so `main` stays green), run with `-- --ignored`.
macro_rules! transcripts {
    ($($name:ident $(= $reason:literal)?),* $(,)?) => {
        const TRANSCRIPTS: &[&str] = &[$(stringify!($name)),*];
        mod transcript {
            $( $(#[ignore = $reason])? #[test] fn $name() { super::run_file(stringify!($name)); } )*
        }
    };
}

transcripts!(
    about,
    start_sizes,
    rectstart,
    restart,
    begin,
    turn,
    turn_errors,
    board,
    board_errors,
    takeback,
    info,
    end,
    eof,
    play,
    yxstop,
    unknown,
    lowercase_crlf,
    timing,
    tactics,
    yixin,
    connect4,
    mnk,
    eof_thinking,
    info_limits,
    exactly_five,
    pro,
    pro_long,
    yxblock,
    yxnbest,
    yxdefend,
    debug,
    swap2,
    swap2_timing,
    swap1,
    pondering,
    threats,
    pente,
    ninuki,
    stale_complaint,
);

#[test]
fn every_transcript_file_has_a_test() {
    let mut files: Vec<String> = std::fs::read_dir(transcript_dir())
        .expect("protocol-tests/ exists")
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "txt" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = TRANSCRIPTS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "protocol-tests/*.txt and transcripts!() differ"
    );
}

// ---------------------------------------------------------------------------------------------
// The runner checks itself against a fake engine

fn fake(flags: &[&str], text: &str) -> Result<(), Failure> {
    run_transcript(&EngineCmd::fake(flags), "selftest", text)
}

/// Runs a transcript that must fail, and returns the failure for inspection.
fn fake_fails(flags: &[&str], text: &str) -> Failure {
    match fake(flags, text) {
        Ok(()) => panic!("runner accepted a bad exchange:\n{text}"),
        Err(f) => f,
    }
}

const FAKE_GAME: &str = "\
# a normal game against the fake engine
> ABOUT
< name=\"fake\"*
> START 15
< OK
> INFO timeout_turn 1000
= silent 200
> BEGIN
< MOVE 7,7
> TURN 8,8
< MOVE
> BOARD
> 7,7,2
> 8,7,1
> DONE
< MOVE 7,6|6,7|8,6|6,8
> START 4
< ERROR*
> TURN 7,7
< ERROR*
> TURN 99,0
< ERROR*
> HELLO
< UNKNOWN*
= long 100000 ZZ
< UNKNOWN ZZxxx*
> END
= exit 1000
";

#[test]
fn selftest_good_transcript_passes() {
    if let Err(f) = fake(&[], FAKE_GAME) {
        panic!("{f}");
    }
}

#[test]
fn selftest_eof_and_chatter() {
    let t = "> START 10\n< OK\n> BEGIN\n< MESSAGE*\n< MOVE 5,5\n> TURN 0,0\n< MESSAGE thinking\n< MOVE\n= eof\n= exit 1000\n";
    if let Err(f) = fake(&["--message"], t) {
        panic!("{f}");
    }
    // Without asking for MESSAGE lines they are skipped.
    let t = "> START 10\n< OK\n> BEGIN\n< MOVE 5,5\n= eof\n= exit 1000\n";
    if let Err(f) = fake(&["--message"], t) {
        panic!("{f}");
    }
}

#[test]
fn selftest_detects_wrong_reply() {
    let f = fake_fails(&[], "> START 15\n< ERROR*\n> END\n= exit 1000\n");
    assert_eq!(f.line, 2);
    assert!(f.msg.contains("\"OK\""), "{}", f.msg);
}

#[test]
fn selftest_detects_occupied_move() {
    let t = "> START 15\n< OK\n> TURN 3,3\n< MOVE\n> END\n= exit 1000\n";
    let f = fake_fails(&["--occupied"], t);
    assert_eq!(f.line, 4);
    assert!(f.msg.contains("occupied"), "{}", f.msg);
}

#[test]
fn selftest_detects_move_outside_set() {
    let t = "> START 15\n< OK\n> BEGIN\n< MOVE 0,0|1,1\n> END\n= exit 1000\n";
    let f = fake_fails(&[], t);
    assert_eq!(f.line, 4);
}

#[test]
fn selftest_rejected_command_leaves_board() {
    // The fake rejects TURN 7,7 on an occupied cell; the tracker must not record a change,
    // and must not think 7,7 changed hands either.
    let t = "> START 15\n< OK\n> BEGIN\n< MOVE 7,7\n> TURN 7,7\n< ERROR*\n> TURN 0,0\n< MOVE 7,8|8,7|6,7|7,6\n> END\n= exit 1000\n";
    if let Err(f) = fake(&[], t) {
        panic!("{f}");
    }
}

#[test]
fn selftest_detects_noise_after_info() {
    let t = "> START 15\n< OK\n> INFO timeout_turn 5\n= silent 300\n> END\n= exit 1000\n";
    let f = fake_fails(&["--chatty"], t);
    assert_eq!(f.line, 4);
}

#[test]
fn selftest_detects_no_exit() {
    let f = fake_fails(&["--no-exit"], "> END\n= exit 300\n");
    assert_eq!(f.line, 2);
    assert!(f.msg.contains("still running"), "{}", f.msg);
    let f = fake_fails(&["--no-exit"], "= eof\n= exit 300\n");
    assert_eq!(f.line, 2);
}

#[test]
fn selftest_detects_slow_and_hung_replies() {
    let t = "> START 15\n< OK\n> BEGIN\n= within 200\n< MOVE\n> END\n= exit 1000\n";
    let f = fake_fails(&["--slow", "700"], t);
    assert_eq!(f.line, 5);
    assert!(f.msg.contains("within 200 ms"), "{}", f.msg);
    let t = "> START 15\n< OK\n= timeout 300\n> TURN 1,1\n< MOVE\n> END\n= exit 1000\n";
    let f = fake_fails(&["--hang"], t);
    assert_eq!(f.line, 5);
}

#[test]
fn selftest_maybe_accepts_silence_or_a_match() {
    let t = "> START 15\n< OK\n> INFO x 1\n= maybe 200\n< UNKNOWN*\n> FOO\n= maybe 2000\n< UNKNOWN*\n> END\n= exit 1000\n";
    if let Err(f) = fake(&[], t) {
        panic!("{f}");
    }
    // A reply that arrives must still match.
    let t = "> START 15\n< OK\n> FOO\n= maybe 2000\n< OK\n> END\n= exit 1000\n";
    assert_eq!(fake_fails(&[], t).line, 5);
}

#[test]
fn selftest_exit_tolerates_earlier_chatter_only() {
    // The MESSAGE before the move is consumed by `< MOVE`; the one of the unread TURN reply
    // is earlier chatter, but its move line is an unread reply.
    let t = "> START 15\n< OK\n> BEGIN\n< MOVE\n> TURN 0,0\n= wait 300\n> END\n= exit 1000\n";
    let f = fake_fails(&["--message"], t);
    assert_eq!(f.line, 8);
    assert!(f.msg.contains("unexpected reply"), "{}", f.msg);
    let t = "> START 15\n< OK\n> BEGIN\n= wait 300\n> END\n= exit 1000\n";
    let f = fake_fails(&[], t);
    assert!(f.msg.contains("unexpected reply"), "{}", f.msg);
    // BEGIN answered after END was sent: output after the last command.
    let t = "> START 15\n< OK\n> BEGIN\n> END\n= exit 3000\n";
    let f = fake_fails(&["--slow", "300"], t);
    assert!(f.msg.contains("after the last command"), "{}", f.msg);
}

#[test]
fn selftest_requires_an_ending() {
    let f = fake_fails(&[], "> START 15\n< OK\n");
    assert!(f.msg.contains("still running"), "{}", f.msg);
}

#[test]
fn selftest_format_errors_are_reported() {
    let f = fake_fails(&[], "> START 15\n= sometimes 3\n");
    assert_eq!(f.line, 2);
    assert!(f.msg.contains("bad transcript"));
    assert_eq!(unescape("a\\r\\x41\\\\").unwrap(), b"a\rA\\".to_vec());
    assert!(unescape("\\q").is_err());
    assert_eq!(
        Pattern::parse("MOVE 1,2|3,4").unwrap(),
        Pattern::MoveOneOf(vec![Move::new(1, 2), Move::new(3, 4)])
    );
}
