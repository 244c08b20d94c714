#!/usr/bin/env bash
# Our Connect Four solver against Pascal Pons' reference solver on the same 7x6 positions,
# in one run: each program solves the whole list twice, alternating (ours, Pons, Pons, ours),
# and the best of its two CPU times (user + system) counts. Every score is compared.
#
# usage: scripts/c4-vs-pons.sh PONS [COUNT] [SEED] [MIN_PLIES] [MAX_PLIES]
#   PONS   a directory holding Pons' sources (github.com/PascalPons/connect4: main.cpp,
#          Solver.cpp, ...), built here with g++ -O3 as his Makefile does; or his c4solver
#          binary.
#   COUNT, SEED, MIN_PLIES, MAX_PLIES  the positions, from scripts/c4-positions.py
#          (default 150 positions, seed 16, 8..14 plies: random mid-game positions where the
#          side to move cannot win at once).
# Environment: C4_BIN (our binary, default target/release/pbrain-wuzi), C4_POSITIONS (a file
# of positions to use instead, one per line; anything after the first field is ignored, so
# the public sets work as they are), C4_SOLVE_ARGS (extra `solve` arguments for ours).
# Run it under `nice -n 19` on a shared machine. Pons runs in an empty directory, so no
# opening book of his is loaded; his table is kept from line to line, ours is reset.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
here=$(cd "$(dirname "$0")" && pwd)
pons=${1:?usage: $0 PONS_DIR_OR_BINARY [COUNT] [SEED] [MIN_PLIES] [MAX_PLIES]}
count=${2:-150}
seed=${3:-16}
min_plies=${4:-8}
max_plies=${5:-14}
ours=${C4_BIN:-$here/../target/release/pbrain-wuzi}
ours=$(cd "$(dirname "$ours")" && pwd)/$(basename "$ours")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=lib/pons.sh
source "$here/lib/pons.sh"
pons_bin=$(pons_solver "$pons" "$work")
[[ -x $ours ]] || { echo "no binary $ours (cargo build --release)" >&2; exit 2; }

if [[ -n ${C4_POSITIONS:-} ]]; then
    awk 'NF { print $1 }' "$C4_POSITIONS" > "$work/positions"
    echo "# positions: $C4_POSITIONS ($(wc -l < "$work/positions") lines)"
else
    "$here/c4-positions.py" --count "$count" --seed "$seed" \
        --min-plies "$min_plies" --max-plies "$max_plies" > "$work/positions"
    echo "# positions: c4-positions.py --count $count --seed $seed --min-plies $min_plies --max-plies $max_plies"
fi
mkdir "$work/pons-cwd"

# cpu_time NAME OUTFILE CMD... : runs CMD on the positions, prints and records its CPU seconds.
cpu_time() {
    local name=$1 out=$2
    shift 2
    /usr/bin/time -f '%U %S' -o "$work/time" "$@" < "$work/positions" > "$out" 2> "$work/stderr" || {
        echo "$name failed:" >&2
        cat "$work/stderr" >&2
        exit 1
    }
    local t
    t=$(tail -n 1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }')
    echo "$name $t" >> "$work/times"
    echo "  $name: $t s CPU"
}
run_ours() { cpu_time ours "$work/ours.out" "$ours" solve ${C4_SOLVE_ARGS:-}; }
run_pons() { (cd "$work/pons-cwd" && cpu_time pons "$work/pons.out" "$pons_bin"); }
: > "$work/times"
echo "round 1"; run_ours; run_pons
echo "round 2"; run_pons; run_ours

# Every score must agree, line by line.
n=$(wc -l < "$work/positions")
paste -d ' ' <(awk '{ print $1, $2 }' "$work/ours.out") <(awk '{ print $1, $2 }' "$work/pons.out") |
    awk -v n="$n" '
        $1 != $3 { print "line " NR ": different positions " $1 " " $3; bad++; next }
        $2 != $4 { print "MISMATCH " $1 ": ours " $2 ", Pons " $4; bad++ }
        END { if (NR != n) { print "only " NR " of " n " lines answered"; bad++ }
              printf "scores: %d positions, %d different\n", n, bad }' | tee "$work/check"
awk '{ nodes += $3 } END { printf "our nodes: %d total, %.0f mean\n", nodes, nodes / NR }' "$work/ours.out"
awk '
    { if (!($1 in t) || $2 < t[$1]) t[$1] = $2 }
    END { printf "best of two, CPU: ours %.2f s, Pons %.2f s, ratio ours/Pons %.3f\n",
                 t["ours"], t["pons"], t["ours"] / t["pons"] }' "$work/times"
grep -q ' 0 different$' "$work/check"
