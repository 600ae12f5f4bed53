"""Figures of the offline reverse geocoder (docs/places.md) for BENCHMARKS.md.

1. `waymark bench places`: lookups per second (random points worldwide and on land) and memory.
2. Country agreement near land borders, computed independently: --points points within
   --distance-km of a border shared by two Natural Earth countries (admin 0, 1:50m), each
   labelled with the NE country containing it (shapely 2), then asked of
   `waymark places lookup --batch`; the figure is the share whose country code matches.
3. With --timezonefinder-python (a python with timezonefinder, e.g. the place-data build's venv),
   time-zone agreement with timezonefinder (the full-resolution boundaries the data was
   simplified from) on --points random points: same zone, and land/sea disagreements.

Run with the Benchmarks venv's python (Benchmarks/venv.sh); prints one JSON object.
"""
import argparse
import json
import math
import random
import subprocess
import sys

import numpy as np
import shapely

# Natural Earth codes some countries -99 in ISO_A2 (France and Norway for their overseas
# parts); these are the ISO codes. The other -99s (disputed areas) are left out.
NE_CODES = {"France": "FR", "Norway": "NO"}


def country_code(properties):
    code = properties.get("ISO_A2_EH") or properties.get("ISO_A2")
    if code in (None, "-99"):
        return NE_CODES.get(properties.get("NAME"))
    return code


def border_points(path, count, distance_km, rng):
    """[(lat, lon, code)]: points within distance_km of a shared land border, each labelled
    with the one NE country containing it (points in none or two are drawn again)."""
    with open(path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    countries = [(country_code(f["properties"]), shapely.geometry.shape(f["geometry"])) for f in features]
    countries = [(code, geometry) for code, geometry in countries if code]
    geometries = [geometry for _, geometry in countries]
    tree = shapely.STRtree(geometries)
    borders = []
    for i, (code, geometry) in enumerate(countries):
        for j in tree.query(geometry, predicate="intersects"):
            if j <= i or countries[j][0] == code:
                continue
            shared = shapely.intersection(geometry.boundary, shapely.buffer(geometries[j], 1e-6))
            for line in shapely.get_parts(shared):
                if line.geom_type in ("LineString", "LinearRing") and line.length > 0:
                    borders.append(line)
    lengths = np.array([line.length for line in borders])
    cumulative = np.cumsum(lengths) / lengths.sum()
    points = []
    while len(points) < count:
        line = borders[int(np.searchsorted(cumulative, rng.random()))]
        on = line.interpolate(rng.random() * line.length)
        radius = distance_km * math.sqrt(rng.random())
        bearing = rng.random() * 2 * math.pi
        lat = on.y + radius / 111.195 * math.cos(bearing)
        lon = on.x + radius / (111.195 * max(0.01, math.cos(math.radians(on.y)))) * math.sin(bearing)
        if not (-90 < lat < 90 and -180 < lon < 180):
            continue
        point = shapely.Point(lon, lat)
        containing = tree.query(point, predicate="within")
        if len(containing) == 1:
            # How far inside its NE country the point lies (km, the degree scaled at its latitude).
            inside = geometries[containing[0]].boundary.distance(point) * 111.195 * max(0.2, math.cos(math.radians(lat)))
            points.append((lat, lon, countries[containing[0]][0], inside))
    return points, len(borders)


def batch_lookup(waymark, points):
    lines = "".join(f"{lat:.7f} {lon:.7f}\n" for lat, lon, *_ in points)
    out = subprocess.run([waymark, "places", "lookup", "--batch"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


TZF_SCRIPT = """
import sys
from timezonefinder import TimezoneFinder
finder = TimezoneFinder()
for line in sys.stdin:
    lat, lon = map(float, line.split())
    print(finder.timezone_at(lng=lon, lat=lat) or "")
"""


def timezone_agreement(waymark, python, count, rng):
    points = []
    while len(points) < count:
        lat = math.degrees(math.asin(rng.uniform(-1, 1)))
        points.append((lat, rng.uniform(-180, 180)))
    answers = batch_lookup(waymark, points)
    lines = "".join(f"{lat:.7f} {lon:.7f}\n" for lat, lon in points)
    zones = subprocess.run([python, "-c", TZF_SCRIPT], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
    land = [(a, z) for a, z in zip(answers, zones) if not z.startswith("Etc/")]
    return {
        "points": count,
        "land_by_timezonefinder": len(land),
        "same_zone_all": sum(a["time_zone"] == z for a, z in zip(answers, zones)) / count,
        "same_zone_land": sum(a["time_zone"] == z for a, z in land) / max(1, len(land)),
        "land_called_sea": sum(a["at_sea"] for a, _ in land),
        "sea_called_land": sum(not a["at_sea"] for a, z in zip(answers, zones) if z.startswith("Etc/")),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("waymark", help="the waymark binary (release build)")
    parser.add_argument("--natural-earth", required=True, help="ne_50m_admin_0_countries GeoJSON")
    parser.add_argument("--points", type=int, default=10_000)
    parser.add_argument("--distance-km", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--timezonefinder-python")
    parser.add_argument("--bench-count", type=int, default=200_000)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    bench = subprocess.run([args.waymark, "bench", "places", "--count", str(args.bench_count), "--repeat", "5"],
                           capture_output=True, text=True, check=True)
    result = {"bench": json.loads(bench.stdout.strip().splitlines()[-1])}

    points, border_count = border_points(args.natural_earth, args.points, args.distance_km, rng)
    answers = batch_lookup(args.waymark, points)
    agree = sum(1 for (_, _, code, _), a in zip(points, answers) if a["place"] and a["place"]["country_code"] == code)
    # Agreement by how far inside its NE country a point lies: if the disagreements are the two
    # drawings of the border differing, they gather in the first kilometre or two.
    bands = {}
    for low, high in ((0, 0.5), (0.5, 1), (1, 2), (2, 5)):
        chosen = [(code, a) for (_, _, code, inside), a in zip(points, answers) if low <= inside < high]
        same = sum(1 for code, a in chosen if a["place"] and a["place"]["country_code"] == code)
        bands[f"{low}-{high} km"] = {"points": len(chosen), "agreement": round(same / max(1, len(chosen)), 4)}
    at_sea = sum(1 for a in answers if a["at_sea"])
    result["borders"] = {
        "points": len(points), "distance_km": args.distance_km, "border_lines": border_count,
        "country_agreement": round(agree / len(points), 4), "at_sea": at_sea, "by_distance_inside": bands,
    }
    if args.timezonefinder_python:
        result["timezones"] = timezone_agreement(args.waymark, args.timezonefinder_python, args.points, rng)
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
