//! `pbrain-wuzi tune --order`: fits the move-ordering weights to the moves a stronger engine
//! chose.
//!
//! Every position after the opening where the candidate list (the one the search orders)
//! holds at least two moves, one of them the move played, becomes a training position. The
//! ordering is read as a policy: the probability of a candidate is the softmax of its score
//! over a temperature `T`. `T` is first fitted to the build's own ordering (golden section
//! on log T, as `K` is for the evaluation) and then scaled by `--order-temperature-scale`:
//! the search's thresholds expect the ranks' scale, and a small `T` weighs the move ranked
//! first more than the tail. The weights then minimise the cross-entropy of the moves played
//! (full-batch Adam, a small pull towards the build's weights). Every tenth game is held
//! out. Besides the loss, the fit reports how often the played move is ranked first, in the
//! top three and in the top ten, and its mean rank: what the late-move reductions feel.
//!
//! The games should be a stronger engine's (Rapfi's self-play at 100 ms in
//! `docs/tuning.md`): fitted to the build's own moves, the ordering only learns what it
//! already does (two such fits lost in games, `docs/results/tuning.md`).

use super::{minimise_log, read_lines, replay_game, write_weights, Adam, PositionVisitor};
use super::{GameLine, TuneOptions};
use crate::game::gomoku::features::current_weights;
use crate::game::gomoku::order_features::{
    current_order_weights, is_order_fitted, OrderCandidate, NUM_ORDER_FEATURES,
};
use crate::game::gomoku::{weights, Board, Rule};
use crate::game::Move;
use anyhow::{bail, Result};
use std::io::Write;

/// One training position: the candidates and which of them was played.
#[derive(Clone, Debug)]
pub struct OrderSample {
    pub cands: Vec<OrderCandidate>,
    pub played: usize,
    pub game: usize,
}

/// The ordering's training positions of one game.
pub fn order_samples_of(g: &GameLine, id: usize, out: &mut Vec<OrderSample>) -> Result<()> {
    struct Collect<'a> {
        id: usize,
        out: &'a mut Vec<OrderSample>,
    }
    impl PositionVisitor for Collect<'_> {
        fn visit<R: Rule>(&mut self, b: &Board<R>, next: Move, _: &str) {
            let cands = b.order_features();
            if cands.len() < 2 {
                return;
            }
            if let Some(played) = cands.iter().position(|c| c.mv == next) {
                self.out.push(OrderSample {
                    cands,
                    played,
                    game: self.id,
                });
            }
        }
    }
    replay_game(g, &mut Collect { id, out })
}

/// Softmax probabilities of the candidates at temperature `t`, into `p`.
fn softmax(s: &OrderSample, w: &[f64], t: f64, p: &mut Vec<f64>) {
    p.clear();
    p.extend(s.cands.iter().map(|c| c.score(w) / t));
    let max = p.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for x in p.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in p.iter_mut() {
        *x /= sum;
    }
}

/// Mean cross-entropy of the moves played.
pub fn order_loss(samples: &[OrderSample], w: &[f64], t: f64) -> f64 {
    let mut p = Vec::new();
    let sum: f64 = samples
        .iter()
        .map(|s| {
            softmax(s, w, t, &mut p);
            -p[s.played].max(1e-300).ln()
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// How the played move ranks under `w`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankStats {
    pub first: f64,
    pub top3: f64,
    pub top10: f64,
    /// Counted from 1.
    pub mean_rank: f64,
}

/// How the played move ranks under `w`. Ties rank the played move after its equals, as a
/// stable sort of row-major candidates may.
pub fn rank_stats(samples: &[OrderSample], w: &[f64]) -> RankStats {
    let (mut first, mut top3, mut top10, mut ranks) = (0usize, 0usize, 0usize, 0usize);
    for s in samples {
        let mine = s.cands[s.played].score(w);
        let rank = 1 + s
            .cands
            .iter()
            .enumerate()
            .filter(|&(i, c)| i != s.played && c.score(w) >= mine)
            .count();
        first += usize::from(rank == 1);
        top3 += usize::from(rank <= 3);
        top10 += usize::from(rank <= 10);
        ranks += rank;
    }
    let n = samples.len().max(1) as f64;
    RankStats {
        first: first as f64 / n,
        top3: top3 as f64 / n,
        top10: top10 as f64 / n,
        mean_rank: ranks as f64 / n,
    }
}

/// The temperature that best fits the build's ordering to the moves played.
pub fn fit_temperature(samples: &[OrderSample], w: &[f64]) -> f64 {
    minimise_log(|t| order_loss(samples, w, t), 10.0, 100_000.0, 50)
}

/// Full-batch Adam on the cross-entropy plus `l2 · |w − start|²`, fitted weights only.
pub fn fit_order(samples: &[OrderSample], start: &[f64], t: f64, opts: &TuneOptions) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut p = Vec::new();
    let mut w = start.to_vec();
    let mut adam = Adam::new(start);
    for _ in 0..opts.epochs {
        let mut grad = vec![0f64; NUM_ORDER_FEATURES];
        for s in samples {
            softmax(s, &w, t, &mut p);
            // d/d score_i of −ln p_played = (p_i − [i = played]) / t
            for (i, c) in s.cands.iter().enumerate() {
                let g = (p[i] - f64::from(u8::from(i == s.played))) / t / n;
                c.for_each_weight(|k, x| grad[k] += g * x);
            }
        }
        adam.step(
            &mut w,
            &grad,
            |i| is_order_fitted(i).then_some(opts.l2),
            opts.rate,
        );
    }
    w
}

/// The training positions of the moves the games played, and the number of games read.
pub fn played_samples(opts: &TuneOptions) -> Result<(Vec<OrderSample>, usize)> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in &opts.games {
        games += read_lines(path, games, |g, id| order_samples_of(g, id, &mut samples))?;
    }
    Ok((samples, games))
}

