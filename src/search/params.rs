//! The tunable parameters of the alpha-beta search (`--param NAME=VALUE` on the command
//! line; no `INFO` key sets them), their defaults and their parser.

/// What [`Params::cut_observer`] is called with: the position before the cutoff move (to
/// downcast), that move, the moves that failed before it and the plies left.
pub type CutObserver = fn(&dyn std::any::Any, crate::game::Move, &[crate::game::Move], i32);

/// Tunable search parameters.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Moves searched at an interior node, best by ordering first.
    pub beam: usize,
    /// Moves searched at the root.
    pub root_beam: usize,
    /// Half-width of the first aspiration window, in evaluation units.
    pub aspiration: i32,
    /// Deepest nominal depth iterative deepening goes to.
    pub max_depth: u32,
    /// Fours a root VCF may chain.
    pub root_vcf_depth: u32,
    /// Node budget of the root VCF.
    pub root_vcf_nodes: u64,
    /// Threats (fours and threes) a root VCT may chain; 0 turns the root VCT off.
    pub root_vct_depth: u32,
    /// Fours each VCT attacker node's VCF may chain.
    pub vct_vcf_depth: u32,
    /// Node budget of the root VCT.
    pub root_vct_nodes: u64,
    /// Share of the soft time target the root VCF and VCT may use, per mille.
    pub root_vct_time_permille: u32,
    /// Fours a leaf VCF may chain; 0 turns leaf VCFs off.
    pub leaf_vcf_depth: u32,
    /// Node budget of one leaf VCF.
    pub leaf_vcf_nodes: u64,
    /// Late-move reductions: moves from this index on (in ordering) at depth ≥ `lmr_depth`
    /// are searched one ply shallower first, unless they are tactical.
    pub lmr_from: usize,
    pub lmr_depth: i32,
    /// Moves from this index on are reduced two plies.
    pub lmr_far: usize,
    /// Ordering scores at or above this mark a tactical move (a three or a block of one, a
    /// killer, the table move) that is never reduced.
    pub lmr_tactical: i32,
    /// Safety check after the search: root moves (best first) after which the opponent
    /// has a VCT within this node budget are replaced by the next one; 0 turns it off.
    pub safety_vct_nodes: u64,
    /// Root moves the safety check tries at most.
    pub safety_moves: usize,
    /// Depth-dependent beam: an interior node at remaining depth `d` searches at most
    /// `beam_min + beam_step · (d − 1)` moves (and never more than `beam`): the frontier only
    /// needs the few moves that can change its static value, the saved nodes buy depth.
    pub beam_min: usize,
    pub beam_step: usize,
    /// Told of every beta cutoff: the position before the move (the worker's game, for the
    /// observer to downcast), the move, the moves searched before it there (which failed)
    /// and the plies left. Only `tune --order-search` sets it, to fit the move ordering to
    /// the moves that cut; `None` in play.
    pub cut_observer: Option<CutObserver>,
    /// Reverse futility: at non-PV nodes with at most this depth left and no threat to
    /// answer, a static value at least `rfp_margin` per ply above beta fails high at once.
    /// 0 turns it off. Depth 3 with 150 per ply scored +21 Elo (two runs of 800 games at
    /// 200 ms/move: +22.6 ± 24.1 and +20.0 ± 24.1) against off. Depth 12 (Rapfi prunes
    /// so at every depth) against 3: +11.6 ± 30.9 and +5.1 ± 30.9 (two runs of 480 games,
    /// 200 ms/move, SPRT [0, 10] undecided; about +8 ± 22 together), so it stays 3.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Logarithmic late-move reductions: when above 0, the `i`-th move searched at depth `d`
    /// is reduced `ln(d) · ln(i) · lmr_log / 100` plies (rounded down), one more at a cut
    /// node or where the static value did not improve, one less at PV nodes and for moves
    /// whose ordering score marks them tactical; fours never. 0: the fixed 1 / 2 plies of
    /// `lmr_from` / `lmr_far`. 100 scored +32.8 ± 21.3 Elo against 0 (1,000 games,
    /// 200 ms/move).
    pub lmr_log: i32,
    /// Logarithmic reductions keep their fraction of a ply (in the search's depth units)
    /// instead of being rounded down to whole plies. Mate suite at 1 s: 79/142 against 77
    /// off (noise about ±4); with `lmr_cut` 29 and `rfp_depth` 12 in one screen: −2.9 ± 31.0
    /// Elo (480 games, 200 ms/move), so off.
    pub lmr_frac: bool,
    /// Depth a node with a single candidate (a forced reply) gives its move, in sixteenths
    /// of a ply: 16 searches the reply without spending depth; more extends the line that
    /// forces it, as Rapfi's 1.3 plies for a reply to a five threat. 21 solved 67/142 of
    /// the mate suite at 1 s against 77 at 16: lines of fours grow too long, so 16.
    pub forced_ext: i32,
    /// Sixteenths of a ply a logarithmic reduction grows by at a cut node (16: one ply).
    /// Rapfi's 29 (1.8 plies): mate suite 80/142, no change; in the screen of `lmr_frac`.
    pub lmr_cut: i32,
    /// Sixteenths of a ply the table move gets at a PV node (`ttm_ext_pv`) and elsewhere
    /// (`ttm_ext`) when the singular extension did not extend it; Rapfi's are 4 and 1.
    /// 4 and 1 solved 70/142 of the mate suite at 1 s against 77 at 0 and 0, so off.
    pub ttm_ext_pv: i32,
    pub ttm_ext: i32,
    /// Sixteenths of a ply more reduction for a move answering an open three that blocks
    /// no four of the opponent and lies more than four cells from the opponent's last stone
    /// (`udr_opp`) / from our own (`udr_self`); Rapfi's are about 31 and 15. 0: off.
    /// 31 and 15 against off: +2.2 ± 31.1 Elo (480 games, 200 ms/move, SPRT [0, 10]
    /// undecided), so off.
    pub udr_opp: i32,
    pub udr_self: i32,
    /// Sixteenths of a ply more reduction for a late move that makes no three or four for
    /// either side (its cell is below `Three` for the mover and for the opponent): Rapfi
    /// reduces such quiet moves by several plies where wuzi's logarithmic reduction treats
    /// them as any other late move. 0: off. Mate suite at 1 s: 78/142 at 16 and at 32
    /// against 75 off (noise about ±4); in games against off (480 each, 200 ms/move, SPRT
    /// [0, 10] undecided): 16 +8.0 ± 30.9 Elo, 32 −3.6 ± 31.1, so off.
    pub lmr_quiet: i32,
    /// A reduced move whose reduced search beat alpha by more than this (plus a third of it
    /// per ply of reduction) is searched a ply deeper than its full depth, as Rapfi extends
    /// such moves. 0 turns it off. 170 (Rapfi's 34 times five: our evaluation's scale is
    /// about five times Rapfi's) against off: +8.0 ± 30.9 Elo (480 games, 200 ms/move,
    /// SPRT [0, 10] undecided), so off.
    pub lmr_deeper: i32,
    /// Quiescence (modes with a search of fours at the leaves): attacker plies in which a
    /// bare four (one that makes nothing else) is tried; past them only fours that also make
    /// a three, an open two or a second four are.
    pub qs_plain: u32,
    /// Quiescence: attacker plies at most, a guard against long chains of fours.
    pub qs_max: u32,
    /// Reverse futility reduced by one ply's margin when the static value improved.
    pub rfp_improving: bool,
    /// Singular extension: from this depth on (0: off), a table move that cut here before is
    /// searched a ply deeper when every other move stays below its stored score minus
    /// `se_margin` per ply in a search of half the depth without it. 6 (margin 4) scored
    /// +73.5 ± 30.7 Elo against off (480 games, 200 ms/move, SPRT [0, 10]) and about
    /// +25 ± 50 at 1 s (170 games). 4 against 6: +18.8 ± 30.3 (480 games, 200 ms,
    /// undecided), so it stays 6.
    pub se_depth: i32,
    pub se_margin: i32,
    /// Sixteenths of a ply the table move loses when the singular test found a rival
    /// nearly as good and the table move's stored score is at or above beta (the node
    /// will likely cut with either): Rapfi's and Stockfish's negative extension. 0: off.
    /// 24 (Rapfi's 1.5 plies) against off: −3.6 ± 30.7 Elo (480 games, 200 ms/move, SPRT
    /// [0, 10] undecided), so off.
    pub se_neg: i32,
    /// A non-PV table move whose rivals stay this far below the singular bound as well is
    /// extended two plies instead of one, at most `se_double_max` extra plies per line.
    /// 0: off. 100 (about Rapfi's margin on our scale) against off: +13.8 ± 30.9 Elo (480
    /// games, 200 ms/move, SPRT [0, 10] undecided); with `root_lmr_from` 2, −12.2 ± 47.9 at
    /// 1 s/move (200 games), so off.
    pub se_double: i32,
    pub se_double_max: i32,
    /// Late-move reductions at the root: root moves from this index on (in the order of
    /// the iteration) are searched shallower first, as inside the tree, and again at full
    /// depth when they beat alpha. 0: every root move at full depth. 2 (Rapfi's) against
    /// off: +17.4 ± 30.7 Elo (480 games, 200 ms/move, SPRT [0, 10] undecided), −6.4 ± 52.0
    /// at 1 s/move (162 games), so off.
    pub root_lmr_from: usize,
    /// How the root orders its moves from the second iteration on. 0: as every node does
    /// (ordering score, table move first, killers, history). 1: by the last root search's
    /// scores, its best first (the fail-soft bounds of the others rank them). 2: by the
    /// nodes each move's subtree took in the last root search, its best first: a move that
    /// was hard to refute is the likeliest to become the best. 2 against 0: −6.5 ± 31.1 Elo,
    /// 1 against 0: −5.1 ± 30.9 (480 games each, 200 ms/move, SPRT [0, 10] undecided), so 0.
    pub root_sort: u8,
    /// Sixteenths of a ply less late-move reduction at nodes that are or were on a
    /// principal variation (the table's pv flag, Rapfi's and Stockfish's "ttPv"). 0: off.
    /// 16 (Rapfi's 0.97 plies) against off: +3.6 ± 30.9 Elo (480 games, 200 ms/move, SPRT
    /// [0, 10] undecided), so off.
    pub ttpv_red: i32,
    /// Fail-high reduction: at a non-PV cut node whose static value is at least this much
    /// per ply left above beta, every move but a four is searched a ply shallower: the node
    /// will very likely fail high on its first moves anyway. 0 turns it off.
    pub fhr_margin: i32,
    /// History with a bound and a malus: a cutoff move gains `32·depth²` and the moves
    /// searched before it lose as much, each entry pulled towards zero in proportion to its
    /// size (history "gravity"); off, a cutoff move only gains `depth²`, unbounded. On
    /// against off: +9.4 ± 30.5 Elo (480 games, 200 ms/move, SPRT [0, 10] undecided), so off.
    pub hist_gravity: bool,
    /// History added to a move's ordering score: the entry shifted right by this much.
    pub hist_shift: u32,
    /// Late-move reductions shrink by one ply per this much history (0: no history term).
    /// 8192 with `hist_gravity` against both off: −37.2 ± 47.8 Elo (197 games, 200 ms/move,
    /// stopped), so off.
    pub hist_lmr: i32,
    /// Ordering bonus for the counter move: the move that last cut off after the
    /// opponent's last move, by side and cell (a reply to a given stone is often the same
    /// wherever it arises in the tree); at most the second killer's 2^19; 0 turns it off.
    /// 2^18 against 0: +33.4 ± 30.4 Elo (480 games, 200 ms/move, SPRT [0, 10] undecided),
    /// +40.1 ± 47.1 (200 games, 1 s/move); the default since then.
    pub counter_bonus: i32,
    /// Once a PV node raises alpha (without a cutoff), its remaining moves get this many
    /// plies less, between 3 and 11 plies left and for non-decisive scores: the node has a
    /// good move in hand and the rest are searched mostly to confirm it (Rapfi and
    /// Stockfish do this). 0 turns it off. 1 against 0: −10.8 ± 37.4 Elo (321 games,
    /// 200 ms/move, stopped leaning negative), so off.
    pub alpha_red: i32,
    /// A move that makes an open three or better for a side whose previous move (two plies
    /// up) did too is reduced this many plies less: a continuing attack is the line a
    /// threat sequence follows. 0 turns it off. 1 against 0 (counter move on): +24.7 ± 30.6
    /// Elo (480 games, 200 ms/move, SPRT [0, 10] undecided), but −6.4 ± 63.2 at 1 s/move
    /// (109 games, stopped with no sign of a gain), so off.
    pub lmr_attack: i32,
    /// A node whose searched moves all lose searches the moves its beam cut as well, so that
    /// no mate score rests on moves never tried.
    pub beam_proof: bool,
    /// With a per-move clock only (no match time to save for), no new iteration starts
    /// after this share of the hard limit, per mille: time left unused is simply lost.
    /// 850: against 700 (the soft target's share) it scored +27.6 ± 30.3 Elo in self-play
    /// (480 games, 200 ms/move) and 90%+ against pela at 1 s where 700 scored 84.8% (see
    /// README); 980 had scored +8 ± 23 in 900 games at 200 ms/move. The hard limit is
    /// unchanged, so no move is later: an iteration started late is cut there.
    pub time_turn: u32,
    /// The main search stops at this share of the way to the hard limit, per mille, so that
    /// the safety check after it has the rest: at 1000 an iteration started late runs into
    /// the hard limit and the check is skipped. 940 against 1000: +9.4 ± 30.4 Elo (480
    /// games, 200 ms/move, SPRT [0, 10] undecided), so it stays 1000.
    pub search_end: u32,
    /// With a match clock, the soft target moves with how settled the search is (see
    /// [`super::time::Pacing`]), and a root with a single playable move stops after its
    /// first iteration; off, every move searches until the clock's plain target. On
    /// against off, 5 s a move within a 6 s / 12 s match clock: +24.7 ± 30.9 (480 games) and
    /// +33.4 ± 43.7 (240), no time loss.
    pub time_pace: bool,
    /// The pacing weights, per mille (see [`super::time::PaceWeights`]).
    pub time_base: u32,
    pub time_fall: u32,
    pub time_stable: u32,
    pub time_unstable: u32,
    /// Lazy SMP with deferral (the simplified ABDADA): with more than one thread, a node
    /// with at least this many plies left marks itself busy while it is searched, and a
    /// thread defers a move (not its node's first) whose position another thread is
    /// searching until its other moves are done, so that the threads spread over siblings
    /// instead of walking one subtree in step. 0 turns it off.
    pub smp_busy_depth: i32,
    /// With more than one thread, the root VCT runs in the first helper beside the main
    /// search instead of before it, until this share of the soft target (per mille) or
    /// `smp_vct_nodes` threat nodes; a win it proves ends the search and is played. 0
    /// keeps the VCT before the search, as with one thread.
    pub smp_vct_permille: u32,
    pub smp_vct_nodes: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            beam: 40,
            root_beam: 64,
            aspiration: 60,
            max_depth: 64,
            root_vcf_depth: 40,
            root_vcf_nodes: 200_000,
            root_vct_depth: 8,
            vct_vcf_depth: 12,
            root_vct_nodes: 150_000,
            root_vct_time_permille: 100,
            leaf_vcf_depth: 12,
            leaf_vcf_nodes: 150,
            lmr_from: 3,
            lmr_depth: 3,
            lmr_far: 10,
            lmr_tactical: 6_000,
            safety_vct_nodes: 20_000,
            safety_moves: 6,
            beam_min: 5,
            beam_step: 3,
            cut_observer: None,
            rfp_depth: 3,
            rfp_margin: 150,
            lmr_log: 100,
            lmr_frac: false,
            forced_ext: 16,
            lmr_cut: 16,
            ttm_ext_pv: 0,
            ttm_ext: 0,
            udr_opp: 0,
            udr_self: 0,
            lmr_quiet: 0,
            lmr_deeper: 0,
            time_turn: 850,
            search_end: 1000,
            time_pace: true,
            time_base: 550,
            time_fall: 3,
            time_stable: 40,
            time_unstable: 1000,
            qs_plain: 2,
            qs_max: 16,
            rfp_improving: true,
            se_depth: 6,
            se_margin: 4,
            se_neg: 0,
            se_double: 0,
            se_double_max: 10,
            root_lmr_from: 0,
            root_sort: 0,
            ttpv_red: 0,
            fhr_margin: 40,
            hist_gravity: false,
            hist_shift: 4,
            hist_lmr: 0,
            counter_bonus: 1 << 18,
            alpha_red: 0,
            lmr_attack: 0,
            beam_proof: true,
            smp_busy_depth: 3,
            smp_vct_permille: 500,
            smp_vct_nodes: 2_000_000,
        }
    }
}

