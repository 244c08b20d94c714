//! The tactics suite: every position in `tests/tactics/positions.txt` must be solved by the
//! gomoku search within its node budget (node limits, never seconds, so the suite cannot be
//! flaky). The file format is described at its top.

use wuzi::game::gomoku::{Board, Caro, Freestyle, Renju, Rule, Standard};
use wuzi::game::{Color, Game, Move};
use wuzi::search::gomoku::alphabeta::{search, Params};
use wuzi::search::gomoku::threats::{Solver, ThreatLimits};
use wuzi::search::score::WIN_MIN;
use wuzi::search::tt::TranspositionTable;
use wuzi::search::{Limits, SearchResult, Stop};

const POSITIONS: &str = include_str!("tactics/positions.txt");

#[derive(Debug)]
struct Case {
    name: String,
    rule: String,
    to_move: Color,
    kind: String,
    moves: Vec<Move>,
    nodes: u64,
    picture: String,
}

fn parse_move(s: &str) -> Move {
    let (x, y) = s.split_once(',').expect("x,y");
    Move::new(x.parse().expect("x"), y.parse().expect("y"))
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            cases.extend(cur.take());
            cur = Some(Case {
                name: name.to_string(),
                rule: String::new(),
                to_move: Color::Black,
                kind: String::new(),
                moves: Vec::new(),
                nodes: 0,
                picture: String::new(),
            });
            continue;
        }
        let c = cur.as_mut().expect("a [name] line first");
        match line.split_once(':') {
            Some(("rule", v)) => c.rule = v.trim().to_string(),
            Some(("to_move", v)) => {
                c.to_move = if v.trim() == "X" {
                    Color::Black
                } else {
                    Color::White
                }
            }
            Some(("kind", v)) => c.kind = v.trim().to_string(),
            Some(("moves", v)) => c.moves = v.split_whitespace().map(parse_move).collect(),
            Some(("nodes", v)) => c.nodes = v.trim().parse().expect("nodes"),
            _ => {
                c.picture.push_str(line);
                c.picture.push('\n');
            }
        }
    }
    cases.extend(cur);
    cases
}

fn params_for(nodes: u64) -> Params {
    Params {
        root_vcf_nodes: nodes,
        root_vct_nodes: nodes,
        ..Params::default()
    }
}

fn think<R: Rule>(b: &Board<R>, nodes: u64, params: Params) -> SearchResult {
    let mut table = TranspositionTable::new();
    table.resize(4 << 20);
    let tt = std::sync::Arc::new(table);
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::depth(32)
    };
    let mut sink = |_: &wuzi::search::Iteration| {};
    search(b, &tt, &limits, &Stop::new(), params, None, &mut sink).expect("a move")
}

/// Runs one case; returns an error message on failure.
fn run<R: Rule>(c: &Case) -> Result<(), String> {
    let b = Board::<R>::from_ascii(&c.picture, c.to_move).map_err(|e| e.to_string())?;
    let r = think(&b, c.nodes, params_for(c.nodes));
    if b.check_move(r.best).is_err() || b.is_forbidden(r.best) {
        return Err(format!("illegal or forbidden move {}", r.best));
    }
    match c.kind.as_str() {
        "win" => {
            if r.score < WIN_MIN {
                return Err(format!("no win proven: {} score {}", r.best, r.score));
            }
            if !c.moves.is_empty() && !c.moves.contains(&r.best) {
                return Err(format!("unexpected winning move {}", r.best));
            }
        }
        "avoid" => {
            if c.moves.contains(&r.best) {
                return Err(format!("played the move to avoid {}", r.best));
            }
        }
        "defend" => {
            let mut after = b.clone();
            after.play(r.best);
            let mut s = Solver::new(1 << 16);
            if let Some(w) = s.vcf(&mut after, 40, &ThreatLimits::nodes(1_000_000)) {
                return Err(format!("{} still loses to the VCF {:?}", r.best, w));
            }
        }
        k => return Err(format!("unknown kind {k}")),
    }
    Ok(())
}

fn run_any(c: &Case) -> Result<(), String> {
    match c.rule.as_str() {
        "freestyle" => run::<Freestyle>(c),
        "standard" => run::<Standard>(c),
        "renju" => run::<Renju>(c),
        "caro" => run::<Caro>(c),
        r => Err(format!("unknown rule {r}")),
    }
}

#[test]
fn tactics_suite() {
    let cases = parse(POSITIONS);
    assert!(cases.len() >= 15, "only {} cases parsed", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| run_any(c).err().map(|e| format!("{}: {e}", c.name)))
        .collect();
    assert!(failures.is_empty(), "failed:\n{}", failures.join("\n"));
}

/// The VCF positions are also won by the main search alone (leaf VCFs and the forced-move
/// rules), without the root threat search.
#[test]
fn main_search_alone_finds_the_vcf() {
    let no_root = Params {
        root_vcf_nodes: 0,
        root_vct_depth: 0,
        ..Params::default()
    };
    for c in parse(POSITIONS)
        .iter()
        .filter(|c| c.kind == "win" && c.name.ends_with("-vcf"))
    {
        let b = Board::<Freestyle>::from_ascii(&c.picture, c.to_move).expect("picture");
        if c.rule != "freestyle" {
            continue;
        }
        let r = think(&b, 50_000, no_root);
        assert!(
            r.score >= WIN_MIN,
            "{}: {} score {}",
            c.name,
            r.best,
            r.score
        );
        assert!(c.moves.contains(&r.best), "{}: {}", c.name, r.best);
    }
}
