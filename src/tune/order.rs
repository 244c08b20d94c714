//! `tune --order-teacher`: the move-ordering ranks fitted to a stronger engine's per-cell
//! ordering scores.
//!
//! Rapfi's classical move picker scores an empty cell for a colour as a value of that
//! colour's pattern combination there (to attack) plus a value of the opponent's (to block).
//! Ours has the same form ([`Cell::order`](crate::game::gomoku)): the attack rank of the
//! mover's pattern combination plus the defence rank of the opponent's, plus influence. Its
//! `TRACEBOARD` prints the scores of every cell for both colours (`scripts/label-positions.py
//! --rapfi-order`), so our ranks can be fitted to them by least squares: each of our
//! candidate cells with a score gives two rows, one for each colour playing there. Every row
//! holds exactly one attack and one defence entry, so the fit alternates between the two
//! tables, each entry the mean of what its rows ask of it; the influence term is held, and an
//! entry seen in few rows is pulled towards the build's rank by [`PRIOR`] rows' worth.
//!
//! The teacher's units are mapped to ours by one factor, read from the cells whose ranks are
//! ordinary (see [`scale`]), so the ranks keep the size the search's history and killer
//! bonuses were set against. The threats' classes keep the build's ranks ([`ORDINARY`]).

use crate::arena::opening::parse_pos;
use crate::game::gomoku::pattern::NUM_COMBOS;
use crate::game::gomoku::{weights, Board, Freestyle};
use crate::game::{Color, Game, Move, ScoredMove};
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::Path;

/// Rows' worth of weight the build's rank keeps in each entry.
pub const PRIOR: f64 = 20.0;
/// Alternating passes over the two tables; the changes are below a rank point by then.
const PASSES: usize = 60;
/// The board the labels were made on (`label-positions.py`'s default).
const SIZE: usize = 15;
/// Rows with a current rank beyond this (the threats: open threes and better) neither set
/// the scale nor move their classes: the hand-set ranks put a threat before every quiet
/// move, which the forcing lines of our search need (with them fitted to Rapfi's scores too
/// the build proved 78 of the mate suite's wins at 200,000 nodes, with them held 93; the
/// build before 84).
const ORDINARY: i32 = 3000;

/// One colour playing one cell: its classes, the build's ranks, the teacher's score.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Pattern-combination class of the colour that plays (the attack entry).
    pub attack: u16,
    /// Class of its opponent on the same cell (the defence entry).
    pub defend: u16,
    /// The build's attack and defence ranks of those classes.
    pub current: [i32; 2],
    /// The influence term of the cell (in rank points).
    pub influence: i32,
    /// The teacher's ordering score.
    pub target: f64,
}

/// The rows of one position, with which colour is to move there.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub to_move: Color,
    /// Rows by colour: `rows[Color::index()]`, one per labelled candidate cell, same order.
    pub rows: [Vec<Row>; 2],
}

/// The attack and defence rank of every class.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranks {
    pub attack: Vec<f64>,
    pub defend: Vec<f64>,
}

impl Ranks {
    /// A row's ordering score under these ranks.
    fn score(&self, r: &Row) -> f64 {
        self.attack[usize::from(r.attack)]
            + self.defend[usize::from(r.defend)]
            + f64::from(r.influence)
    }

    /// The build's ranks of the classes the rows use (0 for the others, which the fit
    /// leaves alone).
    pub fn current(positions: &[Labelled]) -> Ranks {
        let mut r = Ranks {
            attack: vec![0.0; NUM_COMBOS],
            defend: vec![0.0; NUM_COMBOS],
        };
        for row in positions.iter().flat_map(|p| p.rows.iter().flatten()) {
            r.attack[usize::from(row.attack)] = f64::from(row.current[0]);
            r.defend[usize::from(row.defend)] = f64::from(row.current[1]);
        }
        r
    }
}

/// Reads `pos cell:black:white …` lines (`label-positions.py --rapfi-order`): replays each
/// position on a 15×15 freestyle board and keeps the labelled cells among our candidates.
pub fn read(path: &Path) -> Result<Vec<Labelled>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let mut words = line.split_whitespace();
        let pos = words.next().unwrap_or_default();
        let mut scores = HashMap::new();
        for w in words {
            let mut it = w.split(':');
            let (Some(cell), Some(b), Some(wh), None) =
                (it.next(), it.next(), it.next(), it.next())
            else {
                bail!("{}: expected `cell:black:white`, got {w:?}", at());
            };
            let &[(x, y)] = parse_pos(cell).unwrap_or_default().as_slice() else {
                bail!("{}: bad cell {cell:?}", at());
            };
            let v = |s: &str| {
                s.parse::<f64>()
                    .with_context(|| format!("{}: bad score {s:?}", at()))
            };
            scores.insert((x, y), [v(b)?, v(wh)?]);
        }
        out.push(position(pos, &scores).with_context(at)?);
    }
    Ok(out)
}

