#!/usr/bin/env bash
# Same-run comparison of two release builds on the paths a refactor of the runtimes touches:
# the daemon's pipeline and store in one process (`bench ingest`), devices over the network
# listener, webhook outputs, and a fleet (1 worker; then 1 worker and an output node). The two
# builds alternate, so drift on a shared machine falls on both; read medians.
#
#   Benchmarks/compare-builds.sh BEFORE/waymark AFTER/waymark [OUT.jsonl]
#
# Build the older one from a worktree, e.g.
#   git worktree add --detach /tmp/before COMMIT
#   (cd /tmp/before && swift build -c release --scratch-path /tmp/before-build --product waymark)
# Takes about 25 minutes. Each line of OUT is a benchmark's JSON, after a `## NAME BUILD RUN` line.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 BEFORE/waymark AFTER/waymark [OUT.jsonl]" >&2; exit 2; }
before=$1
after=$2
out=${3:-Benchmarks/data/compare-builds.jsonl}
mkdir -p "$(dirname "$out")"
: >"$out"
track=../shared/data/gpx/bikeride.gpx

# measure NAME RUNS COMMAND…: COMMAND with WAYMARK replaced by each build in turn, RUNS times.
measure() {
    local name=$1 runs=$2
    shift 2
    for ((run = 1; run <= runs; run++)); do
        for build in before after; do
            local binary=${!build}
            echo "## $name $build $run" | tee -a "$out" >&2
            "${@/#WAYMARK/$binary}" | tee -a "$out"
        done
    done
}

measure ingest 3 WAYMARK bench ingest --track "$track" --seconds 20 --baseline-seconds 0
measure http-one 3 /usr/bin/python3 Benchmarks/http_ingest.py WAYMARK --seconds 10
measure http-ten 1 /usr/bin/python3 Benchmarks/http_ingest.py WAYMARK --seconds 10 --batch 10
measure webhook 2 /usr/bin/python3 Benchmarks/webhook_outputs.py WAYMARK --seconds 20 --backlog 60000 --down 1
measure fleet 2 /usr/bin/python3 Benchmarks/fleet_ingest.py WAYMARK --workers 1 --seconds 20
measure fleet-output 1 /usr/bin/python3 Benchmarks/fleet_ingest.py WAYMARK --workers 1 --output-nodes 1 --seconds 20
