//! What a cell's four line patterns give each colour (code, eval values, ordering ranks),
//! tabulated once for every combination so that the incremental update is one lookup.

use super::super::pattern::{combine, combo_class, Code, Pattern};
use super::super::weights;
use std::sync::OnceLock;

/// What a cell's four patterns give one colour: its code, its eval values by role (see
/// [`Cell::value`]) and its ordering ranks (see [`Cell::order`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct CellTerms {
    pub(super) code: Code,
    pub(super) value: [i32; 2],
    pub(super) order: [i32; 2],
}

/// [`CellTerms`] for every combination of four patterns.
type ComboTable = Vec<CellTerms>;

/// Index of four directional patterns in [`combo_table`].
#[inline]
pub(super) fn combo_index(p: &[Pattern; 4]) -> usize {
    ((p[0] as usize * 10 + p[1] as usize) * 10 + p[2] as usize) * 10 + p[3] as usize
}

/// [`cell_terms`] for every combination of four patterns (`[renju_black][index]`), so the
/// hot update is one lookup; 2 × 10^4 entries, built once.
pub(super) fn combo_table() -> &'static [ComboTable; 2] {
    static TABLE: OnceLock<[ComboTable; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let build = |renju_black: bool| {
            (0..10_000usize)
                .map(|i| {
                    let p = |k: usize| Pattern::from_index((i / 10usize.pow(3 - k as u32)) % 10);
                    cell_terms(&[p(0), p(1), p(2), p(3)], renju_black)
                })
                .collect()
        };
        [build(false), build(true)]
    })
}

/// A cell's terms for one colour from its four patterns. Renju black's certain fouls are
/// worth nothing to the evaluation and rank only by their code.
#[inline]
pub(super) fn cell_terms(pats: &[Pattern; 4], renju_black: bool) -> CellTerms {
    let code = combine(pats, renju_black);
    let c = code as usize;
    if code == Code::Forbidden {
        return CellTerms {
            code,
            value: [0; 2],
            order: [weights::ORDER_CODE_ATTACK[c], weights::ORDER_CODE_DEFEND[c]],
        };
    }
    let combo = combo_class(pats);
    let role = |r: usize| -> i32 {
        let v: i32 = pats.iter().map(|&p| weights::PATTERN[r][p as usize]).sum();
        v + weights::CODE[r][c] + weights::COMBO[r][combo]
    };
    let value = [role(0), role(1)];
    // The ranks start from the eval value of the cell to the side that would play it (half
    // of it for a block) and add what the fit found on top, by code and by combination.
    let order = [
        weights::ORDER_CODE_ATTACK[c] + value[0] + weights::ORDER_ATTACK[combo],
        weights::ORDER_CODE_DEFEND[c] + value[0] / 2 + weights::ORDER_DEFEND[combo],
    ];
    CellTerms { code, value, order }
}
