//! The engine facade: everything the protocol can ask of the engine, in protocol-agnostic
//! terms (start a game, impose a position, take a move back, think), and nothing about how
//! commands are spelled or printed.
//!
//! The engine keeps the list of stones as they were put on the board, so that any stone can
//! be taken back (the position is replayed without it) and a failed `BOARD` leaves the
//! previous position untouched: every change is tried on a copy and committed only whole.
//! Big allocations (the transposition table, the thread pool) happen lazily at the first
//! search, never in `start`, so `START` answers at once whatever `max_memory` says.

use crate::game::{AnyGame, Color, Game, GameKind, GomokuRule, Move, MoveError};
use crate::opening::{self, Choice, OpeningRule, OpeningViolation};
use crate::rng::Rng;
use crate::search::alphabeta::{self, Params};
use crate::search::score;
use crate::search::threats::{Solver, ThreatLimits, ThreatWin};
use crate::search::time::{Clock, UNLIMITED_MS};
use crate::search::tt::TranspositionTable;
use crate::search::{Iteration, Limits, SearchResult, Stop, ThinkContext};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// Memory the process needs besides the transposition table, bytes (binary, pattern tables,
/// thread stacks, buffers), measured with the TT at its minimum (peak RSS about 4 MB on a
/// 32×32 board with two search threads, `scripts/memory.sh`) plus headroom; see the README.
pub const BASE_MEMORY: u64 = 6 << 20;
/// Share of `max_memory` the whole process may use; Gomocup measures the process tree.
pub const MEMORY_SHARE_PERMILLE: u64 = 750;
/// Smallest transposition table the engine plays with.
pub const MIN_TT_BYTES: u64 = 1 << 18;
/// Table size when the manager sets no memory limit.
pub const DEFAULT_TT_BYTES: u64 = 128 << 20;
/// Largest table (`hash_size` included).
pub const MAX_TT_BYTES: u64 = 8 << 30;
/// Most search threads `thread_num` may ask for (what `YXSHOWINFO` announces).
pub const MAX_THREADS: usize = 256;

/// Half the machine's physical memory, where the OS tells it: a table sized from an absurd
/// `hash_size` or `max_memory` would otherwise be touched page by page into the OOM killer.
fn ram_cap() -> u64 {
    static CAP: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *CAP.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| parse_mem_total_kib(&t))
            .map_or(MAX_TT_BYTES, |kib| kib.saturating_mul(1024) / 2)
    })
}

/// The `MemTotal:` figure of `/proc/meminfo`, KiB.
fn parse_mem_total_kib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a stone in a `BOARD` list is, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    Own,
    Opponent,
    /// Field 3: a cell blocked for both players.
    Wall,
}

/// Why the engine refused a request. The state is unchanged whenever one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    NoGame,
    BadSize(String),
    Move(Move, MoveError),
    /// `TAKEBACK` of a cell that holds no stone.
    NothingToTakeBack(Move),
    GameOver,
    /// Stone counts that the mode cannot set up (e.g. unequal counts in Connect Four).
    BadPosition(String),
    /// An `INFO` limit that cannot be honoured, reported at the next command.
    Limit(String),
    NoMove,
    /// A move that breaks the opening rule (`INFO opening_rule`).
    Opening(Move, OpeningViolation),
    /// A swap opening request that cannot be answered (bad stone count, not gomoku, …).
    Swap(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoGame => write!(f, "no game: send START first"),
            EngineError::BadSize(s) => write!(f, "unsupported size: {s}"),
            EngineError::Move(m, e) => write!(f, "{m}: {e}"),
            EngineError::NothingToTakeBack(m) => write!(f, "{m}: no stone to take back"),
            EngineError::GameOver => write!(f, "the game is already over"),
            EngineError::BadPosition(s) => write!(f, "bad position: {s}"),
            EngineError::Limit(s) => write!(f, "{s}"),
            EngineError::NoMove => write!(
                f,
                "no legal move: every empty cell is forbidden for black (renju)"
            ),
            EngineError::Opening(m, v) => write!(f, "{m}: opening rule: {v}"),
            EngineError::Swap(s) => write!(f, "swap opening: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// One entry of the record of how the current position was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Wall(Move),
    Stone(Move),
    Pass,
}

/// Settings taken from `INFO` lines and the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub rule: GomokuRule,
    /// `INFO game`; None = gomoku.
    pub game: Option<String>,
    /// `INFO k`: win length for Connect Four / m,n,k.
    pub k: Option<usize>,
    pub clock: Clock,
    /// `max_memory` in bytes; 0 = no limit.
    pub max_memory: u64,
    /// `hash_size` in KiB (Rapfi/Yixin convention), overriding the memory-derived size.
    pub hash_kib: Option<u64>,
    pub threads: Option<usize>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// `INFO opening_rule`: Pro / Long-Pro placement rules, or swap1.
    pub opening: OpeningRule,
    /// Every `INFO` key as received (lower-case keys), for modes that read their own.
    pub raw: HashMap<String, String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rule: GomokuRule::Freestyle,
            game: None,
            k: None,
            clock: Clock::default(),
            max_memory: 0,
            hash_kib: None,
            threads: None,
            max_depth: None,
            max_nodes: None,
            opening: OpeningRule::None,
            raw: HashMap::new(),
        }
    }
}

impl Settings {
    /// The game kind these settings select.
    pub fn kind(&self) -> GameKind {
        match &self.game {
            Some(name) => {
                GameKind::from_name(name, self.rule, self.k).unwrap_or(GameKind::Gomoku(self.rule))
            }
            None => GameKind::Gomoku(self.rule),
        }
    }

    /// Transposition-table bytes for these settings, or an error when `max_memory` is too
    /// small for the engine to run at all.
    pub fn tt_bytes(&self) -> Result<u64, EngineError> {
        if let Some(kib) = self.hash_kib {
            return Ok((kib.saturating_mul(1024))
                .min(ram_cap())
                .clamp(MIN_TT_BYTES, MAX_TT_BYTES));
        }
        if self.max_memory == 0 {
            return Ok(DEFAULT_TT_BYTES);
        }
        let allowed = self.max_memory / 1000 * MEMORY_SHARE_PERMILLE;
        let tt = allowed.saturating_sub(BASE_MEMORY);
        if tt < MIN_TT_BYTES {
            return Err(EngineError::Limit(format!(
                "max_memory {} is too small: the engine needs at least {} bytes",
                self.max_memory,
                (BASE_MEMORY + MIN_TT_BYTES) * 1000 / MEMORY_SHARE_PERMILLE + 1
            )));
        }
        Ok(tt.min(MAX_TT_BYTES).min(ram_cap().max(MIN_TT_BYTES)))
    }
}

