//! Reliability of the real `pbrain-wuzi` binary under hostile managers (issues #7, #69), run
//! in CI.
//!
//! Seeded random transcripts (random bytes, NUL, Unicode, truncated and interrupted
//! commands, huge and negative numbers, blocks without `DONE`, commands of every game out of
//! order, bursts of `INFO`, 1 MB lines) are written to the engine in one go; every line it
//! prints must be a well-formed protocol line and it must neither hang nor die. One
//! transcript in four is cut at a random byte by the end of input, and the engine must then
//! exit cleanly; after the others a game of one of the variants (every gomoku rule, pente,
//! ninuki, Connect Four, m,n,k) must still play legal moves. `a_million_bad_lines` is the
//! long run (`scripts/fuzz.sh million`). Beside that: commands sent in the same write as the
//! move they follow are never lost, `END`, end of input and a closed stdout all end the
//! process, memory limits behave, and the renju corner where black has only forbidden cells
//! gets its documented answer.
//!
//! The binary is driven through pipes exactly as a manager would, so these tests see what a
//! manager sees; the seeds are fixed so a failure replays. Time figures are not asserted (the
//! CI machine is shared); the deadlines below only tell a hang from an answer.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-wuzi");
/// Longer than any answer can take; only a hang reaches it.
const HANG: Duration = Duration::from_secs(30);

/// xorshift64*: a small deterministic generator so every transcript replays from its seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "PLAY",
    "TAKEBACK",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "DONE",
    "INFO",
    "ABOUT",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXNBEST",
    "YXSEARCHDEFEND",
    "YXSHOWHASHUSAGE",
    "turn",
    "bEgIn",
    "SUGGEST",
    "",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "7",
    "14",
    "15",
    "19",
    "20",
    "31",
    "32",
    "33",
    "255",
    "256",
    "-1",
    "-15",
    "+3",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "0x10",
    "1e3",
    "٣",
    "",
    " ",
];

/// `INFO` lines that keep each transcript fast (short clocks, shallow depth) while still
/// reaching every key with odd values.
fn info_line(r: &mut Rng) -> String {
    let key = *r.pick(&[
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "rule",
        "game",
        "k",
        "hash_size",
        "thread_num",
        "max_depth",
        "max_node",
        "game_type",
        "folder",
        "evaluate",
        "captures_black",
        "captures_white",
        "capture_search",
        "opening_rule",
        "pondering",
        "show_detail",
        "seed",
        "nonsense_key",
        "",
    ]);
    let value = match key {
        "timeout_turn" | "time_left" => r.pick(&["0", "-5", "1", "20", "50", "x"]).to_string(),
        "timeout_match" => r.pick(&["0", "100000", "-1", "2147483647"]).to_string(),
        "max_memory" => r
            .pick(&["0", "1", "1000000", "16777216", "67108864", "-7", "junk"])
            .to_string(),
        "rule" => r
            .pick(&["0", "1", "2", "4", "8", "9", "-1", "255"])
            .to_string(),
        "game" => r
            .pick(&[
                "gomoku", "connect4", "mnk", "pente", "ninuki", "PENTE", "chess", "",
            ])
            .to_string(),
        "captures_black" | "captures_white" => r.pick(&["0", "1", "4", "5", "-1", "x"]).to_string(),
        "capture_search" => r.pick(&["aware", "plain", "x"]).to_string(),
        "opening_rule" => r
            .pick(&["none", "pro", "longpro", "swap1", "x"])
            .to_string(),
        "pondering" | "show_detail" => r.pick(&["0", "1", "2", "3", "-1"]).to_string(),
        "k" => r.pick(&["3", "4", "5", "0", "99"]).to_string(),
        "hash_size" => r.pick(&["0", "1", "1024", "65536"]).to_string(),
        "thread_num" => r.pick(&["0", "1", "2", "100000", "-3"]).to_string(),
        "max_depth" => r.pick(&["1", "2", "3", "0"]).to_string(),
        "max_node" => r.pick(&["1", "500", "0"]).to_string(),
        _ => r.pick(NUMBERS).to_string(),
    };
    format!("INFO {key} {value}")
}

fn coords(r: &mut Rng) -> String {
    let a = r.pick(NUMBERS);
    let b = r.pick(NUMBERS);
    match r.below(6) {
        0 => format!("{a},{b}"),
        1 => format!("{a} , {b}"),
        2 => format!("{a},{b},{}", r.pick(NUMBERS)),
        3 => format!("{},{}", r.below(20), r.below(20)),
        4 => format!("{},{},{}", r.below(20), r.below(20), r.below(5)),
        _ => a.to_string(),
    }
}

fn random_bytes(r: &mut Rng, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            // Newlines would split the line; everything else, NUL and CR included, may appear.
            let b = r.below(256) as u8;
            if b == b'\n' {
                b' '
            } else {
                b
            }
        })
        .collect()
}

