//! `wuzi-arena report` as a person sees it: a real run of two `pbrain-wuzi` at small fixed
//! depths (with `--report`, the live page), the page opened in headless Chromium driven
//! over the DevTools protocol (`--remote-debugging-pipe`), and checked: the table's numbers
//! are the arena's printed table, no script error reaches the console, stepping through a
//! chosen game with the page's buttons ends on the position the crate's own rules give
//! for the recorded moves (captures included, in a pente run), every stone drawn is on top
//! at its centre (Connect Four's holes once covered them), and a screenshot is taken.
//!
//! Chromium is a test dependency: `scripts/setup.sh` installs Debian's package
//! (`.ci/run` calls it). Without it this test fails, saying so.

#[path = "common/setup.rs"]
mod setup;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use wuzi::arena::record::JsonLine;
use wuzi::game::{AnyGame, CaptureRule, Color, Game, GameKind, GomokuRule, Move};

const CHROMIUM: &str = "/usr/bin/chromium";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wuzi-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small real run: `extra` options, two depth-limited wuzi engines (each also given the
/// `info=` token `both`), `--report` on.
fn run_arena(dir: &Path, both: &str, extra: &[&str]) -> String {
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let out = dir.join("run");
    let o = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .args([
            "--engine",
            &format!("cmd={engine}"),
            "name=deep",
            "info=max_depth=2",
            "info=thread_num=1",
            both,
            "--engine",
            &format!("cmd={engine}"),
            "name=shallow",
            "info=max_depth=1",
            "info=thread_num=1",
            both,
            "--timeout-turn",
            "10000",
            "--quiet",
            "--sprt",
            "0,100,0.05,0.05",
        ])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .arg("--report")
        .arg(dir.join("live.html"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Chromium under the DevTools protocol on a pipe: requests in on its fd 3, answers and
/// events out on fd 4, each message JSON ended by a NUL byte.
struct Browser {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
    next_id: u64,
    session: Option<String>,
    /// Console errors and uncaught exceptions seen so far.
    errors: Vec<String>,
    loaded: bool,
}

impl Browser {
    fn start(profile: &Path) -> Browser {
        setup::ensure("Debian's chromium (the report test drives it)", || {
            Path::new(CHROMIUM).exists()
        });
        // the shell hands our pipes to Chromium as fds 3 and 4, where it expects them
        let child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#)
            .arg(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
                "--window-size=1200,1800",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let mut child = child;
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Browser {
            child,
            to,
            from,
            next_id: 0,
            session: None,
            errors: Vec::new(),
            loaded: false,
        }
    }

    /// Sends a command (to the attached page when there is one) and returns its result,
    /// noting the events that arrive meanwhile.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        self.to.flush().unwrap();
        loop {
            let m = self.read();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
        }
    }

    fn read(&mut self) -> Value {
        let mut buf = Vec::new();
        let n = self.from.read_until(0, &mut buf).unwrap();
        assert!(n > 0, "chromium closed the DevTools pipe");
        buf.pop();
        let m: Value = serde_json::from_slice(&buf).unwrap();
        match m["method"].as_str() {
            Some("Runtime.exceptionThrown") => self
                .errors
                .push(m["params"]["exceptionDetails"].to_string()),
            Some("Runtime.consoleAPICalled") if m["params"]["type"] == "error" => {
                self.errors.push(m["params"]["args"].to_string())
            }
            Some("Log.entryAdded") if m["params"]["entry"]["level"] == "error" => {
                self.errors.push(m["params"]["entry"].to_string())
            }
            Some("Page.loadEventFired") => self.loaded = true,
            _ => {}
        }
        m
    }

    /// Opens `page` in a new tab and waits for its load event.
    fn open(&mut self, page: &Path) {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}));
        let session = self.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        self.session = Some(session["sessionId"].as_str().unwrap().to_string());
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            self.call(domain, json!({}));
        }
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1200, "height": 1800, "deviceScaleFactor": 1, "mobile": false}),
        );
        self.loaded = false;
        self.call(
            "Page.navigate",
            json!({"url": format!("file://{}", page.display())}),
        );
        while !self.loaded {
            self.read();
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    fn screenshot(&mut self, file: &Path) {
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        );
        let png = base64_decode(r["data"].as_str().unwrap());
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
        std::fs::write(file, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 (the screenshot's encoding).
fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = s.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &d)| acc | (d as u32) << (18 - 6 * i));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}

/// The rows of the arena's printed table: label, then the numbers.
fn printed_rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("losses by fault") && !l.starts_with("SPRT"))
        .map(|l| {
            // the label may hold spaces ("a vs b"); the numbers follow it
            let (label, rest) = l.split_at(l.find("  ").unwrap());
            let mut row = vec![label.trim().to_string()];
            let words: Vec<&str> = rest.split_whitespace().collect();
            // games W L D score, then the elo estimate up to the LOS
            row.extend(words[..5].iter().map(|w| w.to_string()));
            row.push(words[5..words.len() - 1].join(" "));
            row.push(words[words.len() - 1].to_string());
            row
        })
        .collect()
}

/// The stones the crate's rules leave after the game's opening and moves.
fn final_position(g: &JsonLine, kind: GameKind) -> Vec<(u8, u8, &'static str)> {
    let mut board = AnyGame::new(kind, g.width, g.height).unwrap();
    for &[x, y] in g.opening.iter().chain(&g.moves) {
        board.play(Move::new(x, y));
    }
    let mut stones = Vec::new();
    for y in 0..g.height as u8 {
        for x in 0..g.width as u8 {
            match board.stone_at(Move::new(x, y)) {
                Some(Color::Black) => stones.push((x, y, "black")),
                Some(Color::White) => stones.push((x, y, "white")),
                None => {}
            }
        }
    }
    stones
}