/// The engine: the current game, its history, settings and search resources.
pub struct Engine {
    pub settings: Settings,
    game: Option<AnyGame>,
    /// The kind `game` was created as (settings may have changed since).
    kind: GameKind,
    steps: Vec<Step>,
    /// Shared with Lazy SMP helpers, which may outlive a search by a few microseconds.
    tt: Arc<TranspositionTable>,
    /// The `tt_bytes()` the table was last sized for (the table rounds it down).
    tt_sized_for: u64,
    pool: Option<(usize, rayon::ThreadPool)>,
    /// A limit error waiting to be reported at the next non-INFO command.
    pending_error: Option<EngineError>,
    /// Moves the engine must not play at the root (`YXBLOCK`).
    pub blocked: Vec<Move>,
    pub params: Params,
    /// The random mover's generator, seeded at its first use.
    rng: Option<Rng>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

fn parse_i64(v: &str) -> Option<i64> {
    v.trim().parse::<i64>().ok()
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            settings: Settings::default(),
            game: None,
            kind: GameKind::default(),
            steps: Vec::new(),
            tt: Arc::new(TranspositionTable::new()),
            tt_sized_for: 0,
            pool: None,
            pending_error: None,
            blocked: Vec::new(),
            params: Params::default(),
            rng: None,
        }
    }

    /// The kind of the current game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The current position, if a game was started.
    pub fn game(&self) -> Option<&AnyGame> {
        self.game.as_ref()
    }

    /// Takes the error an earlier `INFO` left for the next command, if any.
    pub fn take_pending_error(&mut self) -> Option<EngineError> {
        self.pending_error.take()
    }

    /// Starts a new game on an empty `width` × `height` board of the current kind.
    pub fn start(&mut self, width: usize, height: usize) -> Result<(), EngineError> {
        let kind = self.settings.kind();
        let g = AnyGame::new(kind, width, height).map_err(|e| EngineError::BadSize(e.0))?;
        self.game = Some(g);
        self.kind = kind;
        self.steps.clear();
        self.blocked.clear();
        self.table().clear();
        Ok(())
    }

    /// A new game with the same size (and the kind the settings now select).
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let (w, h) = (g.width(), g.height());
        self.start(w, h)
    }

    /// Applies one `INFO key value`. Never fails: unusable values are ignored, and a limit
    /// that cannot be honoured is kept to be reported at the next command.
    pub fn set_info(&mut self, key: &str, value: &str) {
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let s = &mut self.settings;
        match key.as_str() {
            "timeout_turn" => s.clock.turn = parse_i64(value).map(|v| v.max(0)),
            "timeout_match" => s.clock.matches = parse_i64(value),
            "time_left" => s.clock.left = parse_i64(value),
            "max_memory" => {
                if let Some(v) = parse_i64(value) {
                    s.max_memory = if v <= 0 || v == UNLIMITED_MS {
                        0
                    } else {
                        v as u64
                    };
                    // A later, workable limit withdraws the complaint about an earlier one.
                    self.pending_error = s.tt_bytes().err();
                }
            }
            "rule" => {
                if let Some(v) = parse_i64(value) {
                    s.rule = GomokuRule::from_mask(v);
                }
            }
            "game" => s.game = Some(value.to_ascii_lowercase()),
            "k" => {
                s.k = value
                    .parse()
                    .ok()
                    .filter(|&k: &usize| (1..=32).contains(&k))
            }
            "hash_size" => s.hash_kib = value.parse().ok().filter(|&v: &u64| v > 0),
            "thread_num" => {
                s.threads = value
                    .parse()
                    .ok()
                    .filter(|&t: &usize| t > 0)
                    .map(|t| t.min(MAX_THREADS))
            }
            "max_depth" => s.max_depth = value.parse().ok().filter(|&d: &u32| d > 0),
            "max_node" => s.max_nodes = value.parse().ok().filter(|&n: &u64| n > 0),
            "opening_rule" => {
                if let Some(r) = OpeningRule::parse(value) {
                    s.opening = r;
                }
            }
            _ => {}
        }
        let kind_key = matches!(key.as_str(), "rule" | "game" | "k");
        self.settings.raw.insert(key, value.to_string());
        if kind_key {
            self.adopt_kind();
        }
    }

    /// Switches the current game to the kind the settings now select: managers send
    /// `INFO rule` after `START`, so the rule applies to the game already started. The stones
    /// are replayed on a board of the new kind; if they do not fit it, that board starts
    /// empty; if even the size does not fit, the old game stays and the next command gets
    /// an `ERROR`.
    fn adopt_kind(&mut self) {
        let kind = self.settings.kind();
        let Some(g) = self.game.as_ref() else {
            return;
        };
        if kind == self.kind {
            return;
        }
        let (w, h) = (g.width(), g.height());
        let old = std::mem::replace(&mut self.kind, kind);
        match self.replay(&self.steps) {
            Ok(ng) => self.game = Some(ng),
            Err(_) => match AnyGame::new(kind, w, h) {
                Ok(ng) => {
                    self.game = Some(ng);
                    self.steps.clear();
                }
                Err(e) => {
                    self.kind = old;
                    self.pending_error = Some(EngineError::BadSize(format!(
                        "{} cannot be played on this board: {e}",
                        kind.describe()
                    )));
                }
            },
        }
    }

    fn game_mut(&mut self) -> Result<&mut AnyGame, EngineError> {
        self.game.as_mut().ok_or(EngineError::NoGame)
    }

    fn check_on_board(g: &AnyGame, m: Move) -> Result<(), EngineError> {
        if (m.x as usize) < g.width() && (m.y as usize) < g.height() {
            Ok(())
        } else {
            Err(EngineError::Move(m, MoveError::OffBoard))
        }
    }

    /// The opponent played `m` (`TURN`). Under the Pro rules the opponent's first or third
    /// move is checked against them.
    pub fn opponent_move(&mut self, m: Move) -> Result<(), EngineError> {
        let rule = self.settings.opening;
        let first = self.first_stone();
        let gomoku = matches!(self.kind, GameKind::Gomoku(_));
        let g = self.game_mut()?;
        Self::check_on_board(g, m)?;
        if gomoku {
            opening::check_move(rule, g.width(), g.height(), g.ply(), first, m)
                .map_err(|v| EngineError::Opening(m, v))?;
        }
        g.try_play(m).map_err(|e| EngineError::Move(m, e))?;
        self.steps.push(Step::Stone(m));
        Ok(())
    }

    /// Plays `m` as the engine's own move (`PLAY`, the manager's answer to a suggestion).
    pub fn play_own(&mut self, m: Move) -> Result<(), EngineError> {
        self.opponent_move(m)
    }

    /// Replays `steps` on a fresh board of the current game's size and kind.
    fn replay(&self, steps: &[Step]) -> Result<AnyGame, EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let mut ng = AnyGame::new(self.kind, g.width(), g.height())
            .map_err(|e| EngineError::BadSize(e.0))?;
        for &s in steps {
            match s {
                Step::Wall(m) => ng.place_wall(m).map_err(|e| EngineError::Move(m, e))?,
                Step::Stone(m) => {
                    Self::check_on_board(&ng, m)?;
                    ng.try_play(m).map_err(|e| EngineError::Move(m, e))?
                }
                Step::Pass => {
                    if !ng.pass() {
                        return Err(EngineError::BadPosition(
                            "stone counts need a pass, which this game does not have".into(),
                        ));
                    }
                }
            }
        }
        Ok(ng)
    }

    /// Clears the board and sets `stones` (`BOARD`/`YXBOARD`), with the engine to move.
    /// Stones of each colour keep their listed order; colours alternate from black, with a
    /// pass where one colour has run out, so any stone counts can be set up where the mode
    /// allows passes. The engine is white when the opponent has more stones, black otherwise.
    pub fn set_board(&mut self, stones: &[(Move, Stone)]) -> Result<(), EngineError> {
        let own: Vec<Move> = stones
            .iter()
            .filter(|s| s.1 == Stone::Own)
            .map(|s| s.0)
            .collect();
        let opp: Vec<Move> = stones
            .iter()
            .filter(|s| s.1 == Stone::Opponent)
            .map(|s| s.0)
            .collect();
        let me = if opp.len() > own.len() {
            Color::White
        } else {
            Color::Black
        };
        let (black, white) = if me == Color::Black {
            (own, opp)
        } else {
            (opp, own)
        };
        let mut steps: Vec<Step> = stones
            .iter()
            .filter(|s| s.1 == Stone::Wall)
            .map(|s| Step::Wall(s.0))
            .collect();
        for i in 0..black.len().max(white.len()) {
            steps.push(black.get(i).map_or(Step::Pass, |&m| Step::Stone(m)));
            if i < white.len() || i + 1 < black.len() {
                steps.push(white.get(i).map_or(Step::Pass, |&m| Step::Stone(m)));
            }
        }
        let mut g = self.replay(&steps)?;
        if g.side_to_move() != me {
            if !g.pass() {
                return Err(EngineError::BadPosition(
                    "stone counts need a pass, which this game does not have".into(),
                ));
            }
            steps.push(Step::Pass);
        }
        self.game = Some(g);
        self.steps = steps;
        Ok(())
    }

    /// Removes the stone on `m` (`TAKEBACK`). The last move is undone directly; an older
    /// stone is removed by replaying the game without it.
    pub fn takeback(&mut self, m: Move) -> Result<(), EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        Self::check_on_board(g, m)?;
        let Some(i) = self.steps.iter().rposition(|&s| s == Step::Stone(m)) else {
            return Err(EngineError::NothingToTakeBack(m));
        };
        if i + 1 == self.steps.len() {
            self.game_mut()?.undo();
            self.steps.pop();
            // A pass that only set up the side to move goes with the stone it preceded.
            return Ok(());
        }
        let mut steps = self.steps.clone();
        steps.remove(i);
        // Keep colours alternating: the removed stone's turn becomes a pass.
        steps.insert(i, Step::Pass);
        let g = self.replay(&steps)?;
        self.game = Some(g);
        self.steps = steps;
        Ok(())
    }

    /// The table for writing: a helper of the last search may still hold it for a moment,
    /// in which case a fresh table of the same size takes its place (it is about to be
    /// cleared or resized anyway).
    fn table(&mut self) -> &mut TranspositionTable {
        if Arc::get_mut(&mut self.tt).is_none() {
            let mut fresh = TranspositionTable::new();
            fresh.resize(self.tt.bytes());
            self.tt = Arc::new(fresh);
        }
        Arc::get_mut(&mut self.tt).expect("a fresh table has one owner")
    }

    fn ensure_resources(&mut self, threads: usize) -> Result<(), EngineError> {
        let bytes = self.settings.tt_bytes()?;
        if self.tt.bytes() as u64 != bytes {
            self.table().resize(bytes as usize);
        }
        self.tt_sized_for = bytes;
        if threads > 1 && self.pool.as_ref().is_none_or(|(n, _)| *n != threads) {
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .thread_name(|i| format!("wuzi-search-{i}"))
                .build()
                .ok()
                .map(|p| (threads, p));
        }
        Ok(())
    }

    /// Clears the transposition table (`YXHASHCLEAR`).
    pub fn clear_hash(&mut self) {
        self.table().clear();
    }

    /// Transposition-table fill, per mille.
    pub fn hashfull(&self) -> usize {
        self.tt.hashfull()
    }

    /// The search limits for a move whose request was read at `received`.
    pub fn limits(&self, received: Instant) -> Limits {
        let budget = self.settings.clock.budget();
        let threads = self.settings.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        Limits {
            start: Some(received),
            optimum: Some(received + budget.optimum),
            maximum: Some(received + budget.maximum),
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes,
            threads,
            exclude: Vec::new(),
        }
    }

    /// Whether `INFO pondering 1` asks the engine to think on the opponent's time.
    pub fn pondering(&self) -> bool {
        self.settings
            .raw
            .get("pondering")
            .is_some_and(|v| v.trim().parse::<i64>().is_ok_and(|n| n != 0))
    }

    /// Thinks on the opponent's time (`INFO pondering 1`): searches the current position,
    /// opponent to move, with no deadline of its own (only the `max_depth` / `max_node`
    /// caps and `stop`), so that the transposition table is warm when the opponent's move
    /// arrives. Nothing is played and nothing is reported; the position is left exactly as
    /// it was. Only gomoku pondering is useful: the other modes' movers keep no table
    /// between moves. Returns the search's result, or `None` when there is nothing to
    /// ponder (no game, game over, another mode, the random mover, a pending error).
    pub fn ponder(&mut self, stop: &Stop) -> Option<SearchResult> {
        if self.pending_error.is_some() || !matches!(self.kind, GameKind::Gomoku(_)) {
            return None;
        }
        if self
            .settings
            .raw
            .get("player")
            .is_some_and(|p| p == "random")
        {
            return None;
        }
        let g = self.game.as_ref()?;
        if g.outcome().is_some() {
            return None;
        }
        // A table resize cannot be interrupted and would delay the line that stops the
        // ponder: leave it to the next real search.
        if self.settings.tt_bytes().ok()? != self.tt_sized_for {
            return None;
        }
        let limits = Limits {
            optimum: None,
            maximum: None,
            ..self.limits(Instant::now())
        };
        self.ensure_resources(limits.threads).ok()?;
        let g = self.game.as_ref()?;
        let mut sink = |_: &Iteration| {};
        self.search_game(g, &limits, stop, &mut sink)
    }

    /// The random mover (`INFO player random`, any game): a uniformly chosen legal move,
    /// never a renju-forbidden one while another exists. A baseline opponent for the arena
    /// and for stress runs; `INFO seed N` makes it repeatable.
    fn play_random(&mut self) -> Result<SearchResult, EngineError> {
        let g = self.game.as_mut().ok_or(EngineError::NoGame)?;
        let all = g.legal_moves();
        let allowed: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| !g.is_forbidden(m))
            .collect();
        let pool = if allowed.is_empty() { &all } else { &allowed };
        if pool.is_empty() {
            return Err(EngineError::NoMove);
        }
        let rng = self.rng.get_or_insert_with(|| {
            match self.settings.raw.get("seed").and_then(|s| s.parse().ok()) {
                Some(seed) => Rng::new(seed),
                None => Rng::from_clock(),
            }
        });
        let m = pool[rng.below(pool.len())];
        g.play(m);
        self.steps.push(Step::Stone(m));
        Ok(SearchResult {
            best: m,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![m],
        })
    }

    /// Chooses a move within `limits`, plays it on the engine's board and returns it.
    /// Blocked root moves (`YXBLOCK`) are never chosen, and under the Pro rules the engine's
    /// first and third moves follow them.
    pub fn think(
        &mut self,
        limits: Limits,
        stop: &Stop,
        report: &mut dyn FnMut(&Iteration),
    ) -> Result<SearchResult, EngineError> {
        if let Some(e) = self.pending_error.take() {
            return Err(e);
        }
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if g.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        if self
            .settings
            .raw
            .get("player")
            .is_some_and(|p| p == "random")
        {
            return self.play_random();
        }
        let r = match self.opening_move() {
            Some(m) => SearchResult {
                best: m,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![m],
            },
            None => {
                let mut limits = limits;
                limits.exclude.extend(self.blocked.iter().copied());
                self.search_current(&limits, stop, report)?
            }
        };
        self.commit_own(r.best)?;
        Ok(r)
    }

    /// Plays the engine's chosen move on its board.
    fn commit_own(&mut self, m: Move) -> Result<(), EngineError> {
        let g = self.game.as_mut().ok_or(EngineError::NoGame)?;
        g.try_play(m).map_err(|e| EngineError::Move(m, e))?;
        self.steps.push(Step::Stone(m));
        Ok(())
    }

    /// The first stone of the game, if one was played.
    fn first_stone(&self) -> Option<Move> {
        self.steps.iter().find_map(|s| match s {
            Step::Stone(m) => Some(*m),
            _ => None,
        })
    }

    /// The engine's move where a Pro rule decides it: the centre as the first stone, and as
    /// the third move the ring cell (at the rule's distance) that the static evaluation likes
    /// best, since the search's own candidates all lie near the stones.
    fn opening_move(&self) -> Option<Move> {
        let min = self.settings.opening.third_move_distance()?;
        if !matches!(self.kind, GameKind::Gomoku(_)) {
            return None;
        }
        let g = self.game.as_ref()?;
        let allowed =
            |m: Move| g.check_move(m).is_ok() && !g.is_forbidden(m) && !self.blocked.contains(&m);
        match g.ply() {
            0 => {
                let c = opening::centre(g.width(), g.height());
                allowed(c).then_some(c)
            }
            2 => {
                let first = self.first_stone()?;
                let cells = opening::third_move_cells(g.width(), g.height(), first, min, allowed);
                let mut scratch = g.clone();
                cells.into_iter().max_by_key(|&m| {
                    scratch.play(m);
                    let v = -scratch.evaluate();
                    scratch.undo();
                    // Ties go to the first cell found: max_by_key keeps the last, so
                    // break them by preferring nearer, row-major cells.
                    (
                        v,
                        std::cmp::Reverse((opening::distance(first, m), m.y, m.x)),
                    )
                })
            }
            _ => None,
        }
    }

    /// Searches the current position without playing; errors when there is no move.
    fn search_current(
        &mut self,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(&Iteration),
    ) -> Result<SearchResult, EngineError> {
        self.ensure_resources(limits.threads)?;
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        self.search_game(g, limits, stop, report)
            .ok_or(EngineError::NoMove)
    }

    /// Searches `g` (the current game or a scratch position of the same size) with the
    /// engine's table, pool and parameters. Connect Four and m,n,k use their own movers,
    /// which do not know about excluded moves.
    fn search_game(
        &self,
        g: &AnyGame,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<SearchResult> {
        let pool = self.pool.as_ref().map(|(_, p)| p);
        match g {
            AnyGame::Connect4(c) => {
                let mut ctx = ThinkContext {
                    limits: limits.clone(),
                    stop: stop.clone(),
                    report,
                    options: &self.settings.raw,
                };
                Some(crate::game::connect4::think(c, &mut ctx))
            }
            AnyGame::Mnk(c) => {
                let mut ctx = ThinkContext {
                    limits: limits.clone(),
                    stop: stop.clone(),
                    report,
                    options: &self.settings.raw,
                };
                Some(crate::game::mnk::think(c, &mut ctx))
            }
            _ => {
                crate::with_gomoku!(g, b => alphabeta::search(b, &self.tt, limits, stop, self.params, pool, report), _ => None)
            }
        }
    }

    /// Adds moves the engine must not play at the root (`YXBLOCK`).
    pub fn block(&mut self, moves: &[Move]) {
        for &m in moves {
            if !self.blocked.contains(&m) {
                self.blocked.push(m);
            }
        }
    }

    /// Allows blocked moves again (`YXBLOCKUNDO`).
    pub fn unblock(&mut self, moves: &[Move]) {
        self.blocked.retain(|m| !moves.contains(m));
    }

    /// Clears the blocked list (`YXBLOCKRESET`).
    pub fn reset_blocks(&mut self) {
        self.blocked.clear();
    }

    /// The `n` best root moves, best first (`YXNBEST`): one search per line, each excluding
    /// the blocked moves and the lines found before it, sharing the time of `limits` evenly.
    /// `report(i, iteration)` sees each line's iterations. The best move is then played, as a
    /// manager expects after a move request. Fewer than `n` lines come back when the
    /// position has fewer moves or the stop flag is raised.
    pub fn nbest(
        &mut self,
        n: usize,
        limits: Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
    ) -> Result<Vec<SearchResult>, EngineError> {
        let lines = self.multi_pv(n, &limits, stop, report, |_| true)?;
        let best = lines.first().ok_or(EngineError::NoMove)?.best;
        self.commit_own(best)?;
        Ok(lines)
    }

    /// Defence search (`YXSEARCHDEFEND`): every root move that does not lose by force, up to
    /// [`DEFEND_MAX_LINES`], best first; the lines stop at the first proven loss, which is
    /// returned too so the caller can show it. Plays the best line's move.
    pub fn search_defend(
        &mut self,
        limits: Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
    ) -> Result<Vec<SearchResult>, EngineError> {
        let lines = self.multi_pv(DEFEND_MAX_LINES, &limits, stop, report, |r| {
            r.score > -score::WIN_MIN
        })?;
        let best = lines.first().ok_or(EngineError::NoMove)?.best;
        self.commit_own(best)?;
        Ok(lines)
    }

    /// Up to `n` searches of the current position, each excluding the earlier lines' first
    /// moves; stops after the first line `go_on` rejects (that line is kept).
    fn multi_pv(
        &mut self,
        n: usize,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(usize, &Iteration),
        go_on: impl Fn(&SearchResult) -> bool,
    ) -> Result<Vec<SearchResult>, EngineError> {
        if let Some(e) = self.pending_error.take() {
            return Err(e);
        }
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if g.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        let n = n.max(1);
        let mut lines: Vec<SearchResult> = Vec::new();
        let mut exclude = limits.exclude.clone();
        exclude.extend(self.blocked.iter().copied());
        for i in 0..n {
            if i > 0 && stop.is_set() {
                break;
            }
            let now = std::time::Instant::now();
            let share = |t: Option<std::time::Instant>| {
                t.map(|t| now + t.saturating_duration_since(now) / (n - i) as u32)
            };
            let line_limits = Limits {
                start: Some(now),
                optimum: share(limits.optimum),
                maximum: share(limits.maximum),
                exclude: exclude.clone(),
                ..limits.clone()
            };
            let mut rep = |it: &Iteration| report(i, it);
            let r = match self.search_current(&line_limits, stop, &mut rep) {
                Ok(r) => r,
                Err(EngineError::NoMove) if i > 0 => break,
                Err(e) => return Err(e),
            };
            // A mover that ignores exclusions (Connect Four, m,n,k) repeats itself, and a
            // depth-0 answer is the fallback once every root candidate is excluded (the
            // forced-move rules left nothing else worth a line): either ends the list.
            if exclude.contains(&r.best) || (i > 0 && r.depth == 0) {
                break;
            }
            exclude.push(r.best);
            let more = go_on(&r);
            lines.push(r);
            if !more {
                break;
            }
        }
        Ok(lines)
    }

    /// One sub-search of a swap request, step `i` of `n` of `plan`: the best move and the
    /// settled score ([`opening::settled_score`]) for the side to move. `None` when the plan
    /// leaves no time to start it (the hard deadline is near, or `stop` is set) or when it was
    /// cut before its first iteration finished: the depth-0 fallback move carries no score,
    /// and a 0 taken for "balanced" would pick exactly the openings nobody looked at.
    fn swap_search(
        &mut self,
        g: &AnyGame,
        plan: &SwapPlan,
        (i, n): (usize, usize),
        stop: &Stop,
    ) -> Option<SearchResult> {
        if stop.is_set() {
            return None;
        }
        let limits = plan.step(i, n, Instant::now())?;
        self.ensure_resources(limits.threads).ok()?;
        let mut iterations = Vec::new();
        let mut sink = |it: &Iteration| iterations.push((it.depth, it.score));
        let r = self.search_game(g, &limits, stop, &mut sink)?;
        let settled = opening::settled_score(&iterations);
        log::debug!(
            "swap2 step {i}/{n}: depth {} score {} settled {settled:?} at {} ms \
             (step max {} ms, move max {} ms)",
            r.depth,
            r.score,
            plan.elapsed_ms(Instant::now()),
            limits.maximum.map_or(0, |t| plan.elapsed_ms(t)),
            plan.limits.maximum.map_or(0, |t| plan.elapsed_ms(t)),
        );
        if r.depth == 0 {
            return None;
        }
        Some(SearchResult {
            score: settled.unwrap_or(r.score),
            ..r
        })
    }

    /// Answers `SWAP2BOARD` (and swap1 under `INFO opening_rule swap1`) for `stones`, the
    /// opening placed so far in move order (black, white, black, …). The engine's own board
    /// is left alone: after the opening phase the manager sends the agreed position.
    ///
    /// Every sub-search shares the move's one hard deadline ([`SwapPlan`]); when time runs
    /// out the answer is built from the searches that finished, and from the static
    /// evaluation only when none did.
    pub fn swap2(
        &mut self,
        stones: &[Move],
        limits: Limits,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        if let Some(e) = self.pending_error.take() {
            return Err(e);
        }
        if !matches!(self.kind, GameKind::Gomoku(_)) {
            return Err(EngineError::Swap("only gomoku has swap openings".into()));
        }
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let mut pos = AnyGame::new(self.kind, g.width(), g.height())
            .map_err(|e| EngineError::BadSize(e.0))?;
        for &m in stones {
            Self::check_on_board(&pos, m)?;
            pos.try_play(m).map_err(|e| EngineError::Move(m, e))?;
        }
        let swap1 = self.settings.opening == OpeningRule::Swap1;
        let plan = SwapPlan::new(limits);
        match stones.len() {
            0 => self.propose_three(&pos, &plan, stop),
            3 => {
                // The choice takes a third of the time: adding two stones needs the rest.
                let r = self
                    .swap_search(&pos, &plan, (0, 3), stop)
                    .or_else(|| static_result(&pos))
                    .ok_or(EngineError::NoMove)?;
                match opening::choose_after_three(r.score, !swap1) {
                    Choice::Swap => Ok(SwapAnswer::Swap),
                    Choice::PlayWhite => Ok(SwapAnswer::Move(r.best)),
                    Choice::AddTwo => self.add_two(&pos, r.best, &plan, stop),
                }
            }
            5 => {
                let r = self
                    .swap_search(&pos, &plan, (0, 1), stop)
                    .or_else(|| static_result(&pos))
                    .ok_or(EngineError::NoMove)?;
                match opening::choose_after_five(r.score) {
                    Choice::PlayWhite | Choice::AddTwo => Ok(SwapAnswer::Move(r.best)),
                    Choice::Swap => Ok(SwapAnswer::Swap),
                }
            }
            k => Err(EngineError::Swap(format!(
                "{k} stones given; swap answers need 0, 3 or 5"
            ))),
        }
    }

    /// Swap2 step 1: the three-stone opening whose score for white is nearest zero, so
    /// that neither colour is the better choice for the opponent. The static evaluation
    /// first keeps the most balanced few of the candidate shapes, so the searches fit the
    /// time; the searched scores then decide, and the static ones only if no search
    /// finished.
    fn propose_three(
        &mut self,
        empty: &AnyGame,
        plan: &SwapPlan,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        let mut shapes: Vec<([Move; 3], i32)> = Vec::new();
        for o in opening::swap2_candidates(empty.width(), empty.height()) {
            let mut p = empty.clone();
            if o.iter().all(|&m| p.try_play(m).is_ok()) {
                shapes.push((o, p.evaluate()));
            }
        }
        shapes.sort_by_key(|&(o, v)| (v.abs(), o));
        shapes.truncate(SWAP_SEARCHED_SHAPES);
        let n = shapes.len();
        let mut searched = Vec::new();
        for (i, &(o, _)) in shapes.iter().enumerate() {
            if plan.enough(&searched, Instant::now()) {
                break;
            }
            let mut p = empty.clone();
            for m in o {
                p.play(m);
            }
            match self.swap_search(&p, plan, (i, n), stop) {
                Some(r) => searched.push((o, r.score)),
                // No time to start another: the rest would not be searched either.
                None if plan.too_late(Instant::now()) || stop.is_set() => break,
                None => {}
            }
        }
        let pool = if searched.is_empty() {
            &shapes
        } else {
            &searched
        };
        let (o, _) = opening::most_balanced(pool).ok_or(EngineError::NoMove)?;
        Ok(SwapAnswer::Stones(o.to_vec()))
    }

    /// Swap2 step 2, balanced case: white's best stone, then the black stone among black's
    /// best candidates that leaves white's score nearest zero (searched scores when any
    /// search finished, static ones otherwise).
    fn add_two(
        &mut self,
        three: &AnyGame,
        white: Move,
        plan: &SwapPlan,
        stop: &Stop,
    ) -> Result<SwapAnswer, EngineError> {
        let mut p = three.clone();
        p.try_play(white).map_err(|e| EngineError::Move(white, e))?;
        let mut cands = Vec::new();
        p.candidates(&mut cands);
        let mut blacks: Vec<(Move, i32)> = Vec::new();
        for c in cands {
            if blacks.len() == SWAP_SEARCHED_SHAPES {
                break;
            }
            if p.is_forbidden(c.mv) || p.check_move(c.mv).is_err() {
                continue;
            }
            let mut q = p.clone();
            q.play(c.mv);
            blacks.push((c.mv, q.evaluate()));
        }
        let n = blacks.len();
        let mut searched = Vec::new();
        for (i, &(b, _)) in blacks.iter().enumerate() {
            if plan.enough(&searched, Instant::now()) {
                break;
            }
            let mut q = p.clone();
            q.play(b);
            match self.swap_search(&q, plan, (3 + i, 3 + n), stop) {
                Some(r) => searched.push((b, r.score)),
                None if plan.too_late(Instant::now()) || stop.is_set() => break,
                None => {}
            }
        }
        let pool = if searched.is_empty() {
            &blacks
        } else {
            &searched
        };
        let (black, _) = opening::most_balanced(pool).ok_or(EngineError::NoMove)?;
        Ok(SwapAnswer::Stones(vec![white, black]))
    }

    /// The debugging report of the current position (`TRACEBOARD`): side to move, static
    /// evaluation, and the mode's best candidates with their ordering score and the static
    /// evaluation after each (for the side that played it).
    pub fn trace(&self) -> Result<Trace, EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let mut list = Vec::new();
        g.candidates(&mut list);
        list.truncate(TRACE_CANDIDATES);
        let mut scratch = g.clone();
        let candidates = list
            .iter()
            .map(|c| {
                scratch.play(c.mv);
                let after = -scratch.evaluate();
                scratch.undo();
                (c.mv, c.score, after)
            })
            .collect();
        Ok(Trace {
            to_move: g.side_to_move(),
            ply: g.ply(),
            eval: g.evaluate(),
            outcome: g.outcome(),
            candidates,
            blocked: self.blocked.clone(),
        })
    }

    /// A short analysis of the current position that plays nothing (`TRACESEARCH`): the
    /// `n` best lines, each searched to `depth` plies at most within `limits`.
    pub fn analyse(
        &mut self,
        n: usize,
        depth: u32,
        limits: Limits,
        stop: &Stop,
    ) -> Result<Vec<SearchResult>, EngineError> {
        // A person asked: use the whole move time (not the soft target) up to the depth cap.
        let limits = Limits {
            max_depth: Some(limits.max_depth.map_or(depth, |d| d.min(depth))),
            optimum: limits.maximum,
            ..limits
        };
        let mut sink = |_: usize, _: &Iteration| {};
        self.multi_pv(n, &limits, stop, &mut sink, |_| true)
    }
    /// The threat solver's own verdict for the side to move (`TRACESEARCH`): a VCF search,
    /// then a VCT search, on the current position with the budgets the search's root threat
    /// step uses (`params.root_vcf_*`, `params.root_vct_*`), bounded also by `limits`'
    /// hard deadline and `stop`. Blocked moves and renju fouls are not filtered: this is
    /// what the solver itself answers. `Ok(None)` for modes without a threat solver.
    pub fn threats(&self, limits: &Limits, stop: &Stop) -> Result<Option<Threats>, EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if g.outcome().is_some() {
            return Err(EngineError::GameOver);
        }
        let p = self.params;
        let mut tl = ThreatLimits {
            max_nodes: p.root_vcf_nodes,
            deadline: limits.maximum,
            stop: Some(stop.clone()),
        };
        let cut = || stop.is_set() || limits.past_maximum();
        let report = crate::with_gomoku!(g, b => {
            let mut b = b.clone();
            let mut solver = Solver::new(1 << 18);
            let vcf = solver.vcf(&mut b, p.root_vcf_depth, &tl);
            let vcf = ThreatVerdict {
                line: vcf.map(|w| {
                    let line = solver.vcf_line();
                    if line.first() == Some(&w.mv) { line } else { vec![w.mv] }
                }),
                win: vcf,
                nodes: solver.nodes(),
                budget: tl.max_nodes,
                timed_out: vcf.is_none() && cut(),
            };
            tl.max_nodes = p.root_vct_nodes;
            let vct = solver.vct(&mut b, p.root_vct_depth, p.vct_vcf_depth, &tl);
            let vct = ThreatVerdict {
                line: vct.map(|w| vec![w.mv]),
                win: vct,
                nodes: solver.nodes(),
                budget: tl.max_nodes,
                timed_out: vct.is_none() && cut(),
            };
            Some(Threats { vcf, vct })
        }, _ => None);
        Ok(report)
    }
}

