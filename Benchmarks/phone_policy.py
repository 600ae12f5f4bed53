#!/usr/bin/python3
"""Phones steered by the daemon (issue 43): time in move mode, crossings kept, the region window
and the phone's energy, with `waymark simulate phone` against a fresh real daemon.

For each timed recorded track (the repository's Tracks/ and every shared GPX whose points are
all timed over at least a minute) and each density and seed, regions are generated along it
(`waymark regions generate --along TRACK --seed S --per-km D`) and the simulator plays the track
as an OwnTracks phone over HTTP three times, each against a new daemon with those regions:

- policy: `devices.power_policy: auto`, the phone starting in significant mode and obeying the
  daemon's commands (mode and region window);
- move: `power_policy: off`, the phone in move mode all along (the precise baseline), reporting
  every 10 s or 20 m as the policy's move mode does (not the app's default 300 s / 100 m);
- significant: `power_policy: off`, the phone in significant mode all along.

The window case adds sets of at least 10,000 regions (--window-regions) on the longest track: the
along-track ones at the first density plus circles and squares scattered over the track's
surroundings at --window-density per km² (3, a user's places over a country; 30, a city's stops),
seeded. Only its window figures (max held ≤ 20, 0 misses) have targets: a phone among such a
crowd is near a boundary nearly all the time, so move mode is expected there.

Read from each daemon afterwards: its region events (`waymark history --kind event`, those of
kind `region`, whether decided by fixes or by the phone's own transitions). Compared: the move
run's crossings (region and direction, matched in order as Benchmarks/power.py does) that the
policy run also reports. From the simulator: seconds per mode, mode switches, window misses
(--truth-regions: a region the phone entered but did not hold), most waypoints held, and the
energy it estimates (J/h).

Targets (exit 1 when one is missed), per density over every track and seed: time in move mode
≤ 25 % of the move phone's, ≥ 99 % of its crossings reported; every run: 0 window misses and at
most 20 waypoints held.

Usage: /usr/bin/python3 Benchmarks/phone_policy.py WAYMARK [--data ../shared/data] [--per-km D …]
       [--seed N …] [--window-regions 10000] [--track FILE …] [--quick] [--keep DIR]
Prints one JSON object per run (three per track, density and seed) and per comparison, then one
"set" object per density and one for the window case.
"""
import argparse
import glob
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchkit import add_devices, free_port, stop
from power import compare

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
WINDOW = 20
# Move mode as the policy asks for it (PhoneModePolicy: a report every 10 s or 20 m): the
# always-move phone reports as precisely as the steered one does while in move mode, so the
# comparison is about when move mode is on, not how fine it is.
MOVE_INTERVAL, MOVE_DISPLACEMENT = 10, 20


def run(command, **options):
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr[-3000:]}")
    return result.stdout


def timed(waymark, track):
    """Whether every point of `track` is timed, over at least a minute (`waymark stats`)."""
    stats = json.loads(run([waymark, "stats", track, "--json"]))
    replay = run([waymark, "replay", track, "--fast"]).splitlines()
    summary = json.loads(replay[-1]) if replay else {}
    return summary.get("untimedFixes", 1) == 0 and (stats.get("elapsedTime") or 0) >= 60


def field(summary, *names, default=None):
    """The first of `names` present in the simulator's summary (dotted for nested objects)."""
    for name in names:
        value = summary
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None:
            return value
    return default


def scatter(along, density, minimum, seed, path):
    """`along`'s regions plus circles and square polygons (radius 50–400 m, alternately) scattered
    uniformly at `density` per km² over a square around the track's extent, at least 5 km wider
    than it on every side and holding at least `minimum` of them: a large region set as a user
    might import (shops, stops, sites), spread over the country rather than lined up along one
    ride. Returns how many regions the file holds."""
    features = json.load(open(along))["features"]
    points = []
    for feature in features:
        geometry = feature["geometry"]
        points += [geometry["coordinates"]] if geometry["type"] == "Point" else geometry["coordinates"][0]
    west, east = min(p[0] for p in points), max(p[0] for p in points)
    south, north = min(p[1] for p in points), max(p[1] for p in points)
    latitude = (south + north) / 2
    metresEast = 111_320 * math.cos(math.radians(latitude))
    extent = max((east - west) * metresEast, (north - south) * 111_320) / 1000 + 10  # km
    side = max(extent, math.sqrt(minimum / density))
    count = int(math.ceil(density * side * side))
    centre = ((west + east) / 2, latitude)
    halfLat, halfLon = side * 500 / 111_320, side * 500 / metresEast
    generator = random.Random(seed)
    for i in range(count):
        lon = generator.uniform(centre[0] - halfLon, centre[0] + halfLon)
        lat = generator.uniform(centre[1] - halfLat, centre[1] + halfLat)
        radius = generator.uniform(50, 400)
        if i % 2 == 0:
            features.append({"type": "Feature", "id": f"crowd-{i}", "geometry": {"type": "Point", "coordinates": [lon, lat]},
                             "properties": {"radius": round(radius, 1)}})
        else:
            dy = radius / 111_320
            dx = dy / math.cos(math.radians(lat))
            ring = [[lon - dx, lat - dy], [lon + dx, lat - dy], [lon + dx, lat + dy], [lon - dx, lat + dy], [lon - dx, lat - dy]]
            features.append({"type": "Feature", "id": f"crowd-{i}", "geometry": {"type": "Polygon", "coordinates": [ring]},
                             "properties": {}})
    with open(path, "w") as out:
        json.dump({"type": "FeatureCollection", "features": features}, out)
    return len(features)


