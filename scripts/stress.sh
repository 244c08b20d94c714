#!/bin/sh
# Long-run reliability check "stress" (issue #7): builds the release binary, then runs
# scripts/reliability.py stress with any extra options (see `scripts/reliability.py stress --help`).
set -eu
cd "$(dirname "$0")/.."
cargo build --release -q
exec python3 scripts/reliability.py stress "$@"
