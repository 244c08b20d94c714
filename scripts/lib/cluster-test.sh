# The common part of scripts/test-slurm.sh and scripts/test-parallel-ssh.sh (sourced): both
# play the same small tournament through a distribution script and check it against one
# process.

# usage: cluster_test_prepare INSTALL_FLAG
# Checks for root, installs the tools, builds the release binaries if missing; sets BIN.
cluster_test_prepare() {
    if ((EUID != 0)); then
        echo "$0: run it as root (it installs packages and starts daemons)" >&2
        exit 1
    fi
    "$root/scripts/setup.sh" "$1"
    BIN=$root/target/release
    if [[ ! -x $BIN/wuzi-arena || ! -x $BIN/pbrain-wuzi ]]; then
        (cd "$root" && nice -n 19 cargo build --release --bins)
    fi
}

# usage: cluster_test_tournament ROUNDS SEED
# Sets TOURNAMENT to the options of three random movers seeded per game (so every machine
# plays a game the same way), round robin on 9x9 with symmetries: 6 x ROUNDS games.
cluster_test_tournament() {
    TOURNAMENT=()
    local name
    for name in r1 r2 r3; do
        TOURNAMENT+=(--engine "cmd=$BIN/pbrain-wuzi" "name=$name" info=player=random 'info=seed={seed}')
    done
    TOURNAMENT+=(--size 9 --rounds "$1" --symmetry --seed "$2" --timeout-turn 3000 --start-timeout 10000)
}

cluster_test_fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# usage: cluster_test_check WORK REPORT RUN_DIR
# Plays TOURNAMENT in one process into WORK/one and checks that REPORT (the distributed
# run's output) is its table and that RUN_DIR/merged holds every game exactly once.
cluster_test_check() {
    local work=$1 report=$2 run=$3 want games distinct
    "$BIN/wuzi-arena" "${TOURNAMENT[@]}" --quiet --out "$work/one" > "$work/one-report.txt"
    diff -u "$work/one-report.txt" "$report" || cluster_test_fail "the merged report differs"
    want=$(wc -l < "$work/one/games.jsonl")
    games=$(wc -l < "$run/merged/games.jsonl")
    distinct=$(grep -o '^{"id":[0-9]*' "$run/merged/games.jsonl" | sort -u | wc -l)
    ((games == want && distinct == want)) ||
        cluster_test_fail "$games game lines, $distinct distinct, want $want"
}
