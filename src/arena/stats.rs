//! Match statistics: Elo from a W/D/L score with a 95% interval, the likelihood of
//! superiority, and the sequential probability ratio test that decides when a match may stop.
//!
//! Everything here is pure arithmetic on counts, so each formula is unit-tested against
//! values computed independently. The models are the ones engine testers share (cutechess,
//! fishtest): the logistic Elo curve, a trinomial per-game variance (draws shrink the
//! interval), LOS from the normal approximation on decisive games, and the GSPRT
//! log-likelihood ratio on the logistic scale, whose bounds come from alpha and beta.

/// Quantile of the standard normal for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Mean points per game (win 1, draw ½), or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Per-game variance of the points around their mean (the trinomial model).
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Elo difference for an expected score in (0, 1) on the logistic curve.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference on the logistic curve.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval. A bound is infinite when the interval reaches a
/// score of 0 or 1 (all wins or all losses).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// Half-width of the interval, as usually printed after `±`.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Elo and its 95% interval from W/D/L, or `None` before any game.
pub fn elo(wdl: Wdl) -> Option<EloEstimate> {
    let s = wdl.score()?;
    let se = (wdl.variance()? / wdl.games() as f64).sqrt();
    let to_elo = |p: f64| {
        if p <= 0.0 {
            f64::NEG_INFINITY
        } else if p >= 1.0 {
            f64::INFINITY
        } else {
            elo_from_score(p)
        }
    };
    Some(EloEstimate {
        elo: to_elo(s),
        low: to_elo(s - Z95 * se),
        high: to_elo(s + Z95 * se),
    })
}

/// Likelihood of superiority: the probability that the side is stronger, from the decisive
/// games only (normal approximation). 0.5 when no game was decisive.
pub fn los(wdl: Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let diff = wdl.wins as f64 - wdl.losses as f64;
    0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
}

/// The error function (std has none): the Numerical Recipes `erfc` Chebyshev fit, relative
/// error below 1.2e-7, ample for a LOS printed with one decimal.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// Parameters of a sequential probability ratio test: H0 "the Elo gain is `elo0`" against
/// H1 "it is `elo1`", with false-positive rate `alpha` and false-negative rate `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the change gains about `elo1`.
    AcceptH1,
    /// H0 accepted: the change gains about `elo0` (or less).
    AcceptH0,
    Continue,
}

