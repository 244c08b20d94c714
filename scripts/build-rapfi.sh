#!/usr/bin/env bash
# Builds Rapfi (dhbloo/rapfi, GPL-3.0, the strongest open gomoku engine) in its classical
# configuration, the hand-fitted pattern evaluation and alpha-beta search with no neural
# network, as a sparring partner far above pela and Carbon. It is an opponent to measure
# wuzi against, never part of wuzi: nothing of it enters this repository or its tests.
#
#   scripts/build-rapfi.sh [--rapfi DIR] [--networks DIR] [--out DIR]
#
#   --rapfi DIR      a checkout of github.com/dhbloo/rapfi (default: cloned into a temporary
#                    directory, which needs the network)
#   --networks DIR   a checkout of github.com/dhbloo/rapfi-networks, where the classical
#                    model file lives (default: cloned likewise)
#   --out DIR        where pbrain-rapfi, its config.toml and the model go (default
#                    arena-out/rapfi); Rapfi reads config.toml from the binary's folder
#
# The sources are taken at the commits the Rapfi figures of docs/results/strength.md were
# measured with (RAPFI_REV, NETWORKS_REV below; a checkout without them is built as it is,
# with a warning). No cmake: the source list is Rapfi's CMakeLists core set (command
# modules off), compiled with g++ for this machine's instruction set. The config is Rapfi's
# classical example (gomocalc-classical220723.toml: one thread, 32 MiB table) with Piskvork
# coordinates.
#
# Then, for example:
#   scripts/gauntlet.sh --rule 0 --size 15 --turn 1000 --games 100 -- arena-out/rapfi/pbrain-rapfi
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
RAPFI_REV=3aedf3a2ab0ab710a9f3d00e57d5287ceb864894
NETWORKS_REV=918b757a129258e9e765f77fe17d507c2bb1a60b
rapfi="" networks="" out="$root/arena-out/rapfi"
while [ $# -gt 0 ]; do
    case $1 in
        --rapfi) rapfi=$2; shift 2 ;;
        --networks) networks=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-rapfi.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
command -v g++ >/dev/null || { echo "build-rapfi.sh: g++ is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Puts the folders $4… (all when none) of checkout $1 at revision $2 into $3 (the checkout
# as it is when it is not a git repository or lacks the revision).
export_tree() {
    local src=$1 rev=$2 dest=$3
    shift 3
    mkdir -p "$dest"
    if git -C "$src" cat-file -e "$rev^{commit}" 2>/dev/null; then
        git -C "$src" archive "$rev" "$@" | tar -x -C "$dest"
    else
        echo "build-rapfi.sh: $src has no commit $rev; building it as it is" >&2
        cp -r "$src"/. "$dest"
    fi
}
if [ -z "$rapfi" ]; then
    git clone -q https://github.com/dhbloo/rapfi "$work/rapfi-clone"
    rapfi=$work/rapfi-clone
fi
if [ -z "$networks" ]; then
    git clone -q https://github.com/dhbloo/rapfi-networks "$work/networks-clone"
    networks=$work/networks-clone
fi
export_tree "$rapfi" "$RAPFI_REV" "$work/src"
# Only the classical model and the example configs: the networks' weights are large files.
export_tree "$networks" "$NETWORKS_REV" "$work/nets" classical config-example
src=$work/src/Rapfi
[ -f "$src/search/ab/search.cpp" ] || { echo "build-rapfi.sh: $rapfi is not a Rapfi checkout" >&2; exit 1; }
model=$work/nets/classical/model220723.bin
config=$work/nets/config-example/gomocalc-classical220723.toml
[ -f "$model" ] && [ -f "$config" ] || { echo "build-rapfi.sh: $networks lacks the classical model" >&2; exit 1; }

# Rapfi's SIMD switches, as its CMakeLists sets them from what the compiler targets here.
macros=$(g++ -march=native -dM -E -x c++ /dev/null)
defs=""
grep -q '__SSE4_1__' <<<"$macros" && defs+=" -DUSE_SSE"
grep -q '__AVX2__' <<<"$macros" && defs+=" -DUSE_AVX2"
grep -q '__BMI2__' <<<"$macros" && defs+=" -DUSE_BMI2"
sources="command/argutils.cpp command/benchmark.cpp command/command.cpp command/gomocup.cpp
core/compressor.cpp core/hash.cpp core/iohelper.cpp core/utils.cpp core/platform.cpp
core/version.cpp database/dbclient.cpp database/dbutils.cpp database/dbtypes.cpp
database/yxdbstorage.cpp eval/eval.cpp eval/evaluator.cpp eval/mix9svqnnue.cpp
eval/mix10nnue.cpp game/board.cpp game/movegen.cpp game/pattern.cpp search/hashtable.cpp
search/movepick.cpp search/opening.cpp search/searchcommon.cpp search/searchoutput.cpp
search/searchthread.cpp search/timecontrol.cpp search/ab/history.cpp search/ab/search.cpp
search/mcts/node.cpp search/mcts/search.cpp config.cpp internalConfig.cpp main.cpp"
includes="-Iexternal/cpptoml/include -Iexternal/cxxopts/include -Iexternal/lz4/include -Iexternal/simde/include -I."
flags="-std=c++17 -O3 -DNDEBUG -march=native -DMULTI_THREADING$defs $includes"
mkdir -p "$work/obj"
{
    for s in $sources; do
        echo "g++ $flags -c $s -o $work/obj/$(tr / _ <<<"$s").o"
    done
    for c in "$src"/external/lz4/src/*.c; do
        echo "gcc -O3 -Iexternal/lz4/include -c ${c#"$src"/} -o $work/obj/$(basename "$c").o"
    done
} >"$work/commands"
echo "build-rapfi.sh: compiling Rapfi ($(wc -l <"$work/commands") files, flags:$defs)" >&2
(cd "$src" && xargs -P "$(nproc)" -I{} sh -c '{}' <"$work/commands")
mkdir -p "$out"
g++ -O3 "$work"/obj/*.o -o "$out/pbrain-rapfi" -lpthread
cp "$model" "$out/"
# The example is written for Gomocalc's coordinates; a Piskvork manager sends x,y as is.
sed 's/^coord_conversion_mode = .*/coord_conversion_mode = "none"/' "$config" >"$out/config.toml"
grep -q '^coord_conversion_mode = "none"' "$out/config.toml" \
    || { echo "build-rapfi.sh: config.toml has no coord_conversion_mode line to set" >&2; exit 1; }
# A smoke test: Rapfi answers the opening move a manager asks for.
reply=$(cd "$out" && printf 'START 15\nINFO timeout_turn 200\nINFO timeout_match 0\nBEGIN\n' \
    | timeout 20 ./pbrain-rapfi 2>/dev/null | grep -m1 -E '^[0-9]+,[0-9]+$' || true)
[ -n "$reply" ] || { echo "build-rapfi.sh: the built engine did not answer BEGIN" >&2; exit 1; }
echo "$out/pbrain-rapfi (classical, BEGIN answered $reply)"
