"""Independent oracle for the region engine's promise (docs/semantics.md §3.3): every crossing of
a circle whose new side holds 30 s and gets beyond the cushion is reported, and nothing is
reported that the raw memberships do not support.

Usage: held_crossings.py TRACK.gpx REGIONS.geojson REPLAY.jsonl [--hold 30] [--speed 60]

Reads the track with gpxpy (a track with any untimed point is skipped) and measures every distance with geographiclib (WGS84 geodesics),
nothing of Waymark's. The fixes are those the replay's gate admits (time strictly increasing,
no jump faster than --speed m/s). For each circle (GeoJSON Point with properties.radius):
- a fix is inside when its geodesic distance to the centre is ≤ the radius;
- the cushion is min(200 m, radius / 4); a fix is *beyond* it when it is that far inside
  (entering) or outside (leaving) the boundary;
- a *held run* is a maximal run of fixes on one side whose first and last fix are at least --hold
  seconds apart and one of whose fixes is beyond the cushion.
Checks, for the replay's region records that are not `crossed` (inferred between sparse fixes),
the first fix establishing the state without an event: at the last fix of every held run the
replay's state (every transition confirmed by then applied) is that run's side, and if it was not
before the run, the transition is stamped with the run's first fix; every reported transition is
stamped with a fix on its new side whose previous fix was on the old one; each region's reports
alternate. The replay may report more than this (its own hysteresis is smaller, its hold 20 s),
never less. Prints a JSON summary; exits 1 on any failure.
"""
import argparse
import json
import math
import sys
from datetime import datetime, timezone

import gpxpy
from geographiclib.geodesic import Geodesic

parser = argparse.ArgumentParser()
parser.add_argument("track")
parser.add_argument("regions")
parser.add_argument("replay")
parser.add_argument("--hold", type=float, default=30.0)
parser.add_argument("--speed", type=float, default=60.0)
args = parser.parse_args()
geodesic = Geodesic.WGS84


def distance(lat1, lon1, lat2, lon2):
    return geodesic.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def accuracy(point, creator):
    """The point's stated accuracy in metres, as GPX recorders write it (docs/semantics.md §3.3):
    an extension element named accuracy, hacc or horizontalAccuracy; else hdop × 5 m (OsmAnd
    writes metres into hdop); else none (0)."""
    for element in point.extensions or []:
        for node in element.iter():
            name = node.tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1]
            if name in ("accuracy", "hacc", "horizontalAccuracy"):
                try:
                    return float(node.text)
                except (TypeError, ValueError):
                    pass
    hdop = point.horizontal_dilution
    if hdop and hdop > 0:
        return hdop if creator.startswith("OsmAnd") else hdop * 5
    return 0.0


with open(args.track, encoding="utf-8") as handle:
    gpx = gpxpy.parse(handle)
points = [p for t in gpx.tracks for s in t.segments for p in s.points]
if not points or any(p.time is None for p in points):
    # The promise is about time held: a track with untimed points is not one to judge it on.
    print(json.dumps({"track": args.track, "skipped": "untimed points", "expected": 0}))
    sys.exit(0)
fixes = []
for track in gpx.tracks:
    for segment in track.segments:
        for point in segment.points:
            t = point.time.replace(tzinfo=point.time.tzinfo or timezone.utc).timestamp()
            if fixes:
                last = fixes[-1]
                if t <= last[0]:
                    continue
                if distance(last[1], last[2], point.latitude, point.longitude) > args.speed * (t - last[0]) + 1:
                    continue
            fixes.append((t, point.latitude, point.longitude, accuracy(point, gpx.creator or "")))

with open(args.regions, encoding="utf-8") as handle:
    circles = [(f["id"], f["geometry"]["coordinates"][1], f["geometry"]["coordinates"][0], f["properties"]["radius"])
               for f in json.load(handle)["features"] if f["geometry"]["type"] == "Point"]


