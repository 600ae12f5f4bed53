"""Many OwnTracks devices over MQTT with many regions: every fix stored, every transition reported
once, and the latencies publish -> commit (fixes) and fix -> event (transitions).

Usage: /usr/bin/python3 Benchmarks/mqtt_ingest.py WAYMARK [--devices 10000] [--regions 10000]
                          [--interval 5] [--seconds 60] [--margin 3] [--seed 1]

Issue 15's figure is `--devices 10000 --regions 10000 --interval 5 --seconds 600`: 10,000 devices,
one fix each every 5 s for 10 minutes, 10,000 regions; every fix stored, every transition the
oracle expects reported once, fix -> event p99 <= 50 ms.

Set-up. A real mosquitto (Debian's) on a free port and a real `WAYMARK serve --mqtt` over a fresh
store; the devices' rows are written straight into it (as Benchmarks/http_ingest.py does). Each
device moves along a straight line in longitude/latitude, from a start point in a box around
47.3 N 8.6 E (54 km across for 10,000 devices; smaller runs shrink it to keep the same density),
with its own heading and a speed of 3-10 m/s: 15-50 m between fixes. The --regions circles,
radius 100-300 m (at least 30 s of its device's travel, so it spends over 50 s inside), are
written as one GeoJSON FeatureCollection and imported with `WAYMARK regions import FILE --db DB`.
Each sits at a random point of a random device's path during the run: 70 % across the path
(centre at most half the radius off it), 30 % beside it (10-150 m beyond the radius: near
misses). Other devices cross them by chance as well. Each radius is then nudged (by at most 15 %)
so that as few of the planned fixes as possible lie within --margin of its boundary. All of it
is drawn from --seed.

Load. One paho-mqtt client publishes, paced, each device's next position every --interval seconds
(QoS 1, to `owntracks/dN/dN` as the app does, `acc` 5 m), for --seconds. Each `tst` is its
publish time with milliseconds. The script keeps every (tst, lat, lon) it published.

Measured, once publishing has ended and the fixes are stored (or 120 s have passed):
- fixes: rows in `fixes` for the devices against those published (`every_fix_stored`), and
  `publish_to_commit_ms`: a fix's arrival on the live stream (`/v1/stream`) minus its `tst`;
- transitions: the store's `events` rows of kind `region`, per device, against the oracle:
  expected, reported, missing, extra, duplicated (matched on region, enter/exit and the time of
  the first fix on the new side, to the millisecond). `every_transition_once` is true when they
  agree exactly on every checked pair, null when no transition could be checked (runs under
  about a minute: a crossing needs 20 s to confirm);
- `fix_to_event_ms`: a region event's `time` is the first fix on the new side, but it is
  reported only when a later fix confirms it (docs/semantics.md §3.3), and its `confirmedAt` is
  that fix's `tst`, i.e. its publish time. So the latency is the event's arrival on the stream
  minus its `confirmedAt`. (Arrival minus `time` would mostly measure the 20 s hold.)
- `setup_s`: seconds spent generating the regions, importing them, and running the oracle;
  `daemon_peak_rss_mb`: the daemon's peak resident memory (VmHWM).

The oracle (this file alone; nothing of Waymark's). From the positions as published, with the
haversine distance on a sphere of the mean Earth radius, a device is inside a circle when its
distance to the centre is less than the radius. Per device and region, the first fix only sets
the state (no event at registration, §3.2); after it, each change of side between consecutive
fixes is one expected `enter` or `exit`, at the time of the first fix on the new side. Waymark
confirms a change only after hysteresis (§3.3), so a (device, region) pair is checked only when
all its crossings are unambiguous, i.e. this plain count and those rules must agree:
- no fix is within --margin metres of the boundary. The margin covers the difference between
  the haversine and Waymark's WGS84 geodesic distance (under 0.3 % at this latitude: 1 m at
  345 m) and rounding. It can be small because a fix's own accuracy matters only when it
  confirms, which the next rule covers; 25 m would leave out nearly every crossing, as one of
  the two fixes either side of a boundary is within half a step (<= 25 m) of it;
- every change of side is followed, before any fix back on the old side, by a fix on the new
  side that plainly confirms it: >= 20 s + 1 s after the change and >= max(hysteresis, 5 m
  accuracy) + --margin past the boundary (hysteresis = min(200 m, radius / 5)), or >= 60 s + 1 s
  after it and >= 5 m + --margin past (the hysteresis is waived after 60 s). The one exception:
  a change still under 19 s old at the last fix is pending when the run ends; nothing may be
  reported for it, and the pair is still checked.
Pairs that fail are counted by reason (`near_boundary`, `brief_or_shallow_crossing`), and
events on them (`unchecked_events`) are not judged. A whole device is left out if two of its
consecutive fixes would trip a rule the oracle does not model: the region gate's speed bound
(60 m/s, e.g. after the publisher stalled and caught up) or sparse fixes (>= 30 s and >= 200 m
apart, which Waymark interpolates). Pairs come from a grid of cells holding each region's disc
widened by its hysteresis and margin, so the oracle costs a few distances per fix rather than
devices x regions.

Prints one JSON object; `examples` lists up to 5 (device, region, transition, time ms) of each
kind of disagreement.
"""
import argparse, bisect, datetime, json, math, os, random, shutil, socket, sqlite3, subprocess, tempfile, threading, time
from collections import Counter, defaultdict

