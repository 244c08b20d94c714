#!/usr/bin/env python3
"""Seeded random Connect Four positions for solver benchmarks.

Prints COUNT distinct positions in the common notation (played columns, 1-based), each
reached by uniformly random moves, with a number of plies drawn uniformly from MIN..MAX.
A position is kept only if the game is still open and the side to move cannot win at
once (the solvers' hard cases; an immediate win costs nothing). The same seed gives the
same list on any machine (Python's Mersenne Twister is specified).

usage: scripts/c4-positions.py [--seed N] [--count N] [--min-plies N] [--max-plies N]
                               [--width W] [--height H]
"""
import sys
import os
import argparse
import random

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))  # the shared helpers in scripts/lib
from c4bits import distinct, random_quiet_position


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--min-plies", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=14)
    ap.add_argument("--width", type=int, default=7)
    ap.add_argument("--height", type=int, default=6)
    a = ap.parse_args()
    w, h = a.width, a.height
    if w > 35 or not 0 <= a.min_plies <= a.max_plies < w * h:
        ap.error("bad sizes")
    rng = random.Random(a.seed)

    def draw():
        moves = random_quiet_position(rng, w, h, rng.randint(a.min_plies, a.max_plies))
        return moves and "".join("123456789abcdefghijklmnopqrstuvwxyz"[c] for c, _ in moves)

    out = distinct(a.count, draw, "positions")
    print("\n".join(out))


if __name__ == "__main__":
    main()
