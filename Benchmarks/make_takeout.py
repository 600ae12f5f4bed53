#!/usr/bin/env python3
"""Writes a Google Takeout-shaped `Records.json` of a requested size from simulated tracks, for
issue 40's import figures (Benchmarks/import.sh).

One simulated person over several years: nights at home, commutes to work by bike, car or on
foot, lunches, evenings out, weekend outings, and every month or two a trip (driven to a city
nearby, or flown to one far away: no fixes during the flight). Stays wander with GPS and Wi-Fi
noise; some stays and days are missing (phone off); a few fixes are outliers kilometres away.
Fixes come at a phone's cadence (every few seconds to a minute while moving, minutes at rest).

Records look like Takeout's: `latitudeE7`/`longitudeE7`, `accuracy`, `altitude` and
`verticalAccuracy` on GPS fixes, `velocity`/`heading` when moving, `source`, `deviceTag` (a new
phone every few years), `activity` arrays on about a quarter of the records, Wi-Fi scans
(`locationMetadata`) and the platform fields of later years on some, and the time as `timestamp`
(RFC 3339, fractions of 0, 3, 6 or 9 digits) — or, in the first quarter of the file (the older
years), as `timestampMs` (milliseconds in a string), as older exports wrote it. Times strictly
increase and no record repeats, so an import adds exactly `records` fixes.

The file is streamed to disk (memory stays flat); the same seed and size give the same bytes.
`--gpx PATH` writes the same points as GPX 1.1 (same coordinates to 1e-7°, same time strings),
`--regions PATH` a GeoJSON FeatureCollection of the visited places (Points with
`properties.radius` in metres, and some Polygons), the form `waymark regions import` reads.
`PATH.manifest.json` beside the output says what was written (records, bytes, time span…).

    Benchmarks/make_takeout.py OUT/Records.json [--size 1.5G] [--seed 1] [--gpx OUT/Records.gpx] [--regions OUT/regions.geojson]
    Benchmarks/make_takeout.py --check      # the generator's self-check on a small output
"""
import argparse
import calendar
import json
import math
import os
import random
import sys
import tempfile
import time

EARTH = 6_371_008.8
METRES_PER_DEGREE = EARTH * math.pi / 180
END = calendar.timegm((2024, 6, 30, 0, 0, 0))  # Google stopped Takeout's Records.json in 2024
BYTES_PER_DAY = 295_000  # about what a simulated day writes: sets the first day from the size
DAY = 86_400


def parse_size(text):
    units = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9}
    text = text.strip().upper().removesuffix("B")
    unit = text[-1] if text and text[-1] in units else ""
    size = int(float(text[: len(text) - len(unit)]) * units[unit])
    if size < 10_000:
        raise argparse.ArgumentTypeError(f"{text}: too small, at least 10K")
    return size


class Place:
    __slots__ = ("name", "kind", "lat", "lon", "alt", "radius", "polygon", "tz", "visited")

    def __init__(self, name, kind, lat, lon, alt, radius, polygon, tz):
        self.name, self.kind, self.lat, self.lon, self.alt = name, kind, lat, lon, alt
        self.radius, self.polygon, self.tz, self.visited = radius, polygon, tz, False


def offset(lat, lon, north, east):
    """The point `north` and `east` metres from (lat, lon) (a local flat approximation)."""
    return lat + north / METRES_PER_DEGREE, lon + east / (METRES_PER_DEGREE * math.cos(math.radians(lat)))


def distance(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(a)))


def bearing(lat1, lon1, lat2, lon2):
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360


class City:
    """A home base (the person's city, or a trip's destination) and the places visited there."""

    def __init__(self, rng, name, lat, lon, alt, tz, spread, kinds):
        self.name, self.lat, self.lon, self.tz = name, lat, lon, tz
        self.places = {}
        for kind, count in kinds:
            for index in range(count):
                r = spread * math.sqrt(rng.random())
                a = rng.random() * 2 * math.pi
                plat, plon = offset(lat, lon, r * math.cos(a), r * math.sin(a))
                radius = rng.choice((80, 100, 120, 150, 200, 250))
                polygon = rng.random() < 0.3
                key = f"{name}-{kind}" + (f"-{index + 1}" if count > 1 else "")
                self.places.setdefault(kind, []).append(
                    Place(key, kind, plat, plon, alt + rng.uniform(-30, 60), radius, polygon, tz))

    def pick(self, rng, kind):
        return rng.choice(self.places[kind])


