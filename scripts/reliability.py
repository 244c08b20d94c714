#!/usr/bin/env python3
"""Long-run reliability checks of pbrain-wuzi as a manager sees it (issue #7); run by hand.

  reliability.py stress [--games 1000] [--turn 50] [--depth 3] [--seed 1]
      fast games: wuzi vs wuzi and wuzi vs a random mover, rules 0/1/4/8, sizes 15/20,
      engines reused with START, reused with RESTART, or fresh per game. A referee checks
      every answer (a move on an empty cell, in time) and counts crashes, time losses,
      illegal moves and protocol errors (ERROR/UNKNOWN/odd lines).
  reliability.py timing [--moves 1000] [--turn 1000] [--hog]
      answer times of one engine over many moves (opponent: random mover), optionally with a
      CPU hog process on the other core; then `time_left` <= 0 answers, YXSTOP answers and
      END-mid-search exits. Prints max / 99th percentile.
  reliability.py start [--sizes 15,20,32] [--memory 367001600] [--reps 20]
      START latency: from the write of `START n` (after INFO max_memory) to the read of OK.
  reliability.py selfplay [--moves 200] [--turn 1000] [--size 15] [--rule 0]
      two engine processes play each other (RESTART after each game) until MOVES moves were
      answered; max / 99th percentile / mean answer time and the count over the limit.
  reliability.py memory [--limits 350,64,16] [--sizes 15,20,32] [--moves 12] [--turn 300]
      peak resident memory (VmHWM from /proc) per max_memory (MB) x board size.

Without --engine, the release binary is built first (`cargo build --release -q`); --no-build
skips that. Times are wall clock
from the write of the request to the read of the reply.
"""
import argparse, os, random, subprocess, sys, threading, time, queue

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(ROOT, "target", "release", "pbrain-wuzi")


class EngineDied(Exception):
    pass