def simulate(args, work, track, regions, policy, mode, seed):
    """One fresh daemon with `regions` and one device; the simulator plays `track` against it.
    Returns (the simulator's summary, the daemon's region events, the daemon's stderr tail)."""
    db = os.path.join(work, "w.sqlite")
    for stale in glob.glob(db + "*"):
        os.remove(stale)
    run([args.waymark, "regions", "import", regions, "--db", db])
    secret = add_devices(db, 1)[0]  # device d0 of user d0
    secret_file = os.path.join(work, "secret")
    with open(secret_file, "w") as out:
        out.write(secret + "\n")
    port = free_port()
    config = os.path.join(work, "waymark.yaml")
    with open(config, "w") as out:
        out.write(f"devices:\n  listen: 127.0.0.1:{port}\n  power_policy: {policy}\n")
    log_path = os.path.join(work, "daemon.log")
    log = open(log_path, "w")
    daemon = subprocess.Popen(
        [args.waymark, "serve", "--config", config, "--gpsd", "127.0.0.1:9", "--db", db, "--socket", os.path.join(work, "api.sock")],
        stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while "Device listener listening" not in open(log_path).read():
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("the daemon's device listener did not start:\n" + open(log_path).read()[-3000:])
            time.sleep(0.1)
        command = [args.waymark, "simulate", "phone", track, "--url", f"http://127.0.0.1:{port}", "--device", "d0",
                   "--secret-file", secret_file, "--mode", mode, "--truth-regions", regions, "--seed", str(seed), "--json",
                   "--locator-interval", str(MOVE_INTERVAL), "--locator-displacement", str(MOVE_DISPLACEMENT)]
        summary = json.loads(run(command))
    finally:
        stop(daemon)
        log.close()
    lines = run([args.waymark, "history", "--db", db, "--device", "d0", "--kind", "event"]).splitlines()
    events = [e for e in map(json.loads, lines) if e.get("kind") == "region"]
    return summary, events


def figures(summary):
    """What the benchmark reads from one simulator summary."""
    seconds = field(summary, "secondsPerMode", "modeSeconds", "seconds", default={}) or {}
    move = float(seconds.get("move", 0))
    total = sum(float(v) for v in seconds.values()) or float(field(summary, "durationSeconds", default=0) or 0)
    return {
        "reports": field(summary, "reports", default=0),
        "transitionsSent": field(summary, "transitionsSent", "transitions", default=0),
        "moveSeconds": round(move, 1), "seconds": round(total, 1),
        "modeSwitches": field(summary, "modeSwitches", default=0),
        "commands": field(summary, "commands", default=None),
        "maxWaypoints": field(summary, "maxWaypointsHeld", "maxWaypoints", "waypointsHeldMax", default=0),
        "windowMisses": field(summary, "windowMisses", "window.misses", default=0),
        "joulesPerHour": field(summary, "energy.joulesPerHour", "joulesPerHour", default=None),
        "joules": field(summary, "energy.joules", "energy.totalJoules", "joules", default=None),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("waymark")
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data"))
    parser.add_argument("--per-km", type=float, action="append", dest="densities")
    parser.add_argument("--seed", type=int, action="append", dest="seeds")
    parser.add_argument("--track", action="append", dest="tracks", help="instead of every timed recorded track")
    parser.add_argument("--window-regions", type=int, default=10_000, help="at least this many regions in the window case (0: none)")
    parser.add_argument("--window-density", type=float, action="append", dest="window_densities",
                        help="scattered regions per km² in the window case (default: 3 and 30)")
    parser.add_argument("--quick", action="store_true", help="one density, one seed, the repository's ride only (a smoke run)")
    parser.add_argument("--keep", help="write the generated regions here instead of a temporary folder")
    args = parser.parse_args()
    if args.quick:
        densities, seeds = args.densities or [0.5], args.seeds or [1]
        tracks = args.tracks or [os.path.join(root, "Tracks", "lakeside-ride.gpx")]
    else:
        densities, seeds = args.densities or [0.5, 2.0], args.seeds or [1, 2, 3]
        tracks = args.tracks or sorted(glob.glob(os.path.join(root, "Tracks", "*.gpx")) + glob.glob(os.path.join(args.data, "gpx", "*.gpx")))
    tracks = [t for t in tracks if timed(args.waymark, t)]
    folder = args.keep or tempfile.mkdtemp(prefix="waymark-phones-")
    os.makedirs(folder, exist_ok=True)
    work = tempfile.mkdtemp(prefix="waymark-phones-run-")
    failed = False

    def measure(track, regions, seed, label):
        name = os.path.basename(track)[:-4]
        runs = {}
        for key, policy, mode in [("policy", "auto", "significant"), ("move", "off", "move"), ("significant", "off", "significant")]:
            began = time.monotonic()
            summary, events = simulate(args, work, track, regions, policy, mode, seed)
            runs[key] = dict(figures(summary), events=events)
            print(json.dumps({"benchmark": "phone policy run", "track": name, "set": label, "seed": seed, "run": key,
                              **{k: v for k, v in runs[key].items() if k != "events"}, "regionEvents": len(events),
                              "wallSeconds": round(time.monotonic() - began, 1)}), flush=True)
        delays, missed, extra = compare(runs["move"]["events"], runs["policy"]["events"])
        moveShare = runs["policy"]["moveSeconds"] / runs["move"]["moveSeconds"] if runs["move"]["moveSeconds"] else None
        row = {
            "benchmark": "phone policy", "track": name, "set": label, "seed": seed,
            "moveShare": round(moveShare, 4) if moveShare is not None else None,
            "crossings": len(runs["move"]["events"]), "found": len(delays),
            "missed": [f'{t["transition"]} {t["region"]} {t["time"]}' for t in missed][:20], "extra": extra,
            "medianDelay": statistics.median(delays) if delays else None,
            "windowMisses": runs["policy"]["windowMisses"], "maxWaypoints": runs["policy"]["maxWaypoints"],
            "modeSwitches": runs["policy"]["modeSwitches"],
            "joulesPerHour": {k: runs[k]["joulesPerHour"] for k in runs},
            "hours": round(runs["move"]["seconds"] / 3600, 3),
            "policyMoveSeconds": runs["policy"]["moveSeconds"], "moveMoveSeconds": runs["move"]["moveSeconds"],
        }
        print(json.dumps(row), flush=True)
        return row

    def aggregate(rows, label, extra):
        hours = sum(r["hours"] for r in rows)
        energy = {k: (round(sum((r["joulesPerHour"][k] or 0) * r["hours"] for r in rows) / hours, 1) if hours else None)
                  for k in ("policy", "move", "significant")}
        byTrack = {}
        for r in rows:
            byTrack.setdefault(r["track"], []).append(r)
        result = {
            "benchmark": "phone policy, the set", "set": label, **extra, "runs": len(rows), "hours": round(hours, 2),
            "moveShare": round(sum(r["policyMoveSeconds"] for r in rows) / max(1e-9, sum(r["moveMoveSeconds"] for r in rows)), 4),
            "medianMoveShareByTrack": {t: statistics.median(r["moveShare"] for r in rs if r["moveShare"] is not None)
                                       for t, rs in byTrack.items() if any(r["moveShare"] is not None for r in rs)},
            "crossings": sum(r["crossings"] for r in rows), "found": sum(r["found"] for r in rows),
            "extra": sum(r["extra"] for r in rows),
            "foundShare": round(sum(r["found"] for r in rows) / max(1, sum(r["crossings"] for r in rows)), 4),
            "windowMisses": sum(r["windowMisses"] or 0 for r in rows), "maxWaypoints": max(r["maxWaypoints"] or 0 for r in rows),
            "joulesPerHour": energy,
        }
        return result

    for density in densities:
        rows = []
        for track in tracks:
            for seed in seeds:
                regions = os.path.join(folder, f"{os.path.basename(track)[:-4]}-{density:g}-{seed}.geojson")
                run([args.waymark, "regions", "generate", "--along", track, "--seed", str(seed), "--per-km", str(density), "-o", regions])
                rows.append(measure(track, regions, seed, f"{density:g}/km"))
        result = aggregate(rows, f"{density:g}/km", {"perKm": density, "seeds": len(seeds)})
        result["meetsTargets"] = (result["moveShare"] <= 0.25 and result["foundShare"] >= 0.99
                                  and result["windowMisses"] == 0 and result["maxWaypoints"] <= WINDOW)
        failed |= not result["meetsTargets"]
        print(json.dumps(result), flush=True)

    if args.window_regions > 0:
        longest = max(tracks, key=lambda t: json.loads(run([args.waymark, "stats", t, "--json"]))["distance"])
        for crowding in args.window_densities or ([3.0] if args.quick else [3.0, 30.0]):
            rows = []
            for seed in seeds:
                along = os.path.join(folder, f"window-along-{seed}.geojson")
                run([args.waymark, "regions", "generate", "--along", longest, "--seed", str(seed), "--per-km", str(densities[0]), "-o", along])
                crowd = os.path.join(folder, f"window-{crowding:g}-{seed}.geojson")
                count = scatter(along, crowding, args.window_regions, seed, crowd)
                rows.append(measure(longest, crowd, seed, f"window {crowding:g}/km²"))
            result = aggregate(rows, f"window {crowding:g}/km²", {"regions": count, "perKm2": crowding,
                                                                  "track": os.path.basename(longest)[:-4], "seeds": len(seeds)})
            result["meetsTargets"] = result["windowMisses"] == 0 and result["maxWaypoints"] <= WINDOW
            failed |= not result["meetsTargets"]
            print(json.dumps(result), flush=True)
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
