#!/usr/bin/env bash
# A parameter grid of wuzi (release build) configurations played against each other;
# results as CSV.
#
#   scripts/tune-grid.sh --grid NAME=V1,V2,… [--grid …] [wuzi-arena options…]
#
# Each grid parameter reaches the engine as `INFO NAME VALUE` after START (e.g.
# --grid max_depth=2,4,6 --grid max_node=20000,80000); pass your own
# `--engine cmd=… arg=--x={NAME}` instead to substitute into arguments. The CSV goes to
# arena-out/grid-<time>/grid.csv, the table to the terminal.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -eq 0 ]]; then
    echo "usage: $0 --grid NAME=V1,V2,… [--grid …] [wuzi-arena options…]" >&2
    exit 2
fi
cargo build --release --manifest-path "$root/Cargo.toml" --bins
engine=(--engine "cmd=$root/target/release/pbrain-wuzi" name=wuzi)
for a in "$@"; do
    [[ $a == --engine ]] && engine=()
done
out="$root/arena-out/grid-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
exec "$root/target/release/wuzi-arena" "${engine[@]}" \
    --openings "$root/openings/balanced-freestyle-15.pos" --size 15 --rule 0 \
    --timeout-turn 1000 --timeout-match 30000 --reuse --concurrency 2 \
    --out "$out" --csv "$out/grid.csv" "$@"
