//! Game records people can open: Piskvork's `.psq`, SGF, and one JSON object per line for
//! scripts.
//!
//! Each writer is a pure function from a [`GameRecord`] to text, so the formats are tested
//! without files; the tournament decides where the text goes. The JSON line is a
//! [`JsonLine`], written and read with `serde_json`.

use super::referee::{GameRecord, Termination};
use super::swap2::OpeningRule;
use super::thinking::Thinking;
use crate::game::{Color, Move, Outcome};
use serde::{Deserialize, Serialize};
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
    if let Some([black, white]) = r.captures {
        let _ = write!(comment, "; captured pairs: black {black}, white {white}");
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

/// One line of `games.jsonl`: a finished game, written with `serde_json` by the journal
/// and read back by `--resume`, `merge` and `status` (the tuner reads its own subset).
/// Members are written in this order; scripts match a line's start, `{"id":`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonLine {
    pub id: usize,
    /// Engine names.
    pub black: String,
    pub white: String,
    /// Engine indices in the tournament.
    pub black_index: usize,
    pub white_index: usize,
    /// The game's seed in the tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// When the game ended (Unix milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<u64>,
    pub width: usize,
    pub height: usize,
    /// The Gomocup rule number (0 for games other than gomoku).
    pub rule: u32,
    /// `1-0` (black won), `0-1` or `1/2-1/2`.
    #[serde(with = "by_name")]
    pub result: Outcome,
    #[serde(with = "by_name")]
    pub termination: Termination,
    pub detail: String,
    /// Opening stones, then the moves played, as `[x, y]`.
    pub opening: Vec<[u8; 2]>,
    pub moves: Vec<[u8; 2]>,
    /// Milliseconds each move took.
    pub ms: Vec<u64>,
    #[serde(with = "by_name")]
    pub opening_rule: OpeningRule,
    /// The swap2 exchange, one line a step.
    pub swap2: Vec<String>,
    /// The game when it is not gomoku under `rule` (`pente`, `ninuki`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Pairs captured by black and white at the end (games with captures).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captures: Option<[u8; 2]>,
    /// Per move played (as `moves`), what its engine last reported while thinking; absent
    /// when neither engine said anything (and in records written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<Vec<Option<Thinking>>>,
}

impl JsonLine {
    /// The line of a game (without the tournament's seed and end time).
    pub fn of(r: &GameRecord) -> JsonLine {
        let xy = |m: &Move| [m.x, m.y];
        JsonLine {
            id: r.id,
            black: r.black_name.clone(),
            white: r.white_name.clone(),
            black_index: r.black,
            white_index: r.white,
            seed: None,
            ended: None,
            width: r.setup.width,
            height: r.setup.height,
            rule: r.setup.rule(),
            result: r.outcome,
            termination: r.termination,
            detail: r.detail.clone(),
            opening: r.opening.iter().map(xy).collect(),
            moves: r.moves.iter().map(|t| xy(&t.mv)).collect(),
            ms: r.moves.iter().map(|t| t.ms).collect(),
            opening_rule: r.setup.opening_rule,
            swap2: r.swap.clone(),
            game: r.setup.game_name(),
            captures: r.captures,
            thinking: r
                .moves
                .iter()
                .any(|t| t.thinking.is_some())
                .then(|| r.moves.iter().map(|t| t.thinking.clone()).collect()),
        }
    }

    /// The line's text, without a newline (JSON escapes every newline in a string).
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a JsonLine always serialises")
    }
}

/// Values written as a fixed name (`result`, `termination`, `opening_rule`).
pub(crate) trait Named: Sized + Copy {
    const WHAT: &'static str;
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self>;
}

