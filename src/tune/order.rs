//! `pbrain-wuzi tune --order`: fits the move-ordering weights to the moves a search played.
//!
//! Every position after the opening where the candidate list (the one the search orders)
//! holds at least two moves, one of them the move played, becomes a training position. The
//! ordering is read as a policy: the probability of a candidate is the softmax of its score
//! over a temperature `T`. `T` is first fitted to the build's own ordering (golden section on
//! log T, as `K` is for the evaluation), so that the ranks keep the scale the search's
//! thresholds expect; then the weights minimise the cross-entropy of the moves played
//! (full-batch Adam, a small pull towards the build's weights). Every tenth game is held
//! out. Besides the loss, the fit reports how often the played move is ranked first, in the
//! top three, and its mean rank: what the search's late-move reductions feel.
//!
//! With `--order-search` the positions are nodes of searches instead, and the move is the
//! one that cut there (`super::order_search`); `--order-pairs` then fits a pairwise loss
//! instead, each cut ranked above the moves that failed before it, and reports the share of
//! such pairs ordered right.

use super::{
    minimise_log, read_lines, replay_game, write_weights, Adam, PositionVisitor, TuneOptions,
};
use crate::game::gomoku::features::current_weights;
use crate::game::gomoku::order_features::{
    current_order_weights, is_order_fitted, OrderCandidate, INFLUENCE_INDEX, NUM_ORDER_FEATURES,
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
    /// Candidates a search tried before `played` there and that failed to cut (indices into
    /// `cands`; only `--order-search` samples have them).
    pub failed: Vec<u16>,
}

/// The ordering's training positions of one game.
pub fn order_samples_of(g: &super::GameLine, id: usize, out: &mut Vec<OrderSample>) -> Result<()> {
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
                    failed: Vec::new(),
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

/// How the played move ranks under `w`: (share ranked first, share in the top three, mean
/// rank counted from 1). Ties rank the played move after its equals, as a stable sort of
/// row-major candidates may.
pub fn rank_stats(samples: &[OrderSample], w: &[f64]) -> (f64, f64, f64) {
    let (mut first, mut top3, mut ranks) = (0usize, 0usize, 0usize);
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
        ranks += rank;
    }
    let n = samples.len().max(1) as f64;
    (first as f64 / n, top3 as f64 / n, ranks as f64 / n)
}

/// The temperature that best fits the build's ordering to the moves played.
pub fn fit_temperature(samples: &[OrderSample], w: &[f64]) -> f64 {
    minimise_log(|t| order_loss(samples, w, t), 10.0, 100_000.0, 50)
}

/// Adds `g` to the gradient of every weight that scores candidate `c` (once each, and the
/// influence weight times its influence).
fn add_gradient(grad: &mut [f64], c: &OrderCandidate, g: f64) {
    for &k in c.weights() {
        grad[usize::from(k)] += g;
    }
    grad[INFLUENCE_INDEX] += g * f64::from(c.influence);
}

/// Full-batch Adam from `start` on the loss whose gradient `add_loss_gradient(w, grad)` adds,
/// plus `l2 · |w − start|²`, fitted weights only.
fn adam_fit(
    start: &[f64],
    opts: &TuneOptions,
    mut add_loss_gradient: impl FnMut(&[f64], &mut [f64]),
) -> Vec<f64> {
    let mut w = start.to_vec();
    let mut adam = Adam::new(start);
    for _ in 0..opts.epochs {
        let mut grad = vec![0f64; NUM_ORDER_FEATURES];
        add_loss_gradient(&w, &mut grad);
        adam.step(
            &mut w,
            &grad,
            |i| is_order_fitted(i).then_some(opts.l2),
            opts.rate,
        );
    }
    w
}

