"""The highest rate at which every fix gpsd reports reaches Waymark's store, and API latency under it.

Usage: /usr/bin/python3 Benchmarks/gpsd_rate.py WAYMARK [--track GPX] [--rates 1000,2000,...]
                                                [--seconds 10] [--api-count 1000] [--distance-filter 100]

For each rate, a fresh set-up: a local TCP feeder, a real `gpsd -N -b` reading it, `WAYMARK serve
--gpsd` recording into a fresh SpatiaLite file, and `gpspipe -w` on the same gpsd writing what
gpsd reported to a file. The feeder turns the track's points into one NMEA epoch each (a GGA and
an RMC with the same time, one second after the previous epoch's from now on, so time never goes
backwards)
and sends them paced at the rate for --seconds. Two seconds in, `WAYMARK bench api` measures
`/v1/status` and `/v1/fixes/last` (taken in turn, a new connection per request) while the fixes
keep coming. One running handler (Benchmarks/ack_handler.py) is subscribed to standard updates
with --distance-filter metres and a desired accuracy of 100 m (the feeder's HDOP 0.9 gives gpsd an
error estimate of 17 m, more than the default best accuracy allows): its events' latency, queued (handler_events.queued_ns, written
before delivery) to received by the handler, is measured under the same load (the first event,
which launches it, left out). Prints one JSON object per rate — epochs sent, fixes gpsd reported (TPV with
mode >= 2; one more than sent, the first before its date is known), fixes recorded, whether every one arrived, the API percentiles — then a summary with
the highest rate at which every fix sent was reported by gpsd and recorded by Waymark.
"""
import argparse, datetime, json, os, shutil, socket, sqlite3, subprocess, tempfile, threading, time
import xml.etree.ElementTree as ElementTree

from benchkit import free_port, percentile

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--track", default=os.path.join(os.path.dirname(__file__), "../../shared/data/gpx/bikeride.gpx"))
parser.add_argument("--rates", default="1000,2000,5000,10000,20000")
parser.add_argument("--seconds", type=float, default=10)
parser.add_argument("--api-count", type=int, default=1000, help="requests per path under load")
parser.add_argument("--distance-filter", type=float, default=100, help="the handler's standard updates")
args = parser.parse_args()


def track_points(path):
    """(lat, lon, elevation) of every trkpt, in order. The shared tracks are trusted files."""
    points = []
    for element in ElementTree.parse(path).iter():
        if element.tag.endswith("trkpt"):
            elevation = next((child.text for child in element if child.tag.endswith("ele")), None)
            points.append((float(element.get("lat")), float(element.get("lon")), float(elevation or 0)))
    if not points:
        raise SystemExit(f"{path}: no track points")
    return points


def sentence(body):
    checksum = 0
    for byte in body.encode("ascii"):
        checksum ^= byte
    return f"${body}*{checksum:02X}\r\n"


def angle(value, degree_digits, positive, negative):
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    return f"{degrees:0{degree_digits}d}{(value - degrees) * 60:07.4f}", hemisphere


def epoch(point, moment):
    """One GGA and one RMC for `point` at `moment` (UTC)."""
    lat, lat_h = angle(point[0], 2, "N", "S")
    lon, lon_h = angle(point[1], 3, "E", "W")
    clock, date = moment.strftime("%H%M%S.00"), moment.strftime("%d%m%y")
    gga = sentence(f"GPGGA,{clock},{lat},{lat_h},{lon},{lon_h},1,08,0.9,{point[2]:.1f},M,47.0,M,,")
    rmc = sentence(f"GPRMC,{clock},A,{lat},{lat_h},{lon},{lon_h},5.0,90.0,{date},,,A")
    return (gga + rmc).encode("ascii")


def gpsd_fixes(path):
    """(fixes gpsd reported, of which with a time). The very first report has none: a GGA
    carries no date, so gpsd reports its position before the RMC that dates it."""
    fixes = timed = 0
    for line in open(path, "rb"):
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if report.get("class") == "TPV" and report.get("mode", 0) >= 2 and "lat" in report:
            fixes += 1
            timed += "time" in report
    return fixes, timed


def handler_latency(db, out):
    """queued -> received (ms) of the handler's first deliveries, the launching event left out."""
    deadline = time.monotonic() + 10  # the handler writes its receipts when it gets SIGTERM
    while not os.path.exists(out) and time.monotonic() < deadline:
        time.sleep(0.05)
    if not os.path.exists(out):
        return {"events": 0}
    connection = sqlite3.connect(db)
    queued = dict(connection.execute("SELECT id, queued_ns FROM handler_events"))
    connection.close()
    receipts = [json.loads(line) for line in open(out)]
    delays = [(r["receivedAt"] * 1e9 - queued[r["id"]]) / 1e6 for r in receipts[1:]
              if r["attempt"] == 1 and r["id"] in queued]
    return {"events": len(delays), "queued": len(queued),
            "p50_ms": round(percentile(delays, 0.5), 2) if delays else None,
            "p99_ms": round(percentile(delays, 0.99), 2) if delays else None}


