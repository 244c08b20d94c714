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
- how many moves a root threat search answered at once (a proven win: no alpha-beta);
- under a match clock (the run's --timeout-match, or `--match`), how much of it the engine
  used in each game, from the arena's own times (games.jsonl): time the engine never used
  is thinking it gave away, and the least left at a game's end is how near it came to
  losing on time.

The match-clock and arena lines need only games.jsonl; without `time:` lines in the logs
(no RUST_LOG=info) the script prints those alone when --engine is given.

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


def manifest_arg(d, flag):
    """The integer value of the run's `flag` (e.g. --timeout-turn) from its manifest, or None."""
    try:
        args = [l.split(" ", 1)[1].strip() for l in open(os.path.join(d, "manifest.txt"))
                if l.startswith("arg ")]
    except OSError:
        return None
    for i, a in enumerate(args[:-1]):
        if a == flag:
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


def arena_games(d, name):
    """The arena's measured times of engine `name`'s moves, ms: one list per game it played."""
    games = []
    path = os.path.join(d, "games.jsonl")
    if not os.path.exists(path):
        return games
    for line in open(path):
        g = json.loads(line)
        colour = 0 if g["black"] == name else 1 if g["white"] == name else None
        if colour is None:
            continue
        first = len(g.get("opening", []))
        games.append([ms for i, ms in enumerate(g.get("ms", [])) if (first + i) % 2 == colour])
    return games


def clock_line(games, match_ms):
    """How much of a `match_ms` match clock the engine used per game (the arena's times)."""
    used = [sum(g) for g in games]
    moves = statistics.mean(len(g) for g in games)
    return (f"  match clock of {match_ms / 1000:g} s over {len(games)} games: used mean "
            f"{statistics.mean(used) / 1000:.1f} s ({100.0 * statistics.mean(used) / match_ms:.0f}%),"
            f" max {max(used) / 1000:.1f} s; {moves:.1f} moves a game; least left at a game's "
            f"end {(match_ms - max(used)) / 1000:.1f} s")


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--engine", help="the engine's name in the run (default: all wuzi logs)")
    ap.add_argument("--turn", type=int, help="the per-move limit, ms (default: the run's)")
    ap.add_argument("--match", type=int,
                    help="the match clock, ms (default: the run's --timeout-match; 0: none)")
    args = ap.parse_args()
    turn = args.turn or manifest_arg(args.dir, "--timeout-turn")
    if not turn:
        sys.exit("time-use: no --turn given and none in the run's manifest")
    match_ms = args.match if args.match is not None else manifest_arg(args.dir,
                                                                      "--timeout-match") or 0
    searches, wins = read_logs(args.dir, args.engine)
    games = arena_games(args.dir, args.engine) if args.engine else []
    if not searches and not games:
        sys.exit(f"time-use: no `time:` lines in {args.dir}/logs (was RUST_LOG=info set?) "
                 f"and no games of --engine in its games.jsonl")
    if searches:
        search_lines(searches, wins, turn)
    else:
        print(f"no `time:` lines in {args.dir}/logs (RUST_LOG=info was not set): the arena's "
              f"times alone")
    times = [ms for g in games for ms in g]
    if times:
        late = sum(t > turn for t in times)
        print(f"  as the arena measured {len(times)} moves: mean {statistics.mean(times):.1f} ms, "
              f"99th percentile {pct(times, 0.99)} ms, max {max(times)} ms; over {turn} ms: "
              f"{late}")
    if games and match_ms > 0:
        print(clock_line(games, match_ms))


def search_lines(searches, wins, turn):
    """The engine's own account of its searches: where the turn went, and its overruns."""
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


if __name__ == "__main__":
    main()
