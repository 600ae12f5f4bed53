"""Fleet mode end to end on one machine: phones over HTTP to an ingest node, through NATS
JetStream, to 1 or 2 workers, into PostgreSQL/PostGIS (docs/fleet.md).

Usage: /usr/bin/python3 Benchmarks/fleet_ingest.py WAYMARK [--workers 1,2] [--devices 1000]
                                                  [--connections 32] [--seconds 20] [--batch 10]
                                                  [--output-nodes 0] [--backlog 20000]

For each worker count: a fresh fleet from scripts/fleet-up.sh (PostgreSQL, nats-server, one
ingest node, N workers, 16 partitions), the project's regions and --devices devices moved in
with `waymark fleet import --db` (devices written into a SpatiaLite file as benchkit does), then
wrk sends OwnTracks bodies of --batch locations, each request from the next device, for
--seconds (the same Lua as http_ingest.py). Afterwards it waits until the workers have stored
every fix the ingest node acknowledged, and reports:

- ingest fixes/s: fixes JetStream holds / wrk's seconds (a 200 means stored in the stream);
- stored fixes/s: fixes stored / (last stored − first stored), what the workers sustain;
- fix latency p50/p99: stored_at − queued_at (JetStream's receipt to the worker's commit),
  over all fixes, and over the fixes that made an event (written in the same transaction);
- CPU seconds of the workers, the ingest node, nats-server and PostgreSQL, read from /proc
  before and after, and fixes per worker CPU second: the figure that sizes a deployment.

With --output-nodes N (N > 0), the single daemon's store also has a webhook output for region
and state events, delivered by N output nodes to a receiver in this process (webhook_sink.py):
it waits until every such event has arrived and reports fix-to-webhook latency (JetStream's
receipt of the fix that made the event to the event's arrival at the receiver: ingest, worker,
commit, events stream, output node, HTTP). Then --backlog region events for 100 devices are
published straight to the events stream at once, and it reports the rate at which the output
nodes delivered them (first to last arrival) and their CPU for it: the delivery capacity, which
the phones' few transitions do not reach.

Everything shares this machine's cores, so the figures are a floor for a real deployment.
Prints one JSON object per worker count.
"""
import argparse, hashlib, json, os, re, shutil, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchkit import add_devices, free_port, percentile  # noqa: E402
from http_ingest_lua import LUA  # noqa: E402
from webhook_sink import Receiver  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--workers", default="1,2")
parser.add_argument("--devices", type=int, default=1000)
parser.add_argument("--connections", type=int, default=32)
parser.add_argument("--seconds", type=int, default=20)
parser.add_argument("--batch", type=int, default=10)
parser.add_argument("--output-nodes", type=int, default=0)
parser.add_argument("--backlog", type=int, default=20000)
args = parser.parse_args()
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ticks = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of a process and its reaped children, in seconds; 0 if it is gone."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


def postgres_pids(directory):
    """The postmaster and every backend of the fleet's cluster."""
    postmaster = int(open(os.path.join(directory, "pg", "postmaster.pid")).readline())
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
    return [postmaster] + [int(p) for p in children]


def pids(directory, names):
    found = {}
    for name in names:
        path = os.path.join(directory, name + ".pid")
        if os.path.exists(path):
            found[name] = int(open(path).read().split()[0])
    return found


def psql(url, query):
    return subprocess.run(["psql", url, "-Atc", query], capture_output=True, text=True, check=True).stdout.strip()


