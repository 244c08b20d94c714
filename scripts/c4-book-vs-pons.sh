#!/usr/bin/env bash
# The shipped Connect Four opening book against Pascal Pons' solver, an independent program:
# for every checked entry, Pons' score of the stored position must be the book's score, and
# his score of the position after the book's column must be its negative (the column keeps
# the value; skipped when the column wins at once). Every entry with MIN_PLY or more stones
# is checked, and a random sample of SAMPLE of the earlier ones (those can take Pons' solver
# seconds to minutes each: run this under nice, with JOBS solvers in parallel).
#
# usage: scripts/c4-book-vs-pons.sh PONS [SAMPLE] [SEED] [MIN_PLY]
#   PONS     a directory holding Pons' sources (github.com/PascalPons/connect4: main.cpp,
#            Solver.cpp, ...), built here with g++ -O3 as his Makefile does; or his
#            c4solver binary. He runs in an empty directory, so no book of his is loaded.
#   SAMPLE   how many entries with fewer than MIN_PLY stones to check (default 300)
#   SEED     the sample's seed (default 69)
#   MIN_PLY  entries with at least this many stones are all checked (default 12)
# Environment: C4_BOOK (a book file; default the one built into the engine), JOBS (Pons
# processes at once, default 2), C4_DUMP (the entry lister, default built with
# `cargo build --release --example c4_book_dump`), KEEP (a directory to keep the files in).
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
here=$(cd "$(dirname "$0")" && pwd)
pons=${1:?usage: $0 PONS_DIR_OR_BINARY [SAMPLE] [SEED] [MIN_PLY]}
sample=${2:-300}
seed=${3:-69}
min_ply=${4:-12}
jobs=${JOBS:-2}
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$work"' EXIT

# shellcheck source=lib/pons.sh
source "$here/lib/pons.sh"
pons_bin=$(pons_solver "$pons" "$work")
if [[ -z ${C4_DUMP:-} ]]; then
    (cd "$here/.." && cargo build --release -q --example c4_book_dump)
    dump=$here/../target/release/examples/c4_book_dump
else
    dump=$C4_DUMP
fi

# PLY SEQUENCE SCORE COLUMN CHILD, one line per entry (examples/c4_book_dump.rs).
"$dump" ${C4_BOOK:+"$C4_BOOK"} > "$work/book"
total=$(wc -l < "$work/book")
awk -v m="$min_ply" '$1 >= m' "$work/book" > "$work/late"
awk -v m="$min_ply" '$1 < m' "$work/book" > "$work/earlier"
shuf -n "$sample" --random-source=<(yes "$seed") "$work/earlier" > "$work/early"
echo "# book: $total entries; $(wc -l < "$work/late") with >= $min_ply stones (all checked)," \
    "$(wc -l < "$work/early") of $(wc -l < "$work/earlier") earlier" \
    "(sample, seed $seed)"

# The positions Pons solves: each entry's and its child's; "-" is the empty board.
cat "$work/late" "$work/early" > "$work/checked"
awk '{ print $2; if ($5 != "-") print $5 }' "$work/checked" | sed 's/^-$//' > "$work/queries"
split -n "r/$jobs" -d "$work/queries" "$work/part."
mkdir -p "$work/pons-cwd"
start=$(date +%s)
for part in "$work"/part.*; do
    (cd "$work/pons-cwd" && "$pons_bin" < "$part" > "$part.out" 2> "$part.err") &
done
wait
secs=$(($(date +%s) - start))
# His only other word on stderr is that he found no book (on purpose: he runs without).
if cat "$work"/part.*.err | grep -v '^Unable to load opening book' | grep -q .; then
    echo "Pons' solver rejected lines:" >&2
    cat "$work"/part.*.err >&2
    exit 1
fi
# Pons echoes the line, then the score: "SEQUENCE SCORE", or " SCORE" for the empty board.
cat "$work"/part.*.out |
    awk '{ s = $NF; q = (NF == 1) ? "-" : $1; print q, s }' > "$work/pons"

awk -v secs="$secs" -v m="$min_ply" '
    NR == FNR { pons[$1] = $2; next }
    {
        group = ($1 >= m) ? "late" : "early"
        n[group]++
        if (!($2 in pons)) { print "NO ANSWER for " $2; bad++; next }
        if (pons[$2] != $3) {
            print "SCORE MISMATCH " $2 " (ply " $1 "): book " $3 ", Pons " pons[$2]; bad++; sbad++
        }
        if ($5 != "-") {
            if (!($5 in pons)) { print "NO ANSWER for " $5; bad++; next }
            if (pons[$5] != -$3) {
                print "COLUMN MISMATCH " $2 " column " $4 ": book " $3 ", Pons after it " pons[$5]
                bad++; cbad++
            }
        } else wins++
    }
    END {
        printf "checked: %d entries with >= %d stones, %d earlier; %d won at once by the column\n",
            n["late"], m, n["early"], wins
        printf "mismatches: %d (score %d, column %d); Pons took %d s wall\n",
            bad, sbad, cbad, secs
        exit bad > 0
    }' "$work/pons" "$work/checked"
