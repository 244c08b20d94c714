//! The captured pairs of the capture games (Pente, Ninuki), which a `BOARD` block cannot
//! carry: the `INFO captures_*` keys, and the engine's colour worked out from stones and
//! captures.

use super::*;

/// The engine's colour for a `BOARD` with `own` and `opp` stones, black having captured
/// `pairs[0]` pairs and white `pairs[1]`: the engine is to move, so if it is black both
/// sides have put down as many stones, and if it is white black has put down one more.
/// Stones put down are those on the board plus two for each pair the other side took; the
/// colour whose count fits better wins, black on a tie (without captures: white exactly
/// when the opponent has more stones).
pub(super) fn board_colour(own: usize, opp: usize, pairs: [usize; 2]) -> Color {
    let [black_took, white_took] = pairs.map(|p| 2 * p as i64);
    let (own, opp) = (own as i64, opp as i64);
    let as_black = (own + white_took) - (opp + black_took);
    let as_white = (opp + white_took) - (own + black_took);
    if (as_white - 1).abs() < as_black.abs() {
        Color::White
    } else {
        Color::Black
    }
}

impl Engine {
    /// `INFO captures_black|white N`: the pairs a side has captured, which `BOARD` cannot
    /// carry. The current position is rebuilt with the new count (and every later one in
    /// this game starts from it); a count the game cannot hold is dropped and reported at
    /// the next command, the position unchanged.
    pub(super) fn adopt_captures(&mut self, key: &str) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        if g.captures().is_none() {
            return;
        }
        match self.replay(&self.steps) {
            Ok(ng) => {
                self.game = Some(ng);
                self.complain(Concern::Captures, None);
            }
            Err(e) => {
                self.settings.raw.remove(key);
                self.complain(Concern::Captures, Some(e));
            }
        }
    }

    /// The captured pairs of black and white that the `INFO captures_*` keys give (0 where
    /// a key is missing or unreadable).
    pub(super) fn captured_pairs(&self) -> [usize; 2] {
        CAPTURE_KEYS.map(|key| {
            self.settings
                .raw
                .get(key)
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        })
    }

    /// Sets the captured pairs the `INFO captures_*` keys give on a fresh board.
    pub(super) fn apply_captures(&self, g: &mut AnyGame) -> Result<(), EngineError> {
        for (key, c) in CAPTURE_KEYS.into_iter().zip([Color::Black, Color::White]) {
            let Some(v) = self.settings.raw.get(key) else {
                continue;
            };
            let bad = |why: String| EngineError::BadPosition(format!("INFO {key} {v}: {why}"));
            let n: u32 = v.trim().parse().map_err(|_| bad("not a count".into()))?;
            g.set_captured_pairs(c, n).map_err(|e| bad(e.to_string()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_colour_counts_the_stones_captures_took_off() {
        // Without captures: white exactly when the opponent has more stones.
        assert_eq!(board_colour(3, 3, [0, 0]), Color::Black);
        assert_eq!(board_colour(3, 4, [0, 0]), Color::White);
        assert_eq!(board_colour(0, 0, [0, 0]), Color::Black);
        // Black (to move) lost two pairs: fewer own stones, still black.
        assert_eq!(board_colour(6, 10, [0, 2]), Color::Black);
        // White (to move) took one pair: black put down one more than white did.
        assert_eq!(board_colour(5, 4, [0, 1]), Color::White);
    }

    #[test]
    fn captured_pairs_from_info_shape_the_position_and_bad_counts_are_reported() {
        let mut e = Engine::new();
        e.set_info("game", "pente");
        e.start(19, 19).unwrap();
        e.set_info("captures_white", "3");
        assert_eq!(e.game().unwrap().captures(), Some([0, 3]));
        // BOARD keeps the counts; stones flanked in the list are not captured.
        let s = |x, y, st| (Move::new(x, y), st);
        e.set_board(&[
            s(1, 1, Stone::Opponent),
            s(2, 1, Stone::Own),
            s(3, 1, Stone::Own),
            s(4, 1, Stone::Opponent),
        ])
        .unwrap();
        let g = e.game().unwrap();
        assert_eq!(g.captures(), Some([0, 3]));
        assert_eq!(g.stone_at(Move::new(2, 1)), g.stone_at(Move::new(3, 1)));
        assert!(g.stone_at(Move::new(2, 1)).is_some());
        // A count the game cannot hold: reported at the next command, position unchanged.
        e.set_info("captures_black", "7");
        assert!(matches!(
            e.take_pending_error(),
            Some(EngineError::BadPosition(_))
        ));
        assert_eq!(e.game().unwrap().captures(), Some([0, 3]));
        // A new game starts with none.
        e.start(19, 19).unwrap();
        assert_eq!(e.game().unwrap().captures(), Some([0, 0]));
    }

    #[test]
    fn a_capturing_move_is_taken_back_with_its_captures() {
        let mut e = Engine::new();
        e.set_info("game", "ninuki");
        e.start(19, 19).unwrap();
        for (x, y) in [(0, 0), (1, 0), (9, 9), (2, 0), (3, 0)] {
            e.opponent_move(Move::new(x, y)).unwrap();
        }
        let g = e.game().unwrap();
        assert_eq!(g.captures(), Some([1, 0]));
        assert_eq!(g.stone_at(Move::new(1, 0)), None);
        e.takeback(Move::new(3, 0)).unwrap();
        let g = e.game().unwrap();
        assert_eq!(g.captures(), Some([0, 0]));
        assert_eq!(g.stone_at(Move::new(1, 0)), Some(Color::White));
        assert_eq!(g.stone_at(Move::new(2, 0)), Some(Color::White));
        // Replayed, it captures again; an occupied cell is refused and changes nothing.
        e.opponent_move(Move::new(3, 0)).unwrap();
        assert!(e.opponent_move(Move::new(3, 0)).is_err());
        assert_eq!(e.game().unwrap().captures(), Some([1, 0]));
    }
}