def run(workers, run_index, work):
    db = os.path.join(work, f"single-{run_index}.sqlite")
    subprocess.run([args.waymark, "regions", "import", os.path.join(root, "Regions"), "--db", db], check=True, capture_output=True)
    tokens = add_devices(db, args.devices)
    receiver = None
    if args.output_nodes > 0:
        port = free_port()
        added = subprocess.run([args.waymark, "outputs", "add", "bench", "--webhook", f"http://127.0.0.1:{port}/hook",
                                "--kind", "region", "--kind", "state", "--db", db], capture_output=True, text=True, check=True)
        secret = next(line[8:] for line in added.stdout.splitlines() if line.startswith("secret: "))
        receiver = Receiver(port, secret)
        receiver.start()
    fleet = os.path.join(work, f"fleet-{run_index}")
    up = subprocess.run([os.path.join(root, "scripts", "fleet-up.sh"), "--servers-only", "--dir", fleet],
                        capture_output=True, text=True, check=True)
    env = dict(line.split("=", 1) for line in up.stdout.split() if "=" in line)
    try:
        subprocess.run([args.waymark, "fleet", "import", "--db", db, "--postgres", env["WAYMARK_POSTGRES"]],
                       check=True, capture_output=True)
        subprocess.run([os.path.join(root, "scripts", "fleet-down.sh"), "--dir", fleet], check=True, capture_output=True)
        started = subprocess.run([os.path.join(root, "scripts", "fleet-up.sh"), "--dir", fleet, "--workers", str(workers),
                                  # No api node: it would only share the 2 cores (and older builds have none).
                                  "--output-nodes", str(args.output_nodes), "--partitions", "16", "--no-api"], capture_output=True, text=True, check=True,
                                 env=dict(os.environ, WAYMARK=args.waymark))
        env = dict(line.split("=", 1) for line in started.stdout.split() if "=" in line)
        url = env["WAYMARK_POSTGRES"]
        # Every partition owned, by every worker.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status = json.loads(subprocess.run([args.waymark, "fleet", "status", "--json", "--postgres", url, "--nats", env["WAYMARK_NATS"]],
                                               capture_output=True, text=True, check=True).stdout)
            owners = [p.get("owner") for p in status["partitions"]]
            if len(owners) == 16 and all(owners) and len(set(owners)) == workers:
                break
            time.sleep(0.5)
        processes = pids(fleet, ["ingest", "nats"] + [f"worker-{k}" for k in range(1, workers + 1)]
                         + [f"output-{k}" for k in range(1, args.output_nodes + 1)])
        before = {name: cpu_seconds(pid) for name, pid in processes.items()}
        pg_before = sum(cpu_seconds(p) for p in postgres_pids(fleet))

        secrets_file = os.path.join(work, "secrets.txt")
        open(secrets_file, "w").write("\n".join(tokens) + "\n")
        script = os.path.join(work, "owntracks.lua")
        open(script, "w").write(LUA)
        environment = dict(os.environ, BENCH_SECRETS=secrets_file, BENCH_BATCH=str(args.batch),
                           BENCH_START=str(int(time.time()) - 10 * 86400))
        began = time.monotonic()
        result = subprocess.run(
            ["wrk", "-t", "1", "-c", str(args.connections), "-d", f"{args.seconds}s", "--latency", "-s", script,
             env["WAYMARK_INGEST"]], env=environment, capture_output=True, text=True, check=True)
        sent_seconds = time.monotonic() - began
        status = json.loads(subprocess.run([args.waymark, "fleet", "status", "--json", "--postgres", url, "--nats", env["WAYMARK_NATS"]],
                                           capture_output=True, text=True, check=True).stdout)
        queued = status["streamMessages"]
        deadline = time.monotonic() + 600
        while int(psql(url, "SELECT count(*) FROM fixes")) < queued and time.monotonic() < deadline:
            time.sleep(0.5)
        drained = time.monotonic() - began
        webhook = delivered(url, receiver) if receiver else None
        after = {name: cpu_seconds(pid) for name, pid in processes.items()}
        pg_after = sum(cpu_seconds(p) for p in postgres_pids(fleet))
        if receiver and args.backlog > 0:
            outputs = [f"output-{k}" for k in range(1, args.output_nodes + 1)]
            cpu_before = {name: cpu_seconds(processes[name]) for name in outputs}  # after the figures above
            webhook["backlog"] = drain_backlog(env["WAYMARK_NATS"], receiver, args.backlog)
            webhook["backlog"]["output_cpu_seconds"] = round(sum(cpu_seconds(processes[n]) - cpu_before[n] for n in outputs), 1)
        stored = int(psql(url, "SELECT count(*) FROM fixes"))
        span = float(psql(url, "SELECT extract(epoch FROM max(stored_at) - min(stored_at)) FROM fixes"))
        latency = psql(url, """SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM stored_at - queued_at))
                               FROM fixes""").strip("{}").split(",")
        event_latency = psql(url, """SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM f.stored_at - f.queued_at))
                                     FROM fixes f JOIN events e ON e.device = f.device AND e.sequence = f.sequence""").strip("{}").split(",")
        events = int(psql(url, "SELECT count(*) FROM events"))
        worker_cpu = sum(after[n] - before[n] for n in after if n.startswith("worker-"))
        requests = int(re.search(r"(\d+) requests in", result.stdout).group(1))
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
        http = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", result.stdout, re.M))
        return {
            "benchmark": "fleet_ingest", "workers": workers, "devices": args.devices, "batch": args.batch,
            "seconds": round(sent_seconds, 1), "requests": requests, "non_2xx": int(non2xx.group(1)) if non2xx else 0,
            "fixes_queued": queued, "fixes_stored": stored, "events": events,
            "ingest_fixes_per_second": round(queued / sent_seconds), "stored_fixes_per_second": round(stored / span) if span else None,
            "drained_after_seconds": round(drained, 1),
            "fix_latency_p50_ms": round(float(latency[0]) * 1000, 1), "fix_latency_p99_ms": round(float(latency[1]) * 1000, 1),
            "event_latency_p50_ms": round(float(event_latency[0]) * 1000, 1) if event_latency[0] else None,
            "event_latency_p99_ms": round(float(event_latency[-1]) * 1000, 1) if event_latency[0] else None,
            "http_latency": {f"p{k}": v for k, v in http.items()},
            "cpu_seconds": {**{n: round(after[n] - before[n], 1) for n in after}, "postgres": round(pg_after - pg_before, 1)},
            "stored_fixes_per_worker_cpu_second": round(stored / worker_cpu) if worker_cpu else None,
            **({"webhook": webhook} if webhook else {}),
        }
    finally:
        if receiver:
            receiver.stop()
        subprocess.run([os.path.join(root, "scripts", "fleet-down.sh"), "--dir", fleet, "--purge"], capture_output=True)