impl Sprt {
    /// The LLR bound below which H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR bound above which H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalised log-likelihood ratio of the results (trinomial, logistic Elo), using
    /// the normal approximation `N (s1 − s0)(2s − s0 − s1) / (2 var)`. Zero before any
    /// game. Results without variance are counted with one game of another kind, so a
    /// one-sided match still reaches a decision instead of dividing by zero: all wins or all
    /// losses with an extra draw, all draws with an extra win and loss (another draw would
    /// leave the variance at zero: the arena's stack overflowed on a first game drawn).
    pub fn llr(&self, wdl: Wdl) -> f64 {
        let (Some(s), Some(var)) = (wdl.score(), wdl.variance()) else {
            return 0.0;
        };
        if var <= 0.0 {
            let other = if wdl.wins + wdl.losses == 0 {
                Wdl::new(wdl.wins + 1, wdl.draws, wdl.losses + 1)
            } else {
                Wdl::new(wdl.wins, wdl.draws + 1, wdl.losses)
            };
            return self.llr(other);
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        wdl.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn decide(&self, wdl: Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Formats an Elo value for a terminal: `+12.3`, `-inf`.
pub fn fmt_elo(e: f64) -> String {
    // -0.0 would print as "-0.0"
    let e = if e == 0.0 { 0.0 } else { e };
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{e:+.1}")
    }
}

/// `+12.3 ± 45.6`; `-338.0 [-inf, -104.4]` when one bound is open (a one-sided score);
/// `+inf` for all wins; `-` before any game.
pub fn fmt_estimate(est: Option<EloEstimate>) -> String {
    match est {
        None => "-".to_string(),
        Some(e) if e.margin().is_finite() => format!("{} ± {:.1}", fmt_elo(e.elo), e.margin()),
        Some(e) if e.elo.is_finite() => {
            format!(
                "{} [{}, {}]",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            )
        }
        Some(e) => fmt_elo(e.elo),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-6));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-6));
        assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
    }

    #[test]
    fn elo_interval_matches_hand_computation() {
        // 60 W, 20 D, 20 L: s = 0.7, var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16,
        // se = 0.04, interval on the score 0.7 ± 0.0783985594.
        let e = elo(Wdl::new(60, 20, 20)).unwrap();
        assert!(close(e.elo, 147.190_714_1, 1e-6), "{e:?}");
        assert!(close(
            e.low,
            elo_from_score(0.7 - 0.078_398_559_381_6),
            1e-6
        ));
        assert!(close(
            e.high,
            elo_from_score(0.7 + 0.078_398_559_381_6),
            1e-6
        ));
        assert!(close(e.low, 86.225, 0.01), "{e:?}");
        assert!(close(e.high, 218.252, 0.01), "{e:?}");
    }

    #[test]
    fn all_wins_give_an_open_interval() {
        let e = elo(Wdl::new(5, 0, 0)).unwrap();
        assert!(e.elo.is_infinite() && e.elo > 0.0);
        assert_eq!(elo(Wdl::default()), None);
        assert_eq!(fmt_estimate(Some(e)), "+inf");
        // 1 win, 7 losses: the upper score bound passes 0, so the low Elo bound is open
        let e = elo(Wdl::new(1, 0, 7)).unwrap();
        assert_eq!(fmt_estimate(Some(e)), "-338.0 [-inf, -104.4]");
        assert_eq!(fmt_elo(-0.0), "+0.0");
    }

    #[test]
    fn erf_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_018_952_7, 2e-7));
    }

    #[test]
    fn los_known_values() {
        assert!(close(los(Wdl::new(10, 3, 10)), 0.5, 1e-6));
        // 10 wins, 5 losses: 0.5 (1 + erf(5 / sqrt(30))) = 0.901 647 ...
        assert!(close(los(Wdl::new(10, 7, 5)), 0.901_647_2, 1e-6));
        assert!(close(los(Wdl::new(5, 7, 10)), 1.0 - 0.901_647_2, 1e-6));
        assert_eq!(los(Wdl::new(0, 4, 0)), 0.5);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(t.upper_bound(), 2.944_438_979, 1e-8));
        assert!(close(t.lower_bound(), -2.944_438_979, 1e-8));
        // Computed independently (Python) from the same formula:
        // W 300 D 100 L 250: s = 0.538461..., var = 0.210059..., LLR = 1.392024...
        let llr = t.llr(Wdl::new(300, 100, 250));
        assert!(close(llr, 1.392_024, 1e-4), "{llr}");
        assert_eq!(t.decide(Wdl::new(300, 100, 250)), SprtDecision::Continue);
        assert_eq!(t.decide(Wdl::new(600, 100, 400)), SprtDecision::AcceptH1);
        assert_eq!(t.decide(Wdl::new(400, 100, 600)), SprtDecision::AcceptH0);
        assert_eq!(t.llr(Wdl::default()), 0.0);
        // all wins: regularised with one draw, 20 wins + 1 draw → LLR 12.4978...
        assert!(
            close(t.llr(Wdl::new(20, 0, 0)), 12.497_8, 1e-3),
            "{}",
            t.llr(Wdl::new(20, 0, 0))
        );
        assert_eq!(t.decide(Wdl::new(20, 0, 0)), SprtDecision::AcceptH1);
        // all draws (the arena's stack overflowed here): a score of one half, elo0's, so a
        // negative LLR, regularised with a win and a loss; a few draws decide nothing, a
        // long run of them accepts H0.
        for n in [1, 5, 200] {
            let llr = t.llr(Wdl::new(0, n, 0));
            assert!(llr.is_finite() && llr < 0.0, "{n}: {llr}");
        }
        assert_eq!(t.decide(Wdl::new(0, 5, 0)), SprtDecision::Continue);
        assert_eq!(t.decide(Wdl::new(0, 200, 0)), SprtDecision::AcceptH0);
    }

    #[test]
    fn wdl_helpers() {
        let w = Wdl::new(3, 2, 1);
        assert_eq!(w.flipped(), Wdl::new(1, 2, 3));
        assert_eq!(w.games(), 6);
        assert!(close(w.score().unwrap(), 4.0 / 6.0, 1e-12));
    }
}
