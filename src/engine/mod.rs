//! The engine facade: everything the protocol can ask of the engine, in protocol-agnostic
//! terms (start a game, impose a position, take a move back, think), and nothing about how
//! commands are spelled or printed.
//!
//! The engine keeps the list of stones as they were put on the board, so that any stone can
//! be taken back (the position is replayed without it) and a failed `BOARD` leaves the
//! previous position untouched: every change is tried on a copy and committed only whole.
//! Big allocations (the transposition table, the thread pool) happen lazily at the first
//! search, never in `start`, so `START` answers at once whatever `max_memory` says.
//!
//! This file holds the position and the move loop; `settings.rs` the `INFO` settings and
//! the table's size, `swap2.rs` the opening decisions, `analysis.rs` the n-best, defence
//! and trace requests.

use crate::game::{AnyGame, Color, Game, GameKind, GomokuRule, Move, MoveError};
use crate::opening::{self, OpeningRule, OpeningViolation};
use crate::rng::Rng;
use crate::search::gomoku::alphabeta::{self, Params};
use crate::search::score::is_decisive;
use crate::search::time::{Lateness, UNLIMITED_MS};
use crate::search::tt::TranspositionTable;
use crate::search::{Iteration, Limits, SearchResult, StallMeter, Stop, ThinkContext};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

mod analysis;
mod captures;
use captures::board_colour;
mod memory;
mod settings;
mod swap2;

pub use analysis::{ThreatVerdict, Threats, Trace, DEFEND_MAX_LINES};
pub use memory::{
    resident_bytes, Footprint, CONNECT4_BYTES, NTUPLE_BYTES, SEARCH_BYTES, THREAD_BYTES,
};
pub use settings::{
    Settings, CAPTURE_KEYS, DEFAULT_TT_BYTES, MAX_THREADS, MAX_TT_BYTES, MEMORY_SHARE_PERMILLE,
    MIN_TT_BYTES,
};
pub use swap2::SwapAnswer;

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

/// What a complaint an `INFO` line left for the next command is about. A later `INFO` on
/// the same concern replaces or withdraws it, and a new game withdraws every one: each is
/// about the game in force, which an `INFO` could not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Concern {
    /// The game, rule or win length the settings select cannot be played on this board.
    Kind,
    /// A captured-pairs count the position cannot hold.
    Captures,
}

/// One entry of the record of how the current position was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Wall(Move),
    Stone(Move),
    /// A stone set up by `BOARD`: placed without the move's side effects (captures).
    Placed(Move),
    Pass,
}

/// How [`Engine::memory_plan`] shares the memory allowed among the tables.
struct MemoryPlan {
    /// The gomoku table's size (0 in the modes with tables of their own).
    tt_bytes: u64,
    /// The room for the search's tables (`None`: no limit).
    room: Option<u64>,
    /// What the process holds besides its tables, bytes.
    fixed: u64,
    /// Whether the search loads the Connect Four network.
    network: bool,
    /// Whether the network would load but does not fit, so the search goes without.
    drop_network: bool,
    /// The least `max_memory` the engine needs, when the limit is below it.
    floor: Option<u64>,
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
    /// What the process holds besides its tables, measured before the first search.
    footprint: Option<memory::Footprint>,
    /// The options the searches of the other modes get: the settings' own, with their
    /// tables' room and whether the Connect Four network fits ([`memory::search_options`]).
    search_options: HashMap<String, String>,
    /// Lines for the manager that are not errors (a memory limit that cannot be kept),
    /// printed as `MESSAGE`s with the next reply.
    notices: Vec<String>,
    /// The `max_memory` whose shortfall was last reported, so it is reported once.
    noticed_for: u64,
    /// Complaints `INFO` lines left for the next command, at most one per concern.
    pending: Vec<(Concern, EngineError)>,
    /// Moves the engine must not play at the root (`YXBLOCK`).
    pub blocked: Vec<Move>,
    pub params: Params,
    /// The random mover's generator, seeded at its first use.
    rng: Option<Rng>,
    /// The ply of the position the engine's last search was for, and that search's score
    /// (side to move's view): the time manager compares the next search's with it.
    last_own: Option<(usize, i32)>,
    /// How late the searches lately were against their hard limits, and how long the machine
    /// took the processor away from them: the per-move reserve.
    lateness: Lateness,
    stalls: Arc<StallMeter>,
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
            footprint: None,
            search_options: HashMap::new(),
            notices: Vec::new(),
            noticed_for: 0,
            pending: Vec::new(),
            blocked: Vec::new(),
            params: Params::default(),
            rng: None,
            last_own: None,
            lateness: Lateness::default(),
            stalls: Arc::default(),
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

