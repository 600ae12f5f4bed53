#!/usr/bin/python3
"""Handler benchmarks against a real `waymark serve` (docs/handlers.md, BENCHMARKS.md).

1. latency: one running handler subscribed to standard updates; the replay feeds fixes at
   --rate per second; latency = the handler's receipt time minus the time the event was queued
   (handler_events.queued_ns, written before delivery). Reports p50 / p99 / max.
2. cold launch: the handler exits on suspend with a 0.3 s budget and events come 1.5 s apart,
   so every event launches a new process; reports event queued -> first receipt, p50 / p99.
3. fan-out to running handlers: N handlers (default 20) all subscribed to standard updates,
   each Benchmarks/ack_handler.py (acknowledges at once, stores nothing, so the daemon is what
   is measured). The track's first fix launches them all; --lead-in seconds later (real time)
   the rest of the track arrives at --fan-out-rate fixes per second, each fix an event for every
   handler: an offered load of rate x N events/s. Reports, for the events after the lead-in,
   events acknowledged per second (first queued to last acknowledged) and the p50 / p99 of
   queued -> received and queued -> acknowledged (acknowledgement as committed in the store).

Usage: Benchmarks/handlers.py .build/release/waymark [--handlers 20] [--fixes 300]
       [--fan-out-fixes 5000] [--fan-out-rate 1000] [--only fan-out]
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

from benchkit import percentile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDLER = os.path.join(ROOT, "examples", "handlers", "event_logger.py")
ACK_HANDLER = os.path.join(ROOT, "Benchmarks", "ack_handler.py")


def track(path, fixes, spacing=1, lead_in=0):
    """A straight walk north from Zurich, one fix per `spacing` seconds; with `lead_in`, the
    second fix comes that many seconds after the first."""
    with open(path, "w") as out:
        out.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        for i in range(fixes):
            t = i * spacing + (lead_in if i > 0 else 0)
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
    """The events a handler wrote (both handlers write an "id" for each, and only for events)."""
    deadline = time.time() + 10  # the daemon's SIGTERM reaches the handlers as it exits
    while not os.path.exists(out) and time.time() < deadline:
        time.sleep(0.05)
    with open(out) as f:
        return [e for e in map(json.loads, f) if "id" in e]


def scenario(waymark, names, flags, fixes, spacing, speed, timeout, handler_args=(), handler=HANDLER, lead_in=0):
    folder = tempfile.mkdtemp(prefix="waymark-bench-")
    try:
        db = folder + "/w.sqlite"
        for name in names:
            run([waymark, "handlers", "add", name, "--exec", handler, "--standard", "--db", db] + flags
                + ["--", "--out", "%s/%s.jsonl" % (folder, name)] + list(handler_args))
        gpx = folder + "/track.gpx"
        track(gpx, fixes, spacing, lead_in)
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


def fan_out(args):
    """Section 3 of the module's doc."""
    names = ["h%03d" % i for i in range(args.handlers)]
    lead_in = 5  # real seconds for every handler's interpreter to start and say hello
    speed = args.fan_out_rate
    ok, rows, outputs = scenario(args.waymark, names, ["--budget", "600", "--max-background-time", "600"],
                                 args.fan_out_fixes + 1, 1, speed, 600, handler=ACK_HANDLER, lead_in=lead_in * speed)
    first_ids = {name: min(row[0] for row in rows if row[1] == name) for name in names}
    burst = [row for row in rows if row[0] != first_ids[row[1]]]
    queued = {row[0]: row[2] for row in burst}
    first = min(row[2] for row in burst)
    acked_rows = [row for row in burst if row[3] is not None]
    last = max(row[3] for row in acked_rows)
    acked = [(row[3] - row[2]) / 1e6 for row in acked_rows]
    delays = [(e["receivedAt"] * 1e9 - queued[e["id"]]) / 1e6 for events in outputs.values() for e in events
              if e["id"] in queued and e["attempt"] == 1]
    print(json.dumps({"benchmark": "handler-fan-out", "complete": ok, "handlers": len(names),
                      "offered_events_per_second": speed * len(names), "events": len(burst),
                      "acknowledged": len(acked), "events_per_second": round(len(acked) / ((last - first) / 1e9)),
                      "received_p50_ms": round(percentile(delays, 0.5), 2), "received_p99_ms": round(percentile(delays, 0.99), 2),
                      "ack_p50_ms": round(percentile(acked, 0.5), 2), "ack_p99_ms": round(percentile(acked, 0.99), 2)}))


def latency(args):
    """Section 1 of the module's doc: latency to a running handler."""
    ok, rows, outputs = scenario(args.waymark, ["one"], ["--budget", "600", "--max-background-time", "600"], args.fixes, 1, args.rate, 120)
    queued = {row[0]: row[2] / 1e9 for row in rows}
    delays = [(e["receivedAt"] - queued[e["id"]]) * 1000 for e in outputs["one"] if e["attempt"] == 1]
    print(json.dumps({"benchmark": "handler-latency", "complete": ok, "events": len(delays),
                      "p50_ms": round(percentile(delays, 0.5), 2), "p99_ms": round(percentile(delays, 0.99), 2),
                      "max_ms": round(max(delays), 2)}))


def cold(args):
    """Section 2 of the module's doc: cold launch to first event; every event finds no process."""
    ok, rows, outputs = scenario(args.waymark, ["cold"], ["--budget", "0.3", "--exits-on-suspend"], args.cold, 3, 2, 120)
    queued = {row[0]: row[2] / 1e9 for row in rows}
    firsts = {}
    for e in outputs["cold"]:
        firsts.setdefault(e["pid"], e)
    launches = [(e["receivedAt"] - queued[e["id"]]) * 1000 for e in firsts.values()]
    print(json.dumps({"benchmark": "handler-cold-launch", "complete": ok, "launches": len(launches),
                      "p50_ms": round(percentile(launches, 0.5), 1), "p99_ms": round(percentile(launches, 0.99), 1)}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("waymark")
    parser.add_argument("--handlers", type=int, default=20)
    parser.add_argument("--fan-out-fixes", type=int, default=5000)
    parser.add_argument("--fan-out-rate", type=int, default=1000, help="fixes per second after the lead-in")
    parser.add_argument("--only", choices=["latency", "cold", "fan-out"], help="run one measurement")
    parser.add_argument("--fixes", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--cold", type=int, default=20)
    args = parser.parse_args()
    measurements = {"latency": latency, "cold": cold, "fan-out": fan_out}
    for name, measure in measurements.items():
        if args.only in (None, name):
            measure(args)


if __name__ == "__main__":
    sys.exit(main())