import paho.mqtt.client as mqtt

from benchkit import add_devices, free_port, percentile, stop

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--devices", type=int, default=10000)
parser.add_argument("--regions", type=int, default=10000)
parser.add_argument("--interval", type=float, default=5)
parser.add_argument("--seconds", type=float, default=60)
parser.add_argument("--margin", type=float, default=3, help="metres: no checked fix this close to a boundary")
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()

EARTH = 6371008.8           # mean Earth radius, metres (haversine)
METRES_PER_DEGREE = EARTH * math.pi / 180
CENTRE = (47.3, 8.6)        # latitude, longitude of the box the devices start in
HOLD, SETTLE, SLACK = 20.0, 60.0, 1.0   # docs/semantics.md §3.3 confirmation and settle times; our slack
MAX_SPEED = 60.0            # the region engine's gate (activity `other`), m/s
SPARSE_SECONDS, SPARSE_METRES = 30.0, 200.0
ACCURACY = 5                # the `acc` every fix reports, metres


def wait_for(predicate, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(a)))


def hysteresis(radius):
    """Waymark's default hysteresis for a circle (docs/semantics.md §3.3)."""
    return min(200.0, radius / 5)


# --- Devices and regions -------------------------------------------------------------------------

class Device:
    """A straight path: start point, per-fix step in degrees (constant heading and speed)."""

    def __init__(self, rng, half_km):
        self.speed = rng.uniform(3, 10)
        self.heading = rng.uniform(0, 360)
        self.lat0 = CENTRE[0] + rng.uniform(-half_km, half_km) * 1000 / METRES_PER_DEGREE
        self.lon0 = CENTRE[1] + rng.uniform(-half_km, half_km) * 1000 / (METRES_PER_DEGREE * math.cos(math.radians(CENTRE[0])))
        step = self.speed * args.interval
        self.dlat = step * math.cos(math.radians(self.heading)) / METRES_PER_DEGREE
        self.dlon = step * math.sin(math.radians(self.heading)) / (METRES_PER_DEGREE * math.cos(math.radians(self.lat0)))

    def position(self, lap):
        """Where the device is at its fix number `lap` (fractional laps lie on the path too)."""
        return self.lat0 + lap * self.dlat, self.lon0 + lap * self.dlon


def make_regions(rng, devices, planned, path):
    """--regions circles on or beside the devices' paths; writes them as one FeatureCollection.

    Each radius is then nudged (within 15 %) so that as few planned fixes as can be, of any
    device, lie within --margin of the circle: the oracle leaves such pairs out."""
    regions = []   # [identifier, latitude, longitude, radius]
    laps = len(next(iter(planned.values())))
    for k in range(args.regions):
        device = devices[rng.randrange(len(devices))]
        lat, lon = device.position(rng.uniform(0, max(laps - 2, 0)))
        radius = rng.uniform(max(100.0, 30 * device.speed), 300.0)   # a fast device still spends > 50 s inside
        off = rng.uniform(0, 0.5) * radius if rng.random() < 0.7 else radius + rng.uniform(10, 150)
        bearing = math.radians(device.heading + rng.choice((-90, 90)))   # perpendicular to the heading
        lat += off * math.cos(bearing) / METRES_PER_DEGREE
        lon += off * math.sin(bearing) / (METRES_PER_DEGREE * math.cos(math.radians(lat)))
        regions.append([f"r{k}", round(lat, 7), round(lon, 7), round(radius, 1)])
    # Distances from each region's centre to the planned fixes near its boundary.
    near = defaultdict(list)
    grid = region_grid(regions, lambda radius: 1.15 * radius + args.margin + 1)
    for fixes in planned.values():
        for lat, lon in fixes:
            for index in grid.get(cell(lat, lon), ()):
                _, clat, clon, radius = regions[index]
                distance = haversine(lat, lon, clat, clon)
                if 0.85 * radius - args.margin - 1 <= distance <= 1.15 * radius + args.margin + 1:
                    near[index].append(distance)
    nudged = 0
    for index, distances in near.items():
        radius = regions[index][3]
        distances.sort()
        # Fixes within the margin of a circle of radius r; the radius with fewest wins, then the nearest.
        conflicts = lambda r: bisect.bisect_left(distances, r + args.margin + 0.1) - bisect.bisect_right(distances, r - args.margin - 0.1)
        candidates = [radius] + [round(d + s * (args.margin + 0.2), 1) for d in distances for s in (-1, 1)]
        best = min((r for r in candidates if 0.85 * radius <= r <= 1.15 * radius), key=lambda r: (conflicts(r), abs(r - radius)))
        if best != radius:
            regions[index][3] = best
            nudged += 1
    with open(path, "w") as out:
        json.dump({"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": identifier, "properties": {"radius": radius},
             "geometry": {"type": "Point", "coordinates": [lon, lat]}} for identifier, lat, lon, radius in regions]}, out)
    return [tuple(region) for region in regions], nudged


