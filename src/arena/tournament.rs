//! The tournament: which games are played (round robin or gauntlet, each opening twice with
//! colours swapped, optional random symmetries), running them on worker threads, keeping
//! the standings, writing records and logs, and stopping early when an SPRT is decided.
//!
//! The schedule is a plain list fixed before the first game (opening, symmetry, colours,
//! pair and a seed per game, all from the options and `--seed`), so a run is reproducible,
//! a shard plays its slice of the same list on any machine, and the workers only need a
//! shared counter to take the next game. Results come back over a channel to the calling
//! thread, which alone owns the standings, the record files and the progress callback;
//! workers own their engine processes (kept between games when engines are reused).

use super::engine::{EngineProcess, EngineSpec};
use super::journal::{self, GameResult, Journal, JournalError};
use super::opening::{symmetry_count, transform};
use super::record;
use super::referee::{play_game, Fault, GameRecord, GameSetup, Seat, SetupError, TimeControl};
use super::shard::Shard;
use super::stats::{self, Sprt, SprtDecision, Wdl};
use crate::game::{Game, Move};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of engines.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything a tournament needs besides the referee.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub setup: GameSetup,
    pub time: TimeControl,
    /// Absolute openings; empty means one game pair from the empty board per round.
    pub openings: Vec<Vec<Move>>,
    /// How many times the whole opening list is played per pair.
    pub rounds: usize,
    /// Stop scheduling after this many games (the schedule's order is kept).
    pub max_games: Option<usize>,
    /// Apply a random board symmetry to each opening (the same to both colour-swapped games).
    pub random_symmetry: bool,
    pub seed: u64,
    pub concurrency: usize,
    /// Keep engine processes between games (`START` again) instead of one per game.
    pub reuse: bool,
    /// Stop once engine 0 against engine 1 is decided.
    pub sprt: Option<Sprt>,
    /// Where `games.jsonl`, `games/*.psq|sgf` and `logs/*.stderr` go; nothing is written
    /// when `None`.
    pub out_dir: Option<PathBuf>,
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlan {
    pub id: usize,
    pub black: usize,
    pub white: usize,
    pub opening: Vec<Move>,
    /// The game's own seed, sent to engines that ask for it with `info=seed={seed}`.
    pub seed: u64,
}

/// The seed of game `id` (1-based): the `id`-th output of a SplitMix64 stream of its own
/// (the symmetries use another), so it depends on `--seed` and the game alone, never on
/// which shard or worker plays it.
pub fn game_seed(run_seed: u64, id: usize) -> u64 {
    const STREAM: u64 = 0x6a09_e667_f3bc_c909;
    let state = (run_seed ^ STREAM).wrapping_add((id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    crate::rng::mix64(state)
}

/// The placeholder in an engine's `info=` value replaced by the game's seed.
pub const SEED_PLACEHOLDER: &str = "{seed}";

/// The engine as started for one game: `{seed}` in an `info=` value becomes the game's
/// seed, so engines with randomness play each game the same on every machine.
pub fn for_game(spec: &EngineSpec, seed: u64) -> Cow<'_, EngineSpec> {
    if !spec.info.iter().any(|(_, v)| v.contains(SEED_PLACEHOLDER)) {
        return Cow::Borrowed(spec);
    }
    let mut s = spec.clone();
    for (_, v) in &mut s.info {
        *v = v.replace(SEED_PLACEHOLDER, &seed.to_string());
    }
    Cow::Owned(s)
}

/// Which part of the schedule a run plays, and whether it continues an earlier run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunControl {
    pub shard: Shard,
    /// Keep the games already in `games.jsonl` and play only the others.
    pub resume: bool,
}

/// A small deterministic generator (SplitMix64) for symmetries; the arena needs no more.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The engine pairs a format plays, lower index first.
pub fn pairs(n: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    }
}

