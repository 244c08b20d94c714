//! Text for people and GUIs: the Yixin-Board / Rapfi search detail (`INFO show_detail`), the
//! swap2 answers, and the debugging reports (`TRACEBOARD`, `TRACESEARCH`).
//!
//! Everything here formats and returns strings; `protocol::output` prints them. Keeping the
//! formats pure makes each one a unit test, and keeps the one-writer-of-stdout rule intact.
//! Detail lines are bare `INFO …` lines as Yixin-Board reads them; they are only produced
//! when a GUI asked for them with `INFO show_detail`, which tournament managers never send.

use crate::engine::{SwapAnswer, ThreatVerdict, Threats, Trace};
use crate::game::{Color, Game, Move, Outcome};
use crate::search::score::{WIN, WIN_MIN};
use crate::search::{Iteration, SearchResult};

/// `INFO show_detail` bit: `MESSAGE REALTIME …` lines.
pub const SHOW_REALTIME: u32 = 1;
/// `INFO show_detail` bit: the per-line `INFO PV …` detail block.
pub const SHOW_DETAIL: u32 = 2;
/// Evaluation units per logistic unit when turning a score into a win rate.
const WINRATE_SCALE: f64 = 200.0;

/// Reads `INFO show_detail` (a number; anything else means nothing is shown).
pub fn show_detail_bits(value: Option<&String>) -> u32 {
    value.and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

/// Win probability for the side to move: proven results are 0 or 1, others a logistic curve.
pub fn winrate(score: i32) -> f64 {
    if score >= WIN_MIN {
        1.0
    } else if score <= -WIN_MIN {
        0.0
    } else {
        1.0 / (1.0 + (-(score as f64) / WINRATE_SCALE).exp())
    }
}

/// A score as people read it: `+35`, or `win in 7` / `loss in 4` (plies) for proven ones.
pub fn score_text(score: i32) -> String {
    if score >= WIN_MIN {
        format!("win in {}", WIN - score)
    } else if score <= -WIN_MIN {
        format!("loss in {}", WIN + score)
    } else {
        format!("{score:+}")
    }
}

/// Moves as `x,y x,y …`.
pub fn line_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `INFO PV i` … `INFO PV DONE` block of one finished iteration of line `index`
/// (0-based) out of `num_pv`; `total_nodes` counts every line searched so far.
pub fn detail_block(
    index: usize,
    num_pv: usize,
    it: &Iteration,
    total_nodes: u64,
    total_ms: u64,
) -> Vec<String> {
    vec![
        format!("INFO PV {index}"),
        format!("INFO NUMPV {num_pv}"),
        format!("INFO DEPTH {}", it.depth),
        format!("INFO SELDEPTH {}", it.seldepth),
        format!("INFO NODES {}", it.nodes),
        format!("INFO TOTALNODES {total_nodes}"),
        format!("INFO TOTALTIME {total_ms}"),
        format!("INFO SPEED {}", total_nodes * 1000 / total_ms.max(1)),
        format!("INFO EVAL {}", it.score),
        format!("INFO WINRATE {:.6}", winrate(it.score)),
        format!("INFO BESTLINE {}", line_text(&it.pv)),
        "INFO PV DONE".to_string(),
    ]
}

/// The `MESSAGE REALTIME …` texts (without `MESSAGE`) for a finished iteration of line
/// `index`: the best move so far, and a proven loss marked as lost.
pub fn realtime(index: usize, it: &Iteration) -> Vec<String> {
    let Some(&first) = it.pv.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if it.score <= -WIN_MIN {
        out.push(format!("REALTIME LOST {first}"));
    } else if index == 0 {
        out.push(format!("REALTIME BEST {first}"));
    } else {
        out.push(format!("REALTIME DONE {first}"));
    }
    out
}

/// One line of a multi-line result, for `MESSAGE`: `3: 7,8 ev +40 depth 6 pv 7,8 8,8`.
pub fn pv_summary(index: usize, r: &SearchResult) -> String {
    format!(
        "{}: {} ev {} depth {} nodes {} pv {}",
        index + 1,
        r.best,
        score_text(r.score),
        r.depth,
        r.nodes,
        line_text(&r.pv)
    )
}

/// The reply to `SWAP2BOARD`.
pub fn swap_answer(a: &SwapAnswer) -> String {
    match a {
        SwapAnswer::Stones(list) => line_text(list),
        SwapAnswer::Swap => "SWAP".to_string(),
        SwapAnswer::Move(m) => m.to_string(),
    }
}

/// The board with protocol coordinates (x across, y down), `X` black, `O` white, `#` walls
/// are not told apart from empty cells by the `Game` trait and show as `.`; the last move is
/// bracketed.
pub fn board_lines<G: Game>(g: &G) -> Vec<String> {
    let last = g.last_move();
    let mut head = String::from("   ");
    for x in 0..g.width() {
        head.push_str(&format!("{x:>3}"));
    }
    let mut out = vec![head];
    for y in 0..g.height() {
        let mut row = format!("{y:>3}");
        for x in 0..g.width() {
            let m = Move::new(x as u8, y as u8);
            let c = crate::game::stone_char(g.stone_at(m));
            if Some(m) == last {
                row.push_str(&format!(" [{c}"));
                row.push(']');
                // Keep the columns aligned: the bracket takes the next cell's padding.
                continue;
            }
            if row.ends_with(']') {
                row.push_str(&format!(" {c}"));
            } else {
                row.push_str(&format!("  {c}"));
            }
        }
        out.push(row);
    }
    out
}

/// The `TRACEBOARD` report after the board.
pub fn trace_lines(t: &Trace) -> Vec<String> {
    let side = match t.to_move {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    };
    let mut out = vec![format!("ply {} to move: {side}", t.ply)];
    match t.outcome {
        Some(Outcome::Win(c)) => out.push(format!("game over: {c:?} has won")),
        Some(Outcome::Draw) => out.push("game over: draw".to_string()),
        None => {}
    }
    out.push(format!(
        "static eval {} (side to move), win rate {:.3}",
        score_text(t.eval),
        winrate(t.eval)
    ));
    if !t.blocked.is_empty() {
        out.push(format!("blocked root moves: {}", line_text(&t.blocked)));
    }
    out.push(format!(
        "candidates ({}): move order eval-after",
        t.candidates.len()
    ));
    for (m, order, after) in &t.candidates {
        out.push(format!("  {m} {order} {}", score_text(*after)));
    }
    out
}

/// The `TRACESEARCH` verdict: a forced win or loss the search proved, or none.
pub fn verdict(best: Option<&SearchResult>) -> String {
    match best {
        None => "verdict: no move to search".to_string(),
        Some(r) if r.score >= WIN_MIN => format!(
            "verdict: forced win for the side to move in {} plies: {}",
            WIN - r.score,
            line_text(&r.pv)
        ),
        Some(r) if r.score <= -WIN_MIN => format!(
            "verdict: every move searched loses by force (in {} plies at best)",
            WIN + r.score
        ),
        Some(r) => format!(
            "verdict: no forced win or loss found to depth {} (best {} ev {})",
            r.depth,
            r.best,
            score_text(r.score)
        ),
    }
}

/// One threat search's verdict as a line: `VCF win: x,y x,y … in 7 plies (nodes 123)`,
/// `VCT win: x,y in 9 plies (nodes 456)` or `VCF none (nodes 789)`, noting when the node
/// budget or the time ran out (then "none" only means none was found).
pub fn threat_line(kind: &str, v: &ThreatVerdict) -> String {
    match (&v.win, &v.line) {
        (Some(w), Some(line)) => format!(
            "{kind} win: {} in {} plies (nodes {})",
            line_text(line),
            w.plies,
            v.nodes
        ),
        (Some(w), None) => format!(
            "{kind} win: {} in {} plies (nodes {})",
            w.mv, w.plies, v.nodes
        ),
        (None, _) if v.nodes > v.budget => {
            format!("{kind} none found (nodes {}: budget spent)", v.nodes)
        }
        (None, _) if v.timed_out => format!("{kind} none found (nodes {}: time ran out)", v.nodes),
        (None, _) => format!("{kind} none (nodes {})", v.nodes),
    }
}

/// The `TRACESEARCH` lines for the threat solver's verdicts.
pub fn threat_lines(t: Option<&Threats>) -> Vec<String> {
    match t {
        Some(t) => vec![threat_line("VCF", &t.vcf), threat_line("VCT", &t.vct)],
        None => vec!["VCF/VCT: this game has no threat solver".to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Board, Freestyle};

    fn it(score: i32, pv: &[Move]) -> Iteration {
        Iteration {
            depth: 5,
            seldepth: 9,
            score,
            nodes: 1234,
            elapsed_ms: 10,
            pv: pv.to_vec(),
        }
    }

    #[test]
    fn winrate_is_monotone_and_saturates() {
        assert_eq!(winrate(WIN - 3), 1.0);
        assert_eq!(winrate(-WIN + 3), 0.0);
        assert!((winrate(0) - 0.5).abs() < 1e-9);
        assert!(winrate(100) > winrate(50) && winrate(-50) > winrate(-100));
    }

    #[test]
    fn scores_read_as_people_say_them() {
        assert_eq!(score_text(35), "+35");
        assert_eq!(score_text(-7), "-7");
        assert_eq!(score_text(WIN - 7), "win in 7");
        assert_eq!(score_text(-WIN + 4), "loss in 4");
    }

    #[test]
    fn detail_block_has_every_key_in_order() {
        let b = detail_block(
            1,
            3,
            &it(40, &[Move::new(7, 8), Move::new(8, 8)]),
            5000,
            100,
        );
        let keys: Vec<&str> = b.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
        assert_eq!(
            keys,
            [
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
                "PV"
            ]
        );
        assert_eq!(b[0], "INFO PV 1");
        assert_eq!(b[7], "INFO SPEED 50000");
        assert_eq!(b[10], "INFO BESTLINE 7,8 8,8");
        assert_eq!(b[11], "INFO PV DONE");
    }

    #[test]
    fn realtime_marks_best_and_lost_moves() {
        let m = Move::new(3, 4);
        assert_eq!(realtime(0, &it(10, &[m])), ["REALTIME BEST 3,4"]);
        assert_eq!(realtime(2, &it(10, &[m])), ["REALTIME DONE 3,4"]);
        assert_eq!(realtime(0, &it(-WIN + 5, &[m])), ["REALTIME LOST 3,4"]);
        assert!(realtime(0, &it(0, &[])).is_empty());
    }

    #[test]
    fn swap_answers_are_protocol_lines() {
        let s = SwapAnswer::Stones(vec![Move::new(7, 7), Move::new(8, 7), Move::new(6, 8)]);
        assert_eq!(swap_answer(&s), "7,7 8,7 6,8");
        assert_eq!(swap_answer(&SwapAnswer::Swap), "SWAP");
        assert_eq!(swap_answer(&SwapAnswer::Move(Move::new(1, 2))), "1,2");
    }

    #[test]
    fn board_has_coordinates_and_marks_the_last_move() {
        let mut b: Board<Freestyle> = Board::new(5, 5).unwrap();
        b.play(Move::new(2, 2));
        b.play(Move::new(3, 2));
        let lines = board_lines(&b);
        assert_eq!(lines[0], "     0  1  2  3  4");
        assert_eq!(lines[3], "  2  .  .  X [O] .");
        // Every row is as wide as the header.
        assert!(
            lines.iter().all(|l| l.len() == lines[0].len()),
            "{lines:#?}"
        );
    }

    #[test]
    fn threat_verdicts_read_as_lines() {
        use crate::search::gomoku::threats::ThreatWin;
        let (a, b) = (Move::new(1, 1), Move::new(2, 2));
        let win = ThreatWin { mv: a, plies: 3 };
        let v = |win, line, nodes| ThreatVerdict {
            win,
            line,
            nodes,
            budget: 100,
            timed_out: false,
        };
        assert_eq!(
            threat_line("VCF", &v(Some(win), Some(vec![a, b]), 7)),
            "VCF win: 1,1 2,2 in 3 plies (nodes 7)"
        );
        assert_eq!(
            threat_line("VCT", &v(Some(win), None, 9)),
            "VCT win: 1,1 in 3 plies (nodes 9)"
        );
        assert_eq!(
            threat_line("VCF", &v(None, None, 50)),
            "VCF none (nodes 50)"
        );
        assert_eq!(
            threat_line("VCT", &v(None, None, 101)),
            "VCT none found (nodes 101: budget spent)"
        );
        let late = ThreatVerdict {
            timed_out: true,
            ..v(None, None, 60)
        };
        assert_eq!(
            threat_line("VCT", &late),
            "VCT none found (nodes 60: time ran out)"
        );
        let t = Threats {
            vcf: v(None, None, 1),
            vct: v(Some(win), Some(vec![a]), 2),
        };
        assert_eq!(
            threat_lines(Some(&t)),
            vec!["VCF none (nodes 1)", "VCT win: 1,1 in 3 plies (nodes 2)"]
        );
        assert!(threat_lines(None)[0].contains("no threat solver"));
    }

    #[test]
    fn verdicts_name_the_result() {
        let r = |score| SearchResult {
            best: Move::new(1, 1),
            score,
            depth: 6,
            nodes: 1,
            pv: vec![Move::new(1, 1), Move::new(2, 2)],
        };
        assert!(verdict(Some(&r(WIN - 5))).contains("forced win"));
        assert!(verdict(Some(&r(WIN - 5))).contains("in 5 plies: 1,1 2,2"));
        assert!(verdict(Some(&r(-WIN + 4))).contains("loses"));
        assert!(verdict(Some(&r(20))).contains("no forced"));
        assert!(verdict(None).contains("no move"));
    }
}