class Engine:
    """One engine process; stdout read on a thread so a reply can be awaited with a timeout."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, bufsize=0)
        self.q = queue.Queue()
        self.last_size = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            self.q.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.q.put(None)

    def send(self, line):
        try:
            self.p.stdin.write((line + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineDied("stdin closed")

    def reply(self, timeout=30.0):
        """Next line that is not MESSAGE/DEBUG."""
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no answer")
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                raise TimeoutError("no answer")
            if line is None:
                raise EngineDied("engine exited")
            if line.startswith("MESSAGE") or line.startswith("DEBUG"):
                continue
            return line

    def timed(self, line, timeout=30.0):
        t = time.perf_counter()
        self.send(line)
        r = self.reply(timeout)
        return r, (time.perf_counter() - t) * 1000

    def peak_rss_kb(self):
        try:
            with open(f"/proc/{self.p.pid}/status") as f:
                for l in f:
                    if l.startswith("VmHWM:"):
                        return int(l.split()[1])
        except OSError:
            pass
        return None

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=2)
        except Exception:
            self.p.kill()
            self.p.wait()


def parse_move(s):
    try:
        x, y = s.split(",")
        return int(x), int(y)
    except ValueError:
        return None


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else 0.0


class Board:
    """Referee board: legality and the end of the game for rules 0 (freestyle, five or more),
    1 (exactly five), 4 (renju: black exactly five, white five or more; fouls are not judged
    here) and 8 (caro: a five closed at both ends by the opponent does not win)."""

    def __init__(self, n, rule):
        self.n, self.rule = n, rule
        self.cells = {}
        self.moves = 0

    def empty(self, m):
        x, y = m
        return 0 <= x < self.n and 0 <= y < self.n and m not in self.cells

    def play(self, m, c):
        """Plays colour c (1 black, 2 white); returns True if that move ends the game."""
        self.cells[m] = c
        self.moves += 1
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run, ends = 1, []
            for s in (1, -1):
                x, y = m[0] + s * dx, m[1] + s * dy
                while self.cells.get((x, y)) == c:
                    run += 1
                    x, y = x + s * dx, y + s * dy
                ends.append(self.cells.get((x, y)))
            if self.win(run, c, ends):
                return True
        return self.moves == self.n * self.n

    def win(self, run, c, ends):
        if run < 5:
            return False
        if self.rule == 1 or (self.rule == 4 and c == 1):
            return run == 5
        if self.rule == 8:
            opp = 3 - c
            return not (ends[0] == opp and ends[1] == opp)
        return True

    def random_move(self, rng):
        near = set()
        for (x, y) in self.cells:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if self.empty((x + dx, y + dy)):
                        near.add((x + dx, y + dy))
        pool = sorted(near) or [(x, y) for x in range(self.n) for y in range(self.n)
                                if self.empty((x, y))]
        return rng.choice(pool)


class Stats:
    def __init__(self):
        self.games = self.moves = self.crashes = self.time_losses = 0
        self.illegal = self.protocol_errors = self.restarts = 0
        self.times = []
        self.notes = []

    def note(self, text):
        if len(self.notes) < 20:
            self.notes.append(text)


def setup(e, size, rule, turn, depth, restart):
    """Prepares a game on engine e with RESTART (same size; the rule may change) or START."""
    e.send(f"INFO rule {rule}")
    if restart:
        e.send("RESTART")
        return e.reply(5)
    for l in (f"INFO timeout_turn {turn}", "INFO timeout_match 0",
              "INFO time_left 2147483647", f"INFO max_depth {depth}", "INFO thread_num 1"):
        e.send(l)
    e.send(f"START {size}")
    return e.reply(5)


def stress(args):
    rng = random.Random(args.seed)
    st = Stats()
    rules, sizes, hows = (0, 1, 4, 8), (15, 20), ("start", "restart", "fresh")
    pools = {}  # (how, slot) -> Engine kept across games
    limit = args.turn + args.slack
    t0 = time.time()
    for g in range(args.games):
        rule, size = rules[g % 4], sizes[(g // 4) % 2]
        how = hows[(g // 8) % 3]
        vs_random = (g // 24) % 2 == 1
        slots = ("a",) if vs_random else ("a", "b")
        engines = {}
        try:
            for s in slots:
                key = (how, s, vs_random)
                first = how == "fresh" or key not in pools or pools[key].p.poll() is not None
                if first:
                    if key in pools:
                        pools[key].close()
                    pools[key] = Engine(args.engine)
                engines[s] = pools[key]
                restart = how == "restart" and not first and engines[s].last_size == size
                ok = setup(engines[s], size, rule, args.turn, args.depth, restart)
                engines[s].last_size = size
                st.restarts += restart
                if ok != "OK":
                    st.protocol_errors += 1
                    st.note(f"game {g}: setup answered {ok!r}")
                    raise StopIteration
            play_game(g, engines, slots, size, rule, rng, st, limit)
        except StopIteration:
            pass
        except (EngineDied, TimeoutError) as ex:
            st.crashes += 1
            st.note(f"game {g} ({how}, rule {rule}, size {size}): {ex}")
            for s in slots:
                pools.pop((how, s, vs_random), None)
        if how == "fresh":
            for s in slots:
                e = pools.pop((how, s, vs_random), None)
                if e:
                    e.close()
        st.games += 1
        if args.progress and (g + 1) % 100 == 0:
            print(f"  {g + 1} games, {time.time() - t0:.0f} s", file=sys.stderr)
    for e in pools.values():
        e.close()
    dt = time.time() - t0
    print(f"stress: {st.games} games, {st.moves} engine moves in {dt:.0f} s "
          f"(turn {args.turn} ms, depth {args.depth}, late = over {limit} ms)")
    print(f"  crashes {st.crashes}, time losses {st.time_losses}, illegal moves {st.illegal}, "
          f"protocol errors {st.protocol_errors} (games set up by RESTART: {st.restarts})")
    if st.times:
        print(f"  answer ms: max {max(st.times):.1f}, p99 {pct(st.times, 0.99):.1f}, "
              f"mean {sum(st.times) / len(st.times):.1f}")
    for n in st.notes:
        print("  note:", n)
    return 0 if st.crashes + st.time_losses + st.illegal + st.protocol_errors == 0 else 1


def play_game(g, engines, slots, size, rule, rng, st, limit):
    b = Board(size, rule)
    # Engine 'a' is black (BEGIN) in even games, white otherwise.
    a_black = g % 2 == 0
    color = {"a": 1 if a_black else 2}
    if len(slots) == 2:
        color["b"] = 3 - color["a"]
    to_move, last = 1, None
    while True:
        mover = next((s for s in slots if color[s] == to_move), None)
        if mover is None:  # the random mover
            m = b.random_move(rng)
        else:
            e = engines[mover]
            req = "BEGIN" if last is None else f"TURN {last[0]},{last[1]}"
            r, ms = e.timed(req, timeout=max(10.0, limit / 100))
            st.times.append(ms)
            st.moves += 1
            if ms > limit:
                st.time_losses += 1
                st.note(f"game {g}: {ms:.0f} ms for {req}")
            m = parse_move(r)
            if m is None:
                st.protocol_errors += 1
                st.note(f"game {g}: {req} answered {r!r}")
                return
            if not b.empty(m):
                st.illegal += 1
                st.note(f"game {g}: illegal {r}")
                return
        # The other engine hears the move through its next TURN; a random move is sent on.
        if b.play(m, to_move):
            return
        last, to_move = m, 3 - to_move


def hog():
    """A busy process on the other core (killed at the end)."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def timing(args):
    h = hog() if args.hog else None
    rng = random.Random(args.seed)
    times, late, games = [], 0, 0
    e = Engine(args.engine)
    try:
        e.send(f"INFO timeout_turn {args.turn}")
        while len(times) < args.moves:
            e.send("START 15")
            assert e.reply() == "OK"
            games += 1
            b = Board(15, 0)
            r, ms = e.timed("BEGIN")
            while True:
                times.append(ms)
                late += ms > args.turn
                m = parse_move(r)
                if m is None or not b.empty(m) or b.play(m, 1) or len(times) >= args.moves:
                    break
                o = b.random_move(rng)
                if b.play(o, 2):
                    break
                r, ms = e.timed(f"TURN {o[0]},{o[1]}")
        print(f"timing: {len(times)} moves in {games} games at timeout_turn {args.turn}"
              f"{' with a CPU hog' if h else ''}: max {max(times):.1f} ms, "
              f"p99 {pct(times, 0.99):.1f} ms, mean {sum(times) / len(times):.1f} ms, "
              f"over the limit {late}")
        # time_left at or below zero: answer at once.
        tl = []
        for left in (0, -1000, 1, 5):
            e.send("INFO timeout_turn 1000")
            e.send("INFO timeout_match 100000")
            e.send(f"INFO time_left {left}")
            e.send("START 15")
            e.reply()
            r, ms = e.timed("BOARD\n7,7,2\n8,8,1\n6,6,2\nDONE")
            tl.append(ms)
        print(f"time_left 0/-1000/1/5 ms: answers in {', '.join(f'{v:.1f}' for v in tl)} ms")
        # YXSTOP during a long search, and END during one.
        e.send("INFO time_left 2147483647")
        e.send("INFO timeout_match 0")
        e.send("INFO timeout_turn 60000")
        stops = []
        for i in range(args.stops):
            e.send("START 15")
            e.reply()
            e.send("BOARD\n7,7,2\n8,8,1\n8,7,2\nDONE")
            time.sleep(0.2 + 0.05 * (i % 5))
            r, ms = e.timed("YXSTOP")
            stops.append(ms)
        print(f"YXSTOP x{len(stops)}: max {max(stops):.1f} ms, p99 {pct(stops, 0.99):.1f} ms")
    finally:
        e.close()
    ends = []
    for i in range(args.stops):
        e = Engine(args.engine)
        e.send("INFO timeout_turn 60000")
        e.send("START 15")
        e.reply()
        e.send("BOARD\n7,7,2\n8,8,1\n8,7,2\nDONE")
        time.sleep(0.2)
        t = time.perf_counter()
        e.send("END")
        e.p.wait(timeout=5)
        ends.append((time.perf_counter() - t) * 1000)
    print(f"END mid-search x{len(ends)}: exit in max {max(ends):.1f} ms, "
          f"p99 {pct(ends, 0.99):.1f} ms")
    if h:
        h.kill()
    return 0