impl Named for Outcome {
    const WHAT: &'static str = "result";
    fn name(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
    fn from_name(name: &str) -> Option<Outcome> {
        [
            Outcome::Win(Color::Black),
            Outcome::Win(Color::White),
            Outcome::Draw,
        ]
        .into_iter()
        .find(|o| o.name() == name)
    }
}

/// [`Named`] by a type's own `name` and the parser of those names.
macro_rules! named_by {
    ($t:ty, $what:literal, $parse:path) => {
        impl Named for $t {
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str {
                <$t>::name(self)
            }
            fn from_name(name: &str) -> Option<$t> {
                $parse(name)
            }
        }
    };
}

named_by!(Termination, "termination", Termination::from_name);
named_by!(OpeningRule, "opening rule", OpeningRule::parse);

/// `#[serde(with)]` for a [`Named`] member: its name as a JSON string (also the tuner's
/// reader of results, `crate::tune`).
pub(crate) mod by_name {
    use super::Named;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Named, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name = String::deserialize(d)?;
        T::from_name(&name).ok_or_else(|| D::Error::custom(format!("unknown {} {name:?}", T::WHAT)))
    }
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
                    thinking: None,
                },
                TimedMove {
                    mv: Move::new(0, 14),
                    ms: 1500,
                    thinking: None,
                },
            ],
            outcome: Outcome::Win(Color::White),
            termination: Termination::Fault(Fault::Timeout),
            detail: "pbrain-a: no \"move\"".into(),
            swap: vec![
                "pbrain-a proposes 7,7 8,8 6,9 (5 ms)".into(),
                "b]: SWAP".into(),
            ],
            captures: None,
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
        let j = JsonLine::of(&sample()).to_text();
        assert!(j.starts_with("{\"id\":3,\"black\":\"pbrain-a\","), "{j}");
        assert!(j.contains("\"result\":\"0-1\""), "{j}");
        assert!(
            j.contains("\"black_index\":0,\"white_index\":1,\"width\""),
            "{j}"
        );
        let k = JsonLine {
            seed: Some(7),
            ended: Some(9),
            ..JsonLine::of(&sample())
        }
        .to_text();
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
        let mut r = sample();
        r.detail = "a\u{1}\nb".into();
        assert!(JsonLine::of(&r)
            .to_text()
            .contains("\"detail\":\"a\\u0001\\nb\""));
    }

    #[test]
    fn capture_games_record_the_game_and_the_captured_pairs() {
        let mut r = sample();
        r.setup.kind = GameKind::Ninuki;
        r.captures = Some([2, 5]);
        let j = JsonLine::of(&r).to_text();
        assert!(
            j.ends_with(",\"game\":\"ninuki\",\"captures\":[2,5]}"),
            "{j}"
        );
        let back: JsonLine = serde_json::from_str(&j).unwrap();
        assert_eq!(back.captures, Some([2, 5]));
        assert_eq!(back.game.as_deref(), Some("ninuki"));
        assert!(to_sgf(&r).contains("captured pairs: black 2, white 5"));
        // Gomoku lines stay as they were.
        assert!(!JsonLine::of(&sample()).to_text().contains("captures"));
    }

    #[test]
    fn json_line_reads_back_exactly() {
        let line = JsonLine {
            seed: Some(u64::MAX),
            ended: Some(1_795_455_259_845),
            ..JsonLine::of(&sample())
        };
        let text = line.to_text();
        let back: JsonLine = serde_json::from_str(&text).unwrap();
        assert_eq!(back, line);
        assert_eq!(back.to_text(), text);
        // a line written before serde, byte for byte
        let old = r#"{"id":2,"black":"bad","white":"go\"od\\","black_index":1,"white_index":0,"seed":9573964686060840343,"ended":1795455259862,"width":9,"height":9,"rule":4,"result":"1/2-1/2","termination":"board-full","detail":"","opening":[[0,0]],"moves":[],"ms":[],"opening_rule":"none","swap2":[]}"#;
        let g: JsonLine = serde_json::from_str(old).unwrap();
        assert_eq!(
            (g.seed, g.white.as_str()),
            (Some(9573964686060840343), "go\"od\\")
        );
        assert_eq!(g.to_text(), old);
    }

    #[test]
    fn thinking_is_kept_per_move_and_old_lines_have_none() {
        let mut r = sample();
        assert!(!JsonLine::of(&r).to_text().contains("thinking"));
        r.moves[1].thinking = Some(Thinking {
            depth: Some("9-14".into()),
            score: Some("-35".into()),
            pv: Some("0,14 1,1".into()),
        });
        let j = JsonLine::of(&r).to_text();
        assert!(
            j.ends_with(r#","thinking":[null,{"depth":"9-14","score":"-35","pv":"0,14 1,1"}]}"#),
            "{j}"
        );
        let back: JsonLine = serde_json::from_str(&j).unwrap();
        assert_eq!(back.thinking.as_ref().unwrap()[1], r.moves[1].thinking);
        // a line of a build that kept no thinking reads as saying nothing
        let old = JsonLine::of(&sample()).to_text();
        let g: JsonLine = serde_json::from_str(&old).unwrap();
        assert_eq!(g.thinking, None);
    }

    #[test]
    fn a_cut_or_wrong_line_is_an_error() {
        let line = JsonLine::of(&sample()).to_text();
        for cut in 1..line.len() {
            let r = serde_json::from_str::<JsonLine>(&line[..cut]);
            assert!(r.is_err(), "{}", &line[..cut]);
        }
        let bad = line.replace("\"0-1\"", "\"2-0\"");
        let e = serde_json::from_str::<JsonLine>(&bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown result \"2-0\""), "{e}");
        assert!(serde_json::from_str::<JsonLine>(&format!("{line} x")).is_err());
    }
}