/// The full list of games: per round, per opening, per pair, the opening with each engine
/// as black in turn (consecutive, so a stopped run has played both colours of most pairs).
pub fn schedule(cfg: &TournamentConfig) -> Vec<GamePlan> {
    let empty = [Vec::new()];
    let openings: &[Vec<Move>] = if cfg.openings.is_empty() {
        &empty
    } else {
        &cfg.openings
    };
    let mut rng = SplitMix::new(cfg.seed);
    let (w, h) = (cfg.setup.width, cfg.setup.height);
    let mut plan = Vec::new();
    for _ in 0..cfg.rounds {
        for o in openings {
            for &(a, b) in &pairs(cfg.engines.len(), cfg.format) {
                let sym = if cfg.random_symmetry {
                    rng.below(symmetry_count(w, h) as u64) as u8
                } else {
                    0
                };
                let opening: Vec<Move> = o.iter().map(|&m| transform(m, sym, w, h)).collect();
                for (black, white) in [(a, b), (b, a)] {
                    let id = plan.len() + 1;
                    plan.push(GamePlan {
                        id,
                        black,
                        white,
                        opening: opening.clone(),
                        seed: game_seed(cfg.seed, id),
                    });
                }
            }
        }
    }
    if let Some(n) = cfg.max_games {
        plan.truncate(n);
    }
    plan
}

/// Results so far.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    pub names: Vec<String>,
    /// Per pair (lower index first), from the lower index's side.
    pub pairs: BTreeMap<(usize, usize), Wdl>,
    /// Faults committed, per engine and reason.
    pub faults: Vec<BTreeMap<Fault, u32>>,
    pub games: usize,
    pub planned: usize,
    pub sprt: Option<(Sprt, SprtDecision)>,
}

impl Standings {
    pub fn new(names: Vec<String>, planned: usize) -> Standings {
        let n = names.len();
        Standings {
            names,
            faults: vec![BTreeMap::new(); n],
            planned,
            ..Standings::default()
        }
    }

    pub fn add(&mut self, r: &GameRecord) {
        self.add_result(&GameResult::of(r));
    }

    /// Counts one game, then brings the SPRT state up to date.
    pub fn add_result(&mut self, r: &GameResult) {
        self.games += 1;
        let (a, b) = (r.black.min(r.white), r.black.max(r.white));
        let wdl = self.pairs.entry((a, b)).or_default();
        match r.loser() {
            None => wdl.draws += 1,
            Some(l) if l == b => wdl.wins += 1,
            Some(_) => wdl.losses += 1,
        }
        if let super::referee::Termination::Fault(f) = r.termination {
            // a drawn game with a fault is one where neither engine started: both are at fault
            let at_fault = match r.loser() {
                Some(l) => vec![l],
                None => vec![r.black, r.white],
            };
            for e in at_fault {
                if let Some(m) = self.faults.get_mut(e) {
                    *m.entry(f).or_default() += 1;
                }
            }
        }
        let pair = self.versus(0, 1);
        if let Some((t, d)) = self.sprt.as_mut() {
            *d = t.decide(pair);
        }
    }