/// `tune --order`: fits the ordering to the moves of the games, reports and writes (the
/// evaluation weights unchanged).
pub fn run(opts: &TuneOptions, out: &mut dyn Write) -> Result<()> {
    let (samples, games) = played_samples(opts)?;
    if samples.is_empty() {
        bail!("no training positions in {} game(s)", games);
    }
    let (train, valid): (Vec<OrderSample>, Vec<OrderSample>) =
        samples.into_iter().partition(|s| s.game % 10 != 9);
    let start = current_order_weights();
    let t = fit_temperature(&train, &start) * opts.order_temperature_scale;
    let fitted = fit_order(&train, &start, t, opts);
    writeln!(
        out,
        "games {games}, positions {} train / {} held out, T = {t:.1}",
        train.len(),
        valid.len()
    )?;
    for (name, w) in [("before", &start), ("after ", &fitted)] {
        let r = rank_stats(&valid, w);
        writeln!(
            out,
            "{name}: loss train {:.4} held out {:.4}; held out: played move first {:.1}%, top 3 {:.1}%, top 10 {:.1}%, mean rank {:.2}",
            order_loss(&train, w, t),
            order_loss(&valid, w, t),
            100.0 * r.first,
            100.0 * r.top3,
            100.0 * r.top10,
            r.mean_rank,
        )?;
    }
    let (before, after) = (rank_stats(&valid, &start), rank_stats(&valid, &fitted));
    let source = format!(
        "fitted (tune --order) to the moves played in {}; {} training positions, T = {t:.1}; \
         held out: loss {:.4} -> {:.4}, played move ranked first {:.1}% -> {:.1}%, mean rank \
         {:.2} -> {:.2}",
        super::games_read(games, opts),
        train.len(),
        order_loss(&valid, &start, t),
        order_loss(&valid, &fitted, t),
        100.0 * before.first,
        100.0 * after.first,
        before.mean_rank,
        after.mean_rank,
    );
    let text = super::weights_source(&current_weights(), weights::EVAL_SOURCE, &fitted, &source);
    write_weights(opts, &text, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::order_features::INFLUENCE_INDEX;

    fn cand(x: u8, code_attack: u16, influence: u16) -> OrderCandidate {
        OrderCandidate {
            mv: Move::new(x, 0),
            fixed: 0.0,
            index: [code_attack, 14, 0, 0],
            counted: 2,
            shapes: [None; 2],
            influence,
        }
    }

    /// When the move played is always the one with the most influence, the fit raises the
    /// influence weight and ranks the played move first.
    #[test]
    fn fit_learns_what_the_played_moves_share() {
        let samples: Vec<OrderSample> = (0..200)
            .map(|i| OrderSample {
                cands: vec![cand(0, 3, 1), cand(1, 2, 5 + (i % 3) as u16), cand(2, 2, 0)],
                played: 1,
                game: i,
            })
            .collect();
        let start = current_order_weights();
        let opts = TuneOptions {
            epochs: 300,
            rate: 5.0,
            l2: 0.0,
            ..TuneOptions::default()
        };
        assert!(rank_stats(&samples, &start).first < 1.0);
        let w = fit_order(&samples, &start, 100.0, &opts);
        assert!(order_loss(&samples, &w, 100.0) < order_loss(&samples, &start, 100.0));
        assert!(w[INFLUENCE_INDEX] > start[INFLUENCE_INDEX]);
        assert_eq!(rank_stats(&samples, &w).first, 1.0);
    }

    #[test]
    fn positions_with_the_played_move_among_the_candidates_are_kept() {
        let g = GameLine {
            width: 15,
            height: 15,
            rule: 0,
            result: crate::game::Outcome::Draw,
            opening: vec![[7, 7], [8, 8]],
            moves: vec![[7, 8], [6, 6], [0, 14]],
            termination: None,
        };
        let mut out = Vec::new();
        order_samples_of(&g, 0, &mut out).unwrap();
        // The last move is far from every stone: not a candidate, so not a sample.
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].cands[out[0].played].mv, Move::new(7, 8));
    }
}
