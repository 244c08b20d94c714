//! Reliability of the real `pbrain-wuzi` binary under hostile managers (issue #7), run in CI.
//!
//! Seeded random transcripts (random bytes, NUL, Unicode, truncated and interrupted
//! commands, huge and negative numbers, blocks without `DONE`, bursts of `INFO`, 1 MB lines)
//! are written to the engine in one go; every line it prints must be a well-formed protocol
//! line, it must neither hang nor die, and afterwards a normal game must still play legal
//! moves. Beside that: commands sent in the same write as the move they follow are never lost,
//! `END`, end of input and a closed stdout all end the process, memory limits behave, and the
//! renju corner where black has only forbidden cells gets its documented answer.
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
            .pick(&["gomoku", "connect4", "mnk", "chess", ""])
            .to_string(),
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

/// A whole hostile transcript for one seed: a few hundred lines, sometimes a burst of
/// thousands of `INFO` lines, sometimes a 1 MB line.
fn transcript(seed: u64) -> (Vec<u8>, usize) {
    let mut r = Rng::new(seed);
    // Quick clocks first, so moves asked for by the garbage are answered fast.
    let mut out = b"INFO timeout_turn 20\nINFO max_depth 2\nINFO thread_num 1\n".to_vec();
    let mut lines = 3;
    let n = 100 + r.below(200);
    for _ in 0..n {
        let line = match r.below(40) {
            0 => {
                for i in 0..2000 {
                    out.extend_from_slice(format!("INFO folder /tmp/{i}\n").as_bytes());
                }
                lines += 2000;
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
            _ => garbage_line(&mut r),
        };
        if is_end(&line) {
            continue;
        }
        out.extend_from_slice(&line);
        out.push(if r.below(10) == 0 { b'\r' } else { b' ' });
        out.push(b'\n');
        lines += 1;
    }
    (out, lines)
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
        || ["ERROR ", "UNKNOWN ", "MESSAGE ", "DEBUG ", "FORBID ", "INFO "]
            .iter()
            .any(|p| line.starts_with(p))
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

fn parse_move(s: &str) -> Option<(usize, usize)> {
    let (x, y) = s.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

/// After arbitrary garbage: resets the settings, starts a 15×15 freestyle game and plays
/// `moves` of our moves, checking every answer is a legal cell.
fn check_game_still_plays(s: &mut Session, seed: u64) {
    for l in [
        "INFO game gomoku",
        "INFO rule 0",
        "INFO max_memory 0",
        "INFO hash_size 0",
        "INFO thread_num 1",
        "INFO max_node 0",
        "INFO max_depth 2",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO timeout_turn 100",
        "START 15",
    ] {
        s.send(l);
    }
    assert_eq!(s.reply(), "OK", "seed {seed}: START after garbage");
    let mut board = [[false; 15]; 15];
    let mut mine = [[false; 15]; 15];
    let mut r = Rng::new(seed ^ 0xABCD);
    s.send("BEGIN");
    for turn in 0..6 {
        let a = s.reply();
        let (x, y) =
            parse_move(&a).unwrap_or_else(|| panic!("seed {seed}: expected a move, got {a:?}"));
        assert!(
            x < 15 && y < 15 && !board[y][x],
            "seed {seed}: bad move {a}"
        );
        board[y][x] = true;
        mine[y][x] = true;
        // Against random replies the engine may win early: a finished game is a played game.
        if turn == 5 || has_five(&mine, x, y) {
            break;
        }
        let (ox, oy) = loop {
            let (ox, oy) = (r.below(15) as usize, r.below(15) as usize);
            if !board[oy][ox] {
                break (ox, oy);
            }
        };
        board[oy][ox] = true;
        s.send(&format!("TURN {ox},{oy}"));
    }
}

/// Whether the stone at (x, y) is part of five or more in a row.
fn has_five(stones: &[[bool; 15]; 15], x: usize, y: usize) -> bool {
    let run = |dx: isize, dy: isize| {
        let (mut n, mut cx, mut cy) = (0, x as isize + dx, y as isize + dy);
        while (0..15).contains(&cx) && (0..15).contains(&cy) && stones[cy as usize][cx as usize] {
            n += 1;
            cx += dx;
            cy += dy;
        }
        n
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)]
        .iter()
        .any(|&(dx, dy)| 1 + run(dx, dy) + run(-dx, -dy) >= 5)
}

fn fuzz_one(seed: u64) -> usize {
    let (bytes, lines) = transcript(seed);
    // `WUZI_FUZZ_DUMP=dir` keeps each transcript, to replay a failure by hand.
    if let Ok(dir) = std::env::var("WUZI_FUZZ_DUMP") {
        let _ = std::fs::write(format!("{dir}/seed-{seed}.txt"), &bytes);
    }
    let mut s = Session::spawn();
    s.write_all(bytes);
    // Close any block the garbage left open, then a line that can only be echoed back.
    let marker = format!("WUZI-MARKER-{seed}");
    s.send("DONE");
    s.send(&marker);
    let want = format!("UNKNOWN {marker}");
    loop {
        let line = s
            .raw_line(HANG)
            .unwrap_or_else(|| panic!("seed {seed}: engine hung or died in the garbage"));
        assert!(well_formed(&line), "seed {seed}: malformed line {line:?}");
        if line == want {
            break;
        }
    }
    check_game_still_plays(&mut s, seed);
    s.send("END");
    let st = s.wait_exit(HANG);
    assert!(
        st.is_some_and(|st| st.success()),
        "seed {seed}: END did not end"
    );
    lines
}

/// Seeds per CI run; `WUZI_FUZZ_SEEDS=n` runs more by hand (`scripts/fuzz.sh`).
fn seed_count() -> u64 {
    std::env::var("WUZI_FUZZ_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

#[test]
fn garbage_never_breaks_the_engine_and_a_game_still_plays() {
    let first: u64 = std::env::var("WUZI_FUZZ_FIRST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let n = seed_count();
    let t = Instant::now();
    let mut lines = 0;
    for seed in first..first + n {
        lines += fuzz_one(seed);
    }
    eprintln!(
        "fuzz transcripts: {n} seeds from {first}, {lines} lines, {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn generator_is_deterministic_and_never_ends_the_session() {
    let (a, _) = transcript(7);
    let (b, _) = transcript(7);
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
