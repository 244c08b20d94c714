#!/usr/bin/env python3
"""Speed of this checkout's `bench` against an older commit's, in one run (issue #14).

Builds the old commit's release binary from `git archive` in a scratch directory (its own
target directory, so the checkout's build is untouched), builds this checkout, then runs
both benches alternately, the old one first in odd rounds and second in even ones, so that
a machine slowing down or warming up weighs on both alike. Prints each build's median of
every rate the bench prints and the ratio new / old. Node counts come out too: a build whose
tree differs searches other nodes, and nodes per second then compare different work.

    scripts/bench-compare.py                  # against 726c934, 5 rounds, default depth
    scripts/bench-compare.py --old HEAD~3 --rounds 9 --depth 7

Run it on a quiet machine; the figures are ratios from the same run, never absolutes.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The bench's summary lines: (its label, the name printed here, how new compares with old:
# True a rate, new / old; False a time, old / new; None a count, new / old).
RATES = [
    ("Total time (ms)", "total time, ms", False),
    ("Nodes searched", "nodes searched", None),
    ("Nodes/second", "nodes/s", True),
    ("Make+undo/second", "make+undo/s", True),
    ("Threat nodes/s", "threat nodes/s", True),
    ("C4 midgame n/s", "c4 midgame n/s", True),
]


def parse(text):
    """The bench's summary figures, by label (labels a build does not print are absent)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\s*([^:]+?)\s*:\s*(\d+)", line)
        if m and m.group(1) in {r[0] for r in RATES}:
            out[m.group(1)] = int(m.group(2))
    return out


def build(src, target, label):
    print(f"building {label} ...", file=sys.stderr)
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    subprocess.run(
        ["cargo", "build", "--release", "-q", "--bin", "pbrain-wuzi"],
        cwd=src,
        env=env,
        check=True,
    )
    exe = os.path.join(target, "release", "pbrain-wuzi")
    if not os.path.exists(exe):
        sys.exit(f"bench-compare: {label} built no {exe}")
    return exe


def run_bench(exe, depth):
    args = [exe, "bench"] + ([str(depth)] if depth else [])
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    figures = parse(r.stdout)
    if "Nodes searched" not in figures:
        sys.exit(f"bench-compare: no 'Nodes searched' line from {exe}")
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="726c934", help="commit to compare with [726c934]")
    ap.add_argument("--rounds", type=int, default=5, help="bench runs of each build [5]")
    ap.add_argument("--depth", type=int, default=0, help="bench depth [the bench's default]")
    ap.add_argument("--new-exe", help="a built new binary instead of building this checkout")
    ap.add_argument("--old-exe", help="a built old binary instead of building --old")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")

    if args.old_exe:
        report(args, runs_of(args, args.old_exe, args.new_exe or build_new()), args.old_exe)
        return
    rev = subprocess.run(
        ["git", "rev-parse", "--short", args.old],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if rev.returncode != 0:
        sys.exit(f"bench-compare: unknown commit {args.old!r}")
    old_rev = rev.stdout.strip()

    with tempfile.TemporaryDirectory(prefix="wuzi-bench-") as tmp:
        src = os.path.join(tmp, "src")
        os.mkdir(src)
        archive = subprocess.Popen(["git", "archive", old_rev], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", src], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            sys.exit(f"bench-compare: git archive {old_rev} failed")
        old_exe = build(src, os.path.join(tmp, "target"), f"old ({old_rev})")
        runs = runs_of(args, old_exe, args.new_exe or build_new())
    report(args, runs, old_rev)


def build_new():
    return build(ROOT, os.path.join(ROOT, "target"), "new (this checkout)")


def runs_of(args, old_exe, new_exe):
    """Each build's bench figures, one entry per round, the order alternating."""
    runs = {"old": [], "new": []}
    for i in range(args.rounds):
        order = [("old", old_exe), ("new", new_exe)]
        if i % 2:
            order.reverse()
        for name, exe in order:
            runs[name].append(run_bench(exe, args.depth))
        print(f"round {i + 1}/{args.rounds} done", file=sys.stderr)
    return runs


def report(args, runs, old_name):
    new_name = args.new_exe or "this checkout"
    print(f"bench {'depth ' + str(args.depth) if args.depth else 'default depth'}, "
          f"{args.rounds} rounds alternating, medians; old = {old_name}, new = {new_name}")
    print(f"{'figure':<18} {'old':>12} {'new':>12}  new against old")
    for label, name, kind in RATES:
        vals = {k: [r[label] for r in v if label in r] for k, v in runs.items()}
        if not vals["old"] or not vals["new"]:
            shown = {k: (f"{statistics.median(v):.0f}" if v else "-") for k, v in vals.items()}
            print(f"{name:<18} {shown['old']:>12} {shown['new']:>12}  -")
            continue
        o, n = statistics.median(vals["old"]), statistics.median(vals["new"])
        if not o or not n:
            verdict = "-"
        elif kind is None:
            verdict = f"{n / o:.2f}x as many"
        elif kind:
            verdict = f"{n / o:.2f}x the rate"
        else:
            verdict = f"{o / n:.2f}x as fast"
        print(f"{name:<18} {o:>12.0f} {n:>12.0f}  {verdict}")


if __name__ == "__main__":
    main()
