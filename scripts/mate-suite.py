#!/usr/bin/env python3
"""How fast wuzi finds the forced wins a stronger engine finds: a tactics suite.

  scripts/mate-suite.py run [--positions FILE] [--engine BIN] [--turn MS] [--threads N]
                            [--concurrency N] [--depth D | --nodes N] [--param NAME=VALUE ...]
  scripts/mate-suite.py make --games GAMES.jsonl --rapfi BIN [--turn MS] [--min-mate N]
                            [--per-game N] [--concurrency N] > FILE
  scripts/mate-suite.py solver [--positions FILE] [--engine BIN] [--nodes N] [--depth D]
                            [--concurrency N] [--out FILE.json] [--against FILE.json]

`run` sets each position up with `BOARD` (15x15 freestyle, the side to move has a forced
win), gives the engine `--turn` ms on `--threads` threads (default 1) and reads its
`MESSAGE depth ... ev E ... tm T` lines (or Rapfi's `Depth | Eval +Mn | Time`, so that Rapfi
runs the same suite): a position counts as solved at the first line whose score is a proven
win (E >= 29000), at time T. It prints the solved count, the time summed over the suite (an
unsolved position counts the whole turn) and the counts by the win's length. With `--depth D`
or `--nodes N` each search stops at that depth or node count on one thread (no time limit
that binds): the count, and the nodes summed over the suite, are then the same on any
machine and load. A fixed depth shows that a change that should only cut cost changes no
result; a fixed node budget shows how cheaply a build proves wins. Times depend on the
machine and its load: compare builds in one session, same settings, on an otherwise quiet
machine (two runs of one build differ by about 4 positions at 1 s).

`solver` asks wuzi's threat solver alone (`TRACESEARCH`'s VCT verdict, `--nodes` its budget,
`--depth` the threats it may chain) on every position: the count it proves and the solver
nodes summed over its proofs, the same on any machine and load. `--out` keeps the
per-position results; `--against` an earlier run's file adds the paired figures (positions
both prove, their nodes in each run).

`make` builds such a suite from arena records (`games.jsonl`): every position of every
game is given to Rapfi (`scripts/build-rapfi.sh`) for `--turn` ms and kept when Rapfi
reports a win for the side to move in at least `--min-mate` plies (`Eval +M<n>`), at most
`--per-game` positions a game. The default suite, scripts/data/rapfi-mates-free15.jsonl,
was made so from wuzi's 40 games against Rapfi at 1 s/move (docs/results/strength.md,
"Against Rapfi").
"""
import argparse
import json
import os
import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))  # the shared helpers in scripts/lib
from pbrain import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SUITE = os.path.join(ROOT, "scripts", "data", "rapfi-mates-free15.jsonl")
WIN_MIN = 29000


def ask(cmd, moves, turn_ms, depth=None, threads=None, nodes=None):
    """The engine's MESSAGE lines before its move, for `moves` (black first) on a 15x15
    freestyle board, from a fresh process so that no table carries over. With `depth`, a
    one-thread search to that depth with no binding clock; with `nodes`, likewise to that
    many nodes; `threads` sets thread_num."""
    # Rapfi reads config.toml from its own folder or the working one: run it there.
    eng = Engine(cmd, cwd=os.path.dirname(os.path.abspath(cmd[0])))
    infos = {"timeout_turn": turn_ms, "timeout_match": 0, "rule": 0}
    if threads is not None:
        infos["thread_num"] = threads
    if depth is not None:
        infos.update({"timeout_turn": 3_600_000, "max_depth": depth, "thread_num": 1})
    if nodes is not None:
        infos.update({"timeout_turn": 3_600_000, "max_node": nodes, "thread_num": 1})
    try:
        got = eng.analyse(moves, infos=infos,
                          timeout=infos["timeout_turn"] / 1000 + 30)
    finally:
        eng.close()
    return got[0] if got else []