    /// Whether the SPRT has reached a decision.
    pub fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|(_, d)| d != SprtDecision::Continue)
    }

    /// One engine's results against `opp`, from its own side.
    pub fn versus(&self, me: usize, opp: usize) -> Wdl {
        if me < opp {
            self.pairs.get(&(me, opp)).copied().unwrap_or_default()
        } else {
            self.pairs
                .get(&(opp, me))
                .copied()
                .unwrap_or_default()
                .flipped()
        }
    }

    /// One engine's results against the field.
    pub fn total(&self, me: usize) -> Wdl {
        let mut t = Wdl::default();
        for opp in 0..self.names.len() {
            if opp != me {
                t.add(self.versus(me, opp));
            }
        }
        t
    }

    /// The short progress line: games done, engine 0's score and Elo against the field.
    pub fn progress_line(&self) -> String {
        let w = self.total(0);
        let mut s = format!(
            "games {}/{}  {} {}-{}-{} (W-L-D)  score {}  elo {}",
            self.games,
            self.planned,
            self.names.first().map(String::as_str).unwrap_or("?"),
            w.wins,
            w.losses,
            w.draws,
            w.score()
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
            stats::fmt_estimate(stats::elo(w)),
        );
        if let Some((t, _)) = self.sprt {
            let _ = write!(
                s,
                "  llr {:.2} [{:.2}, {:.2}]",
                t.llr(self.versus(0, 1)),
                t.lower_bound(),
                t.upper_bound()
            );
        }
        s
    }

    /// The table's rows: each pair (`a vs b`, from a's side), then each engine overall.
    pub fn rows(&self) -> Vec<(String, Wdl)> {
        let pairs = self
            .pairs
            .iter()
            .map(|(&(a, b), &wdl)| (format!("{} vs {}", self.names[a], self.names[b]), wdl));
        let engines =
            (0..self.names.len()).map(|i| (format!("{} overall", self.names[i]), self.total(i)));
        pairs.chain(engines).collect()
    }

    /// The results table: one row per pair and per engine overall, plus fault counts.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let _ = writeln!(
            s,
            "{:<w2$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>22}  {:>6}",
            "pair / engine",
            "games",
            "W",
            "L",
            "D",
            "score",
            "elo (95%)",
            "LOS",
            w2 = 2 * width + 4
        );
        let mut row = |label: String, wdl: Wdl| {
            let _ = writeln!(
                s,
                "{label:<w2$}  {:>5} {:>5} {:>5} {:>5}  {:>6}  {:>22}  {:>6}",
                wdl.games(),
                wdl.wins,
                wdl.losses,
                wdl.draws,
                wdl.score()
                    .map_or("-".into(), |x| format!("{:.1}%", 100.0 * x)),
                stats::fmt_estimate(stats::elo(wdl)),
                format!("{:.1}%", 100.0 * stats::los(wdl)),
                w2 = 2 * width + 4
            );
        };
        for (label, wdl) in self.rows() {
            row(label, wdl);
        }
        let any_fault = self.faults.iter().any(|m| !m.is_empty());
        if any_fault {
            let _ = writeln!(s, "losses by fault:");
            for (i, m) in self.faults.iter().enumerate() {
                if m.is_empty() {
                    continue;
                }
                let list: Vec<String> = m.iter().map(|(f, n)| format!("{f} {n}")).collect();
                let _ = writeln!(s, "  {}: {}", self.names[i], list.join(", "));
            }
        }
        if let Some((t, d)) = self.sprt {
            let verdict = match d {
                SprtDecision::AcceptH1 => "H1 accepted",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::Continue => "undecided",
            };
            let _ = writeln!(
                s,
                "SPRT elo0 {} elo1 {} alpha {} beta {}: llr {:.3} [{:.3}, {:.3}] {verdict}",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                t.llr(self.versus(0, 1)),
                t.lower_bound(),
                t.upper_bound()
            );
        }
        s
    }
}

/// Why a tournament could not run.
#[derive(Debug)]
pub enum ArenaError {
    /// Fewer than two engines.
    TooFewEngines,
    /// The referee rejected an opening.
    Setup {
        game: usize,
        error: SetupError,
    },
    Io(std::io::Error),
    /// `games.jsonl` cannot be read or written.
    Journal(JournalError),
    /// A resumed journal holds a game this run does not play: another shard's directory.
    ForeignGame {
        id: usize,
        shard: Shard,
    },
}

impl std::fmt::Display for ArenaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArenaError::TooFewEngines => f.write_str("a tournament needs at least two engines"),
            ArenaError::Setup { game, error } => write!(f, "game {game}: {error}"),
            ArenaError::Io(e) => write!(f, "{e}"),
            ArenaError::Journal(e) => write!(f, "{e}"),
            ArenaError::ForeignGame { id, shard } => write!(
                f,
                "{} holds game {id}, which is not part of shard {shard}: \
                 resume each shard in its own directory with its own --shard",
                journal::FILE
            ),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<std::io::Error> for ArenaError {
    fn from(e: std::io::Error) -> ArenaError {
        ArenaError::Io(e)
    }
}

/// File-name-safe form of an engine name.
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Plays the whole tournament. `referee` builds an empty board of the configured game for
/// each game; `on_game` sees each finished game with the standings after it.
pub fn run<G: Game>(
    cfg: &TournamentConfig,
    referee: &(dyn Fn() -> G + Sync),
    on_game: impl FnMut(&GameRecord, &Standings),
) -> Result<Standings, ArenaError> {
    run_with(cfg, &RunControl::default(), referee, on_game)
}

