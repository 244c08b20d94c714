#!/usr/bin/env bash
# A wuzi-arena tournament split into shards and run through GNU parallel, on this machine
# (-j) or on several (--sshloginfile), then merged into one report.
#
#   scripts/arena-parallel.sh [-j JOBS] [--sshloginfile FILE] [--arena PATH] \
#       SHARDS RUN_DIR -- WUZI_ARENA_OPTIONS…
#
# RUN_DIR gets the staged binaries (scripts/lib/arena-stage.sh), one shard-I/ directory
# per shard, merged/ (the one-machine records) and report.txt (the table). Engines given
# as cmd=PATH and the --openings file are copied into RUN_DIR/stage, and so, with
# --sshloginfile, to every machine (they must run the same binaries: same architecture and
# libraries); engines named without a path (cmd=pbrain-x) must be on each machine's PATH.
# Jobs run in RUN_DIR's path relative to the home directory on other machines (parallel's
# --workdir .), and each shard's directory comes back when it ends (--return).
#
# Running it again with the same arguments continues an interrupted run: every shard is
# started with --resume, so finished games are kept and only the others are played.
# -j defaults to the number of shards on this machine; with --sshloginfile it is parallel's
# per-machine job count (default: one job per CPU core). Progress lines of the shards are
# printed as they come; `wuzi-arena status RUN_DIR/shard-*` summarises them at any time.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/arena-stage.sh"

jobs="" logins=""
script_option() {
    case $1 in
        -j) jobs=$2 CONSUMED=2 ;;
        --sshloginfile) logins=$(realpath "$2") CONSUMED=2 ;;
        *) return 1 ;;
    esac
}
parse_run_args parallel "" "$@"
shards=$SHARDS run=$RUN
stage_run "$run" "$shards" "$ARENA" "${ARENA_ARGS[@]}"

cd "$run"
opts=(--line-buffer --halt never)
if [[ -n $logins ]]; then
    # A shard's directory travels both ways, so a rerun resumes it on whichever machine
    # gets it; --cleanup removes the copies parallel knows as files, the rest goes below.
    for ((i = 1; i <= shards; i++)); do mkdir -p "shard-$i"; done
    opts+=(--sshloginfile "$logins" --workdir . --cleanup)
    for f in "${STAGED_FILES[@]}"; do opts+=(--basefile "$f"); done
    opts+=(--transferfile 'shard-{}' --return 'shard-{}')
    [[ -n $jobs ]] && opts+=(-j "$jobs")
else
    opts+=(-j "${jobs:-$shards}")
fi
status=0
seq 1 "$shards" | parallel "${opts[@]}" bash stage/run-shard.sh '{}' || status=$?
if [[ -n $logins ]]; then
    # parallel's --cleanup does not remove directories: clear the shard copies on every
    # other machine (":" is this one, whose directories are the results).
    remote=$(mktemp)
    grep -Ev '^[[:space:]]*([0-9]+/)?:[[:space:]]*$|^[[:space:]]*(#|$)' "$logins" > "$remote" || true
    if [[ -s $remote ]]; then
        mapfile -t dirs < <(seq -f 'shard-%g' 1 "$shards")
        parallel --nonall --sshloginfile "$remote" --workdir . rm -rf "${dirs[@]}" stage ||
            echo "could not remove the shard copies on some machines" >&2
    fi
    rm -f "$remote"
fi
if ((status != 0)); then
    echo "$status shard(s) failed; run the same command again to resume them" >&2
    exit 1
fi
stage/merge.sh
