#!/usr/bin/env bash
# The long Connect Four solves of issue #5, one at a time (the machine is shared): exact
# values of the first moves 4, 3, 2, 1 (7x6; 5..7 are their mirrors), then the strong and the
# weak solve of the empty board. Each line: position score nodes microseconds, or
# position TIMEOUT nodes microseconds. The score is for the side to move (the second
# player after a first move: the first move's value is its negative).
# usage: scripts/lab/c4-long.sh [BINARY] [MOVE_TIMEOUT_S] [EMPTY_TIMEOUT_S] [TT_ENTRIES]
set -uo pipefail
bin=${1:-target/release/pbrain-wuzi}
move_t=${2:-1200}
empty_t=${3:-600}
tt=${4:-67108864}
run() {
    local limit=$1
    shift
    echo "# $(date -u +%H:%M:%S) solve $* --tt-entries $tt --timeout-s $limit"
    # The outer timeout is only a safety net above the solver's own limit.
    timeout $((${limit%.*} + 120)) nice -n 5 "$bin" solve "$@" --tt-entries "$tt" --timeout-s "$limit"
}
for first in 4 3 2 1; do
    echo "$first" | run "$move_t"
done
echo - | run "$empty_t"
echo - | run "$empty_t" --weak
echo "# $(date -u +%H:%M:%S) done"