/// One hostile line (no `\n` inside).
fn garbage_line(r: &mut Rng) -> Vec<u8> {
    match r.below(14) {
        0 => {
            let n = r.below(80) as usize;
            random_bytes(r, n)
        }
        1 => format!("{} {}", r.pick(WORDS), coords(r)).into_bytes(),
        2 => format!("{} {}", r.pick(WORDS), r.pick(NUMBERS)).into_bytes(),
        3 => format!("START {} {}", r.pick(NUMBERS), r.pick(NUMBERS)).into_bytes(),
        4 => info_line(r).into_bytes(),
        5 => coords(r).into_bytes(),
        6 => {
            // A valid command cut short.
            let full = format!("{} {}", r.pick(WORDS), coords(r));
            let cut = r.below(full.len() as u64 + 1) as usize;
            full.as_bytes()[..cut].to_vec()
        }
        7 => "DONE".into(),
        8 => r
            .pick(&["BOARD", "YXBOARD", "SWAP2BOARD", "YXBLOCK"])
            .to_string()
            .into_bytes(),
        9 => "五子棋 ♟ TURN ７,７ \u{feff}BEGIN \u{202e}OK".into(),
        10 => {
            let mut v = b"TURN 3,".to_vec();
            v.extend_from_slice(b"\0\0\r\x1b[2J");
            v
        }
        11 => format!("START {}", 5 + r.below(30)).into_bytes(),
        12 => r
            .pick(&[
                "BEGIN",
                "RESTART",
                "ABOUT",
                "YXSTOP",
                "YXSHOWFORBID",
                "TAKEBACK 7,7",
            ])
            .to_string()
            .into_bytes(),
        _ => format!("  \t{}\r", r.pick(WORDS)).into_bytes(),
    }
}

/// Whether a raw line would make the engine exit (its first word is `END`); the garbage
/// leaves those out so the session continues to the check game.
fn is_end(line: &[u8]) -> bool {
    String::from_utf8_lossy(line)
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("END"))
}

/// A game the check after each transcript plays, and what its referee must know of it.
struct Variant {
    name: &'static str,
    /// Sent after the common resets, before `start`.
    info: &'static [&'static str],
    start: &'static str,
    width: usize,
    height: usize,
    /// Stones in a row that may end the game: the referee stops at the first such line, so
    /// it never asks for a move after an end the engine saw (an overline under exactly-five
    /// or a caro five blocked at both ends only stop it early).
    k: usize,
    /// Connect Four: a stone lands on the lowest empty cell of its column.
    gravity: bool,
    /// Pente and ninuki: a move that flanks exactly two opponent stones removes them.
    captures: bool,
}

const fn variant(
    name: &'static str,
    info: &'static [&'static str],
    start: &'static str,
    size: (usize, usize),
    k: usize,
) -> Variant {
    Variant {
        name,
        info,
        start,
        width: size.0,
        height: size.1,
        k,
        gravity: false,
        captures: false,
    }
}

/// Every game and gomoku rule the engine plays (README's `INFO game` and `INFO rule`).
const VARIANTS: &[Variant] = &[
    variant(
        "freestyle",
        &["INFO game gomoku", "INFO rule 0"],
        "START 15",
        (15, 15),
        5,
    ),
    variant(
        "exactly five",
        &["INFO game gomoku", "INFO rule 1"],
        "START 15",
        (15, 15),
        5,
    ),
    variant(
        "renju (rule 2)",
        &["INFO game gomoku", "INFO rule 2"],
        "START 15",
        (15, 15),
        5,
    ),
    variant(
        "renju (rule 4)",
        &["INFO game gomoku", "INFO rule 4"],
        "START 15",
        (15, 15),
        5,
    ),
    variant(
        "caro",
        &["INFO game gomoku", "INFO rule 8"],
        "START 15",
        (15, 15),
        5,
    ),
    variant(
        "caro exactly five",
        &["INFO game gomoku", "INFO rule 9"],
        "START 20",
        (20, 20),
        5,
    ),
    variant(
        "freestyle 20x12",
        &["INFO game gomoku", "INFO rule 0"],
        "RECTSTART 20,12",
        (20, 12),
        5,
    ),
    Variant {
        captures: true,
        ..variant("pente", &["INFO game pente"], "START 19", (19, 19), 5)
    },
    Variant {
        captures: true,
        ..variant("ninuki", &["INFO game ninuki"], "START 15", (15, 15), 5)
    },
    Variant {
        gravity: true,
        ..variant(
            "connect4",
            &["INFO game connect4", "INFO k 4"],
            "RECTSTART 7,6",
            (7, 6),
            4,
        )
    },
    Variant {
        gravity: true,
        ..variant(
            "connect5 9x7",
            &["INFO game connect4", "INFO k 5"],
            "RECTSTART 9,7",
            (9, 7),
            5,
        )
    },
    variant(
        "tic-tac-toe",
        &["INFO game mnk", "INFO k 3"],
        "START 3",
        (3, 3),
        3,
    ),
    variant(
        "mnk 6,5,4",
        &["INFO game mnk", "INFO k 4"],
        "RECTSTART 6,5",
        (6, 5),
        4,
    ),
];