/// The rows of one position from its moves and the teacher's scores by cell.
pub fn position(pos: &str, scores: &HashMap<(i32, i32), [f64; 2]>) -> Result<Labelled> {
    let moves = parse_pos(pos).with_context(|| format!("bad position {pos:?}"))?;
    let mut b = Board::<Freestyle>::new(SIZE, SIZE)?;
    for (x, y) in moves {
        let m = Move::new(
            u8::try_from(x).context("off the board")?,
            u8::try_from(y).context("off the board")?,
        );
        b.check_move(m).with_context(|| format!("{pos}: {x},{y}"))?;
        b.play(m);
    }
    let mut list: Vec<ScoredMove> = Vec::new();
    b.candidates_unsorted(&mut list);
    let mut rows = [Vec::new(), Vec::new()];
    for sm in &list {
        let m = sm.mv;
        let Some(score) = scores.get(&(i32::from(m.x), i32::from(m.y))) else {
            continue;
        };
        let influence = i32::from(b.influence(m, Color::Black) + b.influence(m, Color::White))
            * weights::ORDER_INFLUENCE;
        for c in [Color::Black, Color::White] {
            let (Some((attack, own)), Some((defend, theirs))) =
                (b.order_terms(m, c), b.order_terms(m, c.opponent()))
            else {
                continue;
            };
            rows[c.index()].push(Row {
                attack: attack as u16,
                defend: defend as u16,
                current: [own[0], theirs[1]],
                influence,
                target: score[c.index()],
            });
        }
    }
    Ok(Labelled {
        to_move: b.side_to_move(),
        rows,
    })
}

/// Whether both of a row's ranks are below the threats' (see [`ORDINARY`]).
fn ordinary(r: &Row) -> bool {
    r.current[0].abs() <= ORDINARY && r.current[1].abs() <= ORDINARY
}

/// The factor that maps the teacher's scores to the build's ranks best (least squares
/// through 0 after both are centred), over the rows whose ranks are ordinary.
pub fn scale(positions: &[Labelled]) -> f64 {
    let rows: Vec<&Row> = positions
        .iter()
        .flat_map(|p| p.rows.iter().flatten())
        .filter(|r| ordinary(r))
        .collect();
    let n = rows.len().max(1) as f64;
    let cur = |r: &Row| f64::from(r.current[0] + r.current[1] + r.influence);
    let (mc, mt) = (
        rows.iter().map(|r| cur(r)).sum::<f64>() / n,
        rows.iter().map(|r| r.target).sum::<f64>() / n,
    );
    let (mut xy, mut xx) = (0.0, 0.0);
    for r in &rows {
        xy += (cur(r) - mc) * (r.target - mt);
        xx += (r.target - mt).powi(2);
    }
    if xx > 0.0 && xy > 0.0 {
        xy / xx
    } else {
        1.0
    }
}

/// Alternating least squares of the two tables against the scaled scores, from `start`
/// (whose entries are also the prior).
pub fn fit(positions: &[Labelled], start: &Ranks, scale: f64, prior: f64) -> Ranks {
    let rows: Vec<&Row> = positions
        .iter()
        .flat_map(|p| p.rows.iter().flatten())
        .filter(|r| ordinary(r))
        .collect();
    let mut r = start.clone();
    for _ in 0..PASSES {
        for attack_side in [true, false] {
            let mut sums = vec![(0.0, 0usize); NUM_COMBOS];
            for row in &rows {
                let (k, other) = if attack_side {
                    (row.attack, r.defend[usize::from(row.defend)])
                } else {
                    (row.defend, r.attack[usize::from(row.attack)])
                };
                let e = &mut sums[usize::from(k)];
                e.0 += row.target * scale - other - f64::from(row.influence);
                e.1 += 1;
            }
            let (table, prior_of) = if attack_side {
                (&mut r.attack, &start.attack)
            } else {
                (&mut r.defend, &start.defend)
            };
            for (k, &(sum, n)) in sums.iter().enumerate() {
                if n > 0 {
                    table[k] = (sum + prior * prior_of[k]) / (n as f64 + prior);
                }
            }
        }
    }
    r
}

/// Share of the positions where the cell we would search first for the side to move is one
/// the teacher scores best among our candidates.
pub fn top_agreement(positions: &[Labelled], ranks: &Ranks) -> f64 {
    let mut agree = 0;
    let mut counted = 0;
    for p in positions {
        let rows = &p.rows[p.to_move.index()];
        if rows.len() < 2 {
            continue;
        }
        let best = rows.iter().map(|r| r.target).fold(f64::MIN, f64::max);
        // The first of equals, as the search's stable sort takes it.
        let mut ours = &rows[0];
        for r in &rows[1..] {
            if ranks.score(r) > ranks.score(ours) {
                ours = r;
            }
        }
        counted += 1;
        if ours.target == best {
            agree += 1;
        }
    }
    agree as f64 / counted.max(1) as f64
}

