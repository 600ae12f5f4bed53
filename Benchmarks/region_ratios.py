"""The region engine against shapely 2's batched STRtree, on the same regions and fixes, in one run.

For each synthetic preset (city: dense, country: sparse) runs `waymark bench regions --synthetic P
--write-data DIR` (the engine with enter/exit state, plus its SpatiaLite per-fix baseline) and then
Benchmarks/shapely_baseline.py on the files it wrote, and prints one JSON object per preset with
both rates, their ratio against the target, and whether both counted the same memberships.
Exits 1 if a ratio misses its target.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--python", required=True, help="a python with shapely ≥ 2 (Benchmarks/venv.sh prints one)")
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--spatialite-baseline", type=int, default=2000)
args = parser.parse_args()

targets = {"city": 3.3, "country": 2.4}
missed = False
with tempfile.TemporaryDirectory() as scratch:
    for preset, target in targets.items():
        directory = os.path.join(scratch, preset)
        os.mkdir(directory)
        ours = json.loads(subprocess.run(
            [args.waymark, "bench", "regions", "--synthetic", preset, "--repeat", str(args.repeat),
             "--spatialite-baseline", str(args.spatialite_baseline), "--write-data", directory],
            check=True, capture_output=True, text=True).stdout)
        theirs = json.loads(subprocess.run(
            [args.python, os.path.join(here, "shapely_baseline.py"), directory, "--repeat", str(args.repeat)],
            check=True, capture_output=True, text=True).stdout)
        ratio = ours["fixes_per_second"] / theirs["fixes_per_second"]
        missed = missed or ratio < target
        print(json.dumps({
            **ours, "shapely_fixes_per_second": theirs["fixes_per_second"],
            "shapely_memberships": theirs["memberships"], "shapely": theirs["shapely"], "geos": theirs["geos"],
            "ratio_to_shapely": round(ratio, 2), "target": target,
        }), flush=True)
sys.exit(1 if missed else 0)
