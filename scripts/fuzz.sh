#!/bin/sh
# Fuzzing of the protocol parser and the whole command loop (issue #7).
#   scripts/fuzz.sh quick            seeded random transcripts against the binary (CI runs these)
#   scripts/fuzz.sh seeds N [FIRST]  the same test over N seeds (default first seed 1)
#   scripts/fuzz.sh cargo SECONDS    cargo-fuzz (libFuzzer) on the parser, then the command loop,
#                                    SECONDS each; needs `cargo install cargo-fuzz`. The
#                                    toolchain is stable: RUSTC_BOOTSTRAP=1 lets it take -Z flags.
set -eu
cd "$(dirname "$0")/.."
case "${1:-quick}" in
  quick) cargo test --test fuzz_transcripts -- --nocapture ;;
  seeds) WUZI_FUZZ_SEEDS="${2:-200}" WUZI_FUZZ_FIRST_SEED="${3:-1}" \
           cargo test --release --test fuzz_transcripts garbage -- --nocapture ;;
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
  *) sed -n 2,8p "$0"; exit 2 ;;
esac
