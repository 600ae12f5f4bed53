"""Sustained ingest: NMEA from a local TCP feeder through a real gpsd into `waymark serve`'s store.

Usage: /usr/bin/python3 Benchmarks/ingest.py WAYMARK LOG [--repeat N]
Feeds LOG (a gpsd regression log) N times back to back to `gpsd -N -b tcp://127.0.0.1:FEED`,
runs `WAYMARK serve --gpsd 127.0.0.1:PORT` on a fresh database, polls the fixes table until it
stops growing, then measures API latency on the running daemon (`waymark bench api`), and
prints JSON objects: fixes recorded, seconds from first to last fix, fixes/s; then p50/p99.
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

def serve_feed():
    connection, _ = feed.accept()
    connection.sendall(payload)
    time.sleep(3600)

threading.Thread(target=serve_feed, daemon=True).start()
work = tempfile.mkdtemp(prefix="waymark-ingest-")
db, sock, port = os.path.join(work, "w.sqlite"), os.path.join(work, "api.sock"), free_port()
gpsd = subprocess.Popen(["gpsd", "-N", "-b", "-S", str(port), f"tcp://127.0.0.1:{feed_port}"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", f"127.0.0.1:{port}", "--db", db, "--socket", sock,
                           "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
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
    first = next(s for s in samples if s[1] > 0)
    fixes, seconds = samples[-1][1] - first[1], samples[-1][0] - first[0]
    print(json.dumps({"benchmark": "ingest", "log": os.path.basename(args.log), "repeat": args.repeat,
                      "fixes_recorded": samples[-1][1], "seconds": round(seconds, 3),
                      "fixes_per_second": round(fixes / seconds) if seconds > 0 else None}))
    subprocess.run([args.waymark, "bench", "api", "--socket", sock, "--count", str(args.api_count)], check=True)
finally:
    daemon.terminate(); daemon.wait(10)
    gpsd.terminate(); gpsd.wait(10)
