#!/usr/bin/env python3
"""Makes Tracks/three-days.gpx, its labels Tracks/three-days.labels.json and the person's places
Tracks/three-days.regions.geojson (Tracks/README.md).

Three days of one person's phone around Potsdam (Mon 1 – Wed 3 June 2026, Europe/Berlin, UTC+2),
written down below as an itinerary: where they stayed and how they went between. Each stay and
each move is one `waymark simulate` leg; this script joins them into one GPX track and writes the
itinerary's stays as a Google Semantic Location History file (`placeVisit`s), the labels
`waymark timeline --compare` checks Waymark's stays against.

How the phone records, as phones do: a fix a minute while still (indoors, 12 m wandering error),
every 5 s on the move (4 m); a 4½-hour silence one night (phone off), a 3-minute one in a
tunnel; no accuracy at all on one drive and an evening (a logger that writes none); two
outliers with a good accuracy (a mislocated Wi-Fi fix at the office, one on a ride).

The labels are the itinerary's times: a stay begins when the move into it ends (its last fix)
and ends when the next move begins. The same script gives the same bytes.

Usage: Tracks/make-three-days.py [WAYMARK]   (default: `waymark` on PATH)
"""
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone

WAYMARK = sys.argv[1] if len(sys.argv) > 1 else "waymark"
HERE = os.path.dirname(os.path.abspath(__file__))
LOCAL = timezone(timedelta(hours=2))  # Europe/Berlin in June

PLACES = {
    "Home": (52.40060, 13.03850, "TYPE_HOME"),
    "Office": (52.39290, 13.11950, "TYPE_WORK"),
    "Café Rosa": (52.39650, 13.12420, None),
    "Supermarket": (52.40480, 13.04700, None),
    "Client, Berlin-Mitte": (52.51630, 13.37770, None),
    "Hardware store": (52.38000, 13.08500, None),
}

RIDE_TO_OFFICE = [(52.3985, 13.0600), (52.3950, 13.0900), (52.3935, 13.1100)]
DRIVE_TO_CLIENT = [(52.4000, 13.0700), (52.4200, 13.1300), (52.4700, 13.2400), (52.5050, 13.3200)]
PARK_LOOP = [(52.4030, 13.0300), (52.4045, 13.0200), (52.4010, 13.0180), (52.3995, 13.0280)]

# The itinerary: ("stay", place, local departure "DAY HH:MM") or ("move", to, speed m/s, via,
# stop "INDEX:SECONDS" or None). A move from a place back to it (the walk) is a loop, no stay.
ITINERARY = [
    ("stay", "Home", "1 07:55"),
    ("move", "Office", 5.0, RIDE_TO_OFFICE, "2:60"),
    ("stay", "Office", "1 12:05"),
    ("move", "Café Rosa", 1.35, [(52.3950, 13.1210)], None),
    ("stay", "Café Rosa", "1 12:55"),
    ("move", "Office", 1.35, [(52.3950, 13.1210)], None),
    ("stay", "Office", "1 17:30"),
    ("move", "Home", 5.0, RIDE_TO_OFFICE[::-1], None),
    ("stay", "Home", "1 18:45"),
    ("move", "Supermarket", 1.35, [(52.4030, 13.0420)], None),
    ("stay", "Supermarket", "1 19:15"),
    ("move", "Home", 1.35, [(52.4030, 13.0420)], None),
    ("stay", "Home", "2 07:40"),
    ("move", "Client, Berlin-Mitte", 12.0, DRIVE_TO_CLIENT, None),
    ("stay", "Client, Berlin-Mitte", "2 15:00"),
    ("move", "Home", 12.0, DRIVE_TO_CLIENT[::-1], None),
    ("stay", "Home", "2 16:30"),
    ("move", "Home", 1.3, PARK_LOOP, "2:120"),
    ("stay", "Home", "3 08:00"),
    ("move", "Office", 5.0, RIDE_TO_OFFICE, None),
    ("stay", "Office", "3 16:00"),
    ("move", "Hardware store", 4.5, [(52.3860, 13.1000)], None),
    ("stay", "Hardware store", "3 16:45"),
    ("move", "Home", 4.5, [(52.3900, 13.0600)], None),
    ("stay", "Home", "4 00:00"),
]

START = datetime(2026, 6, 1, 0, 0, tzinfo=LOCAL)
STILL_INTERVAL, STILL_NOISE = 60, 12
MOVING_INTERVAL, MOVING_NOISE = 5, 4
# Windows (local) with no fixes, and with no accuracy.
SILENCES = [("3 01:00", "3 05:30"), ("2 08:00", "2 08:03")]
NO_ACCURACY = [("2 15:00", "2 15:45"), ("2 19:00", "2 22:00")]
# Outliers: (local time, metres north, metres east).
OUTLIERS = [("3 11:00:30", 1200, 300), ("1 08:05:02", -350, 200)]

TRKPT = re.compile(r'<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">.*<time>([^<]+)</time>')


def local(text):
    """'DAY HH:MM[:SS]' (DAY 1 = Monday 1 June) as a UTC datetime."""
    day, clock = text.split(" ")
    parts = [int(p) for p in clock.split(":")] + [0]
    return (START + timedelta(days=int(day) - 1, hours=parts[0], minutes=parts[1], seconds=parts[2])).astimezone(timezone.utc)


