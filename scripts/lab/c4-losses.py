#!/usr/bin/env python3
"""Where an engine lost its Connect Four arena games: a blunder, or lost before the solver sees.

Reads the arena's games.jsonl and, for each game the engine named by --engine lost, walks
back over its own moves from the end: the position before each of them is given to
`BIN solve --weak --timeout-s T`, until one is not lost for it (a win or a draw: the move
played there was the blunder that lost the game) or the solver times out (the engine was
already lost there, and where it went wrong is beyond the solver's reach at that budget).
A game whose every position is proven lost back to the engine's first move was lost from
its opening. Then, by opening (the arena plays each with both colours): how many the
engine won with both colours, lost with both, or split (one colour won, the other lost; a
decided opening splits however well the loser defends).

usage: scripts/lab/c4-losses.py GAMES_JSONL --bin BIN [--engine default] [--timeout-s 5]
prints one line per lost game, then a summary:
  game 18 opening 4565 as W, 59 plies: blunder at ply 33 (won -> lost)
  game 6 opening 4b41 as W, 19 plies: lost at ply 9, unknown at ply 7
"""
import sys
import os
import argparse
import collections
import json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))  # the shared helpers in scripts/lib
from c4bits import NOTATION, solve_weak


def columns(g):
    return [x for x, _ in g["opening"] + g["moves"]]


def engine_colour(g, name):
    """0 when `name` played black (first), 1 white, None when it did not play."""
    if g["black"] == name:
        return 0
    if g["white"] == name:
        return 1
    return None


def outcome(g, colour):
    """'win', 'loss' or 'draw' for the side of `colour` (0 black, 1 white)."""
    r = g["result"]
    if r == "1/2-1/2":
        return "draw"
    black_won = r == "1-0"
    return "win" if black_won == (colour == 0) else "loss"


def walk(binary, g, colour, seconds):
    """(kind, ply, note) for a lost game; see the module notes."""
    w, h = g["width"], g["height"]
    cols = columns(g)
    first = len(g["opening"])
    own = [i for i in range(first, len(cols)) if i % 2 == colour]
    lost_at = None
    for ply in reversed(own):
        v = solve_weak(binary, w, h, "".join(NOTATION[c] for c in cols[:ply]), seconds)
        if v is None:
            return "unknown", lost_at, ply
        if v >= 0:
            return "blunder", ply, "won" if v > 0 else "drawn"
        lost_at = ply
    return "opening", lost_at, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games")
    ap.add_argument("--bin", required=True, help="a pbrain-wuzi binary (its solve command)")
    ap.add_argument("--engine", default="default", help="the engine's name in the arena")
    ap.add_argument("--timeout-s", type=float, default=5.0)
    a = ap.parse_args()
    games = [json.loads(line) for line in open(a.games) if line.strip()]
    kinds = collections.Counter()
    by_opening = collections.defaultdict(list)
    played = 0
    for g in games:
        colour = engine_colour(g, a.engine)
        if colour is None:
            continue
        played += 1
        res = outcome(g, colour)
        key = "".join(NOTATION[c] for c in columns(g)[: len(g["opening"])])
        by_opening[key].append(res)
        if res != "loss":
            continue
        kind, ply, note = walk(a.bin, g, colour, a.timeout_s)
        kinds[kind] += 1
        head = f"game {g['id']} opening {key or '-'} as {'BW'[colour]}, {len(columns(g))} plies:"
        if kind == "blunder":
            print(f"{head} blunder at ply {ply} ({note} -> lost)", flush=True)
        elif kind == "opening":
            print(f"{head} lost from the opening (every position proven lost)", flush=True)
        elif ply is None:
            print(f"{head} unknown at ply {note} (its last move)", flush=True)
        else:
            print(f"{head} lost at ply {ply}, unknown at ply {note}", flush=True)
    pairs = collections.Counter()
    for results in by_opening.values():
        if len(results) != 2:
            pairs["unpaired"] += 1
        elif results.count("win") == 2:
            pairs["won both"] += 1
        elif results.count("loss") == 2:
            pairs["lost both"] += 1
        elif "win" in results and "loss" in results:
            pairs["split"] += 1
        else:
            pairs["with a draw"] += 1
    losses = sum(kinds.values())
    print(
        f"{a.engine}: {played} games, {losses} lost: {kinds['blunder']} blunders, "
        f"{kinds['unknown']} lost beyond the solver's reach, {kinds['opening']} lost from the opening"
    )
    order = ["won both", "split", "lost both", "with a draw", "unpaired"]
    print("openings: " + ", ".join(f"{pairs[k]} {k}" for k in order))


if __name__ == "__main__":
    main()
