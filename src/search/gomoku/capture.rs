//! The threat search of the capture variants: a VCF (victory by continuous fours) in which
//! every four may be answered by a capture.
//!
//! An AND/OR proof over real moves on the capture board, so the rules (captures, the fifth
//! pair, endgame capture) are judged by the same `play` as the game. At an attacker node the
//! attacker first tries to win at once (its fifth pair, or a five that cannot be broken),
//! then plays each four; a node where the defender threatens a five or its fifth pair is
//! given up. At a defender node every reply that could save the game is searched: the
//! blocks of the five points, every capture (it may break the four or take the fifth pair)
//! and, under endgame capture, every move that sets up a capture of two attacker stones (the
//! five it allows might then be broken). Any other reply lets the attacker make a five that
//! either wins at once or, under endgame capture, cannot be broken, so leaving those out
//! keeps the proof exact. Running out of nodes, depth or time means "not found", never a
//! false win.
//!
//! [`Tactics`] for the capture board: the capture-aware search uses this solver; the plain
//! search hands every question to the inner gomoku board, captures unseen.

use super::threats::{Solver, Tactics, ThreatLimits, ThreatWin};
use crate::game::gomoku::capture::lines::cells_of;
use crate::game::gomoku::capture::{CaptureBoard, Variant, PAIRS_TO_WIN};
use crate::game::gomoku::{Code, MAX_SIZE};
use crate::game::{Color, Game, Move, Outcome};
use std::time::Instant;

/// Nodes between two clock reads: capture nodes on 19×19 are slow (tens of µs each).
const CLOCK_INTERVAL: u64 = 64;

/// One threat search: its budget and counters.
struct Vcf<'a> {
    nodes: u64,
    limits: &'a ThreatLimits,
    aborted: bool,
}