def solved_at(lines):
    """(ms, nodes) of the first iteration that proved a win, or None. Reads wuzi's
    `MESSAGE depth … ev E n N … tm T` lines and Rapfi's `Depth … | Eval +Mn | Time Tms`
    (nodes 0: Rapfi prints them only at the end), so that both run the same suite."""
    for line in lines:
        m = re.search(r"ev (-?\d+) n (\d+) .*tm (\d+)", line)
        if m and int(m.group(1)) >= WIN_MIN:
            return int(m.group(3)), int(m.group(2))
        m = re.search(r"Eval \+M\d+ \| Time (\d+)ms", line)
        if m:
            return int(m.group(1)), 0
    return None


def last_nodes(lines):
    """The node count of the last iteration reported (the search's total)."""
    nodes = 0
    for line in lines:
        m = re.search(r" n (\d+) ", line)
        if m:
            nodes = int(m.group(1))
    return nodes


def rapfi_mate(lines):
    """Rapfi's last reported win for the side to move, in plies, or None."""
    mate = None
    for line in lines:
        m = re.search(r"Eval ([+-])M(\d+)", line)
        if m:
            mate = int(m.group(2)) if m.group(1) == "+" else None
    return mate


def run(args):
    suite = [json.loads(line) for line in open(args.positions)]
    cmd = [os.path.abspath(args.engine)] + [a for p in args.param for a in ("--param", p)]

    def one(x):
        lines = ask(cmd, [tuple(m) for m in x["moves"]], args.turn, args.depth, args.threads,
                    args.nodes)
        return solved_at(lines), last_nodes(lines)

    with ThreadPoolExecutor(args.concurrency) as ex:
        both = list(ex.map(one, suite))
    res = [r for r, _ in both]
    solved = [r for r in res if r]
    if args.depth is not None or args.nodes is not None:
        bound = f"depth {args.depth}" if args.depth is not None else f"{args.nodes} nodes"
        print(f"solved {len(solved)}/{len(res)} at {bound} (one thread); "
              f"nodes summed {sum(n for _, n in both)}; "
              f"proved positions: {' '.join(str(i) for i, r in enumerate(res) if r)}")
    else:
        total = sum(r[0] if r else args.turn for r in res)
        print(f"solved {len(solved)}/{len(res)} within {args.turn} ms "
              f"({args.threads} thread{'s' if args.threads != 1 else ''}); "
              f"time summed {total} ms (an unsolved position counts {args.turn})")
    by = Counter()
    got = Counter()
    for x, r in zip(suite, res):
        band = f"{(x['mate'] - 1) // 8 * 8 + 1}-{(x['mate'] - 1) // 8 * 8 + 8}"
        by[band] += 1
        got[band] += bool(r)
    for band in sorted(by, key=lambda b: int(b.split("-")[0])):
        print(f"  win in {band:>5} plies: {got[band]}/{by[band]}")


def solver_verdict(cmd, moves, nodes, depth):
    """(proved, solver nodes) of wuzi's threat solver's VCT verdict on `moves`."""
    eng = Engine(cmd + ["--param", f"root_vct_nodes={nodes}", "--param", f"root_vct_depth={depth}"])
    try:
        eng.begin(15, {"rule": 0, "timeout_turn": 3_600_000})
        eng.send_stones("YXBOARD", moves)
        eng.send("TRACESEARCH")
        while True:
            line = eng.read(600.0)
            m = re.match(r"MESSAGE VCT (win|none).*\(nodes (\d+)", line)
            if m:
                return m.group(1) == "win", int(m.group(2))
    finally:
        eng.close()


