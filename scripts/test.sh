#!/usr/bin/env bash
# The README's second command: build everything (tests included) and run the test suite.
# The build fails on any compiler warning in the project's own code (Sources/, Tests/):
# dependencies may warn, Waymark may not.
set -euo pipefail
cd "$(dirname "$0")/.."

# No synchronous SQLite call in async code (the rule: the script's header, docs/durability.md):
# the lint proves itself on its fixtures (Tests/Lint/), then checks Sources/. Under a second.
python3 scripts/lint-blocking-store-calls.py --self-test
python3 scripts/lint-blocking-store-calls.py

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
# One run, parallel (Swift Testing's default). The in-process suites that serve sockets and
# measure reconnects with real time share the cooperative pool (2 threads here) with the CLI
# suites that drive real daemons, gpsd and handlers; those never block a pool thread while a
# child works: WaymarkTestSupport waits for children on threads of their own and polls with
# Task.sleep, so the in-process servers are not starved. Two test cases at a time, not Swift
# Testing's default of twice the cores: with four, the CLI suites' real processes (daemons,
# gpsd, Python handlers) outran the 2 cores and real-time checks missed their marks.
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=2 swift test --skip-build
