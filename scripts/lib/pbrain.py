"""A Gomocup (pbrain) engine driven over its pipes, for the project's Python scripts.

`Engine(cmd).analyse(moves, size=15, infos={...}, timeout=60)` starts a game (`START`,
retried until `OK`), sends the `INFO` settings, puts `moves` on the board with `BOARD` (black
first; the side to move is the one after the last move) and returns the `MESSAGE` lines the
engine printed before its move, then the move; `None` when it answered `ERROR`/`UNKNOWN`.
"""
import queue
import re
import subprocess
import threading


class Engine:
    def __init__(self, cmd, cwd=None):
        self.cmd = cmd
        self.cwd = cwd
        self.start()

    def start(self):
        self.p = subprocess.Popen(
            self.cmd, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, args=(self.p, self.lines), daemon=True).start()

    @staticmethod
    def pump(p, lines):
        for line in p.stdout:
            lines.put(line.strip())
        lines.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self, timeout):
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise RuntimeError("engine closed its output")
        return line

    def restart(self):
        self.close()
        self.start()

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
            self.p.wait()

    def send_stones(self, command, moves):
        """`command` (`BOARD`, or an extension such as Rapfi's `YXBOARD`), the stones of `moves`
        (black first; 1 for the side to move after them, 2 for the other), then `DONE`."""
        self.send(command)
        n = len(moves)
        for i, (x, y) in enumerate(moves):
            own = (i % 2) == (n % 2)
            self.send(f"{x},{y},{1 if own else 2}")
        self.send("DONE")

    def begin(self, size=15, infos=None):
        """`START size` until the engine answers OK, then the `INFO` settings."""
        # An engine that reads its input while it searches (Rapfi) may swallow the START
        # sent right after its move: ask again until it answers OK.
        for _ in range(5):
            self.send(f"START {size}")
            try:
                if self.read(2.0).upper().startswith("OK"):
                    break
            except queue.Empty:
                continue
        else:
            raise RuntimeError("no OK to START")
        for key, value in (infos or {}).items():
            if value is not None:
                self.send(f"INFO {key} {value}")

    def analyse(self, moves, size=15, infos=None, timeout=60.0):
        self.begin(size, infos)
        self.send_stones("BOARD", moves)
        messages = []
        while True:
            line = self.read(timeout)
            if line.upper().startswith("MESSAGE"):
                messages.append(line)
            elif re.match(r"^\d+,\d+$", line):
                return messages, line
            elif line.upper().startswith(("ERROR", "UNKNOWN")):
                return None
