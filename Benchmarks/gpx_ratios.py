"""GPX parsing against gpxpy, file by file, in one run: the ratio the project promises (≥ 30×).

For each file runs `waymark bench gpx FILE --repeat N` and `gpxpy_baseline.py FILE --repeat M`
back to back (so both see the same machine load), prints one JSON object per file with both
speeds and their ratio, then a summary with the smallest ratio. Exits 1 if any ratio is below
--minimum, so a regression is loud.
"""
import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("files", nargs="+")
parser.add_argument("--repeat", type=int, default=9, help="waymark runs per file (median)")
parser.add_argument("--baseline-repeat", type=int, default=3, help="gpxpy runs per file (median)")
parser.add_argument("--minimum", type=float, default=30.0)
args = parser.parse_args()


def measure(command):
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


ratios = []
for path in args.files:
    big = os.path.getsize(path) > 50_000_000
    ours = measure([args.waymark, "bench", "gpx", path, "--repeat", str(args.repeat)])
    theirs = measure([sys.executable, os.path.join(here, "gpxpy_baseline.py"), path,
                      "--repeat", str(1 if big else args.baseline_repeat)])
    ratio = theirs["seconds"] / ours["seconds"]
    ratios.append((ratio, path))
    print(json.dumps({
        "benchmark": "gpx-vs-gpxpy", "file": path, "bytes": ours["bytes"], "points": ours["points"],
        "waymark_mb_per_second": ours["mb_per_second"], "gpxpy_mb_per_second": theirs["mb_per_second"],
        "ratio": round(ratio, 1), "waymark_peak_rss_bytes": ours["peak_rss_bytes"],
        "gpxpy_peak_rss_bytes": theirs["peak_rss_bytes"],
    }), flush=True)
smallest = min(ratios)
print(json.dumps({"benchmark": "gpx-vs-gpxpy-summary", "files": len(ratios), "smallest_ratio": round(smallest[0], 1),
                  "file": smallest[1], "target": args.minimum}))
if smallest[0] < args.minimum:
    sys.exit(1)