# --- The oracle ----------------------------------------------------------------------------------

CELL_LAT = 0.005   # grid cell, degrees (about 560 m x 380 m here)
CELL_LON = 0.005


def cell(lat, lon):
    return int(math.floor(lat / CELL_LAT)), int(math.floor(lon / CELL_LON))


def region_grid(regions, reach):
    """cell -> indices of the regions whose disc of radius reach(radius) touches it."""
    grid = defaultdict(list)
    for index, (_, lat, lon, radius) in enumerate(regions):
        dlat = reach(radius) / METRES_PER_DEGREE
        dlon = reach(radius) / (METRES_PER_DEGREE * math.cos(math.radians(lat)))
        (a, b), (c, d) = cell(lat - dlat, lon - dlon), cell(lat + dlat, lon + dlon)
        for i in range(a, c + 1):
            for j in range(b, d + 1):
                grid[(i, j)].append(index)
    return grid


def oracle(regions, published):
    """Per device: the expected transitions {(region, 'enter'|'exit', time_ms)} of the pairs it
    can check, and those pairs; plus the devices left out and why, and counts of pairs."""
    # Beyond radius + hysteresis + margin a fix is plainly outside: no need to measure it.
    grid = region_grid(regions, lambda radius: radius + hysteresis(radius) + args.margin + 1)
    expected, checked_pairs, left_out = {}, {}, Counter()
    pairs = Counter()
    for device, fixes in published.items():
        # The gate and the sparse rule would make this device's stream differ from the fixes.
        if any(haversine(a[1], a[2], b[1], b[2]) > MAX_SPEED * (b[0] - a[0]) / 1000 for a, b in zip(fixes, fixes[1:])):
            left_out["gate"] += 1
            continue
        if any(b[0] - a[0] >= SPARSE_SECONDS * 1000 and haversine(a[1], a[2], b[1], b[2]) >= SPARSE_METRES
               for a, b in zip(fixes, fixes[1:])):
            left_out["sparse"] += 1
            continue
        near = defaultdict(dict)   # region -> {fix number: distance} for fixes within its reach
        for n, (_, lat, lon) in enumerate(fixes):
            for index in grid.get(cell(lat, lon), ()):
                _, clat, clon, radius = regions[index]
                distance = haversine(lat, lon, clat, clon)
                if distance <= radius + hysteresis(radius) + args.margin:
                    near[index][n] = distance
        mine, clear = set(), set()
        for index, distances in near.items():
            radius = regions[index][3]
            verdict = judge(fixes, distances, radius)
            pairs[verdict[0]] += 1
            if verdict[0] != "checked":
                continue
            clear.add(regions[index][0])
            mine.update((regions[index][0], kind, at) for kind, at in verdict[1])
        expected[device], checked_pairs[device] = mine, clear
    return expected, checked_pairs, left_out, pairs