/// Most lines `YXSEARCHDEFEND` lists.
pub const DEFEND_MAX_LINES: usize = 8;
/// How many opening shapes (swap2 step 1) or black stones (step 2) get a short search.
const SWAP_SEARCHED_SHAPES: usize = 6;
/// Candidates `TRACEBOARD` lists.
const TRACE_CANDIDATES: usize = 10;

/// An answer to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwapAnswer {
    /// Stones to add: three (step 1) or a white and a black one (step 2).
    Stones(Vec<Move>),
    /// Take black; the opponent moves next as white.
    Swap,
    /// Take white and play this move.
    Move(Move),
}

/// The clock of one swap request. Every sub-search runs against the move's own hard
/// deadline (`maximum`, counted from when the request's line arrived), never a later one,
/// so the answer is never later than a move would be. The time up to it is shared out
/// among the steps still to run ([`SwapPlan::step`]), and no step starts once less than
/// [`SwapPlan::guard`] is left: a search that cannot finish its first iteration answers
/// nothing useful and only makes the reply later.
struct SwapPlan {
    limits: Limits,
    start: Instant,
}

impl SwapPlan {
    fn new(limits: Limits) -> SwapPlan {
        let start = limits.start.unwrap_or_else(Instant::now);
        SwapPlan { limits, start }
    }

