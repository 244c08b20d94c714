#!/usr/bin/env bash
# Tests scripts/arena-parallel.sh --sshloginfile for real on one machine: a private sshd on
# 127.0.0.1:2222 (its own host key, config and authorized key, in a temporary directory)
# stands in for a second machine whose home directory is elsewhere, so parallel really
# copies the staged engines out (--basefile), plays shards there, copies the shard
# directories back (--return) and cleans up (--cleanup), while other shards play locally
# (":" in the login file). The merged report must equal the tournament played in one
# process, and the "remote" home must be left empty.
#
#   sudo scripts/test-parallel-ssh.sh
#
# Needs root (to install openssh-server and log in over ssh as root). The sshd is stopped
# at the end, by its process id.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/cluster-test.sh"
cluster_test_prepare --sshd

# parallel maps the run directory to the same path relative to the home directory on the
# other machine, so the run sits under $HOME here and the "remote" home is another one.
work=$(mktemp -d "$HOME/.wuzi-ssh-test.XXXXXX")
remote_home=$(mktemp -d /tmp/wuzi-ssh-remote-home.XXXXXX)
cleanup() {
    local status=$?
    if [[ -f $work/sshd.pid ]]; then
        kill "$(cat "$work/sshd.pid")" 2>/dev/null || true
    fi
    if ((status == 0)); then
        rm -rf "$work" "$remote_home"
    else
        echo "test failed; files kept in $work and $remote_home" >&2
    fi
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
# Every session (the commands parallel runs, rsync's server side) starts in the other home.
cat > "$work/remote-login" <<EOF
#!/usr/bin/env bash
export HOME=$remote_home
cd "\$HOME"
exec bash -c "\$SSH_ORIGINAL_COMMAND"
EOF
chmod +x "$work/remote-login"
mkdir -p /run/sshd
cat > "$work/sshd_config" <<EOF
Port 2222
ListenAddress 127.0.0.1
HostKey $work/host_key
PidFile $work/sshd.pid
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
ForceCommand $work/remote-login
EOF
/usr/sbin/sshd -f "$work/sshd_config" -E "$work/sshd.log"
ssh_cmd="ssh -p 2222 -i $work/client_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
for ((i = 0; i < 50; i++)); do
    $ssh_cmd root@127.0.0.1 true 2>/dev/null && break
    sleep 0.2
done
[[ $($ssh_cmd root@127.0.0.1 'echo $HOME') == "$remote_home" ]] || {
    echo "the test sshd does not answer; see $work/sshd.log" >&2
    exit 1
}

# one job slot over ssh, one here
printf '1/%s root@127.0.0.1\n1/:\n' "$ssh_cmd" > "$work/logins"

cluster_test_tournament 3 5 # 18 games
"$root/scripts/arena-parallel.sh" --sshloginfile "$work/logins" --arena "$BIN/wuzi-arena" \
    4 "$work/run" -- "${TOURNAMENT[@]}" > "$work/parallel-report.txt" 2> "$work/parallel.log" ||
    { cat "$work/parallel.log" >&2; cluster_test_fail "arena-parallel.sh failed"; }
cluster_test_check "$work" "$work/parallel-report.txt" "$work/run"
# two logins were this script's own checks; parallel's jobs and transfers are the rest
logins=$(grep -c 'Accepted publickey' "$work/sshd.log" || true)
((logins > 2)) || cluster_test_fail "no job went over ssh ($logins logins)"
leftover=$(find "$remote_home/${work#"$HOME"/}" -type f 2>/dev/null | head -5)
[[ -z $leftover ]] || cluster_test_fail "files left on the ssh side: $leftover"
cat "$work/parallel-report.txt"
echo "OK: shards over ssh and locally merged into the one-process tournament"
