#!/usr/bin/env bash
# SPRT of a branch (or any commit) against main: both are built in temporary worktrees,
# then played against each other until the test decides.
#
#   scripts/sprt.sh BRANCH [wuzi-arena options…]
#
# Defaults: H0 elo 0, H1 elo 5, alpha = beta = 0.05; 15×15 freestyle, 100 balanced
# openings (openings/README.md) with random symmetries, 1 s/move, engines reused, up to
# 100 rounds (20000 games); results in arena-out/sprt-<branch>-<time>/. Options given after
# BRANCH are appended and so override these (e.g. --sprt 0,10,0.05,0.05 --concurrency 1).
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 1 ]]; then
    echo "usage: $0 BRANCH [wuzi-arena options…]" >&2
    exit 2
fi
branch=$1; shift
work=$(mktemp -d)
cleanup() {
    git -C "$root" worktree remove --force "$work/test" 2>/dev/null || true
    git -C "$root" worktree remove --force "$work/base" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/test" "$branch" >/dev/null
git -C "$root" worktree add --detach "$work/base" main >/dev/null
for side in test base; do
    CARGO_TARGET_DIR="$work/target-$side" cargo build --release --manifest-path "$work/$side/Cargo.toml" --bins
done
safe=$(echo "$branch" | tr -c 'A-Za-z0-9_.\n-' '_')
out="$root/arena-out/sprt-$safe-$(date +%Y%m%d-%H%M%S)"
"$work/target-base/release/wuzi-arena" \
    --engine "cmd=$work/target-test/release/pbrain-wuzi" "name=$safe" \
    --engine "cmd=$work/target-base/release/pbrain-wuzi" name=main \
    --sprt 0,5,0.05,0.05 --reuse --rounds 100 --symmetry --seed "$RANDOM" \
    --openings "$root/openings/balanced-freestyle-15.pos" --size 15 --rule 0 \
    --timeout-turn 1000 --timeout-match 30000 --concurrency 2 --out "$out" "$@"
