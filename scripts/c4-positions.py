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
from c4bits import wins


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
    seen = set()
    out = []
    tries = 0
    while len(out) < a.count:
        tries += 1
        if tries > 1000 * a.count:
            raise SystemExit("cannot find enough positions")
        plies = rng.randint(a.min_plies, a.max_plies)
        heights = [0] * w
        mine, theirs = 0, 0  # side to move, the other side
        seq = []
        ok = True
        for _ in range(plies):
            col = rng.choice([c for c in range(w) if heights[c] < h])
            mine |= 1 << (col * (h + 1) + heights[col])
            heights[col] += 1
            seq.append("123456789abcdefghijklmnopqrstuvwxyz"[col])
            if wins(mine, h):
                ok = False
                break
            mine, theirs = theirs, mine
        if not ok:
            continue
        # The side to move must not win at once.
        if any(
            heights[c] < h and wins(mine | 1 << (c * (h + 1) + heights[c]), h)
            for c in range(w)
        ):
            continue
        s = "".join(seq)
        if s in seen:
            continue
        seen.add(s)
        out.append(s)
    print("\n".join(out))


if __name__ == "__main__":
    main()
