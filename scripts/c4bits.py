"""Connect Four bitboard helpers shared by the c4-*.py scripts (imported, not run)."""


def wins(stones, h):
    """Whether a bitboard (column-major, H+1 bits a column) holds four in a row."""
    for shift in (1, h + 1, h, h + 2):
        m = stones & (stones >> shift)
        if m & (m >> (2 * shift)):
            return True
    return False
