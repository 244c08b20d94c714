//! One engine process seen from the manager's side: spawn it, write protocol lines, read
//! its stdout with a deadline, and end it with `END` then a kill after a grace period.
//!
//! A reader thread per process turns stdout into a channel of lines, so every read can have
//! a deadline (`recv_timeout`) without async machinery, and a process that closes stdout or
//! dies shows up as an end-of-stream event rather than a blocked read. stderr goes straight
//! to a log file chosen by the caller, so a chatty engine can never fill a pipe and stall.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start one engine: any `pbrain-*` executable with its arguments and working
/// directory, plus `INFO key value` lines sent after `START` (tuning knobs for grids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub info: Vec<(String, String)>,
}

impl EngineSpec {
    /// A spec named after the executable's file name.
    pub fn new(command: impl Into<PathBuf>) -> EngineSpec {
        let command = command.into();
        let name = command
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| command.to_string_lossy().into_owned());
        EngineSpec {
            name,
            command,
            args: Vec::new(),
            dir: None,
            info: Vec::new(),
        }
    }
}

/// What a read produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    /// One stdout line, without its line ending.
    Line(String),
    /// stdout closed: the process exited or crashed.
    Closed,
    /// Nothing arrived before the deadline.
    Timeout,
}

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pub name: String,
}

impl EngineProcess {
    /// Starts the engine; stderr goes to `stderr_log` (created or appended) or is discarded.
    pub fn spawn(spec: &EngineSpec, stderr_log: Option<&Path>) -> std::io::Result<EngineProcess> {
        let stderr = match stderr_log {
            Some(p) => Stdio::from(File::options().create(true).append(true).open(p)?),
            None => Stdio::null(),
        };
        let mut cmd = Command::new(&spec.command);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name(format!("arena-read-{}", spec.name))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let s = String::from_utf8_lossy(&buf);
                            let s = s.trim_end_matches(['\r', '\n']).to_string();
                            if tx.send(s).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            name: spec.name.clone(),
        })
    }

    /// Writes one line (CR LF, as Piskvork does) and flushes. An error means the engine is
    /// gone: its stdin is closed.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        log::trace!("{} < {line}", self.name);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\r\n")?;
        stdin.flush()
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => {
                log::trace!("{} > {l}", self.name);
                Recv::Line(l)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends `END`, waits up to `grace` for the process to exit, then kills it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("END");
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if !self.is_alive() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    fn kill(&mut self) {
        if self.is_alive() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}

/// How a manager reads one stdout line while waiting for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `X,Y` (any integers: the referee judges the range).
    Coord(i64, i64),
    /// `MESSAGE …`, `DEBUG …` or a line of Yixin-Board's detail block (`INFO EVAL 35`):
    /// read for what the engine thinks of its move.
    Message(String),
    /// Other protocol lines (`OK`, `ERROR …`, `UNKNOWN …`, `SUGGEST …`, `SWAP`): ignored
    /// while waiting, as c-gomoku-cli and GomocupJudge do.
    Protocol(String),
    /// Anything else: not the protocol, so the engine loses.
    Garbage(String),
}

/// Classifies one line. Reply keywords are upper case, as the protocol requires of brains;
/// a blank line is harmless protocol noise.
pub fn classify(line: &str) -> Reply {
    let t = line.trim();
    if t.is_empty() {
        return Reply::Protocol(String::new());
    }
    let word = t.split_whitespace().next().unwrap_or("");
    match word {
        "MESSAGE" | "DEBUG" => return Reply::Message(t.to_string()),
        "INFO" if super::thinking::is_detail_line(t) => return Reply::Message(t.to_string()),
        "OK" | "ERROR" | "UNKNOWN" | "SUGGEST" | "SWAP" => return Reply::Protocol(t.to_string()),
        _ => {}
    }
    if let Some((a, b)) = t.split_once(',') {
        if let (Ok(x), Ok(y)) = (a.trim().parse::<i64>(), b.trim().parse::<i64>()) {
            return Reply::Coord(x, y);
        }
    }
    Reply::Garbage(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_lines() {
        assert_eq!(classify("7,8"), Reply::Coord(7, 8));
        assert_eq!(classify(" 7, 8 "), Reply::Coord(7, 8));
        assert_eq!(classify("-1,30"), Reply::Coord(-1, 30));
        assert_eq!(
            classify("MESSAGE depth 3"),
            Reply::Message("MESSAGE depth 3".into())
        );
        assert_eq!(classify("DEBUG x"), Reply::Message("DEBUG x".into()));
        assert_eq!(
            classify("INFO EVAL 35"),
            Reply::Message("INFO EVAL 35".into())
        );
        assert!(matches!(classify("INFO foo 1"), Reply::Garbage(_)));
        assert_eq!(classify("OK"), Reply::Protocol("OK".into()));
        assert_eq!(classify("ERROR bad"), Reply::Protocol("ERROR bad".into()));
        assert_eq!(
            classify("hello world"),
            Reply::Garbage("hello world".into())
        );
        assert_eq!(classify("7,8,9"), Reply::Garbage("7,8,9".into()));
        assert_eq!(
            classify("message lower"),
            Reply::Garbage("message lower".into())
        );
    }

    #[test]
    fn spec_name_from_file_name() {
        assert_eq!(EngineSpec::new("/x/y/pbrain-foo").name, "pbrain-foo");
    }
}
