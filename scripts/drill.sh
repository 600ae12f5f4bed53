#!/usr/bin/env bash
# The kill drill (docs/reliability.md): a daemon replaying the sample ride with a handler and an
# API client, SIGKILLed at KILLS seeded random moments and restarted each time, then checked —
# nothing anyone was given is lost, nothing stored twice, region state resumed, the database
# intact, no handler left running. Prints the figures as one JSON object.
#
#   scripts/drill.sh [KILLS] [SEED]     (default 50 kills, seed 14; CI's test suite runs 10)
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-50}
seed=${2:-14}
report=$(mktemp)
trap 'rm -f "$report"' EXIT
swift build --build-tests 2>&1 | grep -E '^(error|warning)|Build' | tail -n 1
WAYMARK_DRILL_KILLS=$kills WAYMARK_DRILL_SEED=$seed WAYMARK_DRILL_REPORT=$report \
    swift test --skip-build --filter KillDrillTests 2>&1 | grep -E '✘|Test run' || true
[ -s "$report" ] || { echo "drill: no report (the drill failed before its checks; run it with swift test to see why)" >&2; exit 1; }
cat "$report"; echo
