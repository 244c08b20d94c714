//! The only writer of stdout. Every protocol line goes through here, is written whole and
//! flushed at once (managers read pipes line by line and wait for us).
//!
//! A write error means the manager has gone (closed pipe): the process exits instead of
//! thinking for nobody.

use crate::game::Move;
use std::io::Write;

/// Writes one protocol line and flushes; exits the process when stdout is gone.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    let ok = out
        .write_all(text.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush());
    if ok.is_err() {
        log::warn!("stdout closed; exiting");
        std::process::exit(0);
    }
}

/// `OK`.
pub fn ok() {
    line("OK");
}

/// A move: `X,Y`.
pub fn mv(m: Move) {
    line(&m.to_string());
}

/// `ERROR <reason>`, on one line.
pub fn error(reason: &str) {
    line(&format!("ERROR {}", one_line(reason)));
}

/// `UNKNOWN <text>`.
pub fn unknown(text: &str) {
    line(&format!("UNKNOWN {}", one_line(text)));
}

/// `MESSAGE <text>`; a multi-line text becomes several MESSAGE lines.
pub fn message(text: &str) {
    for l in text.lines() {
        line(&format!("MESSAGE {}", sanitize(l)));
    }
}

/// `DEBUG <text>`.
pub fn debug(text: &str) {
    line(&format!("DEBUG {}", one_line(text)));
}

/// Keeps printable characters only, so echoed input can never forge a protocol line.
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    if s.chars().count() > 200 {
        out.push('…');
    }
    out
}

fn one_line(s: &str) -> String {
    sanitize(&s.replace(['\r', '\n'], " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_text_stays_on_one_short_line() {
        assert_eq!(one_line("a\r\nb\0c"), "a  b c");
        let long = "x".repeat(1000);
        assert_eq!(sanitize(&long).chars().count(), 201);
    }
}
