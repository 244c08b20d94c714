//! The board's self-check: every incremental structure recomputed from scratch and compared
//! (tests and debugging only).

use super::*;

impl<R: Rule> Board<R> {
    /// Recomputes every incremental structure from the stones, walls and move history and
    /// compares: bitboards, line keys, patterns, codes, values, per-code counts, totals,
    /// influence, Zobrist key, occupancy. A test and debugging aid (O(cells)); `Err` names
    /// the first difference.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut stones = [[0u32; MAX_SIZE]; 2];
        let mut hash = 0;
        for (k, st) in self.history.iter().enumerate() {
            if let Some(m) = st.mv {
                let c = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let (x, y) = (m.x as usize, m.y as usize);
                if stones[0][y] & (1 << x) != 0 || stones[1][y] & (1 << x) != 0 {
                    return Err(format!("history plays {m} twice"));
                }
                stones[c.index()][y] |= 1 << x;
                hash ^= zobrist(c, x, y);
            }
        }
        if stones != self.stones {
            return Err("bitboards differ from the history".into());
        }
        if hash != self.hash {
            return Err("zobrist key differs".into());
        }
        self.check_derived()
    }

    /// The part of [`Board::check_invariants`] that reads only the bitboards, not the move
    /// history: occupancy, Zobrist key, line keys, patterns, codes, values, counts, totals
    /// and influence. The capture variants use it directly, since captured stones leave the
    /// board without leaving the history.
    pub(in crate::game::gomoku) fn check_derived(&self) -> Result<(), String> {
        let mut hash = 0;
        for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
            for y in 0..self.height {
                for x in 0..self.width {
                    if self.stones[c][y] & (1 << x) != 0 {
                        hash ^= zobrist(color, x, y);
                    }
                }
            }
        }
        if hash != self.hash {
            return Err("zobrist key differs from the bitboards".into());
        }
        let filled: usize = (0..self.height)
            .map(|y| (self.stones[0][y] | self.stones[1][y] | self.walls[y]).count_ones() as usize)
            .sum();
        if filled != self.occupied {
            return Err("occupied count differs".into());
        }
        let mut counts = [[0u16; NUM_CODES]; 2];
        let mut totals = [[0i32; 2]; 2];
        for y in 0..self.height {
            for x in 0..self.width {
                let cell = &self.cells[self.idx(x, y)];
                let keys = self.scratch_keys(x, y);
                if keys != cell.key {
                    return Err(format!("line keys differ at {x},{y}"));
                }
                let mut infl = [0u16; 2];
                for dy in -2i32..=2 {
                    for dx in -2i32..=2 {
                        let (qx, qy) = (x as i32 + dx, y as i32 + dy);
                        if self.on_board(qx, qy) {
                            if let Some(c) = self.color_at(qx as usize, qy as usize) {
                                infl[c.index()] +=
                                    params::INFLUENCE[(dy + 2) as usize][(dx + 2) as usize];
                            }
                        }
                    }
                }
                if infl != self.influence[self.idx(x, y)] {
                    return Err(format!("influence differs at {x},{y}"));
                }
                if !self.is_empty_xy(x, y) {
                    continue;
                }
                for (col, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    let mut pats = [Pattern::None; 4];
                    for d in 0..4 {
                        pats[d] = self.tables[col].get(keys[d], color);
                    }
                    if pats != cell.pat[col] {
                        return Err(format!("patterns differ at {x},{y} colour {col}"));
                    }
                    let t = cell_terms(&pats, R::RENJU && col == 0);
                    let (code, value) = (t.code, t.value);
                    if code != cell.code[col]
                        || value != cell.value[col]
                        || t.order != cell.order[col]
                    {
                        return Err(format!(
                            "code, value or order differs at {x},{y} colour {col}"
                        ));
                    }
                    counts[col][code as usize] += 1;
                    totals[col][0] += value[0];
                    totals[col][1] += value[1];
                }
            }
        }
        if counts != self.code_count {
            return Err("per-code counts differ".into());
        }
        if totals != self.eval_total {
            return Err("evaluation totals differ".into());
        }
        Ok(())
    }
}
