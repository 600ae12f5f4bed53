"""The daemon's memory under a flood of unauthenticated requests to the device listener
(docs/security.md, "Work before authentication"; issue 48, finding 7).

Usage: /usr/bin/python3 Benchmarks/unauthenticated_flood.py WAYMARK [--connections 6000]
                                                           [--body 60000] [--repeat 3]

A real `WAYMARK serve --listen` on a fresh store with one device. Then --connections
connections are opened at once, each sending an OwnTracks POST head announcing a --body-byte
body and most of that body (all but its last byte, so a server that reads bodies first holds
every one of them) without credentials, and each waits for its answer. The daemon's resident
memory (VmRSS) is read before, at its peak during the flood (sampled every 50 ms), and 5 s after
every connection closed. The same flood with a valid secret in every head is the baseline, in
the same run on the same daemon: those bodies are read (until the listener's 10 s body deadline),
which is what every unauthenticated body cost before the listener authenticated from the head.
Each kind runs --repeat times on a daemon of its own; prints one JSON object per kind with the
medians (and the first flood's peak, before any memory was kept from an earlier one) and the
answers' status counts ("error": a connection refused or reset before an answer, the listen
backlog being full).
"""
import argparse, json, os, resource, selectors, shutil, socket, statistics, subprocess, tempfile, threading, time

from benchkit import add_devices, free_port, stop

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--connections", type=int, default=6000)
parser.add_argument("--body", type=int, default=60000)
parser.add_argument("--repeat", type=int, default=3)
args = parser.parse_args()

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def flood(port, secret):
    """Opens every connection, sends each head (with `secret` as its bearer token when given)
    and body but its last byte, and collects the status of every answer. Returns {status: count}."""
    credentials = f"Authorization: Bearer {secret}\r\n" if secret else ""
    head = (f"POST /v1/owntracks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {args.body}\r\nX-Limit-D: d0\r\n{credentials}\r\n").encode()
    payload = head + b" " * (args.body - 1)
    selector = selectors.DefaultSelector()
    pending = {}
    for _ in range(args.connections):
        connection = socket.socket()
        connection.setblocking(False)
        connection.connect_ex(("127.0.0.1", port))
        pending[connection.fileno()] = [connection, memoryview(payload), b""]
        selector.register(connection, selectors.EVENT_WRITE | selectors.EVENT_READ)
    statuses = {}
    deadline = time.monotonic() + 120
    while pending and time.monotonic() < deadline:
        for key, events in selector.select(timeout=1):
            connection, remaining, answer = pending[key.fd]
            try:
                if events & selectors.EVENT_WRITE and remaining:
                    sent = connection.send(remaining)
                    pending[key.fd][1] = remaining[sent:]
                if events & selectors.EVENT_READ:
                    chunk = connection.recv(4096)
                    answer += chunk
                    pending[key.fd][2] = answer
                    if b"\r\n" in answer or not chunk:
                        status = answer.split(b" ")[1].decode() if b" " in answer else "closed"
                        statuses[status] = statuses.get(status, 0) + 1
                        selector.unregister(connection)
                        connection.close()
                        del pending[key.fd]
                        continue
                if not pending[key.fd][1]:
                    selector.modify(connection, selectors.EVENT_READ)
            except OSError:
                statuses["error"] = statuses.get("error", 0) + 1
                selector.unregister(connection)
                connection.close()
                del pending[key.fd]
    statuses["unanswered"] = len(pending)
    for connection, _, _ in pending.values():
        connection.close()
    return statuses


def start_daemon(work, db):
    port = free_port()
    log = os.path.join(work, "daemon.log")
    daemon = subprocess.Popen(
        [args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", os.path.join(work, "api.sock"),
         "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    deadline = time.monotonic() + 30
    while "Device listener listening" not in open(log).read():
        if time.monotonic() > deadline or daemon.poll() is not None:
            raise SystemExit("the daemon's device listener did not start:\n" + open(log).read()[-2000:])
        time.sleep(0.1)
    time.sleep(1)
    return daemon, port


def measure(daemon, port, secret):
    before = rss_kib(daemon.pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(daemon.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    began = time.monotonic()
    statuses = flood(port, secret)
    elapsed = time.monotonic() - began
    done.set()
    sampler.join()
    time.sleep(5)
    return {"before": before, "peak": peak[0], "after": rss_kib(daemon.pid), "seconds": elapsed, "statuses": statuses}


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 256)), hard))
    work = tempfile.mkdtemp(prefix="waymark-flood-")
    try:
        db = os.path.join(work, "w.sqlite")
        subprocess.run([args.waymark, "regions", "import", os.path.join(root, "Regions"), "--db", db], check=True, capture_output=True)
        secret = add_devices(db, 1)[0]
        # Each kind on a daemon of its own, so neither starts from what the other left behind.
        for kind in ("unauthenticated", "authenticated"):
            daemon, port = start_daemon(work, db)
            try:
                measured = [measure(daemon, port, secret if kind == "authenticated" else None) for _ in range(args.repeat)]
                alive = daemon.poll() is None
            finally:
                stop(daemon)
            median = lambda key: round(statistics.median(run[key] for run in measured) / 1024, 1)
            print(json.dumps({
                "benchmark": "unauthenticated_flood", "kind": kind, "connections": args.connections, "body_bytes": args.body,
                "runs": args.repeat, "rss_before_mb": median("before"), "rss_peak_mb": median("peak"),
                "rss_after_mb": median("after"), "first_peak_mb": round(measured[0]["peak"] / 1024, 1),
                "seconds": round(statistics.median(run["seconds"] for run in measured), 2),
                "statuses": measured[-1]["statuses"], "alive": alive}), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
