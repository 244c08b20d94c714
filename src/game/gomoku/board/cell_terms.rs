//! What a cell's four line patterns give each colour (code, eval values, ordering ranks),
//! tabulated once for every combination so that the incremental update is one lookup.

use super::super::pattern::{combine, combo_class, Code, Pattern, Shape};
use super::super::shape::NUM_SHAPES;
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

/// [`pattern_terms`] for every combination of four patterns (`[renju_black][index]`), so the
/// hot update is one lookup; 2 × 10^4 entries, built once.
pub(super) fn combo_table() -> &'static [ComboTable; 2] {
    static TABLE: OnceLock<[ComboTable; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let build = |renju_black: bool| {
            (0..10_000usize)
                .map(|i| {
                    let p = |k: usize| Pattern::from_index((i / 10usize.pow(3 - k as u32)) % 10);
                    pattern_terms(&[p(0), p(1), p(2), p(3)], renju_black)
                })
                .collect()
        };
        [build(false), build(true)]
    })
}

/// The terms a cell's four patterns decide, for one colour: the code, the code's and the
/// combination's eval values (the per-direction shape weights are added by
/// [`with_shapes`]) and the ordering ranks without the eval value. Renju black's certain
/// fouls are worth nothing to the evaluation and rank only by their code.
#[inline]
fn pattern_terms(pats: &[Pattern; 4], renju_black: bool) -> CellTerms {
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
    let role = |r: usize| weights::CODE[r][c] + weights::COMBO[r][combo];
    let order = [
        weights::ORDER_CODE_ATTACK[c] + weights::ORDER_ATTACK[combo],
        weights::ORDER_CODE_DEFEND[c] + weights::ORDER_DEFEND[combo],
    ];
    CellTerms {
        code,
        value: [role(0), role(1)],
        order,
    }
}

/// The full terms from the tabulated [`pattern_terms`] and the cell's four shapes. The
/// ranks start from the eval value of the cell to the side that would play it (half of it
/// for a block), its shapes valued by the ordering's own ranks, and add what was set on
/// top, by code and by combination.
#[inline(always)]
pub(super) fn with_shapes(t: &CellTerms, shapes: &[Shape; 4]) -> CellTerms {
    if t.code == Code::Forbidden {
        return *t;
    }
    let sum = |w: &[i32; NUM_SHAPES]| -> i32 {
        w[shapes[0] as usize]
            + w[shapes[1] as usize]
            + w[shapes[2] as usize]
            + w[shapes[3] as usize]
    };
    let value = [
        t.value[0] + sum(&weights::SHAPE[0]),
        t.value[1] + sum(&weights::SHAPE[1]),
    ];
    // The ordering reads the lines through its own shape ranks, so that a refit of the
    // evaluation's shape weights leaves the order of the moves as it was.
    let rank = t.value[0] + sum(&weights::ORDER_SHAPE);
    CellTerms {
        code: t.code,
        value,
        order: [t.order[0] + rank, t.order[1] + rank / 2],
    }
}

/// A cell's terms for one colour from its four shapes (the reference for the tabulated
/// update).
pub(super) fn cell_terms(shapes: &[Shape; 4], renju_black: bool) -> CellTerms {
    let pats = shapes.map(Shape::pattern);
    with_shapes(&pattern_terms(&pats, renju_black), shapes)
}