    /// The least time a step needs to be worth starting, and the least it is given.
    fn guard(&self) -> std::time::Duration {
        let total = self.limits.maximum.map_or(std::time::Duration::ZERO, |h| {
            h.saturating_duration_since(self.start)
        });
        (total / SWAP_GUARD_DIVISOR).max(std::time::Duration::from_millis(SWAP_GUARD_MIN_MS))
    }

    /// Whether the hard deadline is too near at `now` for another step.
    fn too_late(&self, now: Instant) -> bool {
        self.limits.maximum.is_some_and(|h| now + self.guard() >= h)
    }

    /// Whether a decision with `searched` results so far should start no more steps at
    /// `now`: past the move's soft target, like a search that starts no new iteration, as
    /// soon as one step has finished (a stall of the machine then ends the request early
    /// rather than running the remaining steps up to the hard deadline).
    fn enough<T>(&self, searched: &[T], now: Instant) -> bool {
        !searched.is_empty() && self.limits.optimum.is_some_and(|o| now >= o)
    }

    /// Milliseconds from the request's arrival to `t` (for the log).
    fn elapsed_ms(&self, t: Instant) -> u128 {
        t.saturating_duration_since(self.start).as_millis()
    }

    /// Limits for step `i` of `n` starting at `now`, or `None` when it must not start. The
    /// time left is shared equally among the steps left (this one included), so a quick
    /// step's leftover and a slow step's overrun spread over the rest; the soft target
    /// leaves every step that starts time for a second iteration (see
    /// [`opening::settled_score`]), the hard one never passes the move's.
    fn step(&self, i: usize, n: usize, now: Instant) -> Option<Limits> {
        if self.too_late(now) {
            return None;
        }
        let left = n.saturating_sub(i).max(1) as u32;
        let guard = self.guard();
        let share = |t: Instant| now + t.saturating_duration_since(now) / left;
        let hard = self.limits.maximum;
        let maximum = hard.map(|h| share(h).max(now + guard).min(h));
        let optimum = self.limits.optimum.map(|o| {
            let o = share(o).max(now + guard / 2);
            maximum.map_or(o, |m| o.min(m))
        });
        Some(Limits {
            start: Some(now),
            optimum,
            maximum,
            max_depth: Some(
                self.limits
                    .max_depth
                    .map_or(SWAP_DEPTH, |d| d.min(SWAP_DEPTH)),
            ),
            ..self.limits.clone()
        })
    }
}

