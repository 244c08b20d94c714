#!/usr/bin/env python3
"""How much worse than a stronger engine's move an engine's move is, judged by that engine.

  scripts/move-loss.py make --games GAMES.jsonl [...] --rapfi BIN [--engine-name NAME ...]
                            [--per-game N] [--max N] [--judge-nodes N] [--seed S] > FILE
  scripts/move-loss.py run --engine BIN [--turn MS | --nodes N] [--param NAME=VALUE ...]
                           [--positions FILE] [--rapfi BIN] [--judge-nodes N]
                           [--concurrency N] [--cache FILE] [--out FILE]

A game against Rapfi gives one bit per game, and 200 games measure a build to about ±55
Elo: too coarse for a step of 10-30 Elo. This measure asks about every move instead. Each
position of the set comes from a real game with the engine to move, undecided (Rapfi's
score within ±1500, no forced win seen). `run` lets the engine choose its move (`--turn` ms
or `--nodes`, one thread, a fresh process per position), and Rapfi (`scripts/build-rapfi.sh`)
judges it: the value of a move is minus Rapfi's score of the position after it, searched to
`--judge-nodes` nodes in a fresh process (deterministic), turned into a winning chance with
Rapfi's own scale (sigmoid(score / 200)). The loss of a move is the judged chance of Rapfi's
own move (stored in the set) minus that of the engine's move; the report is the mean loss
in percentage points with its 95% interval, and the share of moves losing 10 points or
more. Judged values are cached (`--cache`, default arena-out/move-loss-cache.json), so a
build that plays the moves another build played costs no judging.

`make` samples the positions from arena records (`games.jsonl`) where `--engine-name` was to
move and Rapfi played the other side, asks Rapfi for its move in each (`--judge-nodes`) and
prints the set: one JSON line per position with `moves` (black first) and `best`.
The default set, scripts/data/move-loss-free15.jsonl, was made so (`--per-game 2 --max 1500
--seed 11`) from 1,320 games of wuzi builds against Rapfi at 200 ms and 1 s, 15x15
freestyle (docs/results/tactics.md, "Judging moves instead of games").

Two builds are compared on the same positions: the difference of their mean losses, with
the paired interval, is printed by `compare A.json B.json` on the `--out` files of two runs.
"""
import argparse
import hashlib
import json
import math
import os
import random
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))  # the shared helpers in scripts/lib
from pbrain import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SET = os.path.join(ROOT, "scripts", "data", "move-loss-free15.jsonl")
DEFAULT_RAPFI = os.path.join(ROOT, "arena-out", "rapfi", "pbrain-rapfi")
DEFAULT_CACHE = os.path.join(ROOT, "arena-out", "move-loss-cache.json")
MATE = 29000
SCALE = 200.0  # Rapfi's ScalingFactor: winning chance = sigmoid(score / 200)


def chance(score):
    """A score for the side to move as a winning chance; mates are certain."""
    if score >= MATE:
        return 1.0
    if score <= -MATE:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / SCALE))


def rapfi_score(lines):
    """Rapfi's last `Eval` (side to move), mates as ±(30000 - plies); None if none."""
    score = None
    for line in lines:
        m = re.search(r"Eval ([+-]?)(M?)(\d+)", line)
        if m:
            sign = -1 if m.group(1) == "-" else 1
            v = int(m.group(3))
            score = sign * (30000 - v if m.group(2) else v)
    return score


def ask(cmd, moves, infos, timeout):
    """The engine's MESSAGE lines and move for `moves` (black first), from a fresh process."""
    eng = Engine(cmd, cwd=os.path.dirname(os.path.abspath(cmd[0])))
    try:
        got = eng.analyse(moves, infos=infos, timeout=timeout)
    finally:
        eng.close()
    if got is None:
        raise RuntimeError(f"{cmd[0]} refused the position {moves}")
    lines, move = got
    x, y = (int(v) for v in move.split(","))
    return lines, (x, y)


def judge_infos(nodes):
    return {"timeout_turn": 600_000, "timeout_match": 0, "rule": 0, "thread_num": 1,
            "max_node": nodes}


class Judge:
    """Rapfi's value of moves, cached by position, move and node budget."""

    def __init__(self, rapfi, nodes, path):
        self.cmd = [os.path.abspath(rapfi)]
        self.nodes = nodes
        self.path = path
        self.lock = threading.Lock()
        self.cache = {}
        if path and os.path.exists(path):
            with open(path) as f:
                self.cache = json.load(f)

    def key(self, moves, move):
        text = json.dumps([moves, move, self.nodes])
        return hashlib.sha1(text.encode()).hexdigest()

    def value(self, moves, move):
        """Minus Rapfi's score of the position after `move`: the move's value for the side
        that plays it."""
        k = self.key(moves, move)
        with self.lock:
            if k in self.cache:
                return self.cache[k]
        lines, _ = ask(self.cmd, [tuple(m) for m in moves] + [tuple(move)],
                       judge_infos(self.nodes), 600)
        s = rapfi_score(lines)
        if s is None:
            raise RuntimeError(f"Rapfi reported no score after {move}")
        with self.lock:
            self.cache[k] = -s
        return -s

    def save(self):
        if not self.path:
            return
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.cache, f)
        os.replace(tmp, self.path)