def delivered(url, receiver, timeout=600):
    """Waits until the receiver has every region and state event the fleet committed; their
    fix-to-webhook latency (first arrival), the delivery rate and the redeliveries."""
    rows = psql(url, """SELECT e.device, extract(epoch FROM f.queued_at), e.record FROM events e
                        JOIN fixes f ON f.device = e.device AND f.sequence = e.sequence
                        WHERE e.kind IN ('region', 'state')""")
    queued = {}
    for row in rows.splitlines():
        device, at, record = row.split("|", 2)
        queued[hashlib.sha256((device + "\n" + record).encode()).hexdigest()[:32]] = float(at)
    deadline = time.monotonic() + timeout
    while len({event["id"] for _, event in list(receiver.arrivals)}) < len(queued) and time.monotonic() < deadline:
        time.sleep(0.5)
    first = {}
    for arrived, event in list(receiver.arrivals):
        first.setdefault(event["id"], arrived)
    latencies = sorted(first[i] - queued[i] for i in first if i in queued)
    times = sorted(first.values())
    return {
        "events": len(queued), "delivered": len(set(first) & set(queued)), "arrivals": len(receiver.arrivals),
        "bad_signatures": receiver.bad_signatures,
        "latency_p50_ms": round(percentile(latencies, 0.5) * 1000, 1) if latencies else None,
        "latency_p99_ms": round(percentile(latencies, 0.99) * 1000, 1) if latencies else None,
        "events_per_second": round(len(times) / (times[-1] - times[0])) if len(times) > 1 and times[-1] > times[0] else None,
    }


def drain_backlog(nats_url, receiver, count, timeout=600):
    """Publishes `count` region events straight to the events stream (plain PUBs, then a PING
    for the server to have them all), and waits until the receiver has them all."""
    host, port = nats_url.removeprefix("nats://").rsplit(":", 1)
    start = len(receiver.arrivals)
    with socket.create_connection((host, int(port))) as bus:
        bus.recv(4096)  # INFO
        chunks = [b'CONNECT {"verbose":false,"pedantic":false}\r\n']
        for i in range(count):
            record = json.dumps({"kind": "region", "transition": "enter" if i % 2 == 0 else "exit", "region": "backlog",
                                 "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_700_000_000 + i)), "latitude": 47.3,
                                 "longitude": 8.5, "n": i}).encode()
            chunks.append(b"PUB waymark.event.backlog-%d %d\r\n%s\r\n" % (i % 100, len(record), record))
        chunks.append(b"PING\r\n")
        bus.sendall(b"".join(chunks))
        answer = b""
        while b"PONG" not in answer:
            answer += bus.recv(4096)
    deadline = time.monotonic() + timeout
    while len(receiver.arrivals) - start < count and time.monotonic() < deadline:
        time.sleep(0.5)
    arrivals = list(receiver.arrivals)[start:]
    times = [arrived for arrived, _ in arrivals]
    return {"events": count, "arrived": len(arrivals),
            "events_per_second": round(len(times) / (times[-1] - times[0])) if len(times) > 1 else None}


def main():
    work = tempfile.mkdtemp(prefix="waymark-fleet-bench-")
    os.chmod(work, 0o755)
    try:
        for index, workers in enumerate(int(w) for w in args.workers.split(",")):
            print(json.dumps(run(workers, index, work)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