def make_world(rng):
    home = City(rng, "zurich", 47.3769, 8.5417, 410, 1, 6000, [
        ("home", 1), ("work", 1), ("cafe", 6), ("gym", 2), ("supermarket", 4), ("friend", 5),
        ("park", 4), ("restaurant", 8), ("bar", 4), ("cinema", 2)])
    home.places["parents"] = [Place("zurich-parents", "parents", *offset(47.3769, 8.5417, -22000, 26000), 520,
                                    150, False, 1)]
    trips = [  # (city, mode): driven or by train when near, flown when far
        (City(rng, "bern", 46.948, 7.4474, 540, 1, 2500, [("hotel", 1), ("sight", 4), ("restaurant", 3)]), "drive"),
        (City(rng, "milan", 45.4642, 9.19, 120, 1, 3500, [("hotel", 1), ("sight", 5), ("restaurant", 4)]), "train"),
        (City(rng, "munich", 48.1374, 11.5755, 520, 1, 4000, [("hotel", 1), ("sight", 5), ("restaurant", 4)]), "drive"),
        (City(rng, "newyork", 40.7128, -74.006, 10, -5, 5000, [("hotel", 1), ("sight", 6), ("restaurant", 5)]), "fly"),
        (City(rng, "lisbon", 38.7223, -9.1393, 50, 0, 3000, [("hotel", 1), ("sight", 5), ("restaurant", 4)]), "fly"),
        (City(rng, "sydney", -33.8688, 151.2093, 20, 10, 5000, [("hotel", 1), ("sight", 5), ("restaurant", 4)]), "fly"),
    ]
    return home, trips


ACTIVITY = {
    "still": (("STILL", 100), ("STILL", 78, "UNKNOWN", 14, "TILTING", 8), ("TILTING", 100)),
    "walk": (("ON_FOOT", 92, "WALKING", 92, "STILL", 5), ("WALKING", 100), ("ON_FOOT", 70, "UNKNOWN", 20, "IN_VEHICLE", 10)),
    "ride": (("ON_BICYCLE", 87, "UNKNOWN", 9, "IN_VEHICLE", 4), ("ON_BICYCLE", 100)),
    "drive": (("IN_VEHICLE", 84, "IN_ROAD_VEHICLE", 84, "IN_CAR", 84, "UNKNOWN", 10, "STILL", 6),
              ("IN_VEHICLE", 100)),
    "train": (("IN_VEHICLE", 75, "IN_RAIL_VEHICLE", 75, "UNKNOWN", 20, "STILL", 5), ("IN_VEHICLE", 100)),
}
SPEED = {"walk": 1.35, "ride": 4.8, "drive": 13.0, "train": 30.0}


