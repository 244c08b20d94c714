#!/usr/bin/env python3
"""Seeded random Connect Four openings for the arena, in its "pos" format.

Prints COUNT distinct openings of PLIES random moves each (uniform over the columns not
full), none of which holds an alignment or leaves the side to move a win at once. With
--solver, an opening is also dropped when that binary's `solve --weak` settles it within
--decided-s seconds: a quick forced win (an open two on the bottom row, say) decides the
game by colour, and the arena plays each opening with both colours, so such an opening
only adds a win to each side. A pos line names cells, letter = column from `a`, number =
row from the top + 1, so a stone in column c landing on the bottom row of a board H high
is `<c>H`. The same seed gives the same list on any machine (Python's Mersenne Twister is
specified; the solver's verdicts are exact, only a slow machine may keep a few more).

usage: scripts/lab/c4-openings.py [--width 12] [--height 6] [--count 50] [--plies 4] [--seed 16]
                              [--solver target/release/pbrain-wuzi] [--decided-s 0.2]
"""
import sys
import os
import argparse
import random

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))  # the shared helpers in scripts/lib
from c4bits import NOTATION, distinct, random_quiet_position, solve_weak


def decided(solver, w, h, columns, seconds):
    """Whether `solver solve --weak` settles the position within `seconds`."""
    return solve_weak(solver, w, h, columns, seconds) is not None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--height", type=int, default=6)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--solver", help="a pbrain-wuzi binary: drop openings it settles fast")
    ap.add_argument("--decided-s", type=float, default=0.2)
    a = ap.parse_args()
    w, h = a.width, a.height
    if not (4 <= w <= 26 and 4 <= h <= 16 and 0 < a.plies < w * h):
        ap.error("bad sizes")
    rng = random.Random(a.seed)

    def draw():
        moves = random_quiet_position(rng, w, h, a.plies)
        if moves is None:
            return None
        cells = "".join("abcdefghijklmnopqrstuvwxyz"[c] + str(h - row) for c, row in moves)
        return cells, "".join(NOTATION[c] for c, _ in moves)

    def accept(opening):
        return not (a.solver and decided(a.solver, w, h, opening[1], a.decided_s))

    out = [cells for cells, _ in distinct(a.count, draw, "openings", accept)]
    print("\n".join(out))


if __name__ == "__main__":
    main()