/// A short run of well-formed commands of some game in an order no manager should send:
/// `BOARD` blocks left without `DONE` (or with another command inside), moves before
/// `START` or after the end, `DONE` with no block, `TAKEBACK` of a move never played.
fn fragment(r: &mut Rng) -> Vec<String> {
    let v = r.pick(VARIANTS);
    let mut out: Vec<String> = v.info.iter().map(|s| s.to_string()).collect();
    if r.below(3) != 0 {
        out.push(v.start.into());
    }
    // One past the board's edge now and then.
    let (w, h) = (v.width as u64 + 1, v.height as u64 + 1);
    let cell = |r: &mut Rng| format!("{},{}", r.below(w), r.below(h));
    match r.below(6) {
        0 => {
            out.push(r.pick(&["BOARD", "YXBOARD", "SWAP2BOARD"]).to_string());
            for _ in 0..r.below(12) {
                let c = cell(r);
                out.push(format!("{c},{}", 1 + r.below(3)));
            }
            if r.below(2) == 0 {
                out.push("DONE".into());
            }
        }
        1 => {
            out.push("BEGIN".into());
            for _ in 0..r.below(6) {
                out.push(format!("TURN {}", cell(r)));
            }
        }
        2 => {
            for _ in 0..r.below(4) {
                out.push(format!("TURN {}", cell(r)));
            }
            out.push(format!("TAKEBACK {}", cell(r)));
            out.push("TAKEBACK 0,0".into());
            out.push("RESTART".into());
            out.push("BEGIN".into());
        }
        3 => out.extend(["DONE", "BEGIN", "BEGIN", "RESTART"].map(String::from)),
        4 => {
            // The game switched in the middle of a position.
            out.push("BOARD".into());
            out.push(format!("{},1", cell(r)));
            let other = r.pick(VARIANTS);
            out.extend(other.info.iter().map(|s| s.to_string()));
            out.push(other.start.into());
            out.push(format!("{},2", cell(r)));
            out.push("DONE".into());
        }
        _ => {
            out.push("YXBLOCK".into());
            out.push(cell(r));
            out.push("DONE".into());
            out.push("YXNBEST 2".into());
            out.push("SWAP2BOARD".into());
            out.push("DONE".into());
        }
    }
    match r.below(4) {
        0 => out.reverse(),
        1 => {
            for i in (1..out.len()).rev() {
                let j = r.below(i as u64 + 1) as usize;
                out.swap(i, j);
            }
        }
        _ => {}
    }
    out
}

/// A hostile transcript and what it holds.
struct Transcript {
    bytes: Vec<u8>,
    lines: usize,
    /// Of `lines`, those in bursts of `INFO` lines (cheap for the engine, so counted apart).
    burst_lines: usize,
}

/// A whole hostile transcript for one seed: a few hundred lines of garbage and of commands
/// out of order, sometimes a burst of hundreds of `INFO` lines, sometimes a 1 MB line.
fn transcript(seed: u64) -> Transcript {
    let mut r = Rng::new(seed);
    // Quick clocks first, so moves asked for by the garbage are answered fast.
    let mut t = Transcript {
        bytes: b"INFO timeout_turn 20\nINFO max_depth 2\nINFO thread_num 1\n".to_vec(),
        lines: 3,
        burst_lines: 0,
    };
    let n = 200 + r.below(400);
    for _ in 0..n {
        let line = match r.below(200) {
            0 => {
                for _ in 0..100 + r.below(900) {
                    let l = info_line(&mut r);
                    t.bytes.extend_from_slice(l.as_bytes());
                    t.bytes.push(b'\n');
                    t.lines += 1;
                    t.burst_lines += 1;
                }
                continue;
            }
            1 => {
                let mut v = b"TURN ".to_vec();
                v.extend(std::iter::repeat_n(b'9', 1 << 20));
                v
            }
            2 => {
                let mut v = b"INFO folder ".to_vec();
                let body = random_bytes(&mut r, 1 << 20);
                v.extend(body);
                v
            }
            3..=27 => {
                for l in fragment(&mut r) {
                    t.bytes.extend_from_slice(l.as_bytes());
                    t.bytes.push(b'\n');
                    t.lines += 1;
                }
                continue;
            }
            _ => garbage_line(&mut r),
        };
        if is_end(&line) {
            continue;
        }
        t.bytes.extend_from_slice(&line);
        t.bytes.push(if r.below(10) == 0 { b'\r' } else { b' ' });
        t.bytes.push(b'\n');
        t.lines += 1;
    }
    t
}

/// Whether `line` is something a manager accepts from a brain.
fn well_formed(line: &str) -> bool {
    if line.chars().any(|c| c.is_control()) {
        return false;
    }
    let is_move = |s: &str| {
        let mut p = s.split(',');
        matches!(
            (p.next(), p.next(), p.next()),
            (Some(x), Some(y), None) if x.parse::<u8>().is_ok() && y.parse::<u8>().is_ok()
        )
    };
    // SWAP2BOARD answers: `SWAP`, or two or three moves separated by single spaces.
    let is_swap = |s: &str| {
        let n = s.split(' ').count();
        s == "SWAP" || ((2..=3).contains(&n) && s.split(' ').all(is_move))
    };
    line == "OK"
        || is_move(line)
        || is_swap(line)
        // `INFO PV …` detail blocks, printed once garbage set `INFO show_detail 2`.
        || ["ERROR ", "UNKNOWN ", "MESSAGE ", "DEBUG ", "INFO "]
            .iter()
            .any(|p| line.starts_with(p))
        || line
            .strip_prefix("FORBID ")
            .and_then(|l| l.strip_suffix('.'))
            .is_some_and(|cells| cells.len() % 4 == 0 && cells.bytes().all(|b| b.is_ascii_digit()))
        || line.starts_with("name=\"wuzi\"")
}

