"""Fixes per second into the store from phones over the network listener, and request latency.

Usage: /usr/bin/python3 Benchmarks/http_ingest.py WAYMARK [--devices 1000] [--connections 64]
                                                 [--threads 1] [--seconds 20] [--batch 1]

A fresh SpatiaLite file with the project's regions (Regions/) and --devices devices, whose
secrets are made here and stored as their SHA-256 the way `waymark devices add` stores them
(adding a thousand devices through the CLI would take a minute of process start-ups); a real
`WAYMARK serve --listen` on a free port (no gpsd: the local receiver stays disconnected). wrk
(Debian's package) sends OwnTracks `location` bodies over keep-alive connections as the app does
in HTTP mode — --batch locations per body as a JSON array, 1 by default — each request from the
next device in turn, with `Authorization: Bearer SECRET`, and that device's next `tst` one
second after its last (so the validation gate keeps every fix: two requests of one device are
--devices requests apart, far more than are ever in flight). Fixes counted are the rows in
`fixes` (devices only) after the run; latency percentiles are wrk's (each request is answered
once its fixes are committed). Prints one JSON object.
"""
import argparse, json, os, re, shutil, sqlite3, subprocess, tempfile, time

from benchkit import add_devices, free_port
from http_ingest_lua import LUA

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--devices", type=int, default=1000)
parser.add_argument("--connections", type=int, default=64)
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--seconds", type=int, default=20)
parser.add_argument("--batch", type=int, default=1, help="locations per request body")
args = parser.parse_args()

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    work = tempfile.mkdtemp(prefix="waymark-http-")
    try:
        db = os.path.join(work, "w.sqlite")
        subprocess.run([args.waymark, "regions", "import", os.path.join(root, "Regions"), "--db", db], check=True, capture_output=True)
        tokens = add_devices(db, args.devices)
        secrets_file = os.path.join(work, "secrets.txt")
        with open(secrets_file, "w") as out:
            out.write("\n".join(tokens) + "\n")
        script = os.path.join(work, "owntracks.lua")
        with open(script, "w") as out:
            out.write(LUA)

        port = free_port()
        daemon = subprocess.Popen(
            [args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", os.path.join(work, "api.sock"),
             "--listen", f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
        deadline = time.monotonic() + 30
        while "Device listener listening" not in open(os.path.join(work, "daemon.log")).read():
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit("the daemon's device listener did not start:\n" + open(os.path.join(work, "daemon.log")).read()[-2000:])
            time.sleep(0.1)
        # Fix times in the past, one second apart per device, ending before now.
        environment = dict(os.environ, BENCH_SECRETS=secrets_file, BENCH_BATCH=str(args.batch),
                           BENCH_START=str(int(time.time()) - 10 * 86400))
        began = time.monotonic()
        result = subprocess.run(
            ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", f"{args.seconds}s", "--latency", "-s", script,
             f"http://127.0.0.1:{port}"],
            env=environment, capture_output=True, text=True, check=True)
        elapsed = time.monotonic() - began
        daemon.terminate()
        daemon.wait(60)
        connection = sqlite3.connect(db)
        stored = connection.execute("SELECT count(*) FROM fixes WHERE device <> 'local'").fetchone()[0]
        events = connection.execute("SELECT count(*) FROM events WHERE device <> 'local'").fetchone()[0]
        connection.close()
        output = result.stdout
        requests = int(re.search(r"(\d+) requests in", output).group(1))
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        latency = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)$", output, re.M))
        print(json.dumps({
            "benchmark": "http_ingest", "devices": args.devices, "connections": args.connections, "threads": args.threads,
            "batch": args.batch, "seconds": round(elapsed, 2), "requests": requests,
            "non_2xx": int(non2xx.group(1)) if non2xx else 0, "fixes_sent": requests * args.batch, "fixes_stored": stored,
            "events_stored": events, "fixes_per_second": round(stored / elapsed),
            "latency": {f"p{k}": v for k, v in latency.items()}}))
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
