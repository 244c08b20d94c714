#!/usr/bin/env bash
# Installs on Debian/Ubuntu what the tests and the cluster scripts need; .ci/run calls it
# first and stops if it fails, so that no test meets a missing tool.
#
# usage: scripts/setup.sh [--slurm] [--sshd]
#
# By default: GNU parallel, rsync and the ssh client (scripts/arena-parallel.sh, which
# tests/arena_shard.rs runs; parallel uses rsync and ssh to reach other machines) and
# python3 (the scripts the tests run), and Debian's chromium, which tests/arena_report.rs
# drives headless to look at `wuzi-arena report`'s page. --slurm adds a single-node Slurm (slurmctld, slurmd,
# the sbatch/squeue clients and munge, Slurm's authentication) for scripts/test-slurm.sh;
# --sshd an ssh server for scripts/test-parallel-ssh.sh. Needs root to install; does
# nothing for a package already installed (then it needs neither root nor the network), so
# it is safe to run before every test.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac

want=(parallel rsync openssh-client python3 chromium)
for a in "$@"; do
    case $a in
        --slurm) want+=(slurm-wlm slurm-client munge) ;;
        --sshd) want+=(openssh-server) ;;
        *) echo "usage: $0 [--slurm] [--sshd]" >&2; exit 2 ;;
    esac
done

if ! command -v dpkg-query >/dev/null; then
    echo "$0: not a Debian/Ubuntu system; install ${want[*]} with its package manager" >&2
    exit 1
fi
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
    exit 0
fi
if ((EUID != 0)); then
    echo "$0: need root to install ${missing[*]} (run it with sudo)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
