#!/bin/sh
# Fuzzing of the protocol parser and the whole command loop (issues #7, #69).
#
# usage: scripts/fuzz.sh [MODE]
#   quick              seeded random transcripts against the release binary (what CI runs)
#   seeds N [FIRST]    the same test over N seeds (default first seed 1)
#   million [LINES]    transcripts until LINES lines were sent (default 1000000), every game
#                      and rule, one in four cut by the end of input at a random byte; every
#                      failing seed is listed at the end (replay one: seeds 1 SEED)
#   build [RUNS]       builds the libFuzzer targets (fuzz/) with stable cargo and runs each
#                      on fuzz/seeds for RUNS inputs (default 2000): no coverage guidance, a
#                      check that the targets compile, link and run (what CI runs)
#   cargo SECONDS      cargo-fuzz (libFuzzer, coverage-guided) on the parser, then the command
#                      loop, SECONDS each; needs `cargo install cargo-fuzz`. The toolchain is
#                      stable: RUSTC_BOOTSTRAP=1 lets it take -Z flags.
# Transcripts are written to WUZI_FUZZ_DUMP=DIR when set, one file a seed.
set -eu
case "${1:-}" in -h | --help) exec "$(dirname "$0")/lib/help.sh" "$0" ;; esac
cd "$(dirname "$0")/.."
case "${1:-quick}" in
  quick) cargo test --release --test fuzz_transcripts -- --nocapture ;;
  seeds) WUZI_FUZZ_SEEDS="${2:-200}" WUZI_FUZZ_FIRST_SEED="${3:-1}" \
           cargo test --release --test fuzz_transcripts garbage -- --nocapture ;;
  million) WUZI_FUZZ_LINES="${2:-1000000}" \
           cargo test --release --test fuzz_transcripts a_million_bad_lines -- --ignored --nocapture ;;
  build)
    # The fuzz crate is its own workspace with its own lock file (not in git): start it from
    # the engine's, so it builds the same dependency versions the engine is tested with.
    [ -f fuzz/Cargo.lock ] || cp Cargo.lock fuzz/Cargo.lock
    cargo build --manifest-path fuzz/Cargo.toml --bins
    dir="${CARGO_TARGET_DIR:-fuzz/target}/debug"
    for t in parser command_loop; do
      "$dir/$t" fuzz/seeds -runs="${2:-2000}" -max_len=4096 >"fuzz/$t.out" 2>&1 || {
        tail -40 "fuzz/$t.out"
        exit 1
      }
      grep "^Done " "fuzz/$t.out"
    done ;;
  cargo)
    secs="${2:-60}"
    for t in parser command_loop; do
      mkdir -p "fuzz/corpus/$t"
      cp fuzz/seeds/* "fuzz/corpus/$t/" 2>/dev/null || true
      RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$secs" -max_len=65536 -rss_limit_mb=4096 -print_final_stats=1 \
        >"fuzz/$t.out" 2>&1 || { tail -40 "fuzz/$t.out"; exit 1; }
      grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done " "fuzz/$t.out" || tail -5 "fuzz/$t.out"
    done ;;
  *) echo "fuzz.sh: unknown mode $1 (see --help)" >&2; exit 2 ;;
esac
