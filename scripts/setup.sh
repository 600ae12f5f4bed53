#!/usr/bin/env bash
# The README's first command: install what Waymark needs, build it, and run the main job on
# the project's own samples: a simulated ride in Tracks/ replayed against the regions in Regions/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh
echo "setup: building (release)…"
swift build -c release --product waymark 2>&1 | tail -n 1
echo "setup: replaying Tracks/lakeside-ride.gpx against Regions/ (JSON Lines on stdout)"
.build/release/waymark replay Tracks/lakeside-ride.gpx --regions Regions --fast