class Writer:
    """Formats fixes as Takeout records (and GPX track points) and streams them to disk."""

    def __init__(self, rng, path, size, gpx_path, style):
        self.rng, self.size, self.style = rng, size, style
        self.out = open(path, "w", encoding="ascii", newline="\n", buffering=1 << 20)
        self.gpx = open(gpx_path, "w", encoding="ascii", newline="\n", buffering=1 << 20) if gpx_path else None
        # Jackson's pretty printer (older exports) writes `"key" : value` and `[ {`; later files `"key": value`, `[{`
        self.sep, self.space = (" : ", " ") if style == "jackson" else (": ", "")
        head = '{\n  "locations"' + self.sep + "[" + self.space + "{"
        self.out.write(head)
        self.bytes = len(head)
        self.chunk, self.gpx_chunk = [], []
        self.records = self.millis_records = self.activity_records = self.gpx_segments = 0
        self.first = self.last = None
        self.last_ms = -1
        self.hour_key, self.hour_text = None, ""
        self.device_tag, self.next_phone = rng.randrange(-2**31, 2**31), None
        if self.gpx:
            self.gpx.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="make_takeout.py" '
                           'xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>Records.json</name>\n<trkseg>\n')
        self.gpx_last_second = None

    @property
    def full(self):
        return self.bytes >= self.size

    def time_text(self, ms, digits):
        second = ms // 1000
        key = second // 3600
        if key != self.hour_key:
            y, mo, d, h = time.gmtime(second)[:4]
            self.hour_key, self.hour_text = key, f"{y:04}-{mo:02}-{d:02}T{h:02}:"
        minute, sec = divmod(second % 3600, 60)
        text = f"{self.hour_text}{minute:02}:{sec:02}"
        if digits == 0:
            return text + "Z"
        if digits == 3:
            return f"{text}.{ms % 1000:03}Z"
        extra = self.rng.randrange(10 ** (digits - 3))
        return f"{text}.{ms % 1000:03}{extra:0{digits - 3}}Z"

    def fix(self, t, lat, lon, accuracy, source, mode, speed=None, heading=None, alt=None):
        """One record at time t (seconds, float); skips a time not after the last record's."""
        rng = self.rng
        ms = int(t * 1000)
        if source == "GPS" and rng.random() < 0.3:
            ms -= ms % 1000
        if ms <= self.last_ms:
            return
        self.last_ms = ms
        if self.first is None:
            self.first = ms
        self.last = ms
        sep, ind, ind2 = self.sep, "\n    ", "\n      "
        lat7, lon7 = round(lat * 1e7), round(lon * 1e7)
        older = self.bytes < self.size // 4
        r = rng.random()
        digits = 0 if ms % 1000 == 0 else 3 if r < 0.97 else 6 if r < 0.99 else 9
        stamp = self.time_text(ms, digits)
        parts = []
        if older:
            self.millis_records += 1
            parts.append(f'{ind}"timestampMs"{sep}"{ms}",')
        parts.append(f'{ind}"latitudeE7"{sep}{lat7},{ind}"longitudeE7"{sep}{lon7},{ind}"accuracy"{sep}{accuracy},')
        if speed is not None:
            parts.append(f'{ind}"velocity"{sep}{round(speed)},{ind}"heading"{sep}{round(heading) % 360},')
        if alt is not None:
            parts.append(f'{ind}"altitude"{sep}{round(alt)},{ind}"verticalAccuracy"{sep}{rng.randrange(2, 30)},')
        if rng.random() < 0.25:
            self.activity_records += 1
            parts.append(self.activity(ms, mode, older))
        if not older and source == "WIFI" and rng.random() < 0.05:
            parts.append(self.wifi_scan(ms))
        parts.append(f'{ind}"source"{sep}"{source}",{ind}"deviceTag"{sep}{self.device_tag},')
        if not older and self.bytes > self.size // 2 and rng.random() < 0.4:
            parts.append(f'{ind}"platformType"{sep}"ANDROID",{ind}"osLevel"{sep}{max(26, 29 + (ms // 1000 - 1_546_300_800) // 31_536_000)},'
                         f'{ind}"serverTimestamp"{sep}"{self.time_text(ms + rng.randrange(200, 90_000), 3)}",'
                         f'{ind}"deviceTimestamp"{sep}"{self.time_text(ms + rng.randrange(0, 900), 3)}",'
                         f'{ind}"batteryCharging"{sep}{"true" if rng.random() < 0.2 else "false"},'
                         f'{ind}"formFactor"{sep}"PHONE",')
        if older:
            parts[-1] = parts[-1][:-1]
        else:
            parts.append(f'{ind}"timestamp"{sep}"{stamp}"')
        record = "".join(parts) + "\n  }"
        if self.records:
            record = ", {" + record
        self.records += 1
        self.chunk.append(record)
        self.bytes += len(record)
        if self.gpx is not None:
            self.gpx_point(ms, lat7, lon7, alt, stamp)
        if len(self.chunk) >= 4096:
            self.flush()

    def activity(self, ms, mode, older):
        sep, sp, rng = self.sep, self.space, self.rng
        entries = []
        for index in range(1 if rng.random() < 0.7 else 2):
            choice = rng.choice(ACTIVITY[mode])
            kinds = ", ".join(f'{{\n        "type"{sep}"{choice[i]}",\n        "confidence"{sep}{choice[i + 1]}\n      }}'
                              for i in range(0, len(choice), 2))
            at = ms - rng.randrange(500, 60_000) * (2 - index)
            stamp = f'"timestampMs"{sep}"{at}"' if older else f'"timestamp"{sep}"{self.time_text(at, 3)}"'
            entries.append(f'{{\n      "activity"{sep}[{sp}{kinds}{sp}],\n      {stamp}\n    }}')
        return f'\n    "activity"{sep}[{sp}' + ", ".join(entries) + f"{sp}],"

    def wifi_scan(self, ms):
        sep, sp, rng = self.sep, self.space, self.rng
        points = ", ".join(
            f'{{\n          "mac"{sep}"{rng.randrange(1 << 47)}",\n          "strength"{sep}{rng.randrange(-90, -40)},'
            f'\n          "frequencyMhz"{sep}{rng.choice((2412, 2437, 2462, 5180, 5240))}\n        }}'
            for _ in range(rng.randrange(1, 5)))
        return (f'\n    "locationMetadata"{sep}[{sp}{{\n      "timestamp"{sep}"{self.time_text(ms - rng.randrange(1000, 20_000), 3)}",'
                f'\n      "wifiScan"{sep}{{\n        "accessPoints"{sep}[{sp}{points}{sp}]\n      }}\n    }}{sp}],')

    def gpx_point(self, ms, lat7, lon7, alt, stamp):
        second = ms // 1000
        if self.gpx_last_second is not None and second - self.gpx_last_second > 3600:
            self.gpx_chunk.append("</trkseg>\n<trkseg>\n")
            self.gpx_segments += 1
        self.gpx_last_second = second
        ele = f"<ele>{round(alt)}</ele>" if alt is not None else ""
        self.gpx_chunk.append(f'<trkpt lat="{lat7 / 1e7:.7f}" lon="{lon7 / 1e7:.7f}">{ele}<time>{stamp}</time></trkpt>\n')

    def new_phone(self):
        self.device_tag = self.rng.randrange(-2**31, 2**31)

    def flush(self):
        self.out.write("".join(self.chunk))
        self.chunk.clear()
        if self.gpx is not None:
            self.gpx.write("".join(self.gpx_chunk))
            self.gpx_chunk.clear()

    def close(self):
        self.flush()
        tail = self.space + "]\n}\n"
        self.out.write(tail)
        self.bytes += len(tail)
        self.out.close()
        if self.gpx is not None:
            self.gpx.write("</trkseg>\n</trk>\n</gpx>\n")
            self.gpx.close()
            self.gpx_segments += 1