def memory(args):
    rng = random.Random(1)
    bad = 0
    for mb in [int(v) for v in args.limits.split(",")]:
        for size in [int(v) for v in args.sizes.split(",")]:
            e = Engine(args.engine)
            e.send(f"INFO max_memory {mb * 1024 * 1024}")
            e.send(f"INFO timeout_turn {args.turn}")
            e.send(f"START {size}")
            r = e.reply()
            if r != "OK":
                print(f"max_memory {mb} MB, size {size}: START answered {r!r}")
                e.close()
                continue
            b = Board(size, 0)
            e.send("BEGIN")
            r = e.reply()
            for _ in range(args.moves):
                m = parse_move(r)
                if m is None or not b.empty(m) or b.play(m, 1):
                    break
                o = b.random_move(rng)
                if b.play(o, 2):
                    break
                e.send(f"TURN {o[0]},{o[1]}")
                r = e.reply()
            kb = e.peak_rss_kb()
            share = kb / 1024 / mb * 100
            bad += share >= 80
            print(f"max_memory {mb:4d} MB, size {size}: peak RSS {kb / 1024:6.1f} MB "
                  f"= {share:4.1f}% of the limit")
            e.close()
    for mb in (1, 4, 8):
        e = Engine(args.engine)
        e.send(f"INFO max_memory {mb * 1024 * 1024}")
        e.send("START 15")
        print(f"max_memory {mb} MB: START answered {e.reply()!r}")
        e.close()
    return 1 if bad else 0


