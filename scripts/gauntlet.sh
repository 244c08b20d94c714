#!/usr/bin/env bash
# The standard gauntlet: wuzi (this checkout's release build) against each opponent engine,
# balanced openings for the rule, every opening with both colours, one thread per engine.
# Prints the arena's table (score, Elo ± 95%, LOS) and then, per opponent, the fault counts
# (time losses, crashes, illegal moves… by the engine at fault) and wuzi's slowest move.
#
#   scripts/gauntlet.sh [options] [-- ENGINE…]
#
#   --rule R          gomoku rule: 0 freestyle (default), 1 exactly five, 4 renju, 8 caro
#   --size N          board size (default 15)
#   --turn MS         timeout_turn (default 1000)
#   --match MS        timeout_match, 0 = none (default 0)
#   --games N         games per opponent (default 200; both colours of N/2 openings)
#   --openings FILE   opening file (default: openings/engine-balanced-*.pos, balanced by a
#                     strong engine's search, for freestyle 15/20, standard and renju 15;
#                     else openings/balanced-<rule>-<size>.pos, level by wuzi's static eval)
#   --concurrency N   games at once (default 1: each engine gets a core of a 2-core machine)
#   --threads N       wuzi's thread_num (default 1)
#   --wuzi PATH       the wuzi binary (default: build target/release/pbrain-wuzi)
#   --out DIR         records (default arena-out/gauntlet-<rule>-<size>-<turn>-<time>)
#   --resume          keep the games already in --out's games.jsonl and play the rest (a long
#                     run, e.g. the fast-game control, can be stopped and taken up again)
#   ENGINE…           opponents' pbrain executables (at least one; e.g. the pela and Carbon
#                     builds of the project's sparring-partner folder)
#
# Example (the README's strength table):
#   scripts/gauntlet.sh --rule 0 --size 15 --turn 1000 --games 200 -- OPPONENTS/pbrain-pela OPPONENTS/pbrain-carbon
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rule=0 size=15 turn=1000 match=0 games=200 openings="" conc=1 threads=1 wuzi="" out="" resume=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --rule) rule=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --turn) turn=$2; shift 2 ;;
        --match) match=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --openings) openings=$2; shift 2 ;;
        --concurrency) conc=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --wuzi) wuzi=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --resume) resume=(--resume); shift ;;
        --) shift; break ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "gauntlet.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
opponents=("$@")
if [[ ${#resume[@]} -gt 0 && -z $out ]]; then
    echo "gauntlet.sh: --resume needs --out (the directory of the run to take up)" >&2
    exit 2
fi
if [[ ${#opponents[@]} -eq 0 ]]; then
    echo "gauntlet.sh: no opponent engines given (see --help)" >&2
    exit 2
fi
case $rule in
    0) rname=freestyle ;; 1) rname=standard ;; 4) rname=renju ;; 8|9) rname=caro ;;
    *) echo "gauntlet.sh: unknown rule $rule" >&2; exit 2 ;;
esac
if [[ -z $openings ]]; then
    case $rule-$size in
        0-15) openings="$root/openings/engine-balanced-free15.pos" ;;
        0-20) openings="$root/openings/engine-balanced-free20.pos" ;;
        1-15) openings="$root/openings/engine-balanced-std15.pos" ;;
        4-15) openings="$root/openings/engine-balanced-renju15.pos" ;;
        *) openings="$root/openings/balanced-$rname-$size.pos"
           [[ -f $openings ]] || openings="$root/openings/balanced-$rname-15.pos" ;;
    esac
fi
if [[ -z $wuzi ]]; then
    cargo build --release --manifest-path "$root/Cargo.toml" --bins
    wuzi="$root/target/release/pbrain-wuzi"
fi
arena="$root/target/release/wuzi-arena"
[[ -x $arena ]] || cargo build --release --manifest-path "$root/Cargo.toml" --bin wuzi-arena
out=${out:-"$root/arena-out/gauntlet-$rname-$size-$turn-$(date +%Y%m%d-%H%M%S)"}
engines=(--engine "cmd=$(realpath "$wuzi")" name=wuzi "info=thread_num=$threads")
for e in "${opponents[@]}"; do
    engines+=(--engine "cmd=$(realpath "$e")" "dir=$(dirname "$(realpath "$e")")")
done
"$arena" --gauntlet "${engines[@]}" --openings "$openings" --symmetry --seed 7 \
    --size "$size" --rule "$rule" --timeout-turn "$turn" --timeout-match "$match" \
    --concurrency "$conc" --games $((games * ${#opponents[@]})) --out "$out" "${resume[@]}"
python3 - "$out/games.jsonl" "$turn" "$match" <<'EOF'
import collections, json, sys
games = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
turn, match = int(sys.argv[2]), int(sys.argv[3])
faults = collections.defaultdict(collections.Counter)
slowest = collections.Counter()
most_game = collections.Counter()  # the most clock wuzi used in one game
benign = {"line", "board-full", "move-limit"}
for g in games:
    opp = g["white"] if g["black"] == "wuzi" else g["black"]
    if g["termination"] not in benign:
        loser = {"1-0": g["white"], "0-1": g["black"]}.get(g["result"], "both")
        faults[opp][f'{loser}: {g["termination"]}'] += 1
    first = len(g["opening"]) % 2  # index in "moves" of white's first move
    mine = 0 if (g["black"] == "wuzi") == (first == 0) else 1
    for ms in g["ms"][mine::2]:
        slowest[opp] = max(slowest[opp], ms)
    most_game[opp] = max(most_game[opp], sum(g["ms"][mine::2]))
for opp in sorted({(g["white"] if g["black"] == "wuzi" else g["black"]) for g in games}):
    f = ", ".join(f"{k} {v}" for k, v in sorted(faults[opp].items())) or "none"
    clock = f"; most clock in one game {most_game[opp]} ms (match limit {match} ms)" if match else ""
    print(f"wuzi vs {opp}: faults: {f}; wuzi's slowest move {slowest[opp]} ms (turn limit {turn} ms){clock}")
EOF
