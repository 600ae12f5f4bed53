"""Sustained ingest: NMEA from a local TCP feeder through a real gpsd into `waymark serve`'s store.

Usage: /usr/bin/python3 Benchmarks/ingest.py WAYMARK LOG [--repeat N] [--api-count N]
Feeds LOG (a gpsd regression log) N times back to back to `gpsd -N -b tcp://127.0.0.1:FEED`,
runs `WAYMARK serve --gpsd 127.0.0.1:PORT` on a fresh database, and beside it `gpspipe -w` on the
same gpsd, which counts the TPV reports gpsd emitted (with mode >= 2: the fixes). While the fixes
pour in, `waymark bench api` measures API latency on the daemon (under load); once the fixes
table stops growing, it measures again (at rest, the same-run baseline). Prints JSON objects:
fixes recorded against gpsd's fixes, seconds from first to last fix, fixes/s; then p50/p99 per
path under load and at rest.
"""
import argparse, json, os, socket, sqlite3, subprocess, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("log")
parser.add_argument("--repeat", type=int, default=20)
parser.add_argument("--api-count", type=int, default=2000)
args = parser.parse_args()

lines = [l for l in open(args.log, "rb").read().splitlines(keepends=True) if l.strip() and not l.startswith(b"#")]
payload = b"".join(lines) * args.repeat

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

feed = socket.socket()
feed.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
feed.bind(("127.0.0.1", 0))
feed.listen(1)
feed_port = feed.getsockname()[1]

# gpsd opens the feed when its first client watches, and reports only what arrives after each
# client connected: the feed waits until both clients (the daemon and gpspipe) are watching.
clients_ready = threading.Event()

def serve_feed():
    connection, _ = feed.accept()
    clients_ready.wait(30)
    connection.sendall(payload)
    time.sleep(3600)

threading.Thread(target=serve_feed, daemon=True).start()
work = tempfile.mkdtemp(prefix="waymark-ingest-")
db, sock, port = os.path.join(work, "w.sqlite"), os.path.join(work, "api.sock"), free_port()
gpsd = subprocess.Popen(["gpsd", "-N", "-b", "-S", str(port), f"tcp://127.0.0.1:{feed_port}"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
# A second client of the same gpsd, writing straight to a file (no Python in its loop, so it
# keeps up): what gpsd reported, to check the daemon recorded every fix.
reports = os.path.join(work, "gpspipe.json")
watcher = subprocess.Popen(["gpspipe", "-w", "-o", reports, "127.0.0.1:" + str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def reported():
    counts = {"fixes": 0, "no_fix": 0}
    for line in open(reports, "rb"):
        try:
            report = json.loads(line)
        except ValueError:
            continue
        if report.get("class") == "TPV":
            fix = report.get("mode", 0) >= 2 and "lat" in report and "lon" in report
            counts["fixes" if fix else "no_fix"] += 1
    return counts
time.sleep(0.3)
daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", f"127.0.0.1:{port}", "--db", db, "--socket", sock,
                           "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
def bench_api(label):
    result = subprocess.run([args.waymark, "bench", "api", "--socket", sock, "--count", str(args.api_count)],
                            check=True, capture_output=True, text=True)
    for line in result.stdout.splitlines():
        row = json.loads(line)
        row["load"] = label
        print(json.dumps(row), flush=True)

under_load = None
try:
    deadline = time.monotonic() + 30
    while not os.path.exists(sock) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the daemon's gpsd client connects and watches right after start-up
    clients_ready.set()
    samples = []  # (wall time, fixes)
    last_change = time.monotonic()
    while time.monotonic() - last_change < 3:
        time.sleep(0.1)
        try:
            count = sqlite3.connect(db).execute("SELECT count(*) FROM fixes").fetchone()[0]
        except sqlite3.Error:
            continue
        if not samples or count != samples[-1][1]:
            samples.append((time.monotonic(), count))
            last_change = time.monotonic()
        if under_load is None and count > 0 and os.path.exists(sock):
            under_load = threading.Thread(target=bench_api, args=("during ingest",))
            under_load.start()
    if under_load is not None:
        under_load.join()
    first = next(s for s in samples if s[1] > 0)
    fixes, seconds = samples[-1][1] - first[1], samples[-1][0] - first[0]
    watcher.terminate(); watcher.wait(10)
    gpsd_counts = reported()
    print(json.dumps({"benchmark": "ingest", "log": os.path.basename(args.log), "repeat": args.repeat,
                      "fixes_recorded": samples[-1][1], "gpsd_reported_fixes": gpsd_counts["fixes"],
                      "gpsd_reported_no_fix": gpsd_counts["no_fix"],
                      "every_reported_fix_recorded": samples[-1][1] == gpsd_counts["fixes"],
                      "seconds": round(seconds, 3),
                      "fixes_per_second": round(fixes / seconds) if seconds > 0 else None}))
    bench_api("at rest")
finally:
    daemon.terminate(); daemon.wait(10)
    watcher.kill()
    gpsd.terminate(); gpsd.wait(10)
