//! What an engine said about a move while thinking: the last depth, score and principal
//! variation it reported before answering, kept per move in `games.jsonl` (optional
//! members; records written before they existed read as saying nothing).
//!
//! Engines report in their own words, and the reader takes the keywords they share:
//! wuzi's `MESSAGE depth 9-14 ev 35 n … pv 7,7 8,8`, Rapfi's `MESSAGE Depth 12-20 | Eval
//! 34 | … | PV h8 i9`, and Yixin-Board's detail block (`INFO DEPTH 9`, `INFO EVAL 35`,
//! `INFO BESTLINE 7,7 8,8`, one key a line). Values are kept as the engine wrote them
//! (`12-20`, `+34`, `M5`): the page shows them, nothing computes with them.

use serde::{Deserialize, Serialize};

/// The last depth, score and PV an engine reported for one move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thinking {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
}

/// The Yixin-Board detail keys an engine may print as bare `INFO` lines; the arena reads
/// them as messages, not as garbage.
pub const DETAIL_KEYS: [&str; 12] = [
    "PV",
    "NUMPV",
    "DEPTH",
    "SELDEPTH",
    "NODES",
    "TOTALNODES",
    "TOTALTIME",
    "SPEED",
    "EVAL",
    "WINRATE",
    "BESTLINE",
    "LOSTLINE",
];

/// Whether `line` is one line of a Yixin-Board detail block (`INFO DEPTH 9`).
pub fn is_detail_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("INFO") && words.next().is_some_and(|k| DETAIL_KEYS.contains(&k))
}

/// What a keyword of a report names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Depth,
    Score,
    Pv,
}

fn key(word: &str) -> Option<Key> {
    match word.to_ascii_lowercase().as_str() {
        "depth" => Some(Key::Depth),
        "ev" | "eval" | "score" => Some(Key::Score),
        "pv" | "bestline" => Some(Key::Pv),
        _ => None,
    }
}

/// Words that end a PV: another report's keys (wuzi prints the PV last, Rapfi separates
/// fields with `|`).
fn ends_pv(word: &str) -> bool {
    word == "|"
        || matches!(
            word.to_ascii_lowercase().as_str(),
            "depth"
                | "ev"
                | "eval"
                | "score"
                | "n"
                | "nodes"
                | "n/s"
                | "nps"
                | "tm"
                | "time"
                | "speed"
        )
}

/// Reads an engine's output lines while it thinks about one move.
#[derive(Clone, Debug, Default)]
pub struct Listener {
    thinking: Thinking,
    /// Inside a detail block of a line other than the first (multi-PV).
    other_line: bool,
}

impl Listener {
    /// What was reported, if anything.
    pub fn finish(self) -> Option<Thinking> {
        let t = self.thinking;
        (t.depth.is_some() || t.score.is_some() || t.pv.is_some()).then_some(t)
    }

    /// Takes what one line of the engine's output reports (a `MESSAGE`, `DEBUG` or detail
    /// line), keeping earlier values for what it does not say. Lines of a second PV
    /// (wuzi's `pv 2 depth …`, Yixin's `INFO PV 1` block) are not the move's and are skipped.
    pub fn read_line(&mut self, line: &str) {
        let mut words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '|')
            .filter(|w| !w.is_empty())
            .collect();
        match words.first().copied() {
            Some("MESSAGE" | "DEBUG") => {
                words.remove(0);
            }
            Some("INFO") => {
                // the detail block: `INFO PV i` opens line i; the others are one key each
                if words.get(1) == Some(&"PV") {
                    match words.get(2) {
                        Some(&"DONE") | None => {}
                        Some(i) => self.other_line = *i != "0",
                    }
                    return;
                }
                if self.other_line {
                    return;
                }
                words.remove(0);
            }
            _ => {}
        }
        // wuzi's multi-PV prefix: `pv N depth …`
        if words.len() > 2 && words[0] == "pv" && words[1].parse::<u32>().is_ok() {
            if words[1] != "1" {
                return;
            }
            words.drain(..2);
        }
        let mut i = 0;
        while i < words.len() {
            match key(words[i]) {
                Some(Key::Pv) => {
                    let end = (i + 1..words.len())
                        .find(|&j| ends_pv(words[j]))
                        .unwrap_or(words.len());
                    if end > i + 1 {
                        self.thinking.pv = Some(words[i + 1..end].join(" "));
                    }
                    i = end;
                }
                Some(k) if i + 1 < words.len() => {
                    let v = Some(words[i + 1].to_string());
                    if k == Key::Depth {
                        self.thinking.depth = v;
                    } else {
                        self.thinking.score = v;
                    }
                    i += 2;
                }
                _ => i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Option<Thinking> {
        let mut l = Listener::default();
        for line in lines {
            l.read_line(line);
        }
        l.finish()
    }

    fn t(depth: &str, score: &str, pv: &str) -> Option<Thinking> {
        Some(Thinking {
            depth: Some(depth.into()),
            score: Some(score.into()),
            pv: Some(pv.into()),
        })
    }

    #[test]
    fn wuzi_messages_keep_the_last_iteration() {
        let got = read(&[
            "MESSAGE depth 3-3 ev 455 n 34 n/s 151 tm 225 pv 7,7 8,6 6,6",
            "MESSAGE depth 4-6 ev -107 n 89 n/s 176 tm 504 pv 7,7 6,6 8,6 6,8",
            "MESSAGE hash usage 3 permille",
        ]);
        assert_eq!(got, t("4-6", "-107", "7,7 6,6 8,6 6,8"));
        // a second line of a multi-PV search is not the move's
        let got = read(&[
            "MESSAGE pv 1 depth 5-5 ev 30 n 9 n/s 1 tm 2 pv 1,1",
            "MESSAGE pv 2 depth 5-5 ev 10 n 9 n/s 1 tm 2 pv 2,2",
        ]);
        assert_eq!(got, t("5-5", "30", "1,1"));
    }

    #[test]
    fn rapfi_and_yixin_reports() {
        let got =
            read(&["MESSAGE Depth 12-20 | Eval 34 | Time 1234ms | Nodes 2.4M | PV h8 i9 j10"]);
        assert_eq!(got, t("12-20", "34", "h8 i9 j10"));
        let block = |i: &str, d: &str, e: &str, pv: &str| {
            [
                format!("INFO PV {i}"),
                format!("INFO DEPTH {d}"),
                "INFO NODES 99".to_string(),
                format!("INFO EVAL {e}"),
                format!("INFO BESTLINE {pv}"),
                "INFO PV DONE".to_string(),
            ]
        };
        let lines: Vec<String> = block("0", "9", "35", "7,7 8,8")
            .into_iter()
            .chain(block("1", "9", "-5", "1,1"))
            .collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(read(&refs), t("9", "35", "7,7 8,8"));
        assert!(is_detail_line("INFO EVAL 35") && !is_detail_line("INFO timeout_turn 5"));
    }

    #[test]
    fn silence_is_nothing() {
        assert_eq!(read(&[]), None);
        assert_eq!(read(&["MESSAGE hello", "DEBUG x"]), None);
        // a partial report keeps what it says
        assert_eq!(
            read(&["MESSAGE depth 7"]),
            Some(Thinking {
                depth: Some("7".into()),
                ..Thinking::default()
            })
        );
    }
}
