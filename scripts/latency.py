#!/usr/bin/env python3
"""Measures protocol answer times of a pbrain engine, as a manager sees them.

  scripts/latency.py start  [--engine PATH] [--sizes 15,20,32] [--memory BYTES] [--reps N]
      time from sending `START n` to reading `OK` (after INFO max_memory), per size.
  scripts/latency.py selfplay [--engine PATH] [--moves 200] [--turn 1000] [--size 15] [--rule 0]
      two engine processes play each other (restarting on a finished game) until MOVES
      moves were answered; prints max, 99th percentile and mean answer time per move.

Times are wall-clock from the write of the request to the read of the reply line.
"""
import argparse, os, subprocess, sys, time, statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(ROOT, "target", "release", "pbrain-wuzi")


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def reply(self):
        """Next line that is not MESSAGE/DEBUG."""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if not (line.startswith("MESSAGE") or line.startswith("DEBUG")):
                return line

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=2)
        except Exception:
            self.p.kill()


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def start(args):
    for size in [int(s) for s in args.sizes.split(",")]:
        times = []
        for _ in range(args.reps):
            e = Engine(args.engine)
            e.send(f"INFO max_memory {args.memory}")
            t = time.perf_counter()
            e.send(f"START {size}")
            r = e.reply()
            times.append((time.perf_counter() - t) * 1000)
            if r != "OK":
                sys.exit(f"START {size}: got {r!r}")
            e.close()
        print(f"START {size:>2}: max {max(times):.2f} ms, median {statistics.median(times):.2f} ms"
              f" over {args.reps} runs (max_memory {args.memory})")


def five_in_row(stones, size, m):
    x, y = m
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while 0 <= cx < size and 0 <= cy < size and stones.get((cx, cy)) == stones[m]:
                n += 1
                cx += s * dx
                cy += s * dy
        if n >= 5:
            return True
    return False


def selfplay(args):
    times, games = [], 0
    engines = [Engine(args.engine), Engine(args.engine)]
    for e in engines:
        e.send(f"START {args.size}")
        assert e.reply() == "OK"
        e.send(f"INFO timeout_turn {args.turn}")
        e.send(f"INFO rule {args.rule}")
        e.send("INFO max_memory 367001600")
    while len(times) < args.moves:
        games += 1
        stones, last, side = {}, None, 0
        for e in engines:
            e.send("RESTART")
            assert e.reply() == "OK"
        while len(times) < args.moves:
            e = engines[side]
            t = time.perf_counter()
            e.send("BEGIN" if last is None else f"TURN {last[0]},{last[1]}")
            r = e.reply()
            times.append((time.perf_counter() - t) * 1000)
            x, y = (int(v) for v in r.split(","))
            if (x, y) in stones or not (0 <= x < args.size and 0 <= y < args.size):
                sys.exit(f"illegal move {r}")
            stones[(x, y)] = side
            last = (x, y)
            if five_in_row(stones, args.size, last) or len(stones) == args.size ** 2:
                break
            side = 1 - side
    for e in engines:
        e.close()
    print(f"{len(times)} moves in {games} games at timeout_turn {args.turn} (size {args.size}, rule {args.rule}):"
          f" max {max(times):.1f} ms, p99 {pct(times, 0.99):.1f} ms, mean {statistics.mean(times):.1f} ms,"
          f" over limit: {sum(t > args.turn for t in times)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["start", "selfplay"])
    ap.add_argument("--engine", default=DEFAULT_ENGINE)
    ap.add_argument("--sizes", default="15,20,32")
    ap.add_argument("--memory", type=int, default=367001600)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--turn", type=int, default=1000)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", type=int, default=0)
    args = ap.parse_args()
    start(args) if args.what == "start" else selfplay(args)


if __name__ == "__main__":
    main()
