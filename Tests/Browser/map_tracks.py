#!/usr/bin/python3
"""The tracks and regions `map_view.py` checks the web page's map with: one small replay per
check, made here rather than kept as files, so a check and its geometry are read in one place.

`python3 map_tracks.py DIR` writes `DIR/SCENARIO.gpx` and `DIR/SCENARIO.geojson` for every
scenario below and prints each one's replay flags for `waymark serve` as JSON; `map_view.py`
imports `scenario()` to know the same tracks' times and places.
Straight lines and zigzags at constant speed with no noise: what the page draws can then be
compared with simple arithmetic (a trail's length is its minutes times the speed).
"""
import json
import math
import sys
from datetime import datetime, timedelta, timezone

EARTH_RADIUS = 6_371_008.8  # metres, the mean radius


def offset(point, north, east):
    """The point `north` and `east` metres from `point` (latitude, longitude), on a sphere."""
    latitude, longitude = point
    return (latitude + math.degrees(north / EARTH_RADIUS),
            longitude + math.degrees(east / (EARTH_RADIUS * math.cos(math.radians(latitude)))))


def utc(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def walk(start, at, legs, interval):
    """Fixes every `interval` seconds from `start` at time `at`, along `legs` of (bearing in
    degrees, speed in m/s, seconds); a list of (latitude, longitude, time)."""
    fixes = [(start[0], start[1], at)]
    point = start
    for bearing, speed, seconds in legs:
        for _ in range(int(seconds // interval)):
            step = speed * interval
            point = offset(point, step * math.cos(math.radians(bearing)), step * math.sin(math.radians(bearing)))
            at += timedelta(seconds=interval)
            fixes.append((point[0], point[1], at))
    return fixes


def circle(identifier, centre, radius):
    return {"type": "Feature", "id": identifier, "properties": {"radius": radius},
            "geometry": {"type": "Point", "coordinates": [centre[1], centre[0]]}}


def scenario(name):
    """{"track": [(lat, lon, time)], "regions": [GeoJSON features], "speed": replay factor or
    None for as fast as it goes, …} for one check of map_view.py."""
    if name == "scale":
        # Two 400 m circles, one at 47° and one at 65°, where a Mercator map's scale differs
        # by 1.6 times; the walk passes through the first.
        regions = [circle("c47", (47.0, 8.0), 400), circle("c65", (65.0, 25.0), 400)]
        track = walk(offset((47.0, 8.0), -1000, 0), utc("2026-06-02T09:00:00Z"), [(0, 2, 1000)], 5)
        return {"track": track, "regions": regions, "speed": None, "radius": 400}
    if name == "basemap":
        # The Kiel fjord: coast on the basemap at every zoom it has.
        regions = [circle("harbour", (54.33, 10.15), 300)]
        track = walk((54.32, 10.14), utc("2026-06-02T10:00:00Z"), [(30, 1.5, 300)], 5)
        return {"track": track, "regions": regions, "speed": None}
    if name == "trail":
        # North at 5 m/s for 16 minutes, replayed at 60 times real time (16 s).
        regions = [circle("start", (47.2, 8.3), 100)]
        track = walk((47.2, 8.3), utc("2026-06-03T10:00:00Z"), [(0, 5, 960)], 1)
        return {"track": track, "regions": regions, "speed": 60, "metres_per_second": 5}
    if name == "follow":
        # A drive at 20 m/s zigzagging north-east for an hour, at 40 times real time (90 s, of
        # which the check watches about 50): 800 m of map a second. A small circle every
        # kilometre, so one is always in view.
        legs = [(45 if leg % 2 == 0 else 110, 20, 180) for leg in range(20)]
        track = walk((47.5, 7.6), utc("2026-06-03T12:00:00Z"), legs, 1)
        regions = [circle(f"f{index + 1}", track[index * 50][:2], 80) for index in range(len(track) // 50)]
        return {"track": track, "regions": regions, "speed": 40}
    if name == "devices":
        # The receiver walks a square; a phone (posted over HTTP by the check) stands near it.
        regions = [circle("plaza", (47.3, 8.5), 100)]
        track = walk((47.3, 8.5), utc("2026-06-04T12:00:00Z"), [(90, 1.5, 60), (0, 1.5, 60)], 2)
        return {"track": track, "regions": regions, "speed": None, "phone": offset((47.3, 8.5), 150, -150)}
    if name == "locate":
        # Through a pond and out: an enter and an exit, each with its place.
        regions = [circle("pond", (47.4, 8.6), 150)]
        track = walk(offset((47.4, 8.6), -600, 0), utc("2026-06-05T07:00:00Z"), [(0, 3, 400)], 1)
        return {"track": track, "regions": regions, "speed": None}
    if name == "history":
        # Two days: a morning on 9 June, and an evening on 12 June (UTC) that runs past midnight
        # in Tokyo, where the check's browser lives: the latest local day there is 13 June.
        home = (48.1, 11.5)
        track = walk(home, utc("2026-06-09T10:00:00Z"), [(0, 1, 600)], 10)
        track += walk(offset(home, 1000, 0), utc("2026-06-12T14:00:00Z"), [(90, 1, 9000)], 10)
        return {"track": track, "regions": [circle("home", home, 100)], "speed": None, "zone": "Asia/Tokyo"}
    if name == "a11y":
        # Regions whose names sort differently as text (c11, c12, c3) and as numbers.
        centre = (46.95, 7.45)
        regions = [circle("c11", offset(centre, 400, 0), 150), circle("c3", centre, 100), circle("c12", offset(centre, 0, 500), 200)]
        track = walk(offset(centre, -300, 0), utc("2026-06-06T16:00:00Z"), [(0, 1.5, 400)], 5)
        return {"track": track, "regions": regions, "speed": None}
    raise ValueError(f"no scenario {name}")


SCENARIOS = ("scale", "basemap", "trail", "follow", "devices", "locate", "history", "a11y")


def gpx(track, name):
    points = "\n".join(
        f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>400</ele><time>{at.strftime("%Y-%m-%dT%H:%M:%SZ")}</time><hdop>1</hdop></trkpt>'
        for lat, lon, at in track)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<gpx version="1.1" creator="map_tracks.py" xmlns="http://www.topografix.com/GPX/1/1">\n'
            f"<trk><name>{name}</name><trkseg>\n{points}\n</trkseg></trk></gpx>\n")


def write(directory):
    """Writes every scenario's files; returns {scenario: its replay flags for `waymark serve`}."""
    flags = {}
    for name in SCENARIOS:
        data = scenario(name)
        flags[name] = ["--speed", str(data["speed"])] if data["speed"] else ["--fast"]
        with open(f"{directory}/{name}.gpx", "w") as out:
            out.write(gpx(data["track"], name))
        with open(f"{directory}/{name}.geojson", "w") as out:
            json.dump({"type": "FeatureCollection", "features": data["regions"]}, out)
    return flags


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: map_tracks.py DIRECTORY")
    print(json.dumps(write(sys.argv[1])))