/// Plays the games of `control.shard`, after those already in the journal when resuming.
/// The standings cover the shard (the resumed games included); the SPRT stops a run only
/// when it is the whole schedule, since a shard sees only part of the evidence (`merge`
/// judges the SPRT on all of it).
pub fn run_with<G: Game>(
    cfg: &TournamentConfig,
    control: &RunControl,
    referee: &(dyn Fn() -> G + Sync),
    mut on_game: impl FnMut(&GameRecord, &Standings),
) -> Result<Standings, ArenaError> {
    if cfg.engines.len() < 2 {
        return Err(ArenaError::TooFewEngines);
    }
    let shard = control.shard;
    let mine: Vec<GamePlan> = schedule(cfg)
        .into_iter()
        .filter(|g| shard.contains(g.id))
        .collect();
    let names = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::new(names, mine.len());
    if let Some(t) = cfg.sprt {
        standings.sprt = Some((t, SprtDecision::Continue));
    }
    let mut journal = None;
    let mut done = HashSet::new();
    if let Some(dir) = &cfg.out_dir {
        fs::create_dir_all(dir.join("games"))?;
        fs::create_dir_all(dir.join("logs"))?;
        let path = dir.join(journal::FILE);
        journal = Some(if control.resume {
            let (j, contents) = Journal::resume(&path).map_err(ArenaError::Journal)?;
            let ids: HashSet<usize> = mine.iter().map(|g| g.id).collect();
            for e in &contents.entries {
                let id = e.result.id;
                if !ids.contains(&id) {
                    return Err(ArenaError::ForeignGame { id, shard });
                }
                done.insert(id);
                standings.add_result(&e.result);
            }
            j
        } else {
            Journal::create(&path).map_err(ArenaError::Journal)?
        });
    }
    let stop_on_sprt = shard.is_whole();
    if stop_on_sprt && standings.sprt_decided() {
        return Ok(standings);
    }
    let todo: Vec<GamePlan> = mine.into_iter().filter(|g| !done.contains(&g.id)).collect();

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, ArenaError>>();
    let workers = cfg.concurrency.max(1).min(todo.len().max(1));
    let seeds: HashMap<usize, u64> = todo.iter().map(|g| (g.id, g.seed)).collect();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (plan, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || worker(cfg, referee, plan, next, stop, tx));
        }
        drop(tx);
        for result in rx {
            let r = match result {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            standings.add(&r);
            if stop_on_sprt && standings.sprt_decided() {
                stop.store(true, Ordering::Relaxed);
            }
            let seed = seeds.get(&r.id).copied().unwrap_or_default();
            if let Err(e) = write_records(cfg, &r, seed, journal.as_mut()) {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
            on_game(&r, &standings);
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(standings),
    }
}

/// Writes a game's `.psq` and `.sgf`, then its journal line: the line commits the game, so
/// a process killed in between plays it again rather than keeping it without records.
fn write_records(
    cfg: &TournamentConfig,
    r: &GameRecord,
    seed: u64,
    journal: Option<&mut Journal>,
) -> Result<(), ArenaError> {
    let Some(dir) = &cfg.out_dir else {
        return Ok(());
    };
    let stem = dir.join("games").join(format!("{:05}", r.id));
    fs::write(stem.with_extension("psq"), record::to_psq(r))?;
    fs::write(stem.with_extension("sgf"), record::to_sgf(r))?;
    if let Some(j) = journal {
        j.append(&journal::line(r, seed, journal::now_ms()))
            .map_err(ArenaError::Journal)?;
    }
    Ok(())
}

/// One worker: takes games until the plan is exhausted or the run is stopped.
fn worker<G: Game>(
    cfg: &TournamentConfig,
    referee: &(dyn Fn() -> G + Sync),
    plan: &[GamePlan],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<Result<GameRecord, ArenaError>>,
) {
    let mut kept: HashMap<usize, EngineProcess> = HashMap::new();
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(g) = plan.get(i) else { break };
        let log = |e: usize| {
            cfg.out_dir.as_ref().map(|d| {
                d.join("logs")
                    .join(format!("{}-{}.stderr.log", safe(&cfg.engines[e].name), e))
            })
        };
        let engines = [g.black, g.white];
        let specs = engines.map(|e| for_game(&cfg.engines[e], g.seed));
        let mut seats = [0, 1].map(|i| Seat {
            index: engines[i],
            spec: &specs[i],
            process: kept.remove(&engines[i]),
            stderr_log: log(engines[i]),
            reuse: cfg.reuse,
        });
        let result = play_game(
            g.id,
            referee(),
            &cfg.setup,
            &cfg.time,
            &g.opening,
            &mut seats,
        );
        for s in &mut seats {
            if let Some(p) = s.process.take() {
                kept.insert(s.index, p);
            }
        }
        let msg = result.map_err(|error| ArenaError::Setup { game: g.id, error });
        if tx.send(msg).is_err() {
            break;
        }
    }
    for (_, p) in kept {
        p.quit(Duration::from_millis(cfg.time.grace_ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::GameKind;
    use crate::game::Outcome;

    fn cfg(n: usize, format: Format) -> TournamentConfig {
        TournamentConfig {
            engines: (0..n).map(|i| EngineSpec::new(format!("e{i}"))).collect(),
            format,
            setup: GameSetup {
                kind: GameKind::Gomoku { rule: 0 },
                width: 15,
                height: 15,
                draw_after: None,
                opening_rule: crate::arena::swap2::OpeningRule::Given,
            },
            time: TimeControl::default(),
            openings: vec![
                vec![Move::new(7, 7), Move::new(8, 7)],
                vec![Move::new(7, 7)],
            ],
            rounds: 1,
            max_games: None,
            random_symmetry: true,
            seed: 7,
            concurrency: 1,
            reuse: false,
            sprt: None,
            out_dir: None,
        }
    }

    #[test]
    fn pairs_by_format() {
        assert_eq!(pairs(3, Format::RoundRobin), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(3, Format::Gauntlet), vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn schedule_swaps_colours_with_the_same_opening() {
        let p = schedule(&cfg(3, Format::RoundRobin));
        assert_eq!(p.len(), 2 * 3 * 2);
        for pair in p.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].black, pair[0].white),
                (pair[1].white, pair[1].black)
            );
        }
        // symmetries are applied, deterministically
        assert!(p
            .iter()
            .any(|g| g.opening.len() == 2 && g.opening[1] != Move::new(8, 7)));
        assert_eq!(p, schedule(&cfg(3, Format::RoundRobin)));
        assert_eq!(schedule(&cfg(3, Format::Gauntlet)).len(), 2 * 2 * 2);
        let capped = TournamentConfig {
            max_games: Some(5),
            ..cfg(3, Format::RoundRobin)
        };
        assert_eq!(schedule(&capped), p[..5].to_vec());
    }

    #[test]
    fn standings_count_pairs_and_faults() {
        use crate::arena::referee::{Termination, TimedMove};
        let c = cfg(2, Format::RoundRobin);
        let mut st = Standings::new(vec!["a".into(), "b".into()], 3);
        let mk = |black, white, outcome, termination| GameRecord {
            id: 1,
            black,
            white,
            black_name: String::new(),
            white_name: String::new(),
            setup: c.setup,
            opening: vec![],
            moves: vec![TimedMove {
                mv: Move::new(0, 0),
                ms: 1,
                thinking: None,
            }],
            outcome,
            termination,
            detail: String::new(),
            swap: Vec::new(),
            captures: None,
        };
        use crate::game::Color::Black;
        st.add(&mk(0, 1, Outcome::Win(Black), Termination::Line));
        st.add(&mk(
            1,
            0,
            Outcome::Win(Black),
            Termination::Fault(Fault::Timeout),
        ));
        st.add(&mk(1, 0, Outcome::Draw, Termination::BoardFull));
        assert_eq!(st.versus(0, 1), Wdl::new(1, 1, 1));
        assert_eq!(st.versus(1, 0), Wdl::new(1, 1, 1));
        assert_eq!(st.faults[0].get(&Fault::Timeout), Some(&1));
        let t = st.table();
        assert!(t.contains("a vs b"), "{t}");
        assert!(t.contains("a: timeout 1"), "{t}");
    }
}
