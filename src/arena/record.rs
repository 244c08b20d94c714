//! Game records people can open: Piskvork's `.psq`, SGF, and one JSON object per line for
//! scripts.
//!
//! Each writer is a pure function from a [`GameRecord`] to text, so the formats are tested
//! without files; the tournament decides where the text goes. JSON is written by hand (the
//! crate takes no serialisation dependency) with full string escaping.

use super::referee::GameRecord;
use crate::game::{Color, Move, Outcome};
use std::fmt::Write;

/// Piskvork's `.psq`: a header line, one `x,y,ms` line per stone with 1-based coordinates
/// (opening stones take 0 ms), then the two engine names, black first, and `-1`.
pub fn to_psq(r: &GameRecord) -> String {
    let stones = r
        .opening
        .iter()
        .map(|&m| (m, 0))
        .chain(r.moves.iter().map(|t| (t.mv, t.ms)));
    psq_text(
        r.setup.width,
        r.setup.height,
        stones,
        &r.black_name,
        &r.white_name,
    )
}

/// The `.psq` text of any game: `stones` in play order with the milliseconds each took.
pub fn psq_text(
    width: usize,
    height: usize,
    stones: impl IntoIterator<Item = (Move, u64)>,
    black: &str,
    white: &str,
) -> String {
    let mut s = format!("Piskvorky {width}x{height}, 11:11, 0\n");
    for (m, ms) in stones {
        let _ = writeln!(s, "{},{},{}", m.x as u32 + 1, m.y as u32 + 1, ms);
    }
    let _ = writeln!(s, "{black}\n{white}\n-1");
    s
}

/// The SGF point letter for a coordinate: `a`–`z`, then `A`–`Z` (SGF's convention for
/// boards past 26).
fn sgf_coord(v: u8) -> char {
    if v < 26 {
        (b'a' + v) as char
    } else {
        (b'A' + (v - 26)) as char
    }
}

fn sgf_point(m: Move) -> String {
    format!("{}{}", sgf_coord(m.x), sgf_coord(m.y))
}

/// Escapes `]` and `\` inside an SGF property value.
fn sgf_text(t: &str) -> String {
    t.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF result: `B+`, `W+` (with `T` for time, `F` for a forfeit) or `0` for a draw.
fn sgf_result(r: &GameRecord) -> String {
    use super::referee::{Fault, Termination};
    match r.outcome {
        Outcome::Draw => "0".to_string(),
        Outcome::Win(c) => {
            let who = if c == Color::Black { "B" } else { "W" };
            let how = match r.termination {
                Termination::Fault(Fault::Timeout) => "T",
                Termination::Fault(_) => "F",
                _ => "",
            };
            format!("{who}+{how}")
        }
    }
}

/// SGF (`GM[4]`, gomoku/renju), opening stones as moves so viewers replay them in order.
pub fn to_sgf(r: &GameRecord) -> String {
    let size = if r.setup.width == r.setup.height {
        r.setup.width.to_string()
    } else {
        format!("{}:{}", r.setup.width, r.setup.height)
    };
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi-arena]SZ[{size}]PB[{}]PW[{}]RE[{}]",
        sgf_text(&r.black_name),
        sgf_text(&r.white_name),
        sgf_result(r)
    );
    let mut comment = format!("termination: {}", r.termination.name());
    if !r.detail.is_empty() {
        comment.push_str("; ");
        comment.push_str(&r.detail);
    }
    if !r.swap.is_empty() {
        comment.push_str("; swap2: ");
        comment.push_str(&r.swap.join("; "));
    }
    let _ = write!(s, "GC[{}]", sgf_text(&comment));
    let all = r
        .opening
        .iter()
        .copied()
        .chain(r.moves.iter().map(|t| t.mv));
    for (i, m) in all.enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let _ = write!(s, ";{c}[{}]", sgf_point(m));
    }
    s.push_str(")\n");
    s
}

/// A JSON string literal.
pub fn json_string(t: &str) -> String {
    let mut s = String::with_capacity(t.len() + 2);
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

fn json_moves<'a>(it: impl Iterator<Item = &'a Move>) -> String {
    let v: Vec<String> = it.map(|m| format!("[{},{}]", m.x, m.y)).collect();
    format!("[{}]", v.join(","))
}

/// One line of the JSON-lines log (no trailing newline).
pub fn to_json(r: &GameRecord) -> String {
    to_json_with(r, &[])
}