def solver(args):
    suite = [json.loads(line) for line in open(args.positions)]
    cmd = [os.path.abspath(args.engine)]
    with ThreadPoolExecutor(args.concurrency) as ex:
        res = list(ex.map(lambda x: solver_verdict(cmd, [tuple(m) for m in x["moves"]],
                                                   args.nodes, args.depth), suite))
    proved = [i for i, (w, _) in enumerate(res) if w]
    print(f"solver proved {len(proved)}/{len(res)} at {args.nodes} nodes, depth {args.depth}; "
          f"nodes summed over its proofs {sum(res[i][1] for i in proved)}; "
          f"proved positions: {' '.join(map(str, proved))}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump([list(r) for r in res], f)
    if args.against:
        old = json.load(open(args.against))
        both = [i for i in proved if i < len(old) and old[i][0]]
        fewer = sum(res[i][1] < old[i][1] for i in both)
        more = sum(res[i][1] > old[i][1] for i in both)
        print(f"against {args.against}: {len(both)} proved by both, nodes {sum(old[i][1] for i in both)} "
              f"there, {sum(res[i][1] for i in both)} here (fewer on {fewer}, more on {more}); "
              f"proved only here {len(proved) - len(both)}, only there "
              f"{sum(1 for i, (w, _) in enumerate(old) if w and not res[i][0])}")


def make(args):
    games = [json.loads(line) for line in open(args.games)]
    tasks = []
    for gi, g in enumerate(games):
        if g.get("width", 15) != 15 or g.get("rule", 0) != 0:
            continue
        moves = [tuple(m) for m in g["opening"]] + [tuple(m) for m in g["moves"]]
        for k in range(len(g["opening"]), len(moves)):
            tasks.append((gi, moves[:k]))

    def one(t):
        return t, rapfi_mate(ask([args.rapfi], t[1], args.turn))

    kept = Counter()
    with ThreadPoolExecutor(args.concurrency) as ex:
        for (gi, moves), mate in ex.map(one, tasks):
            if mate and mate >= args.min_mate and kept[gi] < args.per_game:
                kept[gi] += 1
                print(json.dumps({"game": games[gi]["id"], "moves": moves, "mate": mate}),
                      flush=True)
    print(f"mate-suite: {sum(kept.values())} positions from {len(kept)} games",
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="time wuzi on the suite")
    r.add_argument("--positions", default=DEFAULT_SUITE)
    r.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pbrain-wuzi"))
    r.add_argument("--turn", type=int, default=1000)
    r.add_argument("--concurrency", type=int, default=1)
    r.add_argument("--depth", type=int, help="search each position to this depth on one "
                   "thread instead of for --turn ms (deterministic: nodes and results)")
    r.add_argument("--nodes", type=int, help="search each position for this many nodes on "
                   "one thread instead (deterministic, and a measure of how cheaply it proves)")
    r.add_argument("--threads", type=int, default=1,
                   help="thread_num for a timed run (default 1, as Rapfi's classical config)")
    r.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    m = sub.add_parser("make", help="build a suite from arena records with Rapfi")
    m.add_argument("--games", required=True)
    m.add_argument("--rapfi", required=True)
    m.add_argument("--turn", type=int, default=300)
    m.add_argument("--min-mate", type=int, default=13)
    m.add_argument("--per-game", type=int, default=4)
    m.add_argument("--concurrency", type=int, default=1)
    v = sub.add_parser("solver", help="the threat solver's VCT alone on every position")
    v.add_argument("--positions", default=DEFAULT_SUITE)
    v.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pbrain-wuzi"))
    v.add_argument("--nodes", type=int, default=1_000_000, help="the solver's node budget")
    v.add_argument("--depth", type=int, default=8, help="threats the VCT may chain")
    v.add_argument("--concurrency", type=int, default=1)
    v.add_argument("--out", help="write the per-position (proved, nodes) here as JSON")
    v.add_argument("--against", help="an earlier --out file: print the paired figures")
    args = ap.parse_args()
    if args.cmd in ("run", "solver") and not os.path.exists(args.engine):
        sys.exit(f"mate-suite: no engine at {args.engine} (cargo build --release)")
    if args.cmd == "solver":
        solver(args)
    elif args.cmd == "run":
        run(args)
    else:
        make(args)


if __name__ == "__main__":
    main()
