#!/usr/bin/python3
"""Handler benchmarks against a real `waymark serve` (docs/handlers.md, BENCHMARKS.md).

1. latency: one running handler subscribed to standard updates; the replay feeds fixes at
   --rate per second; latency = the handler's receipt time minus the time the event was queued
   (handler_events.queued_ns, written before delivery). Reports p50 / p99 / max.
2. cold launch: the handler exits on suspend with a 0.3 s budget and events come 1.5 s apart,
   so every event launches a new process; reports event queued -> first receipt, p50 / p99.
3. fan-out: N handlers (default 100) all subscribed to standard updates; the replay runs as
   fast as it can; reports events per second from the first event queued to the last one
   acknowledged, and the p50 / p99 of queued -> acknowledged.

Usage: Benchmarks/handlers.py .build/release/waymark [--handlers 100] [--fixes 300]
Prints one JSON object per measurement.
"""
import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDLER = os.path.join(ROOT, "examples", "handlers", "event_logger.py")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def track(path, fixes, spacing=1):
    """A straight walk north from Zurich, one fix per `spacing` seconds."""
    with open(path, "w") as out:
        out.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        for i in range(fixes):
            t = i * spacing
            out.write('<trkpt lat="%.7f" lon="8.5"><time>2026-06-03T%02d:%02d:%02dZ</time></trkpt>\n'
                      % (47.3 + i * 2 * spacing / 111_200, 10 + t // 3600, (t // 60) % 60, t % 60))
        out.write("</trkseg></trk></gpx>\n")


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw)


def serve(waymark, folder, gpx, speed):
    command = [waymark, "serve", "--replay", gpx, "--db", folder + "/w.sqlite", "--socket", folder + "/api.sock"]
    command += ["--fast"] if speed is None else ["--speed", str(speed)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(db, handlers, expected, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with sqlite3.connect(db) as c:
                acked = c.execute("SELECT count(*) FROM handler_events WHERE acked_ns IS NOT NULL").fetchone()[0]
            if acked >= expected:
                return True
        except sqlite3.Error:
            pass
        time.sleep(0.2)
    return False


def received(out):
    with open(out) as f:
        return [json.loads(line) for line in f if '"event"' in line]


def scenario(waymark, names, flags, fixes, spacing, speed, timeout, handler_args=()):
    folder = tempfile.mkdtemp(prefix="waymark-bench-")
    try:
        db = folder + "/w.sqlite"
        for name in names:
            run([waymark, "handlers", "add", name, "--exec", HANDLER, "--standard", "--db", db] + flags
                + ["--", "--out", "%s/%s.jsonl" % (folder, name)] + list(handler_args))
        gpx = folder + "/track.gpx"
        track(gpx, fixes, spacing)
        daemon = serve(waymark, folder, gpx, speed)
        ok = wait_for(db, names, fixes * len(names), timeout)
        daemon.terminate()
        daemon.wait(timeout=30)
        with sqlite3.connect(db) as c:
            rows = c.execute("SELECT id, handler, queued_ns, acked_ns FROM handler_events").fetchall()
        outputs = {name: received("%s/%s.jsonl" % (folder, name)) for name in names}
        return ok, rows, outputs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("waymark")
    parser.add_argument("--handlers", type=int, default=100)
    parser.add_argument("--fixes", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--cold", type=int, default=20)
    args = parser.parse_args()

    # 1. Latency to a running handler.
    ok, rows, outputs = scenario(args.waymark, ["one"], ["--budget", "600", "--max-background-time", "600"], args.fixes, 1, args.rate, 120)
    queued = {row[0]: row[2] / 1e9 for row in rows}
    delays = [(e["receivedAt"] - queued[e["id"]]) * 1000 for e in outputs["one"] if e["attempt"] == 1]
    print(json.dumps({"benchmark": "handler-latency", "complete": ok, "events": len(delays),
                      "p50_ms": round(percentile(delays, 0.5), 2), "p99_ms": round(percentile(delays, 0.99), 2),
                      "max_ms": round(max(delays), 2)}))

    # 2. Cold launch to first event: every event finds no process.
    ok, rows, outputs = scenario(args.waymark, ["cold"], ["--budget", "0.3", "--exits-on-suspend"], args.cold, 3, 2, 120)
    queued = {row[0]: row[2] / 1e9 for row in rows}
    firsts = {}
    for e in outputs["cold"]:
        firsts.setdefault(e["pid"], e)
    launches = [(e["receivedAt"] - queued[e["id"]]) * 1000 for e in firsts.values()]
    print(json.dumps({"benchmark": "handler-cold-launch", "complete": ok, "launches": len(launches),
                      "p50_ms": round(percentile(launches, 0.5), 1), "p99_ms": round(percentile(launches, 0.99), 1)}))

    # 3. Fan-out to many handlers.
    names = ["h%03d" % i for i in range(args.handlers)]
    fixes = max(args.fixes // 3, 20)
    ok, rows, outputs = scenario(args.waymark, names, ["--budget", "600", "--max-background-time", "600"], fixes, 1, None, 600)
    first = min(row[2] for row in rows)
    last = max(row[3] for row in rows if row[3] is not None)
    acked = [(row[3] - row[2]) / 1e6 for row in rows if row[3] is not None]
    print(json.dumps({"benchmark": "handler-fan-out", "complete": ok, "handlers": len(names), "events": len(rows),
                      "acknowledged": len(acked), "events_per_second": round(len(acked) / ((last - first) / 1e9)),
                      "ack_p50_ms": round(percentile(acked, 0.5), 1), "ack_p99_ms": round(percentile(acked, 0.99), 1)}))


if __name__ == "__main__":
    sys.exit(main())