def judge(fixes, distances, radius):
    """('checked', [(kind, time_ms)…]) for an unambiguous pair, else (reason, None). A fix absent
    from `distances` is farther than radius + hysteresis + margin: plainly outside."""
    depth = lambda n: abs(distances[n] - radius) if n in distances else float("inf")
    inside = [n in distances and distances[n] < radius for n in range(len(fixes))]
    if any(abs(d - radius) < args.margin for d in distances.values()):
        return "near_boundary", None
    changes = []
    for n in range(1, len(fixes)):
        if inside[n] == inside[n - 1]:
            continue
        start, m = fixes[n][0], n
        while m < len(fixes) and inside[m] == inside[n]:
            held = (fixes[m][0] - start) / 1000
            if (held >= HOLD + SLACK and depth(m) >= max(hysteresis(radius), ACCURACY) + args.margin) or \
               (held >= SETTLE + SLACK and depth(m) >= ACCURACY + args.margin):
                break   # plainly confirmed by fix m
            m += 1
        else:
            if m == len(fixes) and (fixes[-1][0] - start) / 1000 < HOLD - SLACK:
                return "checked", changes   # still pending when the run ends: nothing may be reported
            return "brief_or_shallow_crossing", None
        changes.append(("enter" if inside[n] else "exit", start))
    return "checked", changes


def compare(expected, checked_pairs, reported):
    """Per checked device, the expected transitions against the stored ones (on its checked pairs)."""
    totals = Counter()
    examples = {"missing": [], "extra": [], "duplicated": []}
    for device, want in expected.items():
        got = Counter(r for r in reported.get(device, ()) if r[0] in checked_pairs[device])
        totals["expected"] += len(want)
        totals["reported"] += sum(got.values())
        for key in want - set(got):
            totals["missing"] += 1
            examples["missing"].append((device, *key))
        for key, count in got.items():
            if key not in want:
                totals["extra"] += count
                examples["extra"].append((device, *key))
            elif count > 1:
                totals["duplicated"] += count - 1
                examples["duplicated"].append((device, *key))
    for device, events in reported.items():
        totals["unchecked_events"] += sum(1 for r in events if device not in checked_pairs or r[0] not in checked_pairs[device])
    return totals, {k: sorted(v)[:5] for k, v in examples.items() if v}


# --- The run -------------------------------------------------------------------------------------