    /// Takes the oldest complaint an earlier `INFO` left for the next command, if any.
    pub fn take_pending_error(&mut self) -> Option<EngineError> {
        (!self.pending.is_empty()).then(|| self.pending.remove(0).1)
    }

    /// Sets or withdraws the complaint about `concern`.
    fn complain(&mut self, concern: Concern, e: Option<EngineError>) {
        self.pending.retain(|(c, _)| *c != concern);
        self.pending.extend(e.map(|e| (concern, e)));
    }

    /// Takes the lines for the manager that wait to be printed as `MESSAGE`s.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Starts a new game on an empty `width` × `height` board of the current kind.
    pub fn start(&mut self, width: usize, height: usize) -> Result<(), EngineError> {
        let kind = self.settings.kind();
        let g = AnyGame::new(kind, width, height).map_err(|e| EngineError::BadSize(e.0))?;
        self.game = Some(g);
        self.kind = kind;
        // Captured pairs belong to a position: a new game starts without them.
        for key in CAPTURE_KEYS {
            self.settings.raw.remove(key);
        }
        self.steps.clear();
        self.blocked.clear();
        self.last_own = None;
        self.pending.clear();
        self.table().clear();
        Ok(())
    }

    /// A new game with the same size (and the kind the settings now select).
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        let (w, h) = (g.width(), g.height());
        self.start(w, h)
    }

    /// Applies one `INFO key value`. Never fails: unusable values are ignored, and a game
    /// or a captures count the position cannot take is kept to be reported at the next
    /// command (unless a later `INFO` or a new game makes it moot).
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
        let captures_key = CAPTURE_KEYS.contains(&key.as_str());
        self.settings.raw.insert(key.clone(), value.to_string());
        if kind_key {
            self.adopt_kind();
        }
        if captures_key {
            self.adopt_captures(&key);
        }
    }

    /// Switches the current game to the kind the settings now select: managers send
    /// `INFO rule` after `START`, so the rule applies to the game already started. The stones
    /// are replayed on a board of the new kind; if they do not fit it, that board starts
    /// empty; if even the size does not fit, the old game stays and the next command gets
    /// an `ERROR` (unless a later `INFO` selects a kind that fits, or a game is started).
    fn adopt_kind(&mut self) {
        // Whatever an earlier kind's complaint said, this kind decides now.
        self.complain(Concern::Kind, None);
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
                    let why = format!("{} cannot be played on this board: {e}", kind.describe());
                    self.complain(Concern::Kind, Some(EngineError::BadSize(why)));
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
        self.apply_captures(&mut ng)?;
        for &s in steps {
            match s {
                Step::Wall(m) => ng.place_wall(m).map_err(|e| EngineError::Move(m, e))?,
                Step::Stone(m) => {
                    Self::check_on_board(&ng, m)?;
                    ng.try_play(m).map_err(|e| EngineError::Move(m, e))?
                }
                Step::Placed(m) => {
                    Self::check_on_board(&ng, m)?;
                    ng.place(m).map_err(|e| EngineError::Move(m, e))?
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
        let me = board_colour(own.len(), opp.len(), self.captured_pairs());
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
            steps.push(black.get(i).map_or(Step::Pass, |&m| Step::Placed(m)));
            if i < white.len() || i + 1 < black.len() {
                steps.push(white.get(i).map_or(Step::Pass, |&m| Step::Placed(m)));
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
        self.last_own = None;
        Ok(())
    }

    /// Removes the stone on `m` (`TAKEBACK`). The last move is undone directly; an older
    /// stone is removed by replaying the game without it.
    pub fn takeback(&mut self, m: Move) -> Result<(), EngineError> {
        let g = self.game.as_ref().ok_or(EngineError::NoGame)?;
        Self::check_on_board(g, m)?;
        let Some(i) = self
            .steps
            .iter()
            .rposition(|&s| s == Step::Stone(m) || s == Step::Placed(m))
        else {
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

    /// Sizes the search's resources for a request on `threads` threads now (every search
    /// does it first anyway), so that what the engine has to say about them
    /// ([`Engine::take_notices`]) can go before the search's output.
    pub fn prepare(&mut self, threads: usize) {
        self.ensure_resources(threads);
    }

    /// Sizes the search's resources for `threads` threads within the memory allowed: the
    /// pool, the gomoku table (none for the modes with their own tables), and the options
    /// that size those modes' tables. Below the least memory the engine can keep within,
    /// says so once (a notice) and plays with the smallest tables.
    fn ensure_resources(&mut self, threads: usize) {
        // The pool first: its threads are part of what the process holds.
        if threads > 1 && self.pool.as_ref().is_none_or(|(n, _)| *n != threads) {
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .thread_name(|i| format!("wuzi-search-{i}"))
                .build()
                .ok()
                .map(|p| (threads, p));
        }
        let plan = self.memory_plan(threads);
        if let Some(footprint) = self.footprint.as_mut() {
            footprint.network |= plan.network;
        }
        if let Some(floor) = plan.floor {
            if self.noticed_for != self.settings.max_memory {
                self.noticed_for = self.settings.max_memory;
                self.notices.push(format!(
                    "max_memory {} is too small to keep the process under {}% of it: the engine \
                     needs at least {floor} bytes (it holds {} bytes besides its tables); \
                     playing with the smallest tables",
                    self.settings.max_memory,
                    MEMORY_SHARE_PERMILLE / 10,
                    plan.fixed
                ));
            }
        }
        // Compared with the size asked for last, not with the table's own (rounded down to
        // a power of two): a table that is not resized stays the same table, while a
        // resize that finds a helper of the last search still holding it makes a fresh
        // one, and the old one lives on until the helper lets go (a 64 MiB limit on two
        // threads peaked at 98%, two tables of 32 MiB, on a machine loaded to 40).
        if self.tt_sized_for != plan.tt_bytes || self.tt.bytes() == 0 {
            self.table().resize(plan.tt_bytes as usize);
        }
        self.tt_sized_for = plan.tt_bytes;
        self.search_options =
            memory::search_options(self.kind, &self.settings.raw, plan.room, plan.drop_network);
    }

    /// How the memory allowed is shared for a search on `threads` threads of the current
    /// game. Measures the process at the first call.
    fn memory_plan(&mut self, threads: usize) -> MemoryPlan {
        let footprint = *self
            .footprint
            .get_or_insert_with(memory::Footprint::measure);
        let network = self
            .game
            .as_ref()
            .is_some_and(|g| memory::wants_network(g, &self.settings.raw));
        let allowed = self.settings.allowed_bytes();
        let fits = |fixed: u64| allowed.is_none_or(|a| fixed + MIN_TT_BYTES <= a);
        // The network goes first when the smallest tables do not fit beside it.
        let drop_network =
            network && !footprint.network && !fits(footprint.fixed(self.kind, threads, true));
        let network = network && !drop_network;
        let fixed = footprint.fixed(self.kind, threads, network);
        let room = self.settings.table_room(fixed);
        let own_tables = matches!(
            self.game,
            Some(AnyGame::Connect4(_)) | Some(AnyGame::Mnk(_))
        );
        MemoryPlan {
            // The gomoku table has nothing to do in those modes: one bucket.
            tt_bytes: if own_tables {
                0
            } else {
                self.settings.tt_bytes(room)
            },
            room,
            fixed,
            network,
            drop_network,
            floor: (!fits(fixed)).then(|| Settings::floor(fixed)),
        }
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
        // Half the empty cells, rounded up: the most moves this side may still have to make.
        let moves_left = self.game.as_ref().map_or(0, |g| {
            let cells = g.width() * g.height();
            cells.saturating_sub(g.ply()).div_ceil(2) as i64
        });
        let budget = self.settings.clock.budget(moves_left, self.lateness.ms());
        let threads = self.settings.search_threads();
        Limits {
            start: Some(received),
            optimum: Some(received + budget.optimum),
            maximum: Some(received + budget.maximum),
            per_move: budget.per_move,
            max_depth: self.settings.max_depth,
            max_nodes: self.settings.max_nodes,
            threads,
            exclude: Vec::new(),
            prev_score: self.last_own.and_then(|(ply, score)| {
                let g = self.game.as_ref()?;
                (g.ply() == ply + 2 && !is_decisive(score)).then_some(score)
            }),
            stalls: Some(Arc::clone(&self.stalls)),
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
        if !self.pending.is_empty() || !matches!(self.kind, GameKind::Gomoku(_)) {
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
        let threads = self.settings.search_threads();
        if self.footprint.is_none() || self.memory_plan(threads).tt_bytes != self.tt_sized_for {
            return None;
        }
        let limits = Limits {
            optimum: None,
            maximum: None,
            ..self.limits(Instant::now())
        };
        self.ensure_resources(limits.threads);
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
        if let Some(e) = self.take_pending_error() {
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
                let r = self.search_current(&limits, stop, report)?;
                // How late this machine lets a search answer: past its hard limit (a search
                // that ended before it shows nothing there), or the longest the search went
                // without the processor, which could as well have come at the deadline.
                let overrun = limits
                    .maximum
                    .and_then(|m| Instant::now().checked_duration_since(m))
                    .unwrap_or_default();
                self.lateness.observe(overrun.max(self.stalls.take()));
                if let Some(g) = self.game.as_ref() {
                    self.last_own = (r.depth > 0).then_some((g.ply(), r.score));
                }
                r
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
            Step::Stone(m) | Step::Placed(m) => Some(*m),
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
        self.ensure_resources(limits.threads);
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
                    options: &self.search_options,
                };
                Some(crate::search::connect4::think(c, &mut ctx))
            }
            AnyGame::Mnk(c) => {
                let mut ctx = ThinkContext {
                    limits: limits.clone(),
                    stop: stop.clone(),
                    report,
                    options: &self.search_options,
                };
                Some(crate::search::mnk::think(c, &mut ctx))
            }
            _ => {
                crate::with_alphabeta!(g, b => alphabeta::search(b, &self.tt, limits, stop, self.params, pool, report), _ => None)
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A memory limit is never an error: below what the engine needs it says so once and
    /// plays with the smallest table; a workable limit gives a table within it.
    #[test]
    fn a_memory_limit_too_small_is_a_notice_and_the_least_table() {
        let mut e = engine_with(&[("thread_num", "1"), ("max_memory", "1000000")]);
        e.start(15, 15).unwrap();
        e.opponent_move(mv(7, 7)).unwrap();
        assert!(e.take_pending_error().is_none());
        let r = e.think(Limits::depth(2), &Stop::new(), &mut |_| {});
        assert!(r.is_ok(), "{r:?}");
        assert_eq!(e.tt_sized_for, MIN_TT_BYTES);
        let notices = e.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("needs at least"), "{notices:?}");
        // Once per limit: the next move says nothing.
        e.opponent_move(mv(3, 3)).unwrap();
        e.think(Limits::depth(2), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(e.take_notices().is_empty());
        e.set_info("max_memory", "367001600");
        e.set_info("timeout_turn", "30000");
        e.opponent_move(mv(11, 3)).unwrap();
        e.think(Limits::depth(2), &Stop::new(), &mut |_| {})
            .unwrap();
        assert!(e.take_notices().is_empty());
        let fixed = e.footprint.unwrap().fixed(e.kind, 1, false);
        assert!(e.tt_sized_for > MIN_TT_BYTES);
        assert!(fixed + e.tt_sized_for <= e.settings.allowed_bytes().unwrap());
    }

    /// The modes with tables of their own leave the gomoku table at one bucket and get
    /// their room through their options.
    #[test]
    fn other_modes_get_their_room_as_options() {
        let mut e = engine_with(&[
            ("thread_num", "1"),
            ("max_memory", "33554432"),
            ("game", "connect4"),
        ]);
        e.start(12, 6).unwrap();
        e.ensure_resources(1);
        assert!(e.tt.bytes() <= 64, "{}", e.tt.bytes());
        let fixed = e.footprint.unwrap().fixed(e.kind, 1, false);
        let room = e.settings.table_room(fixed).unwrap();
        assert_eq!(e.search_options["max_memory"], (2 * room).to_string());
        // 24 MiB allowed: no room for the network beside the process.
        assert_eq!(e.search_options["c4_ntuple"], "none");
        e.set_info("max_memory", "367001600");
        e.ensure_resources(1);
        assert!(!e.search_options.contains_key("c4_ntuple"));
    }

    /// A complaint a later `INFO` makes moot is withdrawn, and a `START` the settings in
    /// force allow starts (the sequence 200,000 random protocol lines found).
    #[test]
    fn a_moot_complaint_is_withdrawn() {
        let mut e = Engine::new();
        e.start(21, 21).unwrap();
        e.set_info("game", "connect4"); // too wide: the 21x21 gomoku game stays
        e.set_info("game", "gomoku");
        e.set_info("rule", "0");
        assert!(e.take_pending_error().is_none());
        e.start(15, 15).unwrap();
        // A new game withdraws a complaint about the old one.
        e.start(21, 21).unwrap();
        e.set_info("game", "connect4");
        e.start(7, 6).unwrap();
        assert!(e.take_pending_error().is_none());
        assert!(matches!(e.game(), Some(AnyGame::Connect4(_))));
        // A complaint nothing made moot stays for the next command, once.
        e.set_info("game", "gomoku");
        e.start(21, 21).unwrap();
        e.set_info("game", "connect4");
        e.set_info("k", "4");
        assert!(matches!(
            e.take_pending_error(),
            Some(EngineError::BadSize(_))
        ));
        assert!(e.take_pending_error().is_none());
    }

    /// An engine with these `INFO` settings.
    pub(super) fn engine_with(info: &[(&str, &str)]) -> Engine {
        let mut e = Engine::new();
        for (key, value) in info {
            e.set_info(key, value);
        }
        e
    }

    pub(super) fn mv(x: u8, y: u8) -> Move {
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

    /// The next move's limits carry the score of the engine's own previous search, and
    /// only while the game goes on from it (not after a take-back or a new game).
    #[test]
    fn the_next_search_knows_the_previous_score() {
        let mut e = Engine::new();
        e.set_info("thread_num", "1");
        e.start(15, 15).unwrap();
        e.opponent_move(mv(7, 7)).unwrap();
        assert_eq!(e.limits(Instant::now()).prev_score, None);
        let r = e
            .think(crate::search::Limits::depth(2), &Stop::new(), &mut |_| {})
            .unwrap();
        let theirs = if r.best == mv(8, 8) {
            mv(6, 6)
        } else {
            mv(8, 8)
        };
        e.opponent_move(theirs).unwrap();
        assert_eq!(e.limits(Instant::now()).prev_score, Some(r.score));
        e.takeback(theirs).unwrap();
        assert_eq!(e.limits(Instant::now()).prev_score, None);
        // The same ply in a new game is another game.
        e.opponent_move(theirs).unwrap();
        e.start(15, 15).unwrap();
        for (i, &m) in [mv(7, 7), mv(3, 3), mv(11, 11)].iter().enumerate() {
            e.opponent_move(m).unwrap();
            assert_eq!(e.game().unwrap().ply(), i + 1);
        }
        assert_eq!(e.limits(Instant::now()).prev_score, None);
    }
}
