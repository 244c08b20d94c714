#!/usr/bin/env bash
# Installs what tests/arena_report.rs needs: Debian's chromium, which the test drives
# headless over the DevTools protocol to check `wuzi-arena report`'s page. Needs root
# (apt-get); does nothing when /usr/bin/chromium is already there. .ci/run calls it.
set -euo pipefail
case "${1:-}" in
-h | --help)
    sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
    echo "usage: scripts/setup-browser.sh"
    exit 0
    ;;
"") ;;
*)
    echo "setup-browser.sh: unknown argument $1 (see --help)" >&2
    exit 2
    ;;
esac
if [ -x /usr/bin/chromium ]; then
    echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
/usr/bin/chromium --version
