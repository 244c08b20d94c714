//! The tunable parameters of the alpha-beta search (`--param NAME=VALUE` on the command
//! line; no `INFO` key sets them), their defaults and their parser. Only settings the
//! shipped search reads are here; what each gained when measured, and the settings deleted
//! with their code (and the commit that holds it), are in docs/techniques.md.

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
    /// Ordering scores at or above this mark a tactical move (a three or a block of one, a
    /// killer, the table move), whose late-move reduction is a ply less.
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
    /// Moves the depth-dependent beam widens by per ply left (see `beam_min`).
    pub beam_step: usize,
    /// Reverse futility: at non-PV nodes with at most this depth left and no threat to
    /// answer (an opponent able to make a four is none), a static value at least
    /// `rfp_margin` per ply above beta fails high at once.
    /// 0 turns it off.
    pub rfp_depth: i32,
    /// Reverse futility's margin per ply left, in evaluation units.
    pub rfp_margin: i32,
    /// Reverse futility's margin is a ply's less where the static value improved on the
    /// one two plies before.
    pub rfp_improving: bool,
    /// Late-move reductions: the `i`-th move searched at depth `d` is reduced
    /// `ln(d) · ln(i) · lmr_log / 100` plies (rounded down), one more where the static value
    /// did not improve, `lmr_cut` more at a cut node, one less at PV nodes and for tactical
    /// moves (`lmr_tactical`), fours included.
    pub lmr_log: i32,
    /// Sixteenths of a ply a late-move reduction grows by at a cut node (16: one ply).
    pub lmr_cut: i32,
    /// Quiescence (modes with a search of fours at the leaves): attacker plies in which a
    /// bare four (one that makes nothing else) is tried; past them only fours that also make
    /// a three, an open two or a second four are.
    pub qs_plain: u32,
    /// Quiescence: attacker plies at most, a guard against long chains of fours.
    pub qs_max: u32,
    /// Singular extension: from this depth on (0: off), a table move that cut here before is
    /// searched a ply deeper when every other move stays below its stored score minus
    /// `se_margin` per ply in a search of half the depth without it.
    pub se_depth: i32,
    /// The singular test's margin per ply left, in evaluation units.
    pub se_margin: i32,
    /// Fail-high reduction: at a non-PV cut node whose static value is at least this much
    /// per ply left above beta, every move but a four is searched a ply shallower: the node
    /// will very likely fail high on its first moves anyway. 0 turns it off.
    pub fhr_margin: i32,
    /// History added to a move's ordering score: the entry shifted right by this much.
    pub hist_shift: u32,
    /// Ordering bonus for the counter move: the move that last cut off after the
    /// opponent's last move, by side and cell (a reply to a given stone is often the same
    /// wherever it arises in the tree); at most the second killer's 2^19; 0 turns it off.
    pub counter_bonus: i32,
    /// A node whose searched moves all lose searches the moves its beam cut as well, so that
    /// no mate score rests on moves never tried.
    pub beam_proof: bool,
    /// With a match clock, the soft target moves with how settled the search is (see
    /// [`crate::search::time::Pacing`]), and a root with a single playable move stops after its
    /// first iteration; off, every move searches until the clock's plain target.
    pub time_pace: bool,
    /// The pacing weights, per mille (see [`crate::search::time::PaceWeights`]: `base`, `fall`,
    /// `stable`, `unstable`).
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
    /// Threat nodes the helper's root VCT may search (see `smp_vct_permille`).
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
            lmr_tactical: 6_000,
            safety_vct_nodes: 20_000,
            safety_moves: 6,
            beam_min: 5,
            beam_step: 3,
            rfp_depth: 3,
            rfp_margin: 150,
            lmr_log: 130,
            lmr_cut: 16,
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
            fhr_margin: 40,
            hist_shift: 4,
            counter_bonus: 1 << 18,
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
            "lmr_tactical" => self.lmr_tactical = parse(name, value)?,
            "safety_vct_nodes" => self.safety_vct_nodes = parse(name, value)?,
            "safety_moves" => self.safety_moves = parse(name, value)?,
            "beam_min" => self.beam_min = parse(name, value)?,
            "beam_step" => self.beam_step = parse(name, value)?,
            "rfp_depth" => self.rfp_depth = parse(name, value)?,
            "rfp_margin" => self.rfp_margin = parse(name, value)?,
            "lmr_log" => self.lmr_log = parse(name, value)?,
            "lmr_cut" => self.lmr_cut = parse::<i32>(name, value)?.clamp(0, 64),
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
            "fhr_margin" => self.fhr_margin = parse(name, value)?,
            "hist_shift" => self.hist_shift = parse::<u32>(name, value)?.min(30),
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
    pub(super) fn pace_weights(&self) -> crate::search::time::PaceWeights {
        crate::search::time::PaceWeights {
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