def recorded(db):
    try:
        connection = sqlite3.connect(db)
        try:
            return connection.execute("SELECT count(*) FROM fixes").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error:
        return None


def run(rate, points):
    epochs = int(rate * args.seconds)
    # From now on: the first report (no date yet) is stamped on arrival by the daemon, and a
    # fix earlier than that one would be dropped by every gate as going back in time.
    start_time = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) + datetime.timedelta(seconds=2)
    payload = [epoch(points[i % len(points)], start_time + datetime.timedelta(seconds=i)) for i in range(epochs)]
    work = tempfile.mkdtemp(prefix="waymark-rate-")
    home = os.path.join(work, "home")
    os.makedirs(home)
    # gpspipe's copy of every report (tens of MB) goes to memory when it can: it is the harness's
    # reference count, and its writes should not compete with the store's fsyncs on the disk.
    scratch = tempfile.mkdtemp(prefix="waymark-rate-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    db, sock, reports = os.path.join(work, "w.sqlite"), os.path.join(work, "api.sock"), os.path.join(scratch, "gpspipe.json")

    feed = socket.socket()
    feed.bind(("127.0.0.1", 0))
    feed.listen(1)
    clients_ready, sent_all = threading.Event(), threading.Event()
    sending = {}

    def serve_feed():
        connection, _ = feed.accept()
        clients_ready.wait(30)
        began = time.monotonic()
        sending["began"] = began
        next_epoch = 0
        while next_epoch < epochs:
            due = min(epochs, int((time.monotonic() - began) * rate) + 1)
            if due > next_epoch:
                connection.sendall(b"".join(payload[next_epoch:due]))
                next_epoch = due
            time.sleep(0.002)
        sending["seconds"] = time.monotonic() - began
        sent_all.set()
        time.sleep(3600)

    threading.Thread(target=serve_feed, daemon=True).start()
    port = free_port()
    gpsd = subprocess.Popen(["gpsd", "-N", "-b", "-S", str(port), f"tcp://127.0.0.1:{feed.getsockname()[1]}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    watcher = subprocess.Popen(["gpspipe", "-w", "-o", reports, f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = os.path.join(work, "probe.jsonl")
    subprocess.run([args.waymark, "handlers", "add", "probe", "--exec",
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "ack_handler.py"), "--standard",
                    "--distance-filter", str(args.distance_filter), "--desired-accuracy", "100", "--budget", "600", "--max-background-time", "600",
                    "--db", db, "--", "--out", probe], check=True, capture_output=True)
    environment = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=os.path.join(work, "run"))
    os.makedirs(environment["XDG_RUNTIME_DIR"], mode=0o700)
    daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", f"127.0.0.1:{port}", "--db", db, "--socket", sock,
                               "--log-level", "warning"], env=environment,
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
    api = []
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(sock) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # the daemon's gpsd client connects and watches right after start-up
        clients_ready.set()
        time.sleep(min(2.0, args.seconds / 4))
        result = subprocess.run([args.waymark, "bench", "api", "--socket", sock, "--count", str(args.api_count)],
                                check=True, capture_output=True, text=True)
        api = [json.loads(line) for line in result.stdout.splitlines()]
        api_finished = time.monotonic()
        sent_all.wait(args.seconds * 10 + 60)
        # Settled: the fixes table has not grown for two seconds.
        last, last_change = None, time.monotonic()
        while time.monotonic() - last_change < 2:
            time.sleep(0.1)
            count = recorded(db)
            if count != last:
                last, last_change = count, time.monotonic()
        watcher.terminate(); watcher.wait(10)
        reported, timed = gpsd_fixes(reports)
        lost_connection = "closed the connection" in open(os.path.join(work, "daemon.log")).read()
        daemon.terminate(); daemon.wait(30)
        handler = handler_latency(db, probe)
        return {"benchmark": "gpsd_rate", "rate": rate, "seconds": round(sending["seconds"], 2),
                "sent": epochs, "gpsd_reported": reported, "gpsd_reported_with_time": timed, "recorded": last,
                "every_fix_recorded": last == reported and timed == epochs, "gpsd_dropped_daemon": lost_connection,
                "api_under_load": api_finished < sending["began"] + sending.get("seconds", float("inf")),
                "api": {row["path"]: {"p50_ms": row["p50_ms"], "p99_ms": row["p99_ms"]} for row in api},
                "handler": handler}
    finally:
        daemon.terminate(); daemon.wait(10)
        watcher.kill()
        gpsd.terminate(); gpsd.wait(10)
        feed.close()
        shutil.rmtree(scratch, ignore_errors=True)


points = track_points(args.track)
best = None
for rate in (int(r) for r in args.rates.split(",")):
    row = run(rate, points)
    print(json.dumps(row), flush=True)
    if row["every_fix_recorded"]:
        best = rate
print(json.dumps({"benchmark": "gpsd_rate", "summary": True, "track": os.path.basename(args.track),
                  "highest_rate_every_fix_recorded": best}))