/// Why a parameter assignment was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamError {
    Unknown(String),
    BadValue(String, String),
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(n) => write!(f, "unknown search parameter {n:?}"),
            ParamError::BadValue(n, v) => write!(f, "search parameter {n}: bad value {v:?}"),
        }
    }
}

impl std::error::Error for ParamError {}

impl Params {
    /// Sets one parameter by its field name, so that matches and tuning runs can try values
    /// without a rebuild (`pbrain-wuzi --param beam=20`).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        fn parse<T: std::str::FromStr>(n: &str, v: &str) -> Result<T, ParamError> {
            v.trim()
                .parse()
                .map_err(|_| ParamError::BadValue(n.to_string(), v.to_string()))
        }
        match name {
            "beam" => self.beam = parse(name, value)?,
            "root_beam" => self.root_beam = parse(name, value)?,
            "aspiration" => self.aspiration = parse(name, value)?,
            "max_depth" => self.max_depth = parse(name, value)?,
            "root_vcf_depth" => self.root_vcf_depth = parse(name, value)?,
            "root_vcf_nodes" => self.root_vcf_nodes = parse(name, value)?,
            "root_vct_depth" => self.root_vct_depth = parse(name, value)?,
            "vct_vcf_depth" => self.vct_vcf_depth = parse(name, value)?,
            "root_vct_nodes" => self.root_vct_nodes = parse(name, value)?,
            "root_vct_time_permille" => self.root_vct_time_permille = parse(name, value)?,
            "leaf_vcf_depth" => self.leaf_vcf_depth = parse(name, value)?,
            "leaf_vcf_nodes" => self.leaf_vcf_nodes = parse(name, value)?,
            "lmr_from" => self.lmr_from = parse(name, value)?,
            "lmr_depth" => self.lmr_depth = parse(name, value)?,
            "lmr_far" => self.lmr_far = parse(name, value)?,
            "lmr_tactical" => self.lmr_tactical = parse(name, value)?,
            "safety_vct_nodes" => self.safety_vct_nodes = parse(name, value)?,
            "safety_moves" => self.safety_moves = parse(name, value)?,
            "beam_min" => self.beam_min = parse(name, value)?,
            "beam_step" => self.beam_step = parse(name, value)?,
            "rfp_depth" => self.rfp_depth = parse(name, value)?,
            "rfp_margin" => self.rfp_margin = parse(name, value)?,
            "lmr_log" => self.lmr_log = parse(name, value)?,
            "lmr_frac" => self.lmr_frac = parse::<u8>(name, value)? != 0,
            "forced_ext" => self.forced_ext = parse::<i32>(name, value)?.clamp(0, 32),
            "lmr_cut" => self.lmr_cut = parse::<i32>(name, value)?.clamp(0, 64),
            "ttm_ext_pv" => self.ttm_ext_pv = parse::<i32>(name, value)?.clamp(0, 8),
            "ttm_ext" => self.ttm_ext = parse::<i32>(name, value)?.clamp(0, 8),
            "udr_opp" => self.udr_opp = parse::<i32>(name, value)?.clamp(0, 64),
            "udr_self" => self.udr_self = parse::<i32>(name, value)?.clamp(0, 64),
            "lmr_quiet" => self.lmr_quiet = parse::<i32>(name, value)?.clamp(0, 64),
            "lmr_deeper" => self.lmr_deeper = parse::<i32>(name, value)?.clamp(0, 100_000),
            "time_turn" => self.time_turn = parse(name, value)?,
            "search_end" => self.search_end = parse(name, value)?,
            "time_pace" => self.time_pace = parse::<u8>(name, value)? != 0,
            "time_base" => self.time_base = parse(name, value)?,
            "time_fall" => self.time_fall = parse(name, value)?,
            "time_stable" => self.time_stable = parse(name, value)?,
            "time_unstable" => self.time_unstable = parse(name, value)?,
            "qs_plain" => self.qs_plain = parse(name, value)?,
            "qs_max" => self.qs_max = parse(name, value)?,
            "rfp_improving" => self.rfp_improving = parse::<u8>(name, value)? != 0,
            "se_depth" => self.se_depth = parse(name, value)?,
            "se_margin" => self.se_margin = parse(name, value)?,
            "se_neg" => self.se_neg = parse::<i32>(name, value)?.clamp(0, 64),
            "se_double" => self.se_double = parse::<i32>(name, value)?.max(0),
            "se_double_max" => self.se_double_max = parse::<i32>(name, value)?.clamp(0, 64),
            "root_lmr_from" => self.root_lmr_from = parse(name, value)?,
            "root_sort" => self.root_sort = parse(name, value)?,
            "ttpv_red" => self.ttpv_red = parse::<i32>(name, value)?.clamp(0, 64),
            "fhr_margin" => self.fhr_margin = parse(name, value)?,
            "hist_gravity" => self.hist_gravity = parse::<u8>(name, value)? != 0,
            "hist_shift" => self.hist_shift = parse::<u32>(name, value)?.min(30),
            "hist_lmr" => self.hist_lmr = parse(name, value)?,
            "alpha_red" => self.alpha_red = parse::<i32>(name, value)?.clamp(0, 2),
            "lmr_attack" => self.lmr_attack = parse::<i32>(name, value)?.clamp(0, 3),
            "counter_bonus" => self.counter_bonus = parse::<i32>(name, value)?.clamp(0, 1 << 19),
            "beam_proof" => self.beam_proof = parse::<u8>(name, value)? != 0,
            "smp_busy_depth" => self.smp_busy_depth = parse(name, value)?,
            "smp_vct_permille" => self.smp_vct_permille = parse(name, value)?,
            "smp_vct_nodes" => self.smp_vct_nodes = parse(name, value)?,
            _ => return Err(ParamError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// The pacing weights as the time manager reads them.
    pub(super) fn pace_weights(&self) -> super::time::PaceWeights {
        super::time::PaceWeights {
            base: i64::from(self.time_base),
            fall: i64::from(self.time_fall),
            stable: i64::from(self.time_stable),
            unstable: i64::from(self.time_unstable),
        }
    }

    /// Moves an interior node with `depth` plies left searches.
    pub(super) fn beam_at(&self, depth: i32) -> usize {
        let d = depth.max(1) as usize - 1;
        self.beam
            .min(
                self.beam_min
                    .saturating_add(self.beam_step.saturating_mul(d)),
            )
            .max(1)
    }
}