/// Full-batch Adam on the cross-entropy plus `l2 · |w − start|²`, fitted weights only.
pub fn fit_order(samples: &[OrderSample], start: &[f64], t: f64, opts: &TuneOptions) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut p = Vec::new();
    adam_fit(start, opts, |w, grad| {
        for s in samples {
            softmax(s, w, t, &mut p);
            // d/d score_i of −ln p_played = (p_i − [i = played]) / t
            for (i, c) in s.cands.iter().enumerate() {
                let g = (p[i] - f64::from(u8::from(i == s.played))) / t / n;
                add_gradient(grad, c, g);
            }
        }
    })
}

/// Mean over the samples' failed moves of `softplus(−(score of the move that cut − score of
/// the failed move) / t)`: how far the ordering is from putting each cut above what failed.
pub fn pair_loss(samples: &[OrderSample], w: &[f64], t: f64) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples {
        let c = s.cands[s.played].score(w);
        for &j in &s.failed {
            // softplus(x) = ln(1 + e^x), which is x itself where e^x would overflow.
            let x = -(c - s.cands[usize::from(j)].score(w)) / t;
            sum += if x > 30.0 { x } else { x.exp().ln_1p() };
            n += 1;
        }
    }
    sum / n.max(1) as f64
}

/// Share of the (cut, failed) pairs that `w` orders right (the cut strictly above).
pub fn pair_accuracy(samples: &[OrderSample], w: &[f64]) -> f64 {
    let (mut right, mut n) = (0usize, 0usize);
    for s in samples {
        let c = s.cands[s.played].score(w);
        for &j in &s.failed {
            right += usize::from(c > s.cands[usize::from(j)].score(w));
            n += 1;
        }
    }
    right as f64 / n.max(1) as f64
}

