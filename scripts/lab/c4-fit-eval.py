#!/usr/bin/env python3
"""Fit the Connect Four default player's leaf evaluation to solved positions.

Reads the lines of `pbrain-wuzi solve --weak` (`position score nodes microseconds`; TIMEOUT
and ERROR lines are skipped), asks the binary for each position's evaluation terms
(`solve --features`), and fits one weight per term by logistic regression on the exact
result (win 1, draw 1/2, loss 0 for the side to move; Newton's method with a small ridge),
the evaluation read as a logit through a scale fitted first to the current weights (Texel's
method: the weights come out in the units the search already uses). One position in ten
(by a hash of its string) is held out, and the log loss of the current and the fitted
weights on it is printed. --out rewrites src/game/connect4/eval_weights.rs (then run cargo fmt).

usage: scripts/lab/c4-fit-eval.py SOLVED... --bin target/release/pbrain-wuzi [--hand]
                              [--width 12] [--height 6] [--out src/game/connect4/eval_weights.rs]
The build's weights: scripts/lab/c4-fit-eval.py scripts/lab/data/c4-12x6-solved.txt --hand --bin ...
Data: docs/results/connect4.md, "The fitted leaf evaluation": the commands that produced
scripts/lab/data/c4-12x6-solved.txt (arena games, their positions by scripts/lab/c4-game-positions.py, `solve --weak --timeout-s`).
"""
import argparse
import math
import re
import subprocess
import zlib


# The hand-set evaluation (`Windows::evaluate_zugzwang`) as weights of the same terms.
HAND = [4, 21, 72, 120, 50, 1500, 1500]


def read_solved(paths):
    """{position: result for the side to move in [0, 1]} from `solve --weak` lines."""
    out = {}
    for path in paths:
        for line in open(path):
            f = line.split()
            if len(f) < 4 or f[1] in ("TIMEOUT", "ERROR") or line.startswith("#"):
                continue
            out[f[0]] = (int(f[1]) > 0) + 0.5 * (int(f[1]) == 0)
    return out


def features(binary, width, height, positions):
    """{position: [term…]} and the term names, from `solve --features`."""
    text = subprocess.run(
        [binary, "solve", "--features", "--width", str(width), "--height", str(height)],
        input="\n".join(positions) + "\n", capture_output=True, text=True, check=True,
    ).stdout
    names, rows = None, {}
    for line in text.splitlines():
        f = line.split()
        if line.startswith("#"):
            names = f[2:]
        elif len(f) > 1 and f[1] != "ERROR":
            rows[f[0]] = [int(x) for x in f[1:]]
    return names, rows


def current_weights(path):
    """The WEIGHTS array of eval_weights.rs."""
    m = re.search(r"WEIGHTS: \[i32; [^\]]*\] =\s*\[([^\]]*)\]", open(path).read())
    return [int(x) for x in m.group(1).replace("\n", " ").split(",") if x.strip()]


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def log_loss(data, w, scale):
    eps = 1e-9
    total = 0.0
    for x, t in data:
        p = sigmoid(sum(a * b for a, b in zip(x, w)) / scale)
        p = min(1 - eps, max(eps, p))
        total -= t * math.log(p) + (1 - t) * math.log(1 - p)
    return total / max(1, len(data))


def fit_scale(data, w):
    """The scale S at which sigmoid(w·x / S) fits best (golden-section search on log S)."""
    lo, hi = math.log(10.0), math.log(100000.0)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if log_loss(data, w, math.exp(a)) < log_loss(data, w, math.exp(b)):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def solve_linear(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(data, start, scale, ridge, iterations=25):
    """Newton's method on the ridge-penalised log loss; weights in evaluation units."""
    beta = [w / scale for w in start]
    n = len(start)
    for _ in range(iterations):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, t in data:
            p = sigmoid(sum(a * b for a, b in zip(x, beta)))
            r, s = p - t, p * (1 - p)
            for i in range(n):
                if x[i]:
                    grad[i] += r * x[i]
                    xi = s * x[i]
                    row = hess[i]
                    for j in range(n):
                        if x[j]:
                            row[j] += xi * x[j]
        for i in range(n):
            grad[i] += ridge * beta[i] * len(data)
            hess[i][i] += ridge * len(data) + 1e-9
        step = solve_linear(hess, grad)
        beta = [b - s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return [round(b * scale) for b in beta]


def write_weights(path, names, weights, note):
    text = open(path).read()
    body = ", ".join(str(w) for w in weights)
    text = re.sub(r"(pub const WEIGHTS: \[i32; [^\]]*\] =)\s*\[[^\]]*\];",
                  lambda m: f"{m.group(1)} [\n    {body},\n];", text)
    text = re.sub(r"//! Fitted: .*\n(//!  .*\n)*", "", text)
    text = text.replace("\n\n/// The win length", f"\n//! Fitted: {note}\n\n/// The win length", 1)
    open(path, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("solved", nargs="+")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--height", type=int, default=6)
    ap.add_argument("--weights", default="src/game/connect4/eval_weights.rs",
                    help="the current weights (the starting point and the baseline)")
    ap.add_argument("--hand", action="store_true",
                    help="start from (and compare with) the hand-set weights the fit replaced")
    ap.add_argument("--ridge", type=float, default=1e-4)
    ap.add_argument("--out", help="rewrite this eval_weights.rs with the fitted weights")
    a = ap.parse_args()
    solved = read_solved(a.solved)
    names, rows = features(a.bin, a.width, a.height, sorted(solved))
    train, held = [], []
    for pos, x in sorted(rows.items()):
        (held if zlib.crc32(pos.encode()) % 10 == 0 else train).append((x, solved[pos]))
    w0 = HAND if a.hand else current_weights(a.weights)
    scale = fit_scale(train, w0)
    w = fit(train, w0, scale, a.ridge)
    before, after = log_loss(held, w0, scale), log_loss(held, w, scale)
    results = [t for _, t in train]
    print(f"positions: {len(train)} train, {len(held)} held out; side to move wins "
          f"{sum(t == 1 for t in results)}, draws {sum(t == 0.5 for t in results)}, "
          f"loses {sum(t == 0 for t in results)} (train)")
    print(f"scale {scale:.1f}; held-out log loss {before:.5f} -> {after:.5f}; "
          f"train {log_loss(train, w0, scale):.5f} -> {log_loss(train, w, scale):.5f}")
    for n, x, y in zip(names, w0, w):
        print(f"  {n:22} {x:7} -> {y:7}")
    if a.out:
        note = (f"{len(train)} positions ({len(held)} held out, log loss {before:.5f} -> "
                f"{after:.5f}), scale {scale:.1f}.")
        write_weights(a.out, names, w, note)
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