class Person:
    """Moves through the world in time order and hands each fix to the writer."""

    def __init__(self, rng, writer, home, trips, start):
        self.rng, self.w, self.home, self.trips = rng, writer, home, trips
        self.city = home
        self.t = float(start)
        self.place = home.pick(rng, "home")
        self.next_trip = start + rng.uniform(20, 60) * DAY
        self.next_phone = start + rng.uniform(500, 1000) * DAY

    def local_hour(self, t):
        return ((t + self.city.tz * 3600) % DAY) / 3600

    def weekday(self, t):
        return int((t + self.city.tz * 3600) // DAY + 3) % 7  # 0 = Monday (1970-01-01 was a Thursday)

    def today(self, t, hour):
        """The local day's time of t at `hour` (may be before t)."""
        return ((t + self.city.tz * 3600) // DAY) * DAY - self.city.tz * 3600 + hour * 3600

    def at(self, t, hour):
        """The first time at or after t whose local hour is `hour`."""
        when = self.today(t, hour)
        return when if when >= t else when + DAY

    def run(self):
        rng = self.rng
        while not self.w.full:
            depart, destination = self.plan()
            self.stay(depart)
            if self.w.full:
                break
            if self.t >= self.next_phone:
                self.w.new_phone()
                self.next_phone = self.t + rng.uniform(700, 1100) * DAY
            if destination is None:  # a trip: away for days, then back home
                self.trip()
            elif destination is not self.place:
                self.travel(destination)

    def plan(self):
        """When to leave the current place, and for where: another place, the same one (the stay goes
        on and is planned again, e.g. after a night), or None (a trip starts)."""
        rng, t, kind, city = self.rng, self.t, self.place.kind, self.city
        hour, weekday, abroad = self.local_hour(t), self.weekday(t), city is not self.home
        base = "hotel" if abroad else "home"
        if kind in ("home", "hotel"):
            if hour >= 20 or hour < 6:
                return self.at(t, rng.uniform(6.3, 7.1)), self.place
            if not abroad and t >= self.next_trip and hour < 10:
                return t + rng.uniform(600, 3600), None
            if not abroad and weekday < 5:
                if hour < 9.5:
                    return max(t + 300, self.today(t, rng.uniform(7.2, 8.8))), city.pick(rng, "work")
                if hour < 19 and rng.random() < 0.35:
                    return t + rng.uniform(1800, 5400), city.pick(rng, rng.choice(("bar", "friend", "supermarket", "gym")))
                return self.at(t, rng.uniform(6.3, 7.1)), self.place
            if hour < 9:
                return self.today(t, rng.uniform(9.5, 11)), city.pick(rng, "sight" if abroad else rng.choice(("park", "cafe", "supermarket")))
            if hour < 17 and rng.random() < 0.75:
                kinds = ("sight", "restaurant") if abroad else ("park", "friend", "cafe", "parents", "cinema")
                return t + rng.uniform(1800, 3 * 3600), city.pick(rng, rng.choice(kinds))
            return self.at(t, rng.uniform(6.3, 7.1)), self.place
        if kind == "work":
            if hour < 11.5 and rng.random() < 0.45:
                return max(t + 600, self.today(t, rng.uniform(11.8, 12.3))), city.pick(rng, rng.choice(("cafe", "restaurant")))
            leave = self.today(t, rng.uniform(17, 18.6)) if hour < 16.5 else t + rng.uniform(1800, 3600)
            if rng.random() < 0.35:
                return leave, city.pick(rng, rng.choice(("gym", "bar", "friend", "supermarket", "restaurant")))
            return leave, city.pick(rng, "home")
        if kind in ("cafe", "restaurant") and not abroad and 11 <= hour < 14 and weekday < 5:
            return t + rng.uniform(2100, 3600), city.pick(rng, "work")
        if rng.random() < 0.2 and hour < 20:
            other = ("sight", "restaurant") if abroad else ("cafe", "bar", "supermarket", "park")
            return t + rng.uniform(2400, 2.5 * 3600), city.pick(rng, rng.choice(other))
        return t + rng.uniform(2400, 3 * 3600) * (2.5 if kind == "parents" else 1), city.pick(rng, base)

    def stay(self, until):
        """Fixes around the current place until `until`: wandering indoors, Wi-Fi and GPS noise."""
        rng, w, place = self.rng, self.w, self.place
        place.visited = True
        if rng.random() < 0.03:  # phone off or no data for the whole stay
            self.t = until
            return
        home = place.kind in ("home", "hotel")
        north = east = 0.0
        t = self.t + rng.uniform(20, 120)
        while t < until and not w.full:
            north = max(-25.0, min(25.0, north + rng.gauss(0, 3)))
            east = max(-25.0, min(25.0, east + rng.gauss(0, 3)))
            r = rng.random()
            if r < 0.0003:
                self.outlier(t)
            elif r < 0.03:
                accuracy = rng.randrange(400, 2500)
                self.emit(t, place.lat, place.lon, north, east, accuracy, "CELL", "still")
            elif r < 0.75:
                self.emit(t, place.lat, place.lon, north, east, rng.randrange(12, 45), "WIFI", "still")
            else:
                self.emit(t, place.lat, place.lon, north, east, rng.randrange(4, 20), "GPS", "still",
                          alt=place.alt + rng.gauss(0, 6))
            night = home and (self.local_hour(t) >= 23 or self.local_hour(t) < 6.5)
            t += rng.uniform(240, 720) if night else rng.uniform(30, 150)
            if rng.random() < 0.004:  # a gap within the stay
                t += rng.uniform(1200, 4 * 3600)
        self.t = max(self.t, until)

    def emit(self, t, lat, lon, north, east, accuracy, source, mode, speed=None, heading=None, alt=None):
        sigma = accuracy * 0.35
        lat, lon = offset(lat, lon, north + self.rng.gauss(0, sigma), east + self.rng.gauss(0, sigma))
        self.w.fix(t, lat, lon, accuracy, source, mode, speed, heading, alt)

    def outlier(self, t):
        rng = self.rng
        r = rng.uniform(2000, 30000)
        a = rng.random() * 2 * math.pi
        lat, lon = offset(self.place.lat, self.place.lon, r * math.cos(a), r * math.sin(a))
        accuracy = rng.randrange(1200, 3000) if rng.random() < 0.5 else rng.randrange(20, 60)
        self.w.fix(t, lat, lon, accuracy, rng.choice(("WIFI", "CELL")), "still")

    def travel(self, destination, mode=None):
        """Moves along a bent route to `destination` at the mode's speed, a fix every few seconds."""
        rng, w, start = self.rng, self.w, self.place
        length = distance(start.lat, start.lon, destination.lat, destination.lon)
        if mode is None:
            mode = "walk" if length < 1500 else rng.choice(("ride", "ride", "drive", "walk")) if length < 6000 else \
                rng.choice(("ride", "drive", "drive"))
        route = [(start.lat, start.lon)]
        for share in (0.3, 0.65):
            sideways = rng.gauss(0, 0.12 * length)
            lat, lon = offset(start.lat + (destination.lat - start.lat) * share,
                              start.lon + (destination.lon - start.lon) * share, 0, 0)
            route.append(offset(lat, lon, sideways * rng.choice((-1, 1)) * 0.5, sideways))
        route.append((destination.lat, destination.lon))
        navigating = mode == "drive" and rng.random() < 0.1
        dark = rng.random() < 0.04  # no fixes for this journey
        t = self.t
        for (lat1, lon1), (lat2, lon2) in zip(route, route[1:]):
            leg = distance(lat1, lon1, lat2, lon2)
            heading = bearing(lat1, lon1, lat2, lon2)
            done = 0.0
            while done < leg:
                speed = SPEED[mode] * (2 if mode == "drive" and leg > 20_000 else 1) * rng.uniform(0.6, 1.3)
                if mode == "drive" and rng.random() < 0.08:
                    speed = 0.0
                step = 1.0 if navigating else rng.uniform(4, 20) if mode != "walk" else rng.uniform(10, 45)
                t += step
                done = min(leg, done + max(speed, 0.5) * step)
                if dark or w.full:
                    continue
                share = done / leg if leg else 1.0
                lat, lon = lat1 + (lat2 - lat1) * share, lon1 + (lon2 - lon1) * share
                if rng.random() < 0.0003:
                    self.outlier(t)
                    continue
                gps = rng.random() < 0.85
                accuracy = rng.randrange(3, 16) if gps else rng.randrange(20, 80)
                self.emit(t, lat, lon, 0, 0, accuracy, "GPS" if gps else "WIFI", mode,
                          speed if gps else None, heading + rng.gauss(0, 4) if gps else None,
                          start.alt + (destination.alt - start.alt) * share + rng.gauss(0, 5) if gps else None)
        self.t = t
        self.place = destination

    def trip(self):
        rng = self.rng
        city, mode = rng.choice(self.trips)
        hotel = city.pick(rng, "hotel")
        if mode == "fly":
            hours = distance(self.place.lat, self.place.lon, city.lat, city.lon) / 250 / 3600 + 3
            self.t += hours * 3600
            self.place = hotel
        else:
            self.travel(hotel, mode)
        self.city = city
        end = self.t + rng.uniform(3, 10) * DAY
        while self.t < end and not self.w.full:
            depart, destination = self.plan()
            self.stay(depart)
            if not self.w.full and destination is not self.place:
                self.travel(destination)
        if self.w.full:
            return
        if self.place.kind != "hotel":
            self.stay(self.t + rng.uniform(600, 3600))
            self.travel(hotel)
        self.stay(max(self.t + 600, self.at(self.t, rng.uniform(8.5, 10.5))))
        self.city = self.home
        home = self.home.pick(rng, "home")
        if mode == "fly":
            self.t += distance(hotel.lat, hotel.lon, home.lat, home.lon) / 250 + 3 * 3600
            self.place = home
        else:
            self.travel(home, mode)
        self.next_trip = self.t + rng.uniform(40, 110) * DAY


def square(rng, place):
    """A Polygon ring around a place: a rectangle turned by a random angle, about 2 × its radius wide."""
    a = rng.random() * math.pi / 2
    half_w, half_h = place.radius, place.radius * rng.uniform(0.6, 1.0)
    ring = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)):
        x, y = sx * half_w, sy * half_h
        lat, lon = offset(place.lat, place.lon, x * math.sin(a) + y * math.cos(a), x * math.cos(a) - y * math.sin(a))
        ring.append([round(lon, 7), round(lat, 7)])
    return ring


