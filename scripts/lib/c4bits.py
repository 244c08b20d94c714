"""Connect Four helpers shared by the c4-*.py scripts (imported, not run)."""
import subprocess

# The solver's position notation: the columns played, 1-based, `a` = 10.
NOTATION = "123456789abcdefghijklmnopq"


def wins(stones, h):
    """Whether a bitboard (column-major, H+1 bits a column) holds four in a row."""
    for shift in (1, h + 1, h, h + 2):
        m = stones & (stones >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False


def solve_weak(binary, w, h, line, seconds):
    """The side to move's result (1, 0, -1) for a position in NOTATION by `binary solve
    --weak`, or None when the solver does not settle it within `seconds`."""
    out = subprocess.run(
        [binary, "solve", "--width", str(w), "--height", str(h), "--weak",
         "--timeout-s", str(seconds)],
        input=line + "\n", capture_output=True, text=True, check=True,
    ).stdout.split()
    if len(out) < 2 or out[1] == "TIMEOUT":
        return None
    return int(out[1])
