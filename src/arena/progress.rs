//! How far a run is: the progress line a running shard prints after each game (games done
//! of its total, engine 1's score so far, the ETA) and the time estimates behind it and
//! behind `status`.
//!
//! Estimates come from finished games only, as a rate: a running shard measures its own
//! session (games it played since it started, so resumed games do not make it look fast);
//! `status`, which sees only result files, uses the spacing of the games' end times.

use super::shard::Shard;
use super::tournament::Standings;
use std::time::{Duration, Instant};

/// `1h02m`, `3m05s`, `12s`; `-` when unknown.
pub fn fmt_duration(d: Option<Duration>) -> String {
    let Some(d) = d else {
        return "-".into();
    };
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The ETA of a running tournament from the games it finished this session.
#[derive(Clone, Debug)]
pub struct SessionClock {
    start: Instant,
    /// Games already done when the session started (resumed ones).
    before: Option<usize>,
}

impl Default for SessionClock {
    fn default() -> Self {
        SessionClock::new()
    }
}

impl SessionClock {
    pub fn new() -> SessionClock {
        SessionClock {
            start: Instant::now(),
            before: None,
        }
    }

    /// The time left after a game ended, `done` of `total` now being finished. The first
    /// call fixes how many games the session found done (all but the one just ended).
    pub fn eta(&mut self, done: usize, total: usize) -> Option<Duration> {
        let before = *self.before.get_or_insert(done.saturating_sub(1));
        let played = done.saturating_sub(before);
        let left = total.saturating_sub(done);
        (played > 0).then(|| self.start.elapsed().mul_f64(left as f64 / played as f64))
    }
}

/// The ETA from the end times (Unix ms) of finished games with `left` still to play: the
/// median spacing between consecutive ends (robust to the pause of a restart) times the
/// games left. `None` with fewer than two games.
pub fn eta_from_ends(ends: &[u64], left: usize) -> Option<Duration> {
    let mut ends = ends.to_vec();
    ends.sort_unstable();
    let mut gaps: Vec<u64> = ends.windows(2).map(|w| w[1] - w[0]).collect();
    if gaps.is_empty() {
        return None;
    }
    gaps.sort_unstable();
    let median = gaps[gaps.len() / 2];
    Some(Duration::from_millis(median.saturating_mul(left as u64)))
}

/// The line a running shard prints after each game.
pub fn line(shard: Shard, st: &Standings, eta: Option<Duration>) -> String {
    let prefix = if shard.is_whole() {
        String::new()
    } else {
        format!("shard {shard}  ")
    };
    format!("{prefix}{}  eta {}", st.progress_line(), fmt_duration(eta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(fmt_duration(None), "-");
        assert_eq!(fmt_duration(Some(Duration::from_secs(12))), "12s");
        assert_eq!(fmt_duration(Some(Duration::from_secs(185))), "3m05s");
        assert_eq!(fmt_duration(Some(Duration::from_secs(3720))), "1h02m");
    }

    #[test]
    fn etas_from_rates() {
        // gaps 10, 10, 500 (a restart), 10 s: the median is 10 s, 3 games left
        let ends = [0, 10_000, 20_000, 520_000, 530_000];
        assert_eq!(eta_from_ends(&ends, 3), Some(Duration::from_secs(30)));
        assert_eq!(eta_from_ends(&[5], 3), None);
        let mut c = SessionClock::new();
        // resumed with 4 done: the first game of the session makes 5
        std::thread::sleep(Duration::from_millis(20));
        let eta = c.eta(5, 7).unwrap();
        assert!(eta >= Duration::from_millis(40), "{eta:?}");
        assert_eq!(c.eta(7, 7), Some(Duration::ZERO));
    }
}
