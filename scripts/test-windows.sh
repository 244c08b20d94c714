#!/usr/bin/env bash
# Tests the Windows build under wine: the protocol transcripts and one refereed game.
#
# Usage: scripts/test-windows.sh [--skip-release]
#   --skip-release  do not rebuild/check the x86_64-pc-windows-gnu release and its zip
#
# Steps: build the release .exe and zip (scripts/build-windows.sh, which also refuses DLLs a
# plain Windows lacks); build the same source for x86_64-win7-windows-gnu, because Debian's
# wine 8 lacks bcryptprimitives.dll, which std for the Windows 10+ target imports; run every
# transcript in protocol-tests/ against that .exe under wine (tests/protocol.rs starts the
# command in WUZI_ENGINE instead of the Linux binary); play two games (one each colour), the
# .exe under wine against the Linux build, refereed by wuzi-arena.
#
# wine runs in its own prefix (target/windows/wineprefix) with a wineserver kept alive for the
# run, so each engine start costs a process, not a wine boot; the server is stopped at exit.
set -euo pipefail
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
cd "$(dirname "$0")/.."
root=$PWD

release=1
case "${1:-}" in
    --skip-release) release=0 ;;
    "") ;;
    *) echo "test-windows.sh: unknown argument $1" >&2; exit 2 ;;
esac

missing=()
for p in wine wine64; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$release" -eq 1 ]; then
    scripts/build-windows.sh
fi
scripts/build-windows.sh --target x86_64-win7-windows-gnu --no-zip
exe="$root/target/windows/x86_64-win7-windows-gnu/release/pbrain-wuzi.exe"

export WINEPREFIX="$root/target/windows/wineprefix"
export WINEARCH=win64
export WINEDEBUG=-all
# No Mono or Gecko: a console engine needs neither, and their installers would ask.
export WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY
echo "== wine $(wine --version) in $WINEPREFIX"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    wineboot -i >/dev/null 2>&1
fi
# Exit status 2 means a server already runs for this prefix, which serves as well.
wineserver -p || [ $? -eq 2 ]
trap 'wineserver -k 2>/dev/null || true' EXIT

echo "== smoke: ABOUT under wine"
about=$(printf 'ABOUT\nEND\n' | timeout 60 wine "$exe" 2>/dev/null | tr -d '\r')
echo "$about"
case "$about" in
    name=\"wuzi\"*) ;;
    *) echo "test-windows.sh: unexpected ABOUT reply" >&2; exit 1 ;;
esac

echo "== protocol transcripts against: wine $exe"
cargo build --release --quiet
WUZI_ENGINE="wine $exe" cargo test --release --test protocol

echo "== two games (one each colour): wine $exe against target/release/pbrain-wuzi"
out="$root/target/windows/arena"
rm -rf "$out"
target/release/wuzi-arena --quiet --out "$out" --timeout-turn 200 --timeout-match 0 \
    --engine cmd=wine arg="$exe" name=wuzi-windows \
    --engine cmd="$root/target/release/pbrain-wuzi" name=wuzi-linux
# The arena scores a fault (timeout, crash, illegal move, garbage…) as a loss and goes on; here
# any game that did not end on the board is a failure of the Windows build or of wine.
games=$(wc -l < "$out/games.jsonl")
clean=$(grep -cE '"termination":"(line|board-full|move-limit)"' "$out/games.jsonl" || true)
echo "games: $games, ended on the board: $clean"
if [ "$games" -ne 2 ] || [ "$clean" -ne 2 ]; then
    echo "test-windows.sh: a game ended by a fault:" >&2
    cut -c1-300 "$out/games.jsonl" >&2
    exit 1
fi
echo "== Windows tests passed"