/// The build's order tables with the fitted ranks' changes applied: each class's attack and
/// defence table entry moves by what its fitted rank moved from the build's.
pub fn apply(fitted: &Ranks, start: &Ranks) -> (Vec<f64>, Vec<f64>) {
    let moved = |table: &[i32], f: &[f64], s: &[f64]| -> Vec<f64> {
        table
            .iter()
            .enumerate()
            .map(|(k, &t)| f64::from(t) + (f[k] - s[k]).round())
            .collect()
    };
    (
        moved(&weights::ORDER_ATTACK, &fitted.attack, &start.attack),
        moved(&weights::ORDER_DEFEND, &fitted.defend, &start.defend),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(attack: u16, defend: u16, target: f64) -> Row {
        Row {
            attack,
            defend,
            current: [0, 0],
            influence: 4,
            target,
        }
    }

    /// Scores made of a planted attack and defence table are reproduced (up to the shift
    /// between the two tables that no row can tell apart), in the build's units.
    #[test]
    fn the_fit_recovers_planted_ranks() {
        let attack = [0.0, 100.0, 300.0];
        let defend = [0.0, 50.0, 250.0];
        let mut rows = Vec::new();
        for a in 0..3u16 {
            for d in 0..3u16 {
                // The teacher's units are half ours.
                let t = (attack[usize::from(a)] + defend[usize::from(d)]) / 2.0;
                rows.push(row(a, d, t));
            }
        }
        let positions = vec![Labelled {
            to_move: Color::Black,
            rows: [rows, Vec::new()],
        }];
        let start = Ranks::current(&positions);
        let fitted = fit(&positions, &start, 2.0, 0.0);
        for (a, want_a) in attack.iter().enumerate() {
            for (d, want_d) in defend.iter().enumerate() {
                let got = fitted.attack[a] + fitted.defend[d] + 4.0;
                assert!((got - want_a - want_d).abs() < 1e-6, "{a} {d}: {got}");
            }
        }
        assert_eq!(top_agreement(&positions, &fitted), 1.0);
    }

    /// A prior holds an entry seen in few rows near the build's rank.
    #[test]
    fn a_rare_class_moves_only_part_of_the_way() {
        let rows = vec![row(1, 0, 100.0)];
        let positions = vec![Labelled {
            to_move: Color::White,
            rows: [Vec::new(), rows],
        }];
        let start = Ranks::current(&positions);
        let free = fit(&positions, &start, 1.0, 0.0);
        let held = fit(&positions, &start, 1.0, 1000.0);
        let (f, h) = (
            free.attack[1] + free.defend[0],
            held.attack[1] + held.defend[0],
        );
        assert!((f - 96.0).abs() < 1e-6, "{f}");
        assert!(h.abs() < 1.0, "{h}");
    }

    /// The threats' classes keep the build's ranks: the fit neither moves them nor reads
    /// the scale from them.
    #[test]
    fn threat_ranks_are_left_alone() {
        let mut four = row(2, 0, 10.0);
        four.current = [20_000, 0];
        let positions = vec![Labelled {
            to_move: Color::Black,
            rows: [vec![row(1, 0, 100.0), four], Vec::new()],
        }];
        let start = Ranks::current(&positions);
        let fitted = fit(&positions, &start, 1.0, 0.0);
        assert_eq!(fitted.attack[2], 20_000.0);
        assert!((fitted.attack[1] + fitted.defend[0] - 96.0).abs() < 1e-6);
        assert_eq!(top_agreement(&positions, &fitted), 0.0);
    }

    /// A real position: the labelled cells among our candidates become one row per colour,
    /// with the build's ranks; cells that are not candidates are ignored.
    #[test]
    fn positions_are_replayed_and_labelled_cells_kept() {
        let mut scores = HashMap::new();
        scores.insert((8, 7), [40.0, 30.0]); // i8, next to both stones
        scores.insert((0, 0), [5.0, 5.0]); // a1, far from every stone
        let p = position("h8i9", &scores).unwrap();
        assert_eq!(p.to_move, Color::Black);
        assert_eq!((p.rows[0].len(), p.rows[1].len()), (1, 1));
        assert_eq!((p.rows[0][0].target, p.rows[1][0].target), (40.0, 30.0));
        assert!(p.rows[0][0].influence > 0);
        assert!(position("h8h8", &scores).is_err());
        assert!(position("zz", &scores).is_err());
    }
}
