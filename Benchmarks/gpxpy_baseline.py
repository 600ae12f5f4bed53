"""Baseline for `waymark bench gpx`: the same file parsed by gpxpy (Debian's python3-gpxpy).

Prints one JSON object like the Swift benchmark's, with the median of --repeat runs.
"""
import argparse
import json
import os
import resource
import statistics
import time

import gpxpy

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--repeat", type=int, default=3)
args = parser.parse_args()

size = os.path.getsize(args.file)
timings = []
points = 0
for _ in range(args.repeat):
    start = time.perf_counter()
    with open(args.file, encoding="utf-8") as handle:
        gpx = gpxpy.parse(handle)
    points = sum(len(s.points) for t in gpx.tracks for s in t.segments) + len(gpx.waypoints) \
        + sum(len(r.points) for r in gpx.routes)
    timings.append(time.perf_counter() - start)
median = statistics.median(timings)
print(json.dumps({
    "benchmark": "gpx-baseline-gpxpy", "file": args.file, "bytes": size, "points": points,
    "seconds": median, "mb_per_second": round(size / 1e6 / median, 1), "runs": len(timings),
    "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
}))