/// What the page shows after a person picks game `id` and steps through it with the
/// buttons, from the empty board to the end.
fn replay_with_buttons(b: &mut Browser, id: usize) -> (Value, Value) {
    b.eval(&format!("document.getElementById('game-row-{id}').click(); document.getElementById('first').click(); true"));
    let stones = b.eval("frames.length - 1").as_u64().unwrap();
    for _ in 0..stones {
        b.eval("document.getElementById('next').click(); true");
    }
    let shown = b.eval(
        "[...document.querySelectorAll('#stones .stone')].map(e => [+e.dataset.x, +e.dataset.y, e.dataset.c])",
    );
    // each stone is what is on top at its centre (or the last-move mark on it): seen
    let hidden = b.eval(
        "document.getElementById('board').scrollIntoView(); \
         [...document.querySelectorAll('#stones .stone')].filter(e => { \
           const r = e.getBoundingClientRect(); \
           const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); \
           return top !== e && !(top && top.id === 'last-move'); }).length",
    );
    assert_eq!(hidden, json!(0), "stones covered on the board of game {id}");
    let counter = b.eval("document.getElementById('counter').textContent");
    (shown, counter)
}

fn check_page(dir: &Path, table: &str, kind: GameKind, shot: &Path) {
    let page = dir.join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_wuzi-arena"))
        .arg("report")
        .arg(dir.join("run"))
        .arg("--out")
        .arg(&page)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the live page's last rewrite is the finished run's page
    assert_eq!(
        std::fs::read(dir.join("live.html")).unwrap(),
        std::fs::read(&page).unwrap()
    );
    let mut b = Browser::start(&dir.join("profile"));
    b.open(&page);
    let shown: Vec<Vec<String>> = serde_json::from_value(b.eval(
        "[...document.querySelectorAll('#results tr')].slice(1).map(tr => [...tr.cells].slice(0, 8).map(td => td.textContent))",
    ))
    .unwrap();
    assert_eq!(
        shown,
        printed_rows(table),
        "the page's table vs
{table}"
    );
    let games: Vec<JsonLine> = std::fs::read_to_string(dir.join("run/games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // the game with the most captures, then the longest: the most to get right
    let g = games
        .iter()
        .max_by_key(|g| (g.captures.map_or(0, |[b, w]| b + w), g.moves.len()))
        .unwrap();
    let (stones, counter) = replay_with_buttons(&mut b, g.id);
    let expected: Vec<Value> = final_position(g, kind)
        .into_iter()
        .map(|(x, y, c)| json!([x, y, c]))
        .collect();
    let mut stones: Vec<Value> = serde_json::from_value(stones).unwrap();
    stones.sort_by_key(|s| (s[1].as_u64(), s[0].as_u64()));
    assert_eq!(stones, expected, "game {} after stepping through it", g.id);
    let n = g.opening.len() + g.moves.len();
    assert_eq!(counter, json!(format!("stone {n} of {n}")));
    // the move's time and what the engine said are beside the board
    let info = b.eval("document.getElementById('moveinfo').textContent");
    let last_ms = g.ms.last().unwrap();
    assert!(
        info.as_str().unwrap().contains(&format!("in {last_ms} ms")),
        "{info}"
    );
    if g.thinking
        .as_ref()
        .and_then(|t| t.last().cloned().flatten())
        .is_some()
    {
        assert!(info.as_str().unwrap().contains("depth "), "{info}");
    }
    b.screenshot(shot);
    assert!(b.errors.is_empty(), "console errors: {:?}", b.errors);
}

#[test]
fn the_report_shows_the_arenas_table_and_replays_games_in_chromium() {
    let dir = scratch("gomoku");
    let openings =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openings/balanced-freestyle-15.pos");
    let table = run_arena(
        &dir,
        "info=thread_num=1",
        &["--openings", openings.to_str().unwrap(), "--games", "4"],
    );
    assert!(table.contains("SPRT elo0 0"), "{table}");
    let jsonl = std::fs::read_to_string(dir.join("run/games.jsonl")).unwrap();
    assert!(
        jsonl.contains("\"thinking\":[{\"depth\":"),
        "wuzi reports its thinking"
    );
    check_page(
        &dir,
        &table,
        GameKind::Gomoku(GomokuRule::Freestyle),
        &dir.join("report.png"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_connect_four_report_shows_the_discs_in_their_columns() {
    let dir = scratch("connect4");
    let table = run_arena(
        &dir,
        "info=c4_player=greedy",
        &["--game", "connect4", "--games", "2"],
    );
    check_page(
        &dir,
        &table,
        GameKind::Connect4 { k: 4 },
        &dir.join("report.png"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pente_report_replays_the_captures() {
    let dir = scratch("pente");
    let table = run_arena(
        &dir,
        "info=thread_num=1",
        &["--game", "pente", "--size", "13", "--games", "2"],
    );
    let kind = GameKind::Capture {
        rule: CaptureRule::Pente,
        aware: true,
    };
    check_page(&dir, &table, kind, &dir.join("report.png"));
    let _ = std::fs::remove_dir_all(&dir);
}
