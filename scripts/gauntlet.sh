#!/usr/bin/env bash
# wuzi (release build) against a list of engines, each opening played with both colours.
#
#   scripts/gauntlet.sh [wuzi-arena options…] -- ENGINE [ENGINE…]
#
# Each ENGINE is a path to a pbrain-* executable. Defaults: Gomocup fastgame-like time
# control on 15×15 freestyle, the classic 41 openings, 2 games in parallel, records and logs
# in arena-out/gauntlet-<time>/. Any wuzi-arena option given before `--` is appended, so it
# overrides these (e.g. --rule 4 --size 15 --timeout-turn 1000 --concurrency 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opts=()
while [[ $# -gt 0 && $1 != "--" ]]; do opts+=("$1"); shift; done
[[ ${1:-} == "--" ]] && shift
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [wuzi-arena options…] -- ENGINE [ENGINE…]" >&2
    exit 2
fi
cargo build --release --manifest-path "$root/Cargo.toml" --bins
engines=(--engine "cmd=$root/target/release/pbrain-wuzi" name=wuzi)
for e in "$@"; do
    engines+=(--engine "cmd=$(realpath "$e")" "dir=$(dirname "$(realpath "$e")")")
done
out="$root/arena-out/gauntlet-$(date +%Y%m%d-%H%M%S)"
exec "$root/target/release/wuzi-arena" --gauntlet "${engines[@]}" \
    --openings "$root/openings/piskvork-41-15.pos" --size 15 --rule 0 \
    --timeout-turn 5000 --timeout-match 120000 --concurrency 2 --out "$out" "${opts[@]}"
