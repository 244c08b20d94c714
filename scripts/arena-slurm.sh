#!/usr/bin/env bash
# A wuzi-arena tournament as a Slurm job array, one task a shard, and a merge job that runs
# once every task has ended.
#
#   scripts/arena-slurm.sh [--wait] [--arena PATH] [--sbatch OPTION]… \
#       SHARDS RUN_DIR -- WUZI_ARENA_OPTIONS…
#
# RUN_DIR must be on a filesystem the compute nodes share (as Slurm clusters have). It gets
# the staged binaries (scripts/lib/arena-stage.sh), shard-I/ per shard, slurm-shard-I.log
# with each task's progress lines, and, from the merge job, merged/ (the one-machine
# records), report.txt (the table) and slurm-merge.log. --sbatch passes an option to both
# submissions (--sbatch --partition=short --sbatch --time=2:00:00); each task asks for one
# CPU per concurrent game (--concurrency, default 1) plus the engines' own threads if you
# say so with --sbatch --cpus-per-task=N.
#
# The merge job depends on the array with afterany, so it runs even when a task failed and
# then says which games are missing; submitting the same command again resumes the run
# (every shard starts with --resume). While it runs: wuzi-arena status RUN_DIR/shard-*.
# With --wait the script stays until the merge job has ended and prints the report.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/arena-stage.sh"

wait_for_merge=0 extra=()
script_option() {
    case $1 in
        --wait) wait_for_merge=1 CONSUMED=1 ;;
        --sbatch) extra+=("$2") CONSUMED=2 ;;
        *) return 1 ;;
    esac
}
parse_run_args sbatch "--slurm" "$@"
shards=$SHARDS run=$RUN
# one CPU per concurrent game
cpus=1
for ((i = 0; i < ${#ARENA_ARGS[@]}; i++)); do
    [[ ${ARENA_ARGS[i]} == --concurrency ]] && cpus=${ARENA_ARGS[i + 1]}
done
stage_run "$run" "$shards" "$ARENA" "${ARENA_ARGS[@]}"
run=$(realpath "$run")
rm -f "$run/report.txt" # a report from an earlier submission is not this one's

array=$(sbatch --parsable --job-name=wuzi-arena --array="1-$shards" \
    --cpus-per-task="$cpus" --chdir="$run" --output="$run/slurm-shard-%a.log" \
    "${extra[@]}" --wrap='bash stage/run-shard.sh "$SLURM_ARRAY_TASK_ID"')
array=${array%%;*}
merge=$(sbatch --parsable --job-name=wuzi-arena-merge --dependency="afterany:$array" \
    --chdir="$run" --output="$run/slurm-merge.log" "${extra[@]}" --wrap='bash stage/merge.sh')
merge=${merge%%;*}
echo "submitted shards as job array $array (1-$shards) and the merge as job $merge" >&2
echo "progress: $run/stage/wuzi-arena status $run/shard-*" >&2
((wait_for_merge)) || exit 0

while [[ -n $(squeue --noheader --jobs="$array,$merge" 2>/dev/null) ]]; do
    sleep 2
done
if [[ -f $run/report.txt ]]; then
    cat "$run/report.txt"
else
    echo "the merge job did not produce a report; its log:" >&2
    cat "$run/slurm-merge.log" >&2 || true
    exit 1
fi