/// A running engine with its stdout read line by line on a thread.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Session {
    fn spawn() -> Session {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawning pbrain-wuzi");
        let mut out = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 1 << 14];
            loop {
                match out.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
                while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=i).collect();
                    let text = String::from_utf8(line[..i].to_vec())
                        .unwrap_or_else(|_| "<invalid utf-8 on stdout>".into());
                    if tx.send(text).is_err() {
                        return;
                    }
                }
            }
            if !buf.is_empty() {
                let _ = tx.send(format!("<unterminated: {}>", String::from_utf8_lossy(&buf)));
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Writes bytes while our reader thread keeps draining stdout (so neither pipe can
    /// fill up and deadlock), then keeps the pipe open for more.
    fn write_all(&mut self, bytes: Vec<u8>) {
        let mut stdin = self.stdin.take().expect("stdin open");
        let h = std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
            let _ = stdin.flush();
            stdin
        });
        self.stdin = Some(h.join().expect("writer thread"));
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).expect("engine stdin");
        stdin.write_all(b"\n").expect("engine stdin");
        stdin.flush().expect("engine stdin");
    }

    /// The next line of any kind, or None at end of output / after `HANG`.
    fn raw_line(&self, within: Duration) -> Option<String> {
        self.lines.recv_timeout(within).ok()
    }

    /// The next reply that is not `MESSAGE`/`DEBUG`; every line seen must be well formed.
    fn reply(&self) -> String {
        loop {
            let line = self
                .raw_line(HANG)
                .expect("engine answered (no hang, no exit)");
            assert!(well_formed(&line), "malformed output line {line:?}");
            if !(line.starts_with("MESSAGE ") || line.starts_with("DEBUG ")) {
                return line;
            }
        }
    }

    /// What became of an engine that printed nothing for `HANG`: dead or hung.
    fn gone(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(st)) => format!("engine died ({st})"),
            _ => "engine hung".into(),
        }
    }

    /// Waits for the process to end; None if it is still running after `within`.
    fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let t = Instant::now();
        loop {
            if let Ok(Some(st)) = self.child.try_wait() {
                return Some(st);
            }
            if t.elapsed() > within {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A failed check must not leave its engine running.
impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn parse_move(s: &str) -> Option<(usize, usize)> {
    let (x, y) = s.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// The referee of the check game: the cells as both sides' moves leave them.
#[derive(Clone)]
struct Referee<'a> {
    v: &'a Variant,
    /// 0 empty, 1 the engine (it moves first), 2 the random opponent.
    cells: Vec<u8>,
    pairs: [usize; 3],
}

impl<'a> Referee<'a> {
    fn new(v: &'a Variant) -> Referee<'a> {
        Referee {
            v,
            cells: vec![0; v.width * v.height],
            pairs: [0; 3],
        }
    }

    fn at(&self, x: isize, y: isize) -> Option<u8> {
        let (w, h) = (self.v.width as isize, self.v.height as isize);
        ((0..w).contains(&x) && (0..h).contains(&y)).then(|| self.cells[(y * w + x) as usize])
    }

    fn legal(&self, x: usize, y: usize) -> bool {
        let (x, y) = (x as isize, y as isize);
        self.at(x, y) == Some(0)
            && (!self.v.gravity || y + 1 == self.v.height as isize || self.at(x, y + 1) != Some(0))
    }

    /// Plays colour `c` at (x, y) with its captures; whether the game may have ended there.
    fn play(&mut self, x: usize, y: usize, c: u8) -> bool {
        let w = self.v.width as isize;
        let (x, y) = (x as isize, y as isize);
        self.cells[(y * w + x) as usize] = c;
        let dirs = [(1, 0), (0, 1), (1, 1), (1, -1)];
        if self.v.captures {
            for (dx, dy) in dirs.iter().flat_map(|&(dx, dy)| [(dx, dy), (-dx, -dy)]) {
                let opp = Some(3 - c);
                if self.at(x + dx, y + dy) == opp
                    && self.at(x + 2 * dx, y + 2 * dy) == opp
                    && self.at(x + 3 * dx, y + 3 * dy) == Some(c)
                {
                    for i in 1..=2 {
                        self.cells[((y + i * dy) * w + x + i * dx) as usize] = 0;
                    }
                    self.pairs[c as usize] += 1;
                }
            }
        }
        let run = |dx: isize, dy: isize| {
            (1..)
                .take_while(|&i| self.at(x + i * dx, y + i * dy) == Some(c))
                .count()
        };
        dirs.iter()
            .any(|&(dx, dy)| 1 + run(dx, dy) + run(-dx, -dy) >= self.v.k)
            || self.pairs[c as usize] >= 5
            || !self.cells.contains(&0)
    }

    /// A uniformly random legal cell (the board is never full when it is asked).
    fn random_move(&self, r: &mut Rng) -> (usize, usize) {
        let legal: Vec<(usize, usize)> = (0..self.v.height)
            .flat_map(|y| (0..self.v.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.legal(x, y))
            .collect();
        *r.pick(&legal)
    }
}

/// After arbitrary garbage: resets the settings the garbage may have changed, starts a game
/// of the seed's variant and plays up to eight of our moves against a random opponent,
/// checking that every answer is a legal cell. Returns the variant's index.
fn check_game_still_plays(s: &mut Session, seed: u64) -> usize {
    let which = (seed % VARIANTS.len() as u64) as usize;
    let v = &VARIANTS[which];
    for l in [
        "INFO hash_size 0",
        "INFO thread_num 1",
        "INFO max_node 0",
        "INFO max_depth 2",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO timeout_turn 100",
        "INFO opening_rule none",
        "INFO pondering 0",
        "INFO show_detail 0",
    ]
    .iter()
    .chain(v.info)
    {
        s.send(l);
    }
    // Last, because a workable limit withdraws a complaint kept for the next command: the
    // switch of game above complains when the garbage left a board the new game cannot
    // have, and START would get that stale complaint (issue #69.4, which has its own test).
    s.send("INFO max_memory 0");
    s.send(v.start);
    assert_eq!(s.reply(), "OK", "seed {seed}: {} after garbage", v.start);
    let mut board = Referee::new(v);
    let mut r = Rng::new(seed ^ 0xABCD);
    s.send("BEGIN");
    let mut answer = s.reply();
    for turn in 0..8 {
        let (x, y) = parse_move(&answer)
            .unwrap_or_else(|| panic!("seed {seed} ({}): expected a move, got {answer:?}", v.name));
        assert!(
            board.legal(x, y),
            "seed {seed} ({}): illegal move {answer}",
            v.name
        );
        // Against random replies the engine may win early: a finished game is a played game.
        if board.play(x, y, 1) || turn == 7 {
            break;
        }
        // Ninuki forbids a double free three to either side: the engine refuses such a
        // random move without playing it, and the opponent tries another.
        let mut tries = 0;
        answer = loop {
            let before = board.clone();
            let (ox, oy) = board.random_move(&mut r);
            if board.play(ox, oy, 2) {
                return which;
            }
            s.send(&format!("TURN {ox},{oy}"));
            let a = s.reply();
            tries += 1;
            if !(a.starts_with("ERROR") && a.contains("forbidden") && tries < 20) {
                break a;
            }
            board = before;
        };
    }
    which
}

/// Figures of one transcript or of a whole run.
#[derive(Default)]
struct Figures {
    transcripts: usize,
    lines: usize,
    burst_lines: usize,
    bytes: usize,
    /// Transcripts cut at a random byte by the end of input.
    eof_cuts: usize,
    /// Lines the engine printed, and of them `ERROR` / `UNKNOWN` answers.
    out_lines: usize,
    errors: usize,
    /// Check games played, per variant.
    games: Vec<usize>,
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        self.transcripts += o.transcripts;
        self.lines += o.lines;
        self.burst_lines += o.burst_lines;
        self.bytes += o.bytes;
        self.eof_cuts += o.eof_cuts;
        self.out_lines += o.out_lines;
        self.errors += o.errors;
        self.games.resize(VARIANTS.len(), 0);
        for (a, b) in self.games.iter_mut().zip(&o.games) {
            *a += b;
        }
    }

    fn count(&mut self, line: &str) {
        assert!(well_formed(line), "malformed output line {line:?}");
        self.out_lines += 1;
        self.errors += (line.starts_with("ERROR") || line.starts_with("UNKNOWN")) as usize;
    }
}

/// One transcript against a fresh engine. One in four is cut at a random byte by the end of
/// input: the engine must answer what it got in well-formed lines and exit cleanly. The
/// others end with a marker the engine can only echo (so it answered everything before it),
/// then the check game.
fn fuzz_one(seed: u64) -> Figures {
    let t = transcript(seed);
    // `WUZI_FUZZ_DUMP=dir` keeps each transcript, to replay a failure by hand.
    if let Ok(dir) = std::env::var("WUZI_FUZZ_DUMP") {
        let _ = std::fs::write(format!("{dir}/seed-{seed}.txt"), &t.bytes);
    }
    let mut f = Figures {
        transcripts: 1,
        lines: t.lines,
        burst_lines: t.burst_lines,
        ..Figures::default()
    };
    let mut bytes = t.bytes;
    let mut r = Rng::new(seed ^ 0xE0F);
    let cut = r.below(4) == 0;
    if cut {
        bytes.truncate(r.below(bytes.len() as u64 + 1) as usize);
        f.lines = bytes.iter().filter(|&&b| b == b'\n').count();
        f.burst_lines = f.burst_lines.min(f.lines);
        f.eof_cuts = 1;
    }
    f.bytes = bytes.len();
    let mut s = Session::spawn();
    s.write_all(bytes);
    if cut {
        end_input_and_exit(&mut s, &mut f, &format!("seed {seed}"));
        return f;
    }
    // Close any block the garbage left open, then two lines that can only be echoed back:
    // a complaint the engine keeps for the next command (an `INFO max_memory` too small to
    // work with) is the answer to the first, so only the second's echo is sure to come.
    let marker = format!("WUZI-MARKER-{seed}");
    s.send("DONE");
    s.send(&format!("{marker}-a"));
    s.send(&format!("{marker}-b"));
    let want = format!("UNKNOWN {marker}-b");
    loop {
        let line = s
            .raw_line(HANG)
            .unwrap_or_else(|| panic!("seed {seed}: {} in the garbage", s.gone()));
        if line == want {
            break;
        }
        f.count(&line);
    }
    f.games = vec![0; VARIANTS.len()];
    f.games[check_game_still_plays(&mut s, seed)] = 1;
    s.send("END");
    let st = s.wait_exit(HANG);
    assert!(
        st.is_some_and(|st| st.success()),
        "seed {seed}: END did not end"
    );
    f
}

/// Closes the engine's stdin; it must print only protocol lines and then exit 0.
fn end_input_and_exit(s: &mut Session, f: &mut Figures, what: &str) {
    s.stdin = None;
    loop {
        match s.lines.recv_timeout(HANG) {
            Ok(line) => f.count(&line),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("{what}: {} after the end of input", s.gone())
            }
        }
    }
    let st = s.wait_exit(HANG);
    assert!(
        st.is_some_and(|st| st.success()),
        "{what}: exit at the end of input: {st:?}"
    );
}

/// The end of input at every byte of a short session of each kind of game: inside a word,
/// a number, a `BOARD` block, before or after the newline.
#[test]
fn end_of_input_at_every_byte_ends_the_engine_cleanly() {
    let sessions = [
        "INFO max_depth 1\nINFO timeout_turn 20\nSTART 15\nBEGIN\nTURN 7,8\nBOARD\n7,7,1\n\
         8,8,2\nDONE\nTAKEBACK 8,8\nYXSHOWFORBID\n",
        "INFO game connect4\nINFO timeout_turn 20\nRECTSTART 7,6\nBEGIN\nTURN 2,5\nRESTART\n",
        "INFO game ninuki\nINFO max_depth 1\nSTART 15\nINFO captures_white 1\nBOARD\n7,7,1\n\
         7,8,2\nDONE\n",
    ];
    let mut f = Figures::default();
    for text in sessions {
        for cut in 0..=text.len() {
            let mut s = Session::spawn();
            s.write_all(text.as_bytes()[..cut].to_vec());
            end_input_and_exit(&mut s, &mut f, &format!("cut at byte {cut} of {text:?}"));
        }
    }
}

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs transcripts from seed `first` on until `enough` says stop, catching each failure so
/// that the run goes on and reports every failing seed; panics at the end if any failed.
fn run_seeds(first: u64, enough: impl Fn(u64, &Figures) -> bool, progress: bool) -> Figures {
    let t = Instant::now();
    let mut total = Figures::default();
    let mut failed: Vec<(u64, String)> = Vec::new();
    let mut seed = first;
    while !enough(seed - first, &total) {
        match std::panic::catch_unwind(|| fuzz_one(seed)) {
            Ok(f) => total.add(&f),
            Err(e) => {
                let text = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failed.push((seed, text));
            }
        }
        seed += 1;
        if progress && (seed - first).is_multiple_of(50) {
            eprintln!(
                "  {} transcripts, {} lines, {} failed, {:.0} s",
                seed - first,
                total.lines,
                failed.len(),
                t.elapsed().as_secs_f64()
            );
        }
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "fuzz transcripts: seeds {first}..{seed}, {} lines ({} of them in INFO bursts), {} MB, \
         {:.1} s; {} cut by the end of input; engine printed {} lines ({} ERROR/UNKNOWN); \
         {} failed",
        total.lines,
        total.burst_lines,
        total.bytes >> 20,
        secs,
        total.eof_cuts,
        total.out_lines,
        total.errors,
        failed.len()
    );
    let games: Vec<String> = VARIANTS
        .iter()
        .zip(&total.games)
        .map(|(v, n)| format!("{} {n}", v.name))
        .collect();
    eprintln!("check games played: {}", games.join(", "));
    for (seed, text) in &failed {
        eprintln!("FAILED seed {seed}: {text}");
    }
    assert!(failed.is_empty(), "{} transcripts failed", failed.len());
    total
}

/// The CI share: a few seeds of every kind; `WUZI_FUZZ_SEEDS=n` and `WUZI_FUZZ_FIRST_SEED`
/// run others (`scripts/fuzz.sh seeds`).
#[test]
fn garbage_never_breaks_the_engine_and_a_game_still_plays() {
    let n = env_or("WUZI_FUZZ_SEEDS", VARIANTS.len() as u64 + 4);
    run_seeds(
        env_or("WUZI_FUZZ_FIRST_SEED", 1),
        |done, _| done >= n,
        n > 100,
    );
}

/// The long run of issue #69: transcripts until at least `WUZI_FUZZ_LINES` lines (a million
/// by default) were sent, every check game of every variant played.
#[test]
#[ignore = "a million lines take about half an hour: scripts/fuzz.sh million"]
fn a_million_bad_lines() {
    let want = env_or("WUZI_FUZZ_LINES", 1_000_000usize);
    let f = run_seeds(
        env_or("WUZI_FUZZ_FIRST_SEED", 1),
        |_, f| f.lines >= want,
        true,
    );
    assert!(f.games.iter().all(|&n| n > 0), "every variant was checked");
}

#[test]
fn generator_is_deterministic_and_never_ends_the_session() {
    let a = transcript(7).bytes;
    let b = transcript(7).bytes;
    assert_eq!(a, b);
    assert!(a.split(|&c| c == b'\n').all(|l| !is_end(l)));
    assert!(is_end(b"  end now"));
    assert!(!is_end(b"ENDING"));
}

#[test]
fn well_formed_accepts_protocol_lines_only() {
    for ok in [
        "OK",
        "7,7",
        "ERROR x",
        "UNKNOWN y",
        "MESSAGE z",
        "FORBID 0300.",
        "FORBID .",
        "SWAP",
        "7,7 8,7 6,8",
        "INFO PV 0",
    ] {
        assert!(well_formed(ok), "{ok}");
    }
    for bad in [
        "",
        "7,7,1",
        "ok",
        "MESSAGE a\rb",
        "Error x",
        "FORBID 030.",
        "FORBID 0300",
        "-1,3",
        "7,7  8,8",
        "1,1 2,2 3,3 4,4",
    ] {
        assert!(!well_formed(bad), "{bad}");
    }
}

/// Everything in one write, as a manager that does not wait would send it: each request
/// gets exactly its answer, in order.
#[test]
fn commands_sent_with_no_pause_are_never_lost() {
    let mut s = Session::spawn();
    let script = "START 15\nINFO timeout_turn 60\nINFO max_depth 3\nBEGIN\nTURN 0,14\n\
                  TURN 14,0\nTURN 0,0\nTURN 14,14\nTAKEBACK 14,14\nABOUT\nYXSHOWFORBID\n\
                  RESTART\nBEGIN\nEND\n";
    s.write_all(script.as_bytes().to_vec());
    assert_eq!(s.reply(), "OK");
    let mut taken = vec![(0, 14), (14, 0), (0, 0), (14, 14)];
    for _ in 0..5 {
        let a = s.reply();
        let m = parse_move(&a).unwrap_or_else(|| panic!("expected a move, got {a:?}"));
        assert!(!taken.contains(&m), "move {a} on an occupied cell");
        taken.push(m);
    }
    assert_eq!(s.reply(), "OK", "TAKEBACK");
    assert!(s.reply().starts_with("name=\"wuzi\""), "ABOUT");
    assert!(s.reply().starts_with("FORBID "), "YXSHOWFORBID");
    assert_eq!(s.reply(), "OK", "RESTART");
    assert!(parse_move(&s.reply()).is_some(), "BEGIN after RESTART");
    assert!(s.wait_exit(HANG).is_some_and(|st| st.success()));
}

/// Starts a search that would run for many seconds and waits until it is under way.
fn long_search(s: &mut Session) {
    for l in [
        "INFO timeout_turn 60000",
        "INFO thread_num 1",
        "START 15",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "8,7,2",
        "DONE",
    ] {
        s.send(l);
    }
    assert_eq!(s.reply(), "OK");
    let first = s.raw_line(HANG).expect("search progress");
    assert!(first.starts_with("MESSAGE "), "got {first:?}");
}

#[test]
fn end_exits_in_the_middle_of_a_search() {
    let mut s = Session::spawn();
    long_search(&mut s);
    s.send("END");
    // The search had nearly a minute left: exiting within a few seconds means END acted.
    assert!(s
        .wait_exit(Duration::from_secs(5))
        .is_some_and(|st| st.success()));
}

#[test]
fn yxstop_answers_the_search_at_once() {
    let mut s = Session::spawn();
    long_search(&mut s);
    s.send("YXSTOP");
    let a = s.reply();
    assert!(parse_move(&a).is_some(), "YXSTOP answer {a:?}");
    s.send("END");
    assert!(s.wait_exit(HANG).is_some());
}

#[test]
fn end_of_input_answers_queued_work_then_exits() {
    let mut s = Session::spawn();
    s.send("INFO timeout_turn 100");
    s.send("START 15");
    s.send("BEGIN");
    s.send("TURN 0,0");
    s.stdin = None;
    assert_eq!(s.reply(), "OK");
    assert!(parse_move(&s.reply()).is_some());
    assert!(parse_move(&s.reply()).is_some());
    assert!(s.wait_exit(HANG).is_some_and(|st| st.success()));
}

#[test]
fn closed_stdout_ends_the_process() {
    let mut s = Session::spawn();
    long_search(&mut s);
    // The manager is gone: our end of its stdout closes (the reader thread's receiver goes).
    drop(std::mem::replace(&mut s.lines, mpsc::channel().1));
    // Without the exit on a failed write the engine would think for a minute and then wait
    // on stdin for ever; the next progress line fails and ends it.
    let _keep_stdin_open = &s.stdin;
    assert!(s.wait_exit(Duration::from_secs(20)).is_some());
}

/// A 7×7 renju position, black (us) to move, whose only empty cell 3,0 is an overline.
const RENJU_ONLY_FOUL: &str = "0,0,1 1,0,1 2,0,1 4,0,1 5,0,1 6,0,1 2,3,1 4,4,1 6,1,1 4,3,1 6,3,1 \
    4,6,1 1,6,1 2,2,1 1,5,1 5,1,1 5,5,1 0,6,1 3,6,1 1,1,1 6,5,1 3,1,1 0,4,1 0,1,1 6,2,2 3,2,2 \
    3,4,2 4,5,2 1,4,2 2,6,2 5,3,2 3,3,2 4,2,2 2,5,2 0,5,2 2,1,2 0,2,2 0,3,2 5,6,2 6,6,2 3,5,2 \
    1,3,2 1,2,2 5,2,2 2,4,2 5,4,2 6,4,2 4,1,2";

/// The same idea with two more empty cells (3,2 and 0,2) that are not forbidden.
const RENJU_FOUL_AND_TWO: &str = "0,0,1 1,0,1 2,0,1 4,0,1 5,0,1 6,0,1 1,3,1 6,4,1 3,1,1 0,4,1 \
    4,6,1 4,5,1 2,1,1 0,5,1 3,3,1 6,1,1 3,4,1 2,4,1 1,6,1 6,2,1 5,1,1 6,6,1 5,3,1 1,2,2 6,3,2 \
    5,4,2 0,3,2 5,2,2 1,1,2 0,6,2 1,5,2 1,4,2 4,4,2 5,6,2 6,5,2 5,5,2 2,6,2 4,3,2 4,1,2 2,5,2 \
    3,5,2 4,2,2 2,3,2 3,6,2 0,1,2 2,2,2";

fn set_renju(s: &mut Session, stones: &str, command: &str) {
    s.send("INFO rule 4");
    s.send("INFO timeout_turn 200");
    s.send("START 7");
    assert_eq!(s.reply(), "OK");
    s.send(command);
    for st in stones.split_whitespace() {
        s.send(st);
    }
    s.send("DONE");
}

#[test]
fn renju_black_with_only_forbidden_cells_gets_an_error_and_keeps_the_position() {
    let mut s = Session::spawn();
    set_renju(&mut s, RENJU_ONLY_FOUL, "YXBOARD");
    s.send("YXSHOWFORBID");
    assert_eq!(s.reply(), "FORBID 0300.", "the one empty cell is a foul");
    s.send("BOARD");
    for st in RENJU_ONLY_FOUL.split_whitespace() {
        s.send(st);
    }
    s.send("DONE");
    let a = s.reply();
    assert!(a.starts_with("ERROR no legal move"), "got {a:?}");
    // Nothing was played: the foul is still empty and still reported.
    s.send("YXSHOWFORBID");
    assert_eq!(s.reply(), "FORBID 0300.");
    s.send("END");
    assert!(s.wait_exit(HANG).is_some());
}

#[test]
fn renju_black_among_fouls_plays_a_free_cell() {
    let mut s = Session::spawn();
    set_renju(&mut s, RENJU_FOUL_AND_TWO, "YXBOARD");
    s.send("YXSHOWFORBID");
    assert_eq!(s.reply(), "FORBID 0300.");
    s.send("BOARD");
    for st in RENJU_FOUL_AND_TWO.split_whitespace() {
        s.send(st);
    }
    s.send("DONE");
    let a = s.reply();
    assert!(a == "3,2" || a == "0,2", "got {a:?}");
    s.send("END");
    assert!(s.wait_exit(HANG).is_some());
}

#[test]
fn memory_limits_too_small_then_workable() {
    let mut s = Session::spawn();
    s.send("INFO max_memory 1000000");
    s.send("INFO timeout_turn 50");
    s.send("START 15");
    assert_eq!(s.reply(), "OK", "a memory limit is no error");
    // Too small to keep: the move says so in a MESSAGE first, and is played.
    s.send("BEGIN");
    let first = s.raw_line(HANG).expect("engine answered");
    assert!(
        first.starts_with("MESSAGE max_memory 1000000 is too small"),
        "{first:?}"
    );
    assert!(parse_move(&s.reply()).is_some());
    s.send("INFO max_memory 16777216");
    s.send("START 32");
    assert_eq!(s.reply(), "OK");
    s.send("BEGIN");
    assert!(parse_move(&s.reply()).is_some());
    s.send("END");
    assert!(s.wait_exit(HANG).is_some());
}

#[test]
fn absurd_thread_counts_still_answer() {
    let mut s = Session::spawn();
    for l in [
        "INFO thread_num 100000",
        "INFO timeout_turn 50",
        "INFO max_depth 2",
        "START 15",
    ] {
        s.send(l);
    }
    assert_eq!(s.reply(), "OK");
    s.send("BEGIN");
    assert!(parse_move(&s.reply()).is_some());
    s.send("END");
    assert!(s.wait_exit(HANG).is_some());
}
