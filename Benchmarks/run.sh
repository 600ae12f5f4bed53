#!/usr/bin/env bash
# Runs Waymark's benchmarks on this machine and prints one JSON object per measurement.
# Usage: Benchmarks/run.sh [--quick]
#   --quick   fewer repetitions and smaller generated files (a smoke run, not for BENCHMARKS.md)
# Figures in BENCHMARKS.md come from a full run. Every benchmark reports the median of its runs,
# and baselines (gpxpy, SpatiaLite per-fix queries) run in the same invocation, so ratios hold
# on a noisy shared machine even when absolute numbers drift.
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=5
points=1000000
if [ "${1:-}" = "--quick" ]; then repeat=1; points=100000; fi

shared=../shared/data
data=Benchmarks/data
mkdir -p "$data"
swift build -c release --product waymark >&2
waymark=.build/release/waymark

# Generated inputs (seeded, so every run measures the same bytes).
big="$data/simulated-$points.gpx"
[ -f "$big" ] || "$waymark" simulate --points "$points" --seed 42 --interval 1 \
    --waypoint 47.356,8.67 --waypoint 47.372,8.695 --waypoint 47.355,8.725 --waypoint 47.34,8.69 -o "$big"

echo "# GPX parsing: waymark (one core, streaming) vs gpxpy, every shared GPX file, ratio per file (target ≥ 30×)" >&2
/usr/bin/python3 Benchmarks/gpx_ratios.py "$waymark" "$shared"/gpx/*.gpx "$big" \
    --repeat "$((repeat * 3))" --baseline-repeat "$repeat" || echo "# GPX: a ratio is below 30× gpxpy" >&2

echo "# Region engine with enter/exit state: 10,000 synthetic regions, 100,000 fixes" >&2
echo "# … against shapely 2's batched STRtree on the same files (targets: ≥ 3.3× dense, ≥ 2.4× sparse)" >&2
/usr/bin/python3 Benchmarks/region_ratios.py "$waymark" --python "$(Benchmarks/venv.sh)" --repeat "$repeat" \
    || echo "# Regions: a ratio to shapely is below its target" >&2
echo "# Region engine: Natural Earth urban areas (2,143 polygons), random fixes over their extent" >&2
"$waymark" bench regions --regions "$shared/geojson/ne_50m_urban_areas.json" --number-unnamed --random-fixes 100000 \
    --repeat "$repeat" --spatialite-baseline 2000

echo "# Daemon: paced NMEA through gpsd into the store, rate stepped up; API and handler latency under it" >&2
if [ "$repeat" = 1 ]; then
    /usr/bin/python3 Benchmarks/gpsd_rate.py "$waymark" --rates 1000,10000 --seconds 5 --api-count 200
else
    /usr/bin/python3 Benchmarks/gpsd_rate.py "$waymark" --rates 10000,20000,30000,40000,50000 --seconds 10 --api-count 1000
fi

echo "# Devices: OwnTracks bodies from 1,000 devices over the network listener (wrk)" >&2
seconds=$([ "$repeat" = 1 ] && echo 5 || echo 20)
/usr/bin/python3 Benchmarks/http_ingest.py "$waymark" --seconds "$seconds"
/usr/bin/python3 Benchmarks/http_ingest.py "$waymark" --seconds "$seconds" --batch 10
echo "# Fleet: the same phones through an ingest node, NATS JetStream and 1 or 2 workers into PostGIS" >&2
/usr/bin/python3 Benchmarks/fleet_ingest.py "$waymark" --workers 1,2 --seconds "$seconds" --devices 1000
echo "# Fleet outputs: the same with an output node delivering region and state events to a webhook, then a 20,000-event backlog" >&2
/usr/bin/python3 Benchmarks/fleet_ingest.py "$waymark" --workers 1 --output-nodes 1 --seconds "$seconds" --devices 1000
echo "# Devices: 10,000 OwnTracks devices over MQTT through mosquitto, one fix each every 5 s" >&2
/usr/bin/python3 Benchmarks/mqtt_ingest.py "$waymark" --devices 10000 --interval 5 --seconds "$([ "$repeat" = 1 ] && echo 30 || echo 600)"

echo "# Replay memory: every fix of the generated track with 2 regions/km generated along it (target ≤ 64 MB peak RSS)" >&2
along="$data/regions-along-$points.geojson"
[ -f "$along" ] || "$waymark" regions generate --along "$big" --per-km 2 --seed 7 -o "$along"
/usr/bin/time -o "$data/replay-memory.json" \
    -f '{"benchmark":"replay-memory","fixes":'"$points"',"regions_file":"'"$along"'","peak_rss_kb":%M,"seconds":%e}' \
    "$waymark" replay "$big" --regions "$along" --fast >/dev/null
cat "$data/replay-memory.json"
/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); mib=r["peak_rss_kb"]/1024
print("# Replay memory: %.1f MiB peak, %.0f s (target <= 64 MiB: %s)" % (mib, r["seconds"], "met" if mib <= 64 else "NOT met"), file=sys.stderr)' \
    "$data/replay-memory.json"

echo "# Location services: gate + standard/significant/visits" >&2
"$waymark" bench services --track "$shared/gpx/bikeride.gpx" --repeat "$repeat"
"$waymark" bench services --track "$shared/gpx/skytraq-miniHomer2_8.gpx" --repeat "$repeat"

echo "# Export as MBTiles: a simulated 107 km ride, zooms 10–16 (time and peak memory)" >&2
ride="$data/ride-100km.gpx"
[ -f "$ride" ] || "$waymark" simulate --waypoint 47.0,8.0 --waypoint 47.45,8.3 --waypoint 47.3,8.95 --speed 5 --interval 1 \
    --seed 7 --name ride-100km -o "$ride"
"$waymark" bench export "$ride" --format mbtiles --min-zoom 10 --max-zoom 16 --repeat "$repeat"
"$waymark" bench export "$ride" --format kmz --repeat "$repeat"

echo "# Export: every format from the same file; gpsbabel and ogr2ogr converting it are the baselines" >&2
for file in "$shared/gpx/testneighboursearch.gpx" "$big"; do
    runs=$([ "$file" = "$big" ] && echo 1 || echo "$repeat")
    points=$("$waymark" stats "$file" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["points"])')
    for format in gpx geojson kml svg png; do
        "$waymark" bench export "$file" --format "$format" --repeat "$runs"
    done
    "$waymark" bench export "$file" --format geojson --simplify 10 --repeat "$runs"
    /usr/bin/python3 Benchmarks/command_baseline.py --name "gpsbabel gpx→gpx" --repeat "$runs" --points "$points" -- \
        gpsbabel -i gpx -f "$file" -o gpx -F "$data/baseline.gpx"
    /usr/bin/python3 Benchmarks/command_baseline.py --name "gpsbabel gpx→kml" --repeat "$runs" --points "$points" -- \
        gpsbabel -i gpx -f "$file" -o kml -F "$data/baseline.kml"
    /usr/bin/python3 Benchmarks/command_baseline.py --name "ogr2ogr gpx→geojson (tracks, to stdout)" --repeat "$runs" --points "$points" -- \
        ogr2ogr -f GeoJSON /vsistdout/ "$file" tracks
done

echo "# Handlers: event latency to a running handler, cold launch to first event, fan-out to 20 running handlers" >&2
/usr/bin/python3 Benchmarks/handlers.py "$waymark" --handlers 20 --fixes 300 --fan-out-fixes "$([ "$repeat" = 1 ] && echo 2000 || echo 10000)"

echo "# Beacons: iBeacon advertisements through parsing (baseline), the beacon monitor, and ranging" >&2
"$waymark" bench beacons --packets "$([ "$repeat" = 1 ] && echo 100000 || echo 1000000)" --repeat "$repeat"
echo "# Explain: an event recomputed from a history of a million fixes" >&2
"$waymark" bench explain --fixes "$([ "$repeat" = 1 ] && echo 100000 || echo 1000000)" --repeat "$repeat"

echo "# Region events on noisy fixes: a day at rest, two small zones, recorded tracks with error added" >&2
"$waymark" bench noise --seeds "$([ "$repeat" = 1 ] && echo 2 || echo 10)" --scenario stationary
"$waymark" bench noise --seeds "$([ "$repeat" = 1 ] && echo 2 || echo 10)" --scenario zones
"$waymark" bench noise --seeds "$([ "$repeat" = 1 ] && echo 1 || echo 3)" --scenario recorded $(for f in "$shared"/gpx/*.gpx; do echo --track "$f"; done) --track Tracks/lakeside-ride.gpx

echo "# Power-aware GNSS sampling against continuous tracking, every timed shared track, seeded regions" >&2
/usr/bin/python3 Benchmarks/power.py "$waymark" --data "$shared" $([ "$repeat" = 1 ] && echo "--per-km 0.5 --seed 1")

echo "# Phones steered by the daemon: time in move mode, crossings kept, the 20-region window among 10,000 regions, phone energy" >&2
/usr/bin/python3 Benchmarks/phone_policy.py "$waymark" --data "$shared" $([ "$repeat" = 1 ] && echo "--quick") \
    || echo "# Phones: a target is missed (move time, crossings or the window)" >&2