/// Full-batch Adam on [`pair_loss`] plus `l2 · |w − start|²`, fitted weights only.
pub fn fit_pairs(samples: &[OrderSample], start: &[f64], t: f64, opts: &TuneOptions) -> Vec<f64> {
    let n = samples.iter().map(|s| s.failed.len()).sum::<usize>().max(1) as f64;
    adam_fit(start, opts, |w, grad| {
        for s in samples {
            let cut = &s.cands[s.played];
            let c = cut.score(w);
            for &j in &s.failed {
                let f = &s.cands[usize::from(j)];
                // d/dc softplus(−(c − f)/t) = −σ(−(c − f)/t) / t, and the opposite for f.
                let g = 1.0 / (1.0 + ((c - f.score(w)) / t).exp()) / t / n;
                add_gradient(grad, cut, -g);
                add_gradient(grad, f, g);
            }
        }
    })
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

/// `tune --order`: fits `samples` (and the number of games they came from), reports and
/// writes (the evaluation weights unchanged).
pub fn run(
    opts: &TuneOptions,
    samples: (Vec<OrderSample>, usize),
    out: &mut dyn Write,
) -> Result<()> {
    let (samples, games) = samples;
    if samples.is_empty() {
        bail!("no training positions in {} game(s)", games);
    }
    let (train, valid): (Vec<OrderSample>, Vec<OrderSample>) =
        samples.into_iter().partition(|s| s.game % 10 != 9);
    let start = current_order_weights();
    let t = fit_temperature(&train, &start) * opts.order_temperature_scale;
    let fitted = if opts.order_pairs {
        fit_pairs(&train, &start, t, opts)
    } else {
        fit_order(&train, &start, t, opts)
    };
    writeln!(
        out,
        "games {games}, positions {} train / {} held out, T = {t:.1}",
        train.len(),
        valid.len()
    )?;
    for (name, w) in [("before", &start), ("after ", &fitted)] {
        if opts.order_search.is_some() {
            writeln!(
                out,
                "{name}: pair loss train {:.4} held out {:.4}; held out: cut above a failed move {:.1}%",
                pair_loss(&train, w, t),
                pair_loss(&valid, w, t),
                100.0 * pair_accuracy(&valid, w),
            )?;
        }
        let (first, top3, rank) = rank_stats(&valid, w);
        writeln!(
            out,
            "{name}: loss train {:.4} held out {:.4}; held out: played move first {:.1}%, top 3 {:.1}%, mean rank {rank:.2}",
            order_loss(&train, w, t),
            order_loss(&valid, w, t),
            100.0 * first,
            100.0 * top3,
        )?;
    }
    let targets = match (opts.order_search, opts.order_pairs) {
        (Some(d), true) => format!(
            "the cutoff moves of depth-{d} searches, each ranked above the moves that failed \
             before it, of the positions of "
        ),
        (Some(d), false) => format!("the cutoff moves of depth-{d} searches of the positions of "),
        (None, _) => String::new(),
    };
    let source = format!(
        "{targets}{}; {} training positions, T = {t:.1}; held-out loss {:.4} -> {:.4}",
        super::games_read(games, opts),
        train.len(),
        order_loss(&valid, &start, t),
        order_loss(&valid, &fitted, t),
    );
    let text = super::weights_source(&current_weights(), weights::EVAL_SOURCE, &fitted, &source);
    write_weights(opts, &text, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::order_features::current_order_weights;

    fn cand(x: u8, code_attack: u16, influence: u16) -> OrderCandidate {
        OrderCandidate {
            mv: Move::new(x, 0),
            fixed: 0,
            index: [code_attack, 14, 0, 0],
            counted: 2,
            influence,
        }
    }

    /// When the move played is always the one with the most influence, the fit raises the
    /// influence weight and ranks the played move first more often.
    #[test]
    fn fit_learns_what_the_played_moves_share() {
        let samples: Vec<OrderSample> = (0..200)
            .map(|i| OrderSample {
                cands: vec![cand(0, 2, 1), cand(1, 3, 5 + (i % 3) as u16), cand(2, 2, 0)],
                played: 1,
                game: i,
                failed: Vec::new(),
            })
            .collect();
        let start = current_order_weights();
        let opts = TuneOptions {
            epochs: 300,
            rate: 5.0,
            l2: 0.0,
            ..TuneOptions::default()
        };
        let w = fit_order(&samples, &start, 100.0, &opts);
        assert!(order_loss(&samples, &w, 100.0) < order_loss(&samples, &start, 100.0));
        assert!(w[INFLUENCE_INDEX] > start[INFLUENCE_INDEX]);
        assert_eq!(rank_stats(&samples, &w).0, 1.0);
    }

    /// When the move that cut always has more influence than the one that failed before it
    /// (the build's ranks order them the other way), the pairwise fit learns to put it first.
    #[test]
    fn pairwise_fit_ranks_the_cut_above_what_failed() {
        let samples: Vec<OrderSample> = (0..200)
            .map(|i| OrderSample {
                cands: vec![cand(0, 3, 0), cand(1, 2, 8 + (i % 3) as u16), cand(2, 2, 0)],
                played: 1,
                game: i,
                failed: vec![0],
            })
            .collect();
        let start = current_order_weights();
        assert_eq!(pair_accuracy(&samples, &start), 0.0);
        let opts = TuneOptions {
            epochs: 300,
            rate: 5.0,
            l2: 0.0,
            ..TuneOptions::default()
        };
        let w = fit_pairs(&samples, &start, 100.0, &opts);
        assert!(pair_loss(&samples, &w, 100.0) < pair_loss(&samples, &start, 100.0));
        assert_eq!(pair_accuracy(&samples, &w), 1.0);
    }

    #[test]
    fn positions_with_the_played_move_among_the_candidates_are_kept() {
        let g = super::super::GameLine {
            width: 15,
            height: 15,
            rule: 0,
            result: crate::game::Outcome::Draw,
            opening: vec![[7, 7], [8, 8]],
            moves: vec![[7, 8], [6, 6], [0, 14]],
        };
        let mut out = Vec::new();
        order_samples_of(&g, 0, &mut out).unwrap();
        // The last move is far from every stone: not a candidate, so not a sample.
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].cands[out[0].played].mv, Move::new(7, 8));
    }
}
