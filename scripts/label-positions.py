#!/usr/bin/env python3
"""Labels training positions with a teacher engine's search score.

Reads the positions that `pbrain-wuzi tune --positions FILE` writes (one a line: the moves
from the empty board in "pos" notation, black first, e.g. `h8i9g7`, then the game result
and wuzi's static eval), sends each to a Gomocup (pbrain) engine with `BOARD`, and writes
`pos score` lines with the score the engine reports for the side to move: the last
`Eval N` (Rapfi and its descendants) or `ev N` (wuzi) in its MESSAGE lines before its move.
Mates (`+M7`, `-M4`, or wuzi's scores of 29000 and more) are written as +-20000.
`pbrain-wuzi tune --teacher FILE` blends these scores with the game results.

  scripts/label-positions.py ENGINE POSITIONS OUT [--size 15] [--rule 0] [--nodes N]
                             [--depth D] [--turn MS] [--every K] [--shard I/N]
                             [--rapfi-static]

--rapfi-static asks Rapfi (`scripts/build-rapfi.sh`) for its static pattern value instead of a
search score: the position goes in with `YXBOARD` (no search) and `TRACEBOARD` prints the
sum of its per-cell pattern values (`Eval[Black]`), written for the side to move. That is
the part of Rapfi's classical evaluation with the same form as wuzi's per-cell terms (its
threat table and two-ply average are not printed), for `pbrain-wuzi tune --static-teacher`.

--nodes / --depth bound each search (INFO max_node / max_depth, so the labels do not depend
on the machine's speed); --turn is the time fallback (default 5000 ms). --every K keeps
every K-th position. --shard I/N labels only positions whose index is I mod N, so several
processes can share the work; concatenate their outputs.
"""
import os
import argparse
import queue
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))  # the shared helpers in scripts/lib
from pbrain import Engine

EVAL_RE = re.compile(r"\b(?:Eval|ev) ([+-]?M?-?\d+)")
MATE = 20000


def parse_score(tok):
    if "M" in tok:
        return MATE if not tok.startswith("-") else -MATE
    v = int(tok)
    if v >= 29000:
        return MATE
    if v <= -29000:
        return -MATE
    return v


def moves_of(pos):
    out = []
    for letter, digits in re.findall(r"([a-z])(\d+)", pos):
        out.append((ord(letter) - ord("a"), int(digits) - 1))
    return out


def score(eng, moves, a):
    """The teacher's last reported score for the side to move, or None (three tries, the
    engine restarted after each failure)."""
    infos = {"rule": a.rule, "timeout_turn": a.turn, "timeout_match": 0, "thread_num": 1,
             "max_node": a.nodes, "max_depth": a.depth}
    for _ in range(3):
        try:
            got = eng.analyse(moves, size=a.size, infos=infos)
        except (queue.Empty, RuntimeError, BrokenPipeError):
            eng.restart()
            continue
        if got is None:
            return None
        found = [t for line in got[0] for t in EVAL_RE.findall(line)]
        return parse_score(found[-1]) if found else None
    return None


def static_value(eng, moves, a):
    """Rapfi's per-cell pattern sum for the side to move (`TRACEBOARD`'s `Eval[Black]`), or
    None (three tries, the engine restarted after each failure)."""
    for _ in range(3):
        try:
            eng.send(f"START {a.size}")
            line = eng.read(5.0)
            while line.upper().startswith("MESSAGE"):
                line = eng.read(5.0)
            if not line.upper().startswith("OK"):
                raise RuntimeError(f"no OK to START: {line}")
            eng.send(f"INFO rule {a.rule}")
            eng.send_stones("YXBOARD", moves)
            n = len(moves)
            eng.send("TRACEBOARD")
            # ABOUT's answer is the one line without MESSAGE: the trace has ended.
            eng.send("ABOUT")
            value = side = None
            while True:
                line = eng.read(5.0)
                if not line.upper().startswith("MESSAGE"):
                    break
                m = re.match(r"MESSAGE Eval\[Black\]: (-?\d+)", line)
                if m:
                    value = int(m.group(1))
                m = re.match(r"MESSAGE SideToMove: (\w+)", line)
                if m:
                    side = m.group(1)
            if value is None or side not in ("Black", "White"):
                return None
            # The position's side to move is the one after the last move, black first.
            if side != ("Black" if n % 2 == 0 else "White"):
                raise RuntimeError(f"the engine has {side} to move after {n} stones")
            return value if side == "Black" else -value
        except (queue.Empty, RuntimeError, BrokenPipeError):
            eng.restart()
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("positions")
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--turn", type=int, default=5000)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--shard", default="0/1")
    ap.add_argument("--rapfi-static", action="store_true",
                    help="label with Rapfi's static per-cell pattern sum (TRACEBOARD), no search")
    a = ap.parse_args()
    shard, shards = (int(v) for v in a.shard.split("/"))
    eng = Engine([a.engine])
    done = 0
    with open(a.positions) as f, open(a.out, "w") as out:
        for i, line in enumerate(f):
            if line.startswith("#") or not line.strip():
                continue
            if i % a.every or (i // a.every) % shards != shard:
                continue
            pos = line.split()[0]
            label = static_value if a.rapfi_static else score
            s = label(eng, moves_of(pos), a)
            if s is not None:
                out.write(f"{pos} {s}\n")
                done += 1
                if done % 1000 == 0:
                    out.flush()
                    print(f"{done} labelled", file=sys.stderr)
    eng.close()
    print(f"{done} positions labelled", file=sys.stderr)


if __name__ == "__main__":
    main()