def start(args):
    for size in [int(v) for v in args.sizes.split(",")]:
        times = []
        for _ in range(args.reps):
            e = Engine(args.engine)
            e.send(f"INFO max_memory {args.memory}")
            r, ms = e.timed(f"START {size}")
            e.close()
            if r != "OK":
                print(f"START {size}: got {r!r}")
                return 1
            times.append(ms)
        print(f"START {size:>2}: max {max(times):.2f} ms, p50 {pct(times, 0.5):.2f} ms"
              f" over {args.reps} runs (max_memory {args.memory})")
    return 0


def selfplay(args):
    engines = [Engine(args.engine), Engine(args.engine)]
    for e in engines:
        e.send(f"INFO max_memory 367001600")
        if e.timed(f"START {args.size}")[0] != "OK":
            print("START failed")
            return 1
        e.send(f"INFO timeout_turn {args.turn}")
        e.send(f"INFO rule {args.rule}")
        if args.threads:
            e.send(f"INFO thread_num {args.threads}")
    times, games = [], 0
    while len(times) < args.moves:
        games += 1
        board, last, side = Board(args.size, args.rule), None, 0
        for e in engines:
            if e.timed("RESTART")[0] != "OK":
                print("RESTART failed")
                return 1
        while len(times) < args.moves:
            r, ms = engines[side].timed("BEGIN" if last is None else f"TURN {last[0]},{last[1]}")
            times.append(ms)
            m = parse_move(r)
            if m is None or not board.empty(m):
                print(f"illegal answer {r!r}")
                return 1
            last = m
            if board.play(m, side + 1):
                break
            side = 1 - side
    for e in engines:
        e.close()
    over = sum(t > args.turn for t in times)
    print(f"{len(times)} moves in {games} games at timeout_turn {args.turn} (size {args.size},"
          f" rule {args.rule}): max {max(times):.1f} ms, p99 {pct(times, 0.99):.1f} ms,"
          f" mean {sum(times) / len(times):.1f} ms, over the limit: {over}")
    return 1 if over else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engine", help=f"the engine to test (default: {DEFAULT_ENGINE}, built first)")
    ap.add_argument("--no-build", action="store_true",
                    help="use the default engine as it is, without cargo build --release")
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stress")
    s.add_argument("--games", type=int, default=1000)
    s.add_argument("--turn", type=int, default=50)
    s.add_argument("--slack", type=int, default=0, help="ms over timeout_turn tolerated")
    s.add_argument("--depth", type=int, default=3)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--progress", action="store_true")
    t = sub.add_parser("timing")
    t.add_argument("--moves", type=int, default=1000)
    t.add_argument("--turn", type=int, default=1000)
    t.add_argument("--hog", action="store_true")
    t.add_argument("--stops", type=int, default=20)
    t.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("memory")
    m.add_argument("--limits", default="350,64,16")
    m.add_argument("--sizes", default="15,20,32")
    m.add_argument("--moves", type=int, default=12)
    m.add_argument("--turn", type=int, default=300)
    st = sub.add_parser("start")
    st.add_argument("--sizes", default="15,20,32")
    st.add_argument("--memory", type=int, default=367001600)
    st.add_argument("--reps", type=int, default=20)
    sp = sub.add_parser("selfplay")
    sp.add_argument("--moves", type=int, default=200)
    sp.add_argument("--turn", type=int, default=1000)
    sp.add_argument("--size", type=int, default=15)
    sp.add_argument("--rule", type=int, default=0)
    sp.add_argument("--threads", type=int, default=0, help="INFO thread_num (0: engine default)")
    a = ap.parse_args()
    if a.engine is None:
        a.engine = DEFAULT_ENGINE
        if not a.no_build:
            subprocess.run(["cargo", "build", "--release", "-q", "--manifest-path",
                            os.path.join(ROOT, "Cargo.toml")], check=True)
    cmds = {"stress": stress, "timing": timing, "memory": memory, "start": start,
            "selfplay": selfplay}
    sys.exit(cmds[a.cmd](a))


if __name__ == "__main__":
    main()
