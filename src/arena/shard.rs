//! Which games of a tournament one process plays: `--shard I/N` takes the I-th of N disjoint
//! slices of the schedule, so a tournament spreads over machines with the tools people
//! already have (GNU parallel, a Slurm job array) instead of a scheduler of the arena's own.
//!
//! The slice is a pure function of the game number and N. Games are dealt in colour pairs
//! (games 1–2 to shard 1, 3–4 to shard 2, …, wrapping round): both colours of an opening
//! stay on one machine, so a shard stopped early has played balanced pairs, and every shard
//! samples the whole schedule (all openings, all engine pairs) rather than one block of it,
//! so partial results from `status` are representative.

use std::fmt;

/// The I-th (1-based) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    /// The whole schedule.
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `I/N` with 1 <= I <= N.
    pub fn parse(s: &str) -> Option<Shard> {
        let (i, n) = s.split_once('/')?;
        let index: usize = i.trim().parse().ok()?;
        let count: usize = n.trim().parse().ok()?;
        (1..=count)
            .contains(&index)
            .then_some(Shard { index, count })
    }

    /// Whether game `id` (1-based, in schedule order) belongs to this slice.
    pub fn contains(&self, id: usize) -> bool {
        Shard::of(id, self.count) == self.index
    }

    /// The slice of `count` that plays game `id`.
    pub fn of(id: usize, count: usize) -> usize {
        (id.saturating_sub(1) / 2) % count.max(1) + 1
    }

    /// The game numbers of this slice among `planned` games.
    pub fn games(&self, planned: usize) -> Vec<usize> {
        (1..=planned).filter(|&id| self.contains(id)).collect()
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(Shard::parse("2/3"), Some(Shard { index: 2, count: 3 }));
        assert_eq!(Shard::parse("1/1"), Some(Shard::WHOLE));
        for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/2/3"] {
            assert_eq!(Shard::parse(bad), None, "{bad}");
        }
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
    }

    #[test]
    fn colour_pairs_are_dealt_round_robin() {
        let s = |i| Shard { index: i, count: 3 };
        assert_eq!(s(1).games(14), vec![1, 2, 7, 8, 13, 14]);
        assert_eq!(s(2).games(14), vec![3, 4, 9, 10]);
        assert_eq!(s(3).games(14), vec![5, 6, 11, 12]);
        assert_eq!(Shard::WHOLE.games(3), vec![1, 2, 3]);
        // more shards than games: the last ones are empty
        assert!(Shard { index: 5, count: 9 }.games(4).is_empty());
    }
}