def stamp(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(text):
    return datetime.strptime(text.replace(".000", ""), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def simulate(waypoints, speed, interval, noise, start, seed, stop=None):
    """One leg: its trkpt lines and the time of the last."""
    arguments = [WAYMARK, "simulate", "--speed", str(speed), "--interval", str(interval), "--noise", str(noise),
                 "--start", stamp(start), "--seed", str(seed)]
    for latitude, longitude in waypoints:
        arguments += ["--waypoint", f"{latitude},{longitude}"]
    if stop:
        arguments += ["--stop", stop]
    out = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
    points = [line.strip() for line in out.splitlines() if line.strip().startswith("<trkpt")]
    return points, parse(TRKPT.search(points[-1]).group(3))


def main():
    points, visits = [], []
    now = local("1 00:00")
    position = PLACES["Home"][:2]
    arrival = now
    for index, step in enumerate(ITINERARY):
        seed = 100 + index
        if step[0] == "stay":
            _, place, leave = step
            departure = local(leave)
            latitude, longitude = PLACES[place][:2]
            first = arrival + timedelta(seconds=STILL_INTERVAL) if index else arrival
            seconds = (departure - first).total_seconds()
            if seconds < 600:
                sys.exit(f"step {index}: only {seconds:.0f} s at {place}: leave later")
            # A still phone: a stop at the place, then a step of 1.5 m (simulate needs a route).
            leg, _ = simulate([(latitude, longitude), (latitude + 0.0000135, longitude)], 1, STILL_INTERVAL, STILL_NOISE,
                              first, seed, f"0:{seconds:.0f}")
            leg = [p for p in leg if parse(TRKPT.search(p).group(3)) < departure]
            points += leg
            visits.append((place, arrival, departure))
            now = departure
        else:
            _, place, speed, via, stop = step
            route = [position] + via + [PLACES[place][:2]]
            leg, now = simulate(route, speed, MOVING_INTERVAL, MOVING_NOISE, now, seed, stop)
            points += leg
            arrival = now
            position = PLACES[place][:2]

    end = local("4 00:00")
    kept = []
    for point in points:
        latitude, longitude, time = TRKPT.search(point).groups()
        moment = parse(time)
        if moment >= end or any(local(a) <= moment < local(b) for a, b in SILENCES):
            continue
        if any(local(a) <= moment < local(b) for a, b in NO_ACCURACY):
            point = re.sub(r"<hdop>[^<]*</hdop>", "", point)
        kept.append((moment, point))
    for when, north, east in OUTLIERS:
        moment = local(when)
        before = max((m, p) for m, p in kept if m <= moment)
        latitude, longitude = (float(v) for v in TRKPT.search(before[1]).groups()[:2])
        latitude += north / 111_195
        longitude += east / (111_195 * 0.6105)
        kept.append((moment, f'<trkpt lat="{latitude:.7f}" lon="{longitude:.7f}"><time>{stamp(moment)}</time>'
                             f'<fix>3d</fix><sat>7</sat><hdop>1.1</hdop></trkpt>'))
    kept.sort(key=lambda item: item[0])

    with open(os.path.join(HERE, "three-days.gpx"), "w") as gpx:
        gpx.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<gpx version="1.1" creator="Tracks/make-three-days.py (waymark simulate)" '
                  'xmlns="http://www.topografix.com/GPX/1/1">\n'
                  ' <trk>\n  <name>Three days around Potsdam (simulated)</name>\n  <trkseg>\n')
        for _, point in kept:
            gpx.write("   " + point + "\n")
        gpx.write("  </trkseg>\n </trk>\n</gpx>\n")

    objects = []
    for place, arrival, departure in visits:
        latitude, longitude, semantic = PLACES[place]
        location = {"latitudeE7": round(latitude * 1e7), "longitudeE7": round(longitude * 1e7), "name": place}
        if semantic:
            location["semanticType"] = semantic
        objects.append({"placeVisit": {
            "location": location,
            "duration": {"startTimestamp": stamp(arrival), "endTimestamp": stamp(min(departure, end))},
            "placeConfidence": "USER_CONFIRMED", "editConfirmationStatus": "CONFIRMED"}})
    with open(os.path.join(HERE, "three-days.labels.json"), "w") as labels:
        json.dump({"timelineObjects": objects}, labels, indent=1, ensure_ascii=False)
        labels.write("\n")
    # The person's own places as regions (a circle each), so the day reads "Home", "Office".
    features = []
    for place, (latitude, longitude, _) in PLACES.items():
        identifier = re.sub(r"[^a-z]+", "-", place.lower()).strip("-")
        features.append({"type": "Feature", "id": identifier, "geometry": {"type": "Point", "coordinates": [longitude, latitude]},
                         "properties": {"name": place, "radius": 120}})
    with open(os.path.join(HERE, "three-days.regions.geojson"), "w") as regions:
        json.dump({"type": "FeatureCollection", "features": features}, regions, indent=1, ensure_ascii=False)
        regions.write("\n")
    print(f"{len(kept)} fixes, {len(visits)} labelled stays, {len(features)} places")


if __name__ == "__main__":
    main()