/// Depth cap of the swap searches: openings are quiet, and several searches share a move's
/// time.
const SWAP_DEPTH: u32 = 8;
/// A swap step needs at least 1/this of the move's hard time left to start.
const SWAP_GUARD_DIVISOR: u32 = 25;
/// … and never less than this, ms.
const SWAP_GUARD_MIN_MS: u64 = 10;

/// A depth-0 answer for the side to move of `g` from the static evaluation alone: the best
/// ordered candidate that is not a renju foul. For swap answers when no search finished.
fn static_result(g: &AnyGame) -> Option<SearchResult> {
    let mut list = Vec::new();
    g.candidates(&mut list);
    let best = list
        .iter()
        .filter(|c| g.check_move(c.mv).is_ok() && !g.is_forbidden(c.mv))
        .max_by_key(|c| c.score)?
        .mv;
    Some(SearchResult {
        best,
        score: g.evaluate(),
        depth: 0,
        nodes: 0,
        pv: vec![best],
    })
}

/// One threat search's answer: the win it proved (first move and plies to the five), its
/// line (the whole VCF; the first move of a VCT, the solver keeps no VCT line), the nodes
/// spent out of the budget, and whether the deadline or the stop flag cut it short (a search
/// that spent its budget or ran out of time may have missed a win).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatVerdict {
    pub win: Option<ThreatWin>,
    pub line: Option<Vec<Move>>,
    pub nodes: u64,
    pub budget: u64,
    pub timed_out: bool,
}