def main():
    rng = random.Random(args.seed)
    laps = int(math.ceil(args.seconds / args.interval))
    half_km = max(3.0, 27 * math.sqrt(max(args.devices, args.regions) / 10000))   # same density at any scale
    devices = [Device(rng, half_km) for _ in range(args.devices)]
    work = tempfile.mkdtemp(prefix="waymark-mqtt-")
    processes = []
    try:
        began = time.monotonic()
        geojson = os.path.join(work, "regions.geojson")
        planned = {f"d{i}": [tuple(round(x, 7) for x in device.position(lap)) for lap in range(laps + 1)]
                   for i, device in enumerate(devices)}
        regions, nudged = make_regions(rng, devices, planned, geojson)
        del planned
        generation_s = time.monotonic() - began

        broker_port = free_port()
        with open(os.path.join(work, "mosquitto.conf"), "w") as out:
            out.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n")
        processes.append(subprocess.Popen(["/usr/sbin/mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        db = os.path.join(work, "w.sqlite")
        began = time.monotonic()
        subprocess.run([args.waymark, "regions", "import", geojson, "--db", db], check=True, capture_output=True)
        import_s = time.monotonic() - began
        connection = sqlite3.connect(db)
        imported = connection.execute("SELECT count(*) FROM regions").fetchone()[0]
        if imported != args.regions:
            raise SystemExit(f"imported {imported} regions of {args.regions}")
        connection.close()
        add_devices(db, args.devices)  # MQTT devices need no secret: the broker authenticates them
        socket_path = os.path.join(work, "api.sock")
        log = os.path.join(work, "daemon.log")
        daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", socket_path,
                                   "--mqtt", f"127.0.0.1:{broker_port}"], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        processes.append(daemon)
        wait_for(lambda: "MQTT connected" in open(log).read(), "the daemon's MQTT subscription", timeout=120)
        fix_latencies, event_latencies = [], []

        def read_stream():
            """Fixes: arrival minus their time (the publish time). Region events: arrival minus
            `confirmedAt`, the time of the fix that confirmed them (also a publish time)."""
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.connect(socket_path)
            connection.sendall(b"GET /v1/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
            pending = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                arrived = time.time()
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.startswith(b"data: {\"kind\":\"fix\""):
                        fix_latencies.append((arrived - seconds(json.loads(line[6:])["time"])) * 1000)
                    elif line.startswith(b"data: {\"kind\":\"region\""):
                        record = json.loads(line[6:])
                        if record.get("transition") in ("enter", "exit") and "confirmedAt" in record:
                            event_latencies.append((arrived - seconds(record["confirmedAt"])) * 1000)
        threading.Thread(target=read_stream, daemon=True).start()
        time.sleep(1)

        client = mqtt.Client(client_id="bench-publisher", clean_session=True)
        client.max_inflight_messages_set(2000)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", broker_port)
        client.loop_start()
        published = {f"d{i}": [] for i in range(args.devices)}   # device -> [(tst ms, lat, lon)] as sent
        rate = args.devices / args.interval
        began = time.time()
        sent = 0
        while True:
            now = time.time()
            if now - began >= args.seconds:
                break
            due = int((now - began) * rate)
            while sent < due:
                number = sent % args.devices
                lat, lon = devices[number].position(sent // args.devices)
                lat, lon, tst = round(lat, 7), round(lon, 7), round(time.time(), 3)
                name = f"d{number}"
                body = json.dumps({"_type": "location", "lat": lat, "lon": lon, "tst": tst, "acc": ACCURACY,
                                   "vel": round(devices[number].speed * 3.6), "cog": round(devices[number].heading)})
                client.publish(f"owntracks/{name}/{name}", body, qos=1)
                published[name].append((round(tst * 1000), lat, lon))
                sent += 1
            time.sleep(0.002)
        client.loop_stop()
        client.disconnect()
        elapsed = time.time() - began

        def stored():
            c = sqlite3.connect(db)
            try:
                return c.execute("SELECT count(*) FROM fixes WHERE device <> 'local'").fetchone()[0]
            finally:
                c.close()
        deadline = time.monotonic() + 120
        while stored() < sent and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)   # events commit with their fixes; this lets the stream catch up
        count = stored()
        try:   # the daemon's peak resident memory
            with open(f"/proc/{daemon.pid}/status") as status:
                peak_mb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) // 1024
        except (OSError, StopIteration):
            peak_mb = None   # it has exited (daemon_exit says how)
        c = sqlite3.connect(db)
        reported = defaultdict(list)   # device -> [(region, transition, time ms)]
        kinds = Counter()
        for device, region, transition, time_ns in c.execute(
                "SELECT device, region, transition, time_ns FROM events WHERE kind = 'region' AND device <> 'local'"):
            reported[device].append((region, transition, round(time_ns / 1e6)))
            kinds[transition] += 1
        c.close()

        began = time.monotonic()
        expected, checked_pairs, left_out, pairs = oracle(regions, published)
        totals, examples = compare(expected, checked_pairs, reported)
        oracle_s = time.monotonic() - began
        ms = lambda values, q: round(percentile(values, q), 1) if values else None
        result = {
            "benchmark": "mqtt_ingest", "devices": args.devices, "regions": args.regions, "interval": args.interval,
            "seconds": round(elapsed, 1), "published": sent, "stored": count, "every_fix_stored": count == sent,
            "streamed": len(fix_latencies),
            "publish_to_commit_ms": {"p50": ms(fix_latencies, 0.5), "p99": ms(fix_latencies, 0.99)},
            "transitions": {
                "checked_devices": len(expected), "devices_left_out": dict(left_out),
                "pairs": dict(pairs), "expected": totals["expected"], "reported": totals["reported"],
                "missing": totals["missing"], "extra": totals["extra"], "duplicated": totals["duplicated"],
                "unchecked_events": totals["unchecked_events"], "stored_by_kind": dict(kinds)},
            "every_transition_once": (totals["missing"] == totals["extra"] == totals["duplicated"] == 0)
            if totals["expected"] else None,
            "events_streamed": len(event_latencies),
            "fix_to_event_ms": {"p50": ms(event_latencies, 0.5), "p99": ms(event_latencies, 0.99)},
            "daemon_peak_rss_mb": peak_mb, "daemon_exit": daemon.poll(), "regions_nudged": nudged,
            "setup_s": {"generate_regions": round(generation_s, 2), "import_regions": round(import_s, 2),
                        "oracle": round(oracle_s, 2)}}
        if examples:
            result["examples"] = examples   # (device, region, transition, time ms), up to 5 of each
        print(json.dumps(result))
    finally:
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(work, ignore_errors=True)


def seconds(stamp):
    """An RFC 3339 time (as the stream writes it, with up to nanoseconds) in seconds since 1970."""
    whole, _, fraction = stamp.rstrip("Z").partition(".")
    base = datetime.datetime.fromisoformat(whole).replace(tzinfo=datetime.timezone.utc).timestamp()
    return base + (float("0." + fraction) if fraction else 0.0)


main()
