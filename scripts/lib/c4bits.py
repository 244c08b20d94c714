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


def random_quiet_position(rng, w, h, plies):
    """`plies` random moves from the empty board after which nobody has four and the side to
    move cannot win at once, as (column, row) pairs (row 0 at the bottom), or None when the
    draw fails that. Draws one rng.choice a move, so seeded runs replay."""
    heights = [0] * w
    mine, theirs = 0, 0  # side to move, the other side
    moves = []
    for _ in range(plies):
        col = rng.choice([c for c in range(w) if heights[c] < h])
        mine |= 1 << (col * (h + 1) + heights[col])
        moves.append((col, heights[col]))
        heights[col] += 1
        if wins(mine, h):
            return None
        mine, theirs = theirs, mine
    if any(heights[c] < h and wins(mine | 1 << (c * (h + 1) + heights[c]), h)
           for c in range(w)):
        return None
    return moves


def distinct(count, draw, what, accept=lambda x: True):
    """`count` different results of `draw()` that `accept` takes, in the order drawn: a None
    draw is dropped, a repeat too (`accept` sees each result once). Gives up after 1000
    draws a result wanted."""
    seen, out, tries = set(), [], 0
    while len(out) < count:
        tries += 1
        if tries > 1000 * count:
            raise SystemExit(f"cannot find enough {what}")
        x = draw()
        if x is None or x in seen:
            continue
        seen.add(x)
        if accept(x):
            out.append(x)
    return out


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