/// The threat solver's verdicts for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threats {
    pub vcf: ThreatVerdict,
    pub vct: ThreatVerdict,
}

/// What `TRACEBOARD` reports.
#[derive(Clone, Debug)]
pub struct Trace {
    pub to_move: Color,
    pub ply: usize,
    /// Static evaluation for the side to move.
    pub eval: i32,
    pub outcome: Option<crate::game::Outcome>,
    /// (move, ordering score, static evaluation after it for the side that played it).
    pub candidates: Vec<(Move, i32, i32)>,
    pub blocked: Vec<Move>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swap_limits(start: Instant, opt_ms: u64, max_ms: u64) -> Limits {
        use std::time::Duration;
        Limits {
            start: Some(start),
            optimum: Some(start + Duration::from_millis(opt_ms)),
            maximum: Some(start + Duration::from_millis(max_ms)),
            threads: 1,
            ..Limits::default()
        }
    }

    #[test]
    fn swap_steps_share_the_moves_one_hard_deadline() {
        use std::time::Duration;
        let t0 = Instant::now();
        let plan = SwapPlan::new(swap_limits(t0, 440, 880));
        let hard = t0 + Duration::from_millis(880);
        let guard = plan.guard();
        assert_eq!(guard, Duration::from_millis(880) / 25);
        // Steps starting at any time: never past the move's hard deadline, never started
        // within the guard of it, soft target within the hard one.
        for at in (0..900).step_by(7) {
            let now = t0 + Duration::from_millis(at);
            for (i, n) in [(0, 6), (3, 6), (5, 6), (0, 1), (8, 9), (9, 9)] {
                match plan.step(i, n, now) {
                    Some(l) => {
                        assert!(now + guard < hard, "step {i}/{n} started at {at} ms");
                        let (opt, max) = (l.optimum.unwrap(), l.maximum.unwrap());
                        assert!(max <= hard && opt <= max && max >= now + guard);
                        assert_eq!(l.max_depth, Some(SWAP_DEPTH));
                    }
                    None => assert!(now + guard >= hard, "step {i}/{n} refused at {at} ms"),
                }
            }
        }
        // The first of six steps gets a sixth of the time; the last one all that is left.
        let first = plan.step(0, 6, t0).unwrap();
        assert_eq!(first.maximum, Some(t0 + Duration::from_millis(880) / 6));
        let now = t0 + Duration::from_millis(500);
        assert_eq!(plan.step(5, 6, now).unwrap().maximum, Some(hard));
        // Past the soft target a step still aims at a second iteration.
        let late = plan.step(4, 6, now).unwrap();
        assert_eq!(late.optimum, Some(now + guard / 2));
        // Past the move's soft target a decision starts no more steps once one finished.
        assert!(!plan.enough(&[0], t0 + Duration::from_millis(439)));
        assert!(plan.enough(&[0], t0 + Duration::from_millis(440)));
        assert!(!plan.enough::<i32>(&[], t0 + Duration::from_millis(800)));
        // No deadline at all: the steps are bounded by depth only.
        let free = SwapPlan::new(Limits::depth(20));
        let l = free.step(3, 6, Instant::now()).unwrap();
        assert!(l.maximum.is_none() && l.optimum.is_none());
        assert_eq!(l.max_depth, Some(SWAP_DEPTH));
    }

