#!/usr/bin/env python3
"""Connect Four positions taken from arena games, for solver figures on real play.

Reads the arena's games.jsonl (one game a line: its opening and moves as [x, y] cells) and
prints, for each game and each ply asked for, the position after that many stones in the
solver's notation (the columns played, 1-based, `a` = 10), if the game lasted that long.
Positions where the side to move wins at once are skipped (the solver refuses nothing, but
they cost nothing either), as are repeats.

usage: scripts/lab/c4-game-positions.py GAMES_JSONL [--plies 30,35,40] [--per-ply N]
then:  ... | pbrain-wuzi solve --width W --height H --timeout-s 60
"""
import sys
import os
import argparse
import json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))  # the shared helpers in scripts/lib
from c4bits import NOTATION, wins


def wins_at_once(columns, w, h):
    """Whether the side to move after `columns` can complete four with its next stone."""
    heights = [0] * w
    stones = [0, 0]
    for i, c in enumerate(columns):
        stones[i % 2] |= 1 << (c * (h + 1) + heights[c])
        heights[c] += 1
    me = stones[len(columns) % 2]
    return any(
        heights[c] < h and wins(me | 1 << (c * (h + 1) + heights[c]), h) for c in range(w)
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games")
    ap.add_argument("--plies", default="30,35,40")
    ap.add_argument("--per-ply", type=int, help="at most this many positions per ply")
    a = ap.parse_args()
    plies = [int(p) for p in a.plies.split(",")]
    games = [json.loads(line) for line in open(a.games)]
    seen = set()
    # Ply by ply, games in file order: the first N positions of each ply.
    for p in plies:
        found = 0
        for g in games:
            if a.per_ply is not None and found >= a.per_ply:
                break
            w, h = g["width"], g["height"]
            cols = [x for x, _ in g["opening"] + g["moves"]]
            # The last stone of a finished game ends it: only positions still open count.
            if p >= len(cols) or wins_at_once(cols[:p], w, h):
                continue
            s = "".join(NOTATION[c] for c in cols[:p])
            if s not in seen:
                seen.add(s)
                found += 1
                print(s)


if __name__ == "__main__":
    main()