def sides(lat, lon, radius):
    """(inside, beyond the cushion, decisive) for every fix. A fix is
    decisive for its side when it is past the edge by its accuracy (a quarter of the radius when
    the accuracy exceeds the radius): a fix nearer the edge than that neither ends a crossing
    nor confirms one (docs/semantics.md §3.3)."""
    cushion = min(200.0, radius / 4)
    cos = math.cos(math.radians(lat))
    out = []
    for _, flat, flon, acc in fixes:
        need = radius / 4 if acc > radius else acc
        reach = radius + max(cushion, need) + 100
        rough = math.hypot((flat - lat) * 111_320, (flon - lon) * 111_320 * cos)
        if rough > 1.01 * reach:
            out.append((False, True, True))
            continue
        d = distance(lat, lon, flat, flon)
        inside = d <= radius
        past = radius - d if inside else d - radius
        out.append((inside, past >= cushion, past >= need))
    return out


def held_runs(states):
    """(side, first index, last index) of every crossing that holds. A crossing starts at a fix
    on the new side, is ended only by a decisive fix on the old side, and holds when one of its
    fixes gets beyond the cushion and a fix on the new side --hold seconds after its start is
    decisive (clear of the edge by its own accuracy)."""
    runs = []
    side = states[0][0]
    k = 1
    while k < len(states):
        if states[k][0] == side:
            k += 1
            continue
        start = k
        new = not side
        while k < len(states) and not (states[k][0] == side and states[k][2]):
            k += 1
        deep = any(states[j][0] == new and states[j][1] for j in range(start, k))
        late = any(states[j][0] == new and states[j][2] and fixes[j][0] - fixes[start][0] >= args.hold for j in range(start, k))
        if deep and late:
            runs.append((new, start, k - 1))
            side = new
    return runs


def seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


reported = {}
with open(args.replay, encoding="utf-8") as handle:
    for line in handle:
        record = json.loads(line)
        if record.get("kind") == "region" and not record.get("crossed") and record["transition"] in ("enter", "exit"):
            reported.setdefault(record["region"], []).append(
                (record["transition"], seconds(record["time"]), seconds(record.get("confirmedAt") or record["time"])))

missed, unsupported, flicker = [], [], []
expected_count = 0
index_of_time = {round(t, 3): i for i, (t, _, _, _) in enumerate(fixes)}
for identifier, lat, lon, radius in circles:
    states = sides(lat, lon, radius)
    got = reported.get(identifier, [])

    def engine_inside(at):
        """The replay's state once everything confirmed by `at` is applied (the first fix
        establishes it without an event)."""
        inside = states[0][0]
        for kind, _, confirmed in got:
            if confirmed <= at + 0.0005:
                inside = kind == "enter"
        return inside

    # Every held run ends with the replay on its side; if the replay was not there before the
    # run, the transition that brought it there is stamped with the run's first fix.
    for side, first, last in held_runs(states) if states else []:
        expected_count += 1
        kind = "enter" if side else "exit"
        if engine_inside(fixes[last][0]) != side:
            missed.append(f"{identifier} {kind} held from {fixes[first][0]} to {fixes[last][0]}")
        elif engine_inside(fixes[first - 1][0]) != side and not any(
                k == kind and abs(t - fixes[first][0]) < 0.0005 for k, t, _ in got):
            missed.append(f"{identifier} {kind} at {fixes[first][0]} reported with another time")
    # Every report is stamped with a fix on its new side, after a fix on the old side since the
    # region's previous report.
    since = 0
    for kind, t, _ in got:
        i = index_of_time.get(round(t, 3))
        new_side = kind == "enter"
        if i is None or i == 0 or states[i][0] != new_side or not any(states[j][0] != new_side for j in range(since, i)):
            unsupported.append(f"{identifier} {kind} at {t}")
        since = i or since
    for a, b in zip(got, got[1:]):
        if a[0] == b[0]:
            flicker.append(f"{identifier} {a[0]} twice, at {a[1]} and {b[1]}")

summary = {"track": args.track, "fixes": len(fixes), "circles": len(circles), "expected": expected_count,
           "reported": sum(len(v) for v in reported.values()), "missed": missed, "unsupported": unsupported,
           "flicker": flicker}
print(json.dumps(summary))
sys.exit(1 if missed or unsupported or flicker else 0)
