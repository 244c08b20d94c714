#!/usr/bin/env python3
"""Where wuzi's thinking time went in a tournament: the alpha-beta's share of the turn.

  scripts/time-use.py DIR [--engine NAME] [--turn MS]

DIR is a `wuzi-arena --out` directory of a run whose wuzi engines logged at info level
(`RUST_LOG=info` in the arena's environment: each search writes one `time: …` line to its
stderr log). For the engine NAME (default: every engine whose logs hold such lines) it
prints, over its searches with a per-move clock of `--turn` ms (default: the run's
--timeout-turn from manifest.txt):

- the mean share of the turn spent before the search (reading the position, sizing tables),
  in the root threat searches, in the alpha-beta and in the safety check after it, over the
  searches that ran to their hard limit, over those that ended early (a proven result, a
  single playable move) and over all;
- how far past their own hard limit the searches were ready (the overrun the per-move
  reserve is sized from), and the arena's own measure of each move's time: its mean, 99th
  percentile and maximum against the turn;
- how many moves a root threat search answered at once (a proven win: no alpha-beta).

Example (issue #68's measurement at 200 ms):
  RUST_LOG=info wuzi-arena --engine cmd=target/release/pbrain-wuzi name=wuzi ... \\
      --timeout-turn 200 --timeout-match 0 --out runs/t
  scripts/time-use.py runs/t --engine wuzi
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

LINE = re.compile(r"time: before ([\d.]+) ms, threats ([\d.]+) ms, alpha-beta ([\d.]+) ms, "
                  r"safety ([\d.]+) ms, done at ([\d.]+) ms of ([\d.]+) ms")
THREAT_WIN = re.compile(r"time: a root threat search proved a win at ([\d.]+) ms")


def manifest_turn(d):
    """The run's --timeout-turn from its manifest, or None."""
    try:
        args = [l.split(" ", 1)[1].strip() for l in open(os.path.join(d, "manifest.txt"))
                if l.startswith("arg ")]
    except OSError:
        return None
    for i, a in enumerate(args[:-1]):
        if a == "--timeout-turn":
            return int(args[i + 1])
    return None


def read_logs(d, name):
    """(searches, threat wins) from the stderr logs of engine `name` (all when None)."""
    searches, wins = [], 0
    pattern = f"{name}-*.stderr.log" if name else "*.stderr.log"
    for f in sorted(glob.glob(os.path.join(d, "logs", pattern))):
        for line in open(f, errors="replace"):
            m = LINE.search(line)
            if m:
                searches.append(tuple(float(v) for v in m.groups()))
            elif THREAT_WIN.search(line):
                wins += 1
    return searches, wins


def arena_times(d, name):
    """The arena's measured time of each move engine `name` made, ms."""
    times = []
    path = os.path.join(d, "games.jsonl")
    if not os.path.exists(path):
        return times
    for line in open(path):
        g = json.loads(line)
        colour = 0 if g["black"] == name else 1 if g["white"] == name else None
        if colour is None:
            continue
        first = len(g.get("opening", []))
        for i, ms in enumerate(g.get("ms", [])):
            if (first + i) % 2 == colour:
                times.append(ms)
    return times


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--engine", help="the engine's name in the run (default: all wuzi logs)")
    ap.add_argument("--turn", type=int, help="the per-move limit, ms (default: the run's)")
    args = ap.parse_args()
    turn = args.turn or manifest_turn(args.dir)
    if not turn:
        sys.exit("time-use: no --turn given and none in the run's manifest")
    searches, wins = read_logs(args.dir, args.engine)
    if not searches:
        sys.exit(f"time-use: no `time:` lines in {args.dir}/logs (was RUST_LOG=info set?)")
    # A search that ended more than a millisecond before its hard limit stopped on its own:
    # a proven win or loss, a single playable move or the depth cap.
    full = [s for s in searches if s[4] >= s[5] - 1.0]
    early = [s for s in searches if s[4] < s[5] - 1.0]
    print(f"{len(searches)} searches at {turn} ms a move ({wins} more answered at once by a "
          f"root threat search's proven win)")
    for label, group in (("searches that ran to the hard limit", full),
                         ("searches that ended early (a proof, one move)", early),
                         ("all searches", searches)):
        if not group:
            continue
        share = lambda i: 100.0 * statistics.mean(s[i] for s in group) / turn
        print(f"  {label}, {len(group)}: before the search {share(0):.1f}% of the turn, "
              f"threat searches {share(1):.1f}%, alpha-beta {share(2):.1f}%, "
              f"safety check {share(3):.1f}%")
    mean = lambda i: statistics.mean(s[i] for s in searches)
    over = [s[4] - s[5] for s in full] or [0.0]
    print(f"  ready past the engine's hard limit: mean {statistics.mean(over):.2f} ms, "
          f"99th percentile {pct(over, 0.99):.2f} ms, max {max(over):.2f} ms; "
          f"hard limit mean {mean(5):.1f} ms")
    times = arena_times(args.dir, args.engine) if args.engine else []
    if times:
        late = sum(t > turn for t in times)
        print(f"  as the arena measured {len(times)} moves: mean {statistics.mean(times):.1f} ms, "
              f"99th percentile {pct(times, 0.99)} ms, max {max(times)} ms; over {turn} ms: "
              f"{late}")


if __name__ == "__main__":
    main()
