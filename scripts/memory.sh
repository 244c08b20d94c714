#!/bin/sh
# Long-run reliability check "memory" (issue #7): builds the release binary, then runs
# scripts/reliability.py memory with any extra options (see `scripts/reliability.py memory --help`).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -q
exec python3 scripts/reliability.py memory "$@"