/// [`to_json`] with integer members the record does not hold (the tournament's per-game
/// seed and end time), placed after the engines' indices.
pub fn to_json_with(r: &GameRecord, extra: &[(&str, u64)]) -> String {
    let result = match r.outcome {
        Outcome::Win(Color::Black) => "1-0",
        Outcome::Win(Color::White) => "0-1",
        Outcome::Draw => "1/2-1/2",
    };
    let times: Vec<String> = r.moves.iter().map(|t| t.ms.to_string()).collect();
    let swap: Vec<String> = r.swap.iter().map(|t| json_string(t)).collect();
    let extra: String = extra
        .iter()
        .map(|(k, v)| format!(",{}:{v}", json_string(k)))
        .collect();
    format!(
        "{{\"id\":{},\"black\":{},\"white\":{},\"black_index\":{},\"white_index\":{}{extra},\"width\":{},\"height\":{},\"rule\":{},\
         \"result\":\"{result}\",\"termination\":\"{}\",\"detail\":{},\"opening\":{},\
         \"moves\":{},\"ms\":[{}],\"opening_rule\":\"{}\",\"swap2\":[{}]}}",
        r.id,
        json_string(&r.black_name),
        json_string(&r.white_name),
        r.black,
        r.white,
        r.setup.width,
        r.setup.height,
        r.setup.rule(),
        r.termination.name(),
        json_string(&r.detail),
        json_moves(r.opening.iter()),
        json_moves(r.moves.iter().map(|t| &t.mv)),
        times.join(","),
        r.setup.opening_rule.name(),
        swap.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{Fault, GameKind, GameSetup, Termination, TimedMove};
    use crate::arena::swap2::OpeningRule;

    fn sample() -> GameRecord {
        GameRecord {
            id: 3,
            black: 0,
            white: 1,
            black_name: "pbrain-a".into(),
            white_name: "pbrain-b]".into(),
            setup: GameSetup {
                kind: GameKind::Gomoku { rule: 0 },
                width: 15,
                height: 15,
                draw_after: None,
                opening_rule: OpeningRule::Swap2,
            },
            opening: vec![Move::new(7, 7)],
            moves: vec![
                TimedMove {
                    mv: Move::new(8, 8),
                    ms: 12,
                },
                TimedMove {
                    mv: Move::new(0, 14),
                    ms: 1500,
                },
            ],
            outcome: Outcome::Win(Color::White),
            termination: Termination::Fault(Fault::Timeout),
            detail: "pbrain-a: no \"move\"".into(),
            swap: vec![
                "pbrain-a proposes 7,7 8,8 6,9 (5 ms)".into(),
                "b]: SWAP".into(),
            ],
        }
    }

    #[test]
    fn psq_has_one_based_moves_and_names() {
        let p = to_psq(&sample());
        assert_eq!(
            p,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\n1,15,1500\npbrain-a\npbrain-b]\n-1\n"
        );
    }

    #[test]
    fn sgf_escapes_and_orders_moves() {
        let s = to_sgf(&sample());
        assert!(s.starts_with("(;FF[4]GM[4]"), "{s}");
        assert!(s.contains("PW[pbrain-b\\]]"), "{s}");
        assert!(s.contains("RE[W+T]"), "{s}");
        assert!(s.ends_with(";B[hh];W[ii];B[ao])\n"), "{s}");
        assert!(
            s.contains("swap2: pbrain-a proposes 7,7 8,8 6,9 (5 ms); b\\]: SWAP]"),
            "{s}"
        );
        assert_eq!(sgf_coord(25), 'z');
        assert_eq!(sgf_coord(26), 'A');
    }

    #[test]
    fn json_line_escapes_strings() {
        let j = to_json(&sample());
        assert!(j.contains("\"result\":\"0-1\""), "{j}");
        assert!(
            j.contains("\"black_index\":0,\"white_index\":1,\"width\""),
            "{j}"
        );
        let k = to_json_with(&sample(), &[("seed", 7), ("ended", 9)]);
        assert!(
            k.contains("\"white_index\":1,\"seed\":7,\"ended\":9,"),
            "{k}"
        );
        assert!(j.contains("\"termination\":\"timeout\""), "{j}");
        assert!(
            j.contains("\"detail\":\"pbrain-a: no \\\"move\\\"\""),
            "{j}"
        );
        assert!(j.contains("\"moves\":[[8,8],[0,14]]"), "{j}");
        assert!(
            j.ends_with("\"opening_rule\":\"swap2\",\"swap2\":[\"pbrain-a proposes 7,7 8,8 6,9 (5 ms)\",\"b]: SWAP\"]}"),
            "{j}"
        );
        assert!(!j.contains('\n'));
        assert_eq!(json_string("a\u{1}"), "\"a\\u0001\"");
    }
}