impl Vcf<'_> {
    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self.limits.stop.as_ref().is_some_and(|s| s.is_set());
            self.aborted = late || stopped;
        }
        self.aborted
    }

    /// Attacker to move: a winning first move and the plies to the win, within `depth`
    /// fours.
    fn attack<V: Variant>(&mut self, b: &mut CaptureBoard<V>, depth: u32) -> Option<(Move, u32)> {
        if self.tick() || b.outcome().is_some() {
            return None;
        }
        let me = b.side_to_move();
        let opp = me.opponent();
        let (captures, _) = b.rows().capture_cells(me);
        if b.captured_pairs(me) + 1 >= PAIRS_TO_WIN {
            if let Some(m) = cells_of(&captures, b.height()).next() {
                return Some((m, 1));
            }
        }
        let mut fives = Vec::new();
        b.board.five_points(me, &mut fives);
        // Fives that only threaten (endgame capture) are searched like fours below.
        let mut forcing: Vec<Move> = Vec::new();
        for &m in &fives {
            if b.check_move(m).is_err() {
                continue;
            }
            b.play(m);
            let o = b.outcome();
            b.undo();
            match o {
                Some(Outcome::Win(c)) if c == me => return Some((m, 1)),
                None => forcing.push(m),
                _ => {}
            }
        }
        if depth == 0 {
            return None;
        }
        if b.board.code_count(opp, Code::Five) > 0 || b.open_five().is_some() {
            return None;
        }
        if b.captured_pairs(opp) + 1 >= PAIRS_TO_WIN && b.rows().capture_cells(opp).1 > 0 {
            return None;
        }
        let mut fours = Vec::new();
        b.board.threat_cells(me, Code::Four, &mut fours);
        fours.retain(|&(_, code)| code != Code::Five);
        // Stable: equal codes keep row-major order, so the search is deterministic.
        fours.sort_by_key(|&(_, code)| std::cmp::Reverse(code));
        forcing.extend(fours.into_iter().map(|(m, _)| m));
        for m in forcing {
            if b.check_move(m).is_err() {
                continue;
            }
            b.play(m);
            let r = match b.outcome() {
                Some(Outcome::Win(c)) if c == me => Some(0),
                Some(_) => None,
                None => self.defend(b, depth - 1),
            };
            b.undo();
            if let Some(p) = r {
                return Some((m, p + 1));
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// Defender to move after a four (or a five it may break): the plies to the attacker's
    /// win against the best defence, if every reply loses.
    fn defend<V: Variant>(&mut self, b: &mut CaptureBoard<V>, depth: u32) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let me = b.side_to_move();
        let att = me.opponent();
        // A five of our own ends it (Pente) or at least is no proof material.
        if b.board.code_count(me, Code::Five) > 0 {
            return None;
        }
        let mut replies = Vec::new();
        b.board.five_points(att, &mut replies);
        let rows = b.rows();
        let h = b.height();
        let (captures, _) = rows.capture_cells(me);
        replies.extend(cells_of(&captures, h));
        if V::ENDGAME_CAPTURE {
            // Cells q with two attacker stones (or five points) beyond them and an empty cell
            // after those: a stone on q threatens to capture that pair.
            let mut theirs = [0u32; MAX_SIZE];
            let own = if att == Color::Black {
                rows.black
            } else {
                rows.white
            };
            theirs[..h].copy_from_slice(&own[..h]);
            let mut points = Vec::new();
            b.board.five_points(att, &mut points);
            for p in points {
                theirs[p.y as usize] |= 1 << p.x;
            }
            let empty = rows.empty();
            let (flanks, _) = rows.line_pattern(&theirs, &theirs, &empty);
            replies.extend(cells_of(&flanks, h));
        }
        replies.sort_unstable();
        replies.dedup();
        let mut worst = 0;
        for m in replies {
            if b.check_move(m).is_err() {
                continue;
            }
            b.play(m);
            let r = match b.outcome() {
                Some(Outcome::Win(c)) if c == att => Some(1),
                Some(_) => None,
                None => self.attack(b, depth).map(|(_, p)| p + 1),
            };
            b.undo();
            match r {
                Some(p) => worst = worst.max(p),
                None => return None,
            }
        }
        // No reply at all means the attacker's threat stands: it wins next move.
        Some(worst.max(1))
    }
}

/// A VCF of the side to move with at most `depth` fours, within `limits`.
pub fn vcf<V: Variant>(
    b: &mut CaptureBoard<V>,
    depth: u32,
    limits: &ThreatLimits,
) -> Option<ThreatWin> {
    let mut s = Vcf {
        nodes: 0,
        limits,
        aborted: false,
    };
    s.attack(b, depth)
        .filter(|_| !s.aborted)
        .map(|(mv, plies)| ThreatWin { mv, plies })
}

/// Whether the opponent of the side to move threatens to win next move: a five on the board
/// still to be broken, or its fifth pair.
fn facing_capture_win<V: Variant>(b: &CaptureBoard<V>) -> bool {
    let opp = b.side_to_move().opponent();
    b.open_five().is_some()
        || (b.captured_pairs(opp) + 1 >= PAIRS_TO_WIN && b.rows().capture_cells(opp).1 > 0)
}

impl<V: Variant> Tactics for CaptureBoard<V> {
    fn find_vcf(&mut self, s: &mut Solver, depth: u32, limits: &ThreatLimits) -> Option<ThreatWin> {
        if self.aware {
            vcf(self, depth, limits)
        } else {
            self.board.find_vcf(s, depth, limits)
        }
    }

    fn find_vct(
        &mut self,
        s: &mut Solver,
        depth: u32,
        vcf_depth: u32,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        if self.aware {
            // Threes under captures: no exact solver yet, and the search must trust every
            // answer it gets, so none is given.
            None
        } else {
            self.board.find_vct(s, depth, vcf_depth, limits)
        }
    }

    fn can_four(&self) -> bool {
        self.board.can_four()
    }

    fn facing_five(&self) -> bool {
        self.board.facing_five() || (self.aware && facing_capture_win(self))
    }

    fn facing_threat(&self) -> bool {
        self.board.facing_threat() || (self.aware && facing_capture_win(self))
    }

    fn can_five(&self) -> bool {
        self.board.can_five()
    }
}
