#!/usr/bin/env bash
# Pascal Pons' Connect Four solver (github.com/PascalPons/connect4), the independent judge
# of scripts/c4-vs-pons.sh and scripts/c4-book-vs-pons.sh: given his source directory it is
# built into WORK with g++ -O3 as his Makefile does, given his c4solver binary it is used as
# it is. Sourced, not run: `pons_solver PONS WORK` prints the solver's absolute path, or
# says why not on stderr and exits 2.
pons_solver() {
    local pons=$1 work=$2
    if [[ -d $pons ]]; then
        local f
        for f in main.cpp Solver.cpp; do
            [[ -f $pons/$f ]] || { echo "no $f in $pons" >&2; exit 2; }
        done
        g++ --std=c++11 -O3 -DNDEBUG -o "$work/c4solver" "$pons/main.cpp" "$pons/Solver.cpp" ||
            { echo "cannot build Pons' solver from $pons" >&2; exit 2; }
        echo "$work/c4solver"
    elif [[ -x $pons ]]; then
        echo "$(cd "$(dirname "$pons")" && pwd)/$(basename "$pons")"
    else
        echo "$pons is neither a directory nor an executable" >&2
        exit 2
    fi
}
