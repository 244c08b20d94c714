#!/bin/sh
# Long-run reliability check "timing" (issue #7): builds the release binary, then runs
# scripts/reliability.py timing with any extra options (see `scripts/reliability.py timing --help`).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -q
exec python3 scripts/reliability.py timing "$@"
