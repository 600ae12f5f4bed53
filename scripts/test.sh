#!/usr/bin/env bash
# The README's second command: build everything (tests included) and run the test suite.
# The build fails on any compiler warning in the project's own code (Sources/, Tests/):
# dependencies may warn, Waymark may not.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --build-tests 2>&1 | tee "$log" | grep -E '^(error|warning)|Compiling|Build' | tail -n 3
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || { grep -E 'error' "$log" | head -40; exit "$status"; }
root=$(pwd)
if grep -E "^$root/(Sources|Tests)/.*: warning:" "$log" | sort -u | head -20 | grep .; then
    echo "test: the project's code has compiler warnings (above); fix them" >&2
    exit 1
fi
# Two runs. The in-process suites that serve sockets and measure reconnects with real time run
# first, on their own: the CLI suites that follow block their test threads for seconds while
# real daemons and handlers work, and alongside them the in-process servers would be starved of
# the 2 cores' cooperative threads. Each run is parallel within itself.
in_process='WaymarkAPITests|WaymarkSourcesTests|WaymarkDaemonTests'
swift test --skip-build --filter "$in_process"
swift test --skip-build --skip "$in_process"
