#!/usr/bin/env python3
"""Teacher labels from the scores an engine reported during arena games.

The arena keeps each move's `thinking` (the engine's last reported score for the side to
move, e.g. Rapfi's `Eval`). For every move of the named engine this writes two `pos score`
lines, the format `pbrain-wuzi tune --teacher` reads (and scripts/label-positions.py
writes): the position before the move with the engine's score, and the position after it
with the score negated (the score is the value of the line the engine chose, so the side
that moves next holds the other side of it). Labelling both keeps a stronger engine's
positions from reading as "the side to move is ahead": it wins most of its games, and with
only its own turns labelled the fit puts that into the tempo. Mates (`+M7`, `-M12`) are
written as +-MATE; other scores are clipped to +-MATE.

  scripts/record-labels.py GAMES.jsonl... --engine-name NAME... [--mate 3000] > teacher.txt

A position is the opening then the moves, black first, in "pos" notation (`h8i9`: column
letter, row from 1), as `tune` names them; a position reached in several games keeps its
first label.
"""
import argparse
import json
import sys


def pos_of(moves):
    return "".join(f"{chr(97 + x)}{y + 1}" for x, y in moves)


def parse_score(text, mate):
    """The reported score as an int for the side to move, or None if it is not a score."""
    t = text.strip()
    neg = t.startswith("-")
    body = t.lstrip("+-")
    if body.startswith("M"):
        return -mate if neg else mate
    try:
        v = int(body)
    except ValueError:
        return None
    v = -v if neg else v
    return max(-mate, min(mate, v))


def labels_of(game, names, mate):
    """The (pos, score) labels of one record: two for each move of an engine in `names`
    with a score."""
    opening = [tuple(m) for m in game["opening"]]
    moves = [tuple(m) for m in game["moves"]]
    # moves[0] is black's when the opening has an even number of stones
    first_black = len(opening) % 2 == 0
    out = []
    for i, t in enumerate(game.get("thinking") or []):
        if i >= len(moves) or not t or "score" not in t:
            continue
        mover = game["black"] if (i % 2 == 0) == first_black else game["white"]
        if mover not in names:
            continue
        s = parse_score(str(t["score"]), mate)
        if s is None:
            continue
        before = opening + moves[:i]
        out.append((pos_of(before), s))
        out.append((pos_of(before + [moves[i]]), -s))
    return out


def main():
    ap = argparse.ArgumentParser(
        description="Teacher labels (`pos score` lines) from the scores an engine reported in "
        "arena game records.")
    ap.add_argument("games", nargs="+", metavar="GAMES.jsonl")
    ap.add_argument("--engine-name", required=True, nargs="+", metavar="NAME",
                    help="the engine(s) whose reported scores label the positions (the "
                    "arena's names; both of a self-play run's, e.g. `a b`)")
    ap.add_argument("--mate", type=int, default=3000,
                    help="what a mate is written as, and the clip of other scores")
    a = ap.parse_args()
    seen = {}
    games = 0
    for path in a.games:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    g = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{n}: not a game record: {e}")
                if not set(a.engine_name) & {g.get("black"), g.get("white")}:
                    continue
                games += 1
                for pos, s in labels_of(g, a.engine_name, a.mate):
                    # a position reached in several games keeps its first label
                    seen.setdefault(pos, s)
    out = sys.stdout
    out.write(f"# {len(seen)} positions labelled by {' and '.join(a.engine_name)}'s "
              f"reported scores "
              f"in {games} game(s)\n")
    for pos, s in seen.items():
        out.write(f"{pos} {s}\n")
    print(f"record-labels: {len(seen)} positions from {games} game(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