def interval(xs):
    """Mean and the half-width of its 95% interval."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def run(args):
    positions = [json.loads(line) for line in open(args.positions)]
    cmd = [os.path.abspath(args.engine)] + [a for p in args.param for a in ("--param", p)]
    infos = {"timeout_turn": args.turn, "timeout_match": 0, "rule": 0, "thread_num": 1}
    if args.nodes is not None:
        infos.update({"timeout_turn": 600_000, "max_node": args.nodes})
    judge = Judge(args.rapfi, args.judge_nodes, args.cache)

    def one(p):
        _, move = ask(cmd, [tuple(m) for m in p["moves"]], infos, 120)
        best = tuple(p["best"])
        vb = judge.value(p["moves"], best)
        vm = vb if move == best else judge.value(p["moves"], move)
        return {"move": list(move), "loss": 100 * (chance(vb) - chance(vm))}

    try:
        with ThreadPoolExecutor(args.concurrency) as ex:
            res = list(ex.map(one, positions))
    finally:
        judge.save()
    losses = [r["loss"] for r in res]
    mean, half = interval(losses)
    same = sum(tuple(r["move"]) == tuple(p["best"]) for r, p in zip(res, positions))
    big = sum(x >= 10 for x in losses)
    bound = f"{args.nodes} nodes" if args.nodes is not None else f"{args.turn} ms"
    print(f"mean loss {mean:.2f} ± {half:.2f} points over {len(res)} positions at {bound}; "
          f"Rapfi's move {same} ({100 * same / len(res):.1f}%); "
          f"losing 10+ points {big} ({100 * big / len(res):.1f}%)")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f)


def compare(args):
    a = json.load(open(args.a))
    b = json.load(open(args.b))
    if len(a) != len(b):
        sys.exit("the two runs are on different position sets")
    d = [x["loss"] - y["loss"] for x, y in zip(a, b)]
    mean, half = interval(d)
    print(f"{args.a} minus {args.b}: {mean:+.2f} ± {half:.2f} points of mean loss "
          f"over {len(d)} positions (negative: the first loses less)")


def make(args):
    rng = random.Random(args.seed)
    picked = []
    for path in args.games:
        for line in open(path):
            g = json.loads(line)
            names = (g["black"], g["white"])
            mine = [n for n in names if n in args.engine_name]
            if not mine or "rapfi" not in names:
                continue
            if g.get("width", 15) != 15 or g.get("rule", 0) != 0:
                continue
            black = g["black"] == mine[0]
            opening = [tuple(m) for m in g["opening"]]
            # moves[0] is black's when the opening has an even number of stones
            first_black = len(opening) % 2 == 0
            thinking = g.get("thinking") or []
            cands = []
            for i in range(len(g["moves"])):
                mover_black = (i % 2 == 0) == first_black
                if mover_black != black:
                    continue
                # Rapfi's score on its move after this one: stop where the game is decided
                nxt = thinking[i + 1] if i + 1 < len(thinking) else None
                s = rapfi_score([f"Eval {nxt['score']}"]) if nxt and "score" in nxt else None
                if s is None or abs(s) > 1500:
                    break
                cands.append(opening + [tuple(m) for m in g["moves"][:i]])
            rng.shuffle(cands)
            picked.extend(cands[: args.per_game])
    rng.shuffle(picked)
    picked = picked[: args.max]
    cmd = [os.path.abspath(args.rapfi)]

    def one(moves):
        lines, best = ask(cmd, moves, judge_infos(args.judge_nodes), 600)
        s = rapfi_score(lines)
        return None if s is None or abs(s) > 1500 else {"moves": [list(m) for m in moves],
                                                        "best": list(best), "score": s}

    with ThreadPoolExecutor(args.concurrency) as ex:
        for p in ex.map(one, picked):
            if p:
                print(json.dumps(p))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pbrain-wuzi"))
    r.add_argument("--turn", type=int, default=200)
    r.add_argument("--nodes", type=int)
    r.add_argument("--param", action="append", default=[])
    r.add_argument("--positions", default=DEFAULT_SET)
    r.add_argument("--rapfi", default=DEFAULT_RAPFI)
    r.add_argument("--judge-nodes", type=int, default=200_000)
    r.add_argument("--concurrency", type=int, default=2)
    r.add_argument("--cache", default=DEFAULT_CACHE)
    r.add_argument("--out")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    m = sub.add_parser("make")
    m.add_argument("--games", nargs="+", required=True)
    m.add_argument("--rapfi", default=DEFAULT_RAPFI)
    m.add_argument("--engine-name", nargs="+", default=["wuzi"],
                   help="the engine's names in the records (any of them)")
    m.add_argument("--per-game", type=int, default=4)
    m.add_argument("--max", type=int, default=600)
    m.add_argument("--judge-nodes", type=int, default=200_000)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--concurrency", type=int, default=2)
    args = ap.parse_args()
    {"run": run, "make": make, "compare": compare}[args.cmd](args)


if __name__ == "__main__":
    main()