    fn swap_engine() -> Engine {
        let mut e = Engine::new();
        e.set_info("hash_size", "1024");
        e.start(15, 15).unwrap();
        e
    }

    fn assert_fresh_cells(cells: &[Move], taken: &[Move], k: usize) {
        assert_eq!(cells.len(), k, "{cells:?}");
        for (i, c) in cells.iter().enumerate() {
            assert!(c.x < 15 && c.y < 15 && !taken.contains(c), "{c} taken");
            assert!(!cells[..i].contains(c), "{c} twice");
        }
    }

    #[test]
    fn swap_answers_with_no_time_left_come_from_the_static_evaluation() {
        let mut e = swap_engine();
        let stop = Stop::new();
        // The deadline has passed already: no step may start, yet each case answers.
        let gone = swap_limits(Instant::now(), 0, 0);
        match e.swap2(&[], gone.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &[], 3),
            a => panic!("{a:?}"),
        }
        let three = [mv(7, 7), mv(8, 7), mv(9, 9)];
        match e.swap2(&three, gone.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &three, 2),
            SwapAnswer::Move(m) => assert_fresh_cells(&[m], &three, 1),
            SwapAnswer::Swap => {}
        }
        // Black's open three: even the static evaluation sees that black is better.
        let five = [mv(7, 7), mv(0, 0), mv(8, 7), mv(14, 14), mv(9, 7)];
        assert_eq!(e.swap2(&five, gone, &stop).unwrap(), SwapAnswer::Swap);
        assert_eq!(e.tt.bytes(), 0, "a search ran although the time was up");
    }

    #[test]
    fn swap_answers_are_searched_and_legal_within_depth_limits() {
        let mut e = swap_engine();
        let stop = Stop::new();
        let l = Limits::depth(2);
        match e.swap2(&[], l.clone(), &stop).unwrap() {
            SwapAnswer::Stones(s) => assert_fresh_cells(&s, &[], 3),
            a => panic!("{a:?}"),
        }
        assert!(e.tt.bytes() > 0, "the proposals were not searched");
        let five = [mv(7, 7), mv(0, 0), mv(8, 7), mv(14, 14), mv(9, 7)];
        assert_eq!(e.swap2(&five, l, &stop).unwrap(), SwapAnswer::Swap);
    }

    #[test]
    fn mem_total_is_read_from_meminfo() {
        let t = "MemTotal:       24684144 kB\nMemFree:        1 kB\n";
        assert_eq!(parse_mem_total_kib(t), Some(24684144));
        assert_eq!(parse_mem_total_kib("MemFree: 3 kB"), None);
        assert_eq!(parse_mem_total_kib("MemTotal: lots"), None);
    }

    #[test]
    fn a_later_workable_memory_limit_clears_the_pending_error() {
        let mut e = Engine::new();
        e.set_info("max_memory", "1000000");
        assert!(matches!(e.pending_error, Some(EngineError::Limit(_))));
        e.set_info("max_memory", "16777216");
        assert!(e.take_pending_error().is_none());
        assert!(e.settings.tt_bytes().is_ok_and(|b| b >= MIN_TT_BYTES));
    }

    #[test]
    fn absurd_limits_are_capped() {
        let mut e = Engine::new();
        e.set_info("thread_num", "100000");
        assert_eq!(e.settings.threads, Some(MAX_THREADS));
        e.set_info("hash_size", "999999999999");
        let b = e.settings.tt_bytes().unwrap_or(0);
        assert!(b <= MAX_TT_BYTES && b <= ram_cap().max(MIN_TT_BYTES));
    }

    fn mv(x: u8, y: u8) -> Move {
        Move::new(x, y)
    }

    #[test]
    fn info_rule_after_start_applies_to_the_started_game() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        e.opponent_move(mv(7, 7)).unwrap();
        e.set_info("rule", "4");
        assert_eq!(e.kind(), GameKind::Gomoku(GomokuRule::Renju));
        let g = e.game().unwrap();
        assert!(matches!(g, AnyGame::Renju(_)));
        assert_eq!(
            g.stone_at(mv(7, 7)),
            Some(Color::Black),
            "stones survive the switch"
        );
        e.set_info("rule", "1");
        assert!(matches!(e.game().unwrap(), AnyGame::Standard(_)));
    }

    #[test]
    fn a_game_that_does_not_fit_the_board_leaves_the_old_one_and_reports() {
        let mut e = Engine::new();
        e.start(32, 32).unwrap();
        e.set_info("game", "connect4"); // Connect Four boards stop at 16
        assert!(matches!(e.game().unwrap(), AnyGame::Freestyle(_)));
        assert!(matches!(
            e.take_pending_error(),
            Some(EngineError::BadSize(_))
        ));
    }

    #[test]
    fn board_assigns_colours_by_stone_counts_and_fills_gaps_with_passes() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        // Opponent has one more stone: the engine is white and to move.
        e.set_board(&[
            (mv(7, 7), Stone::Opponent),
            (mv(8, 8), Stone::Own),
            (mv(9, 9), Stone::Opponent),
        ])
        .unwrap();
        let g = e.game().unwrap();
        assert_eq!(g.side_to_move(), Color::White);
        assert_eq!(g.stone_at(mv(8, 8)), Some(Color::White));
        // Three own stones, none of the opponent's: black to move after passes.
        e.set_board(&[
            (mv(1, 1), Stone::Own),
            (mv(2, 2), Stone::Own),
            (mv(3, 3), Stone::Own),
        ])
        .unwrap();
        let g = e.game().unwrap();
        assert_eq!(g.side_to_move(), Color::Black);
        assert_eq!(g.stone_at(mv(3, 3)), Some(Color::Black));
        assert_eq!(g.stone_at(mv(7, 7)), None, "BOARD clears first");
    }

    #[test]
    fn failed_board_and_takeback_leave_the_position_intact() {
        let mut e = Engine::new();
        e.start(15, 15).unwrap();
        e.opponent_move(mv(7, 7)).unwrap();
        let before = e.game().unwrap().key();
        let bad = e.set_board(&[(mv(1, 1), Stone::Own), (mv(1, 1), Stone::Opponent)]);
        assert!(bad.is_err());
        assert_eq!(e.game().unwrap().key(), before);
        assert!(matches!(
            e.takeback(mv(3, 3)),
            Err(EngineError::NothingToTakeBack(_))
        ));
        assert!(matches!(
            e.takeback(mv(30, 3)),
            Err(EngineError::Move(_, MoveError::OffBoard))
        ));
        assert_eq!(e.game().unwrap().key(), before);
        e.opponent_move(mv(8, 8)).unwrap();
        // Taking back an older stone replays the game without it.
        e.takeback(mv(7, 7)).unwrap();
        let g = e.game().unwrap();
        assert_eq!(g.stone_at(mv(7, 7)), None);
        assert_eq!(g.stone_at(mv(8, 8)), Some(Color::White));
        e.takeback(mv(8, 8)).unwrap();
        assert!(e.game().unwrap().stone_at(mv(8, 8)).is_none());
    }

    #[test]
    fn threat_verdicts_come_from_the_solver_on_the_current_position() {
        let mut e = Engine::new();
        let stop = Stop::new();
        let limits = crate::search::Limits::depth(1);
        assert_eq!(e.threats(&limits, &stop), Err(EngineError::NoGame));
        e.start(15, 15).unwrap();
        // Black has an open three on row 7: the straight four it makes wins (a VCF).
        let own: Vec<(Move, Stone)> = (5..8).map(|x| (mv(x, 7), Stone::Own)).collect();
        let opp = [(mv(0, 0), Stone::Opponent), (mv(14, 14), Stone::Opponent)];
        let list: Vec<(Move, Stone)> = own.into_iter().chain(opp).collect();
        e.set_board(&list).unwrap();
        let before = e.game().unwrap().key();
        let t = e
            .threats(&limits, &stop)
            .unwrap()
            .expect("gomoku has a solver");
        let line = t.vcf.line.expect("an open three is a VCF");
        assert_eq!(Some(line[0]), t.vcf.win.map(|w| w.mv));
        assert!(t.vcf.nodes > 0 && t.vct.win.is_some());
        assert_eq!(e.game().unwrap().key(), before, "the position is untouched");
        e.set_info("game", "connect4");
        e.start(7, 6).unwrap();
        assert_eq!(e.threats(&limits, &stop), Ok(None));
    }

    #[test]
    fn the_engine_takes_a_win_in_one_at_any_depth() {
        let mut e = Engine::new();
        e.set_info("thread_num", "1");
        e.start(15, 15).unwrap();
        let own: Vec<(Move, Stone)> = (3..7).map(|x| (mv(x, 7), Stone::Own)).collect();
        let opp: Vec<(Move, Stone)> = (3..7).map(|x| (mv(x, 9), Stone::Opponent)).collect();
        let list: Vec<(Move, Stone)> = own.into_iter().chain(opp).collect();
        e.set_board(&list).unwrap();
        let r = e
            .think(crate::search::Limits::depth(1), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(r.best == mv(2, 7) || r.best == mv(7, 7), "{:?}", r.best);
        assert!(e.game().unwrap().outcome().is_some());
    }
}
