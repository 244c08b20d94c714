#!/usr/bin/env python3
"""Measures how long pbrain-wuzi takes to answer SWAP2BOARD, from the write of DONE to the
reply line, for swap2's three cases (0, 3 and 5 stones given) at the given turn limits.

Each request runs in a fresh engine process, as in an arena game (START, INFO, SWAP2BOARD),
so the first-search costs (table allocation) are included. Prints per case: count, max, p99,
median, and how many replies came after the turn limit.

usage: protocol-tests/swap2_timing.py [--engine target/release/pbrain-wuzi] [--n 30]
                                      [--turns 1000,300] [--threads 1]
"""
import argparse
import os
import subprocess
import time

THREE = [
    ["7,7", "8,7", "9,9"],
    ["7,7", "8,8", "6,8"],
    ["7,7", "8,7", "7,9"],
    ["7,7", "6,6", "8,6"],
    ["7,7", "8,8", "9,7"],
]
FIVE = [
    ["7,7", "8,7", "9,9", "8,9", "6,8"],
    ["7,7", "8,8", "6,8", "7,8", "6,6"],
    ["7,7", "8,7", "7,9", "7,8", "8,9"],
    ["7,7", "6,6", "8,6", "8,8", "9,7"],
]


def one(engine, turn, threads, stones, log):
    env = dict(os.environ, RUST_LOG="debug") if log else None
    err = open(log, "w") if log else subprocess.DEVNULL
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=err, text=True, bufsize=1, env=env)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def reply():
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed stdout")
            line = line.strip()
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line

    send(f"INFO timeout_turn {turn}")
    send("INFO timeout_match 0")
    send(f"INFO thread_num {threads}")
    send("START 15")
    assert reply() == "OK"
    send("SWAP2BOARD")
    for s in stones:
        send(s)
    t0 = time.monotonic()
    send("DONE")
    ans = reply()
    ms = (time.monotonic() - t0) * 1000
    send("END")
    p.wait(timeout=5)
    return ms, ans


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append",
                    help="engine binary; repeat to compare engines, requests alternate between "
                         "them so they share the machine's load (default "
                         "target/release/pbrain-wuzi)")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--turns", default="1000,300")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cases", default="0,3,5", help="stone counts to measure")
    ap.add_argument("--log", help="directory for each request's engine stderr (RUST_LOG=debug)")
    a = ap.parse_args()
    engines = a.engine or ["target/release/pbrain-wuzi"]
    for turn in [int(t) for t in a.turns.split(",")]:
        cases = {0: [[]], 3: THREE, 5: FIVE}
        for k in [int(c) for c in a.cases.split(",")]:
            name, pool = f"{k} stones", cases[k]
            times = {e: [] for e in engines}
            answers = {e: {} for e in engines}
            for i in range(a.n):
                for j, e in enumerate(engines):
                    log = a.log and os.path.join(a.log, f"e{j}-t{turn}-k{k}-{i}.log")
                    ms, ans = one(e, turn, a.threads, pool[i % len(pool)], log)
                    times[e].append(ms)
                    kind = "SWAP" if ans == "SWAP" else f"{len(ans.split())} cells"
                    answers[e][kind] = answers[e].get(kind, 0) + 1
            for e in engines:
                ts = times[e]
                late = sum(t > turn for t in ts)
                print(f"{e}: turn {turn:5} {name}: n {len(ts)} max {max(ts):7.1f} "
                      f"p99 {pct(ts, 0.99):7.1f} median {pct(ts, 0.5):7.1f} ms; "
                      f"late {late}; answers {answers[e]}", flush=True)


if __name__ == "__main__":
    main()
