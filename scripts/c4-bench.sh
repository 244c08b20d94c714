#!/usr/bin/env bash
# Connect Four solver figures: mean nodes and time per position on the public 7x6 sets
# (every score checked), then a few harder opening positions, one line each.
# usage: scripts/c4-bench.sh [BINARY] [extra solve args...]   (default: target/release/pbrain-wuzi)
# The sets are read from C4_SETS, by default the copy shipped in tests/data/connect4.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
bin=${1:-target/release/pbrain-wuzi}
shift || true
sets=${C4_SETS:-$(dirname "$0")/../tests/data/connect4}
for s in L3 L2 L1; do
    start=$(date +%s.%N)
    "$bin" solve "$@" < "$sets/Test_${s}_R1" | awk -v set="$s" '
        { n += $3; t += $4; if (NF > 4) bad++ }
        END { printf "%s: %d positions, %d wrong, mean %.1f nodes, mean %.1f us", set, NR, bad, n / NR, t / NR }'
    echo " (wall $(echo "$(date +%s.%N) - $start" | bc) s)"
done
# Harder positions (expected scores from our own solver's earlier runs; MISMATCH if changed).
printf '444444 1\n4343 5\n435 2\n' | "$bin" solve "$@"
