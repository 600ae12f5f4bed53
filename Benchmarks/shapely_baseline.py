"""Baseline for `waymark bench regions`: the same regions and fixes asked of shapely 2's STRtree
in one batched call (GEOS, vectorised over all fixes; membership only, no state).

Reads DIR/regions.geojson and DIR/fixes.csv as written by `waymark bench regions --write-data DIR`
and prints one JSON object with the median of --repeat timed queries (loading and the tree's
build are excluded, as they are for waymark). Needs shapely ≥ 2 (Benchmarks/venv.sh installs it).
"""
import argparse
import csv
import json
import os
import resource
import statistics
import time

import numpy
import shapely

parser = argparse.ArgumentParser()
parser.add_argument("directory")
parser.add_argument("--repeat", type=int, default=5)
args = parser.parse_args()

with open(os.path.join(args.directory, "regions.geojson"), encoding="utf-8") as handle:
    features = json.load(handle)["features"]
geometries = [shapely.geometry.shape(f["geometry"]) for f in features]
with open(os.path.join(args.directory, "fixes.csv"), encoding="utf-8") as handle:
    rows = list(csv.DictReader(handle))
points = shapely.points(numpy.array([[float(r["lon"]), float(r["lat"])] for r in rows]))

build_start = time.perf_counter()
tree = shapely.STRtree(geometries)
tree.query(points[:1], predicate="intersects")  # the tree is built lazily on the first query
build_seconds = time.perf_counter() - build_start

timings = []
memberships = 0
for _ in range(args.repeat):
    start = time.perf_counter()
    pairs = tree.query(points, predicate="intersects")
    timings.append(time.perf_counter() - start)
    memberships = pairs.shape[1]
median = statistics.median(timings)
print(json.dumps({
    "benchmark": "regions-baseline-shapely", "shapely": shapely.__version__, "geos": shapely.geos_version_string,
    "regions": len(geometries), "fixes": len(points), "memberships": int(memberships),
    "seconds": median, "fixes_per_second": round(len(points) / median), "build_seconds": build_seconds,
    "runs": args.repeat, "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
}))
