#!/usr/bin/env bash
# Installs what scripts/arena-parallel.sh and scripts/arena-slurm.sh need on Debian/Ubuntu:
# GNU parallel (and rsync and ssh, which parallel uses to reach other machines); with
# --slurm, a single-node Slurm (slurmctld, slurmd, the sbatch/squeue clients and munge,
# Slurm's authentication) for scripts/test-slurm.sh; with --sshd, an ssh server for
# scripts/test-parallel-ssh.sh. Needs root; does nothing for a tool already installed, so
# it is safe to run before every test.
#
# usage: scripts/install-cluster-tools.sh [--slurm] [--sshd]
set -euo pipefail

want=(parallel rsync openssh-client)
for a in "$@"; do
    case $a in
        --slurm) want+=(slurm-wlm slurm-client munge) ;;
        --sshd) want+=(openssh-server) ;;
        *) echo "usage: $0 [--slurm] [--sshd]" >&2; exit 2 ;;
    esac
done

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
apt-get install -y -q --no-install-recommends "${missing[@]}"