def write_regions(rng, path, cities):
    features = []
    for city in cities:
        for places in city.places.values():
            for place in places:
                if not place.visited:
                    continue
                if place.polygon:
                    geometry = {"type": "Polygon", "coordinates": [square(rng, place)]}
                    properties = {"name": place.name}
                else:
                    geometry = {"type": "Point", "coordinates": [round(place.lon, 7), round(place.lat, 7)]}
                    properties = {"name": place.name, "radius": place.radius}
                features.append({"type": "Feature", "id": place.name, "properties": properties, "geometry": geometry})
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"type": "FeatureCollection", "features": features}, handle, indent=1)
        handle.write("\n")
    return len(features)


def generate(path, size, seed, gpx=None, regions=None, style="google"):
    rng = random.Random(seed)
    home, trips = make_world(rng)
    days = max(30, size // BYTES_PER_DAY)
    start = END - days * DAY
    writer = Writer(random.Random(seed + 1), path, size, gpx, style)
    Person(random.Random(seed + 2), writer, home, trips, start).run()
    writer.close()
    count = write_regions(random.Random(seed + 3), regions, [home] + [c for c, _ in trips]) if regions else None
    iso = lambda ms: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms // 1000))
    manifest = {
        "file": os.path.basename(path), "bytes": os.path.getsize(path), "records": writer.records,
        "timestampMs_records": writer.millis_records, "activity_records": writer.activity_records,
        "first": iso(writer.first), "last": iso(writer.last), "seed": seed, "style": style,
        "gpx": os.path.basename(gpx) if gpx else None, "gpx_bytes": os.path.getsize(gpx) if gpx else None,
        "gpx_segments": writer.gpx_segments if gpx else None,
        "regions": os.path.basename(regions) if regions else None, "region_count": count,
    }
    with open(path + ".manifest.json", "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=1)
        handle.write("\n")
    return manifest


def check():
    """Writes small files and reads them back: shapes, ranges, order, the GPX's points, regions, determinism."""
    import hashlib
    import xml.etree.ElementTree as ET
    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    def digest(path):
        return hashlib.sha256(open(path, "rb").read()).hexdigest()

    with tempfile.TemporaryDirectory() as folder:
        for style in ("google", "jackson"):
            path, gpx, regions = (os.path.join(folder, f"{style}.{ext}") for ext in ("json", "gpx", "geojson"))
            manifest = generate(path, 3_000_000, 7, gpx, regions, style)
            locations = json.load(open(path))["locations"]
            expect(len(locations) == manifest["records"], f"{style}: {len(locations)} records, manifest says {manifest['records']}")
            expect(abs(manifest["bytes"] - 3_000_000) < 20_000, f"{style}: {manifest['bytes']} bytes for 3 MB")
            previous, millis, tags = -1, 0, set()
            allowed = {"timestampMs", "timestamp", "latitudeE7", "longitudeE7", "accuracy", "velocity", "heading", "altitude",
                       "verticalAccuracy", "activity", "source", "deviceTag", "locationMetadata", "platformType", "osLevel",
                       "serverTimestamp", "deviceTimestamp", "batteryCharging", "formFactor"}
            for index, record in enumerate(locations):
                expect(set(record) <= allowed, f"{style} #{index}: unexpected keys {set(record) - allowed}")
                expect(("timestamp" in record) != ("timestampMs" in record), f"{style} #{index}: one of timestamp/timestampMs")
                if "timestampMs" in record:
                    millis += 1
                    ms = int(record["timestampMs"])
                    expect(isinstance(record["timestampMs"], str), f"{style} #{index}: timestampMs not a string")
                else:
                    stamp = record["timestamp"]
                    whole, _, fraction = stamp[:-1].partition(".")
                    expect(stamp.endswith("Z") and len(fraction) in (0, 3, 6, 9), f"{style} #{index}: timestamp {stamp}")
                    ms = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) * 1000 + int((fraction or "0")[:3])
                expect(ms > previous, f"{style} #{index}: time not after the previous one")
                previous = ms
                for key in ("latitudeE7", "longitudeE7", "accuracy", "deviceTag"):
                    expect(isinstance(record.get(key), int), f"{style} #{index}: {key} missing or not an integer")
                expect(abs(record["latitudeE7"]) <= 900_000_000 and abs(record["longitudeE7"]) <= 1_800_000_000,
                       f"{style} #{index}: coordinates out of range")
                expect(record["source"] in ("GPS", "WIFI", "CELL"), f"{style} #{index}: source {record['source']}")
                expect(("altitude" in record) == ("verticalAccuracy" in record), f"{style} #{index}: altitude without verticalAccuracy")
                expect(("velocity" in record) == ("heading" in record), f"{style} #{index}: velocity without heading")
                expect(0 <= record.get("heading", 0) < 360, f"{style} #{index}: heading")
                for entry in record.get("activity", []):
                    expect(entry["activity"] and all({"type", "confidence"} == set(a) for a in entry["activity"]),
                           f"{style} #{index}: activity entry")
                    expect(("timestamp" in entry) != ("timestampMs" in entry), f"{style} #{index}: activity time")
                tags.add(record["deviceTag"])
            expect(millis == manifest["timestampMs_records"] and 0 < millis < len(locations),
                   f"{style}: {millis} timestampMs records, manifest {manifest['timestampMs_records']}")
            expect(sum("activity" in r for r in locations) == manifest["activity_records"], f"{style}: activity count")
            expect(sum("locationMetadata" in r for r in locations) > 0, f"{style}: no Wi-Fi scans")
            expect(any(r["source"] == "CELL" for r in locations) and any("velocity" in r for r in locations),
                   f"{style}: no cell fixes or no moving fixes")
            with open(path) as handle:
                head = handle.read(40)
            expect(head.startswith('{\n  "locations" : [ {') if style == "jackson" else head.startswith('{\n  "locations": [{'),
                   f"{style}: head {head!r}")
            points = ET.parse(gpx).getroot().iter("{http://www.topografix.com/GPX/1/1}trkpt")
            count = 0
            for count, (point, record) in enumerate(zip(points, locations), 1):
                stamp = record.get("timestamp")
                expect(point.get("lat") == f"{record['latitudeE7'] / 1e7:.7f}" and point.get("lon") == f"{record['longitudeE7'] / 1e7:.7f}",
                       f"{style} GPX point {count}: coordinates differ from the record's")
                if stamp:
                    expect(point.findtext("{http://www.topografix.com/GPX/1/1}time") == stamp, f"{style} GPX point {count}: time")
            expect(count == len(locations), f"{style}: GPX has {count} points, Records.json {len(locations)}")
            features = json.load(open(regions))["features"]
            expect(len(features) == manifest["region_count"] and len(features) >= 5, f"{style}: {len(features)} regions")
            for feature in features:
                geometry = feature["geometry"]
                expect(feature["id"] and (geometry["type"] == "Polygon" or feature["properties"].get("radius", 0) > 0),
                       f"{style}: region {feature.get('id')}")
                if geometry["type"] == "Polygon":
                    ring = geometry["coordinates"][0]
                    expect(len(ring) == 5 and ring[0] == ring[-1], f"{style}: region {feature['id']} ring not closed")
        first = os.path.join(folder, "a.json")
        second = os.path.join(folder, "b.json")
        generate(first, 1_000_000, 3)
        generate(second, 1_000_000, 3)
        expect(digest(first) == digest(second), "same seed, different bytes")
        generate(second, 1_000_000, 4)
        expect(digest(first) != digest(second), "different seeds, same bytes")
    for failure in failures[:20]:
        print("check:", failure, file=sys.stderr)
    print(f"check: {'FAILED, ' + str(len(failures)) + ' problems' if failures else 'ok'}", file=sys.stderr)
    return not failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", nargs="?", help="the Records.json to write")
    parser.add_argument("--size", type=parse_size, default="1.5G", help="bytes to write, e.g. 200M, 1.5G (default 1.5G)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gpx", help="also write the same points as GPX 1.1 here")
    parser.add_argument("--regions", help="also write the visited places as GeoJSON regions here")
    parser.add_argument("--style", choices=("google", "jackson"), default="google",
                        help='layout: google ("key": value, as Records.json from 2022 on) or jackson ("key" : value, older exports)')
    parser.add_argument("--check", action="store_true", help="run the generator's self-check and exit")
    args = parser.parse_args()
    if args.check:
        sys.exit(0 if check() else 1)
    if not args.output:
        parser.error("the output path is required (or --check)")
    started = time.perf_counter()
    manifest = generate(args.output, args.size, args.seed, args.gpx, args.regions, args.style)
    manifest["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(manifest))


if __name__ == "__main__":
    main()
