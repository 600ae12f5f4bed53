"""Live streams under load: many `GET /v1/stream` clients while devices send fixes as fast as the
daemon takes them.

Usage: /usr/bin/python3 Benchmarks/sse_load.py WAYMARK [--clients 1000] [--slow 100] [--devices 50]
                                                  [--seconds 20] [--batch 50]

A fresh store with --devices devices; a real `WAYMARK serve --listen`. Two phases of --seconds
each, in the same run:
1. baseline: no stream client; four senders POST OwnTracks location batches (--batch fixes a
   request, keep-alive) to the device listener as fast as it answers;
2. load: --clients stream clients on the API's Unix socket, --slow of which never read (their
   socket buffers fill, then the daemon's), the others read everything; the same senders again.
Reported per phase: fixes sent and acknowledged, fixes a second, the daemon's peak RSS (VmRSS,
sampled every 0.2 s); then the fixes stored (every acknowledged fix must be: none lost), how many
stream clients were still connected at the end, and the bytes the reading clients received.
Prints one JSON object.
"""
import argparse, asyncio, http.client, json, os, resource, shutil, socket, sqlite3, subprocess, tempfile, threading, time

from benchkit import add_devices, free_port, stop

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--clients", type=int, default=1000)
parser.add_argument("--slow", type=int, default=100)
parser.add_argument("--devices", type=int, default=50)
parser.add_argument("--seconds", type=float, default=20)
parser.add_argument("--batch", type=int, default=50)
args = parser.parse_args()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


class PeakRSS(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self):
        while self.running:
            try:
                self.peak = max(self.peak, rss_kib(self.pid))
            except (OSError, StopIteration):
                return
            time.sleep(0.2)


def send_for(port, tokens, seconds, first_time):
    """Four threads, each its own keep-alive connection and devices; fixes acknowledged."""
    acknowledged = [0] * 4
    stop_at = time.time() + seconds

    def sender(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        tick = first_time
        while time.time() < stop_at:
            device = index + 4 * ((tick // args.batch) % (len(tokens) // 4))
            batch = [{"_type": "location", "lat": 47.3 + (tick % 1000) * 1e-5, "lon": 8.5, "tst": tick + i, "acc": 5}
                     for i in range(args.batch)]
            tick += args.batch
            connection.request("POST", "/v1/owntracks", json.dumps(batch),
                               {"Authorization": "Bearer " + tokens[device], "X-Limit-D": f"d{device}", "Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"the daemon answered {response.status}")
            acknowledged[index] += args.batch

    threads = [threading.Thread(target=sender, args=(i,)) for i in range(4)]
    began = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(acknowledged), time.time() - began


async def open_streams(path, count, slow, stop_event, received):
    """`count` stream clients; the first `slow` never read. Returns the connections still open."""
    connections = []
    for index in range(count):
        sock = socket.socket(socket.AF_UNIX)
        if index < slow:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(path)
        sock.setblocking(False)
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        writer.write(b"GET /v1/stream HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        connections.append((reader, writer, index < slow))

    async def read(reader):
        try:
            while not stop_event.is_set():
                chunk = await reader.read(65536)
                if not chunk:
                    return
                received[0] += len(chunk)
        except (ConnectionError, OSError):
            return

    readers = [asyncio.ensure_future(read(reader)) for reader, _, is_slow in connections if not is_slow]
    return connections, readers


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.clients + 256)), hard))
    work = tempfile.mkdtemp(prefix="waymark-sse-")
    daemon = None
    try:
        db = os.path.join(work, "w.sqlite")
        subprocess.run([args.waymark, "regions", "list", "--db", db], check=True, capture_output=True)
        tokens = add_devices(db, args.devices)
        port, sock_path = free_port(), os.path.join(work, "api.sock")
        daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", sock_path,
                                   "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                                  stderr=open(os.path.join(work, "daemon.log"), "w"))
        deadline = time.time() + 30
        while not os.path.exists(sock_path):
            if time.time() > deadline:
                raise SystemExit("the daemon never opened its socket")
            time.sleep(0.2)
        time.sleep(1)
        start = int(time.time()) - 10_000_000

        monitor = PeakRSS(daemon.pid)
        monitor.start()
        baseline_sent, baseline_seconds = send_for(port, tokens, args.seconds, start)
        baseline_peak = monitor.peak

        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, daemon=True).start()
        stop_event, received = asyncio.Event(), [0]
        connections, readers = asyncio.run_coroutine_threadsafe(
            open_streams(sock_path, args.clients, args.slow, stop_event, received), loop).result(120)
        time.sleep(2)
        idle_with_clients = rss_kib(daemon.pid)
        monitor.peak = 0
        load_sent, load_seconds = send_for(port, tokens, args.seconds, start + 5_000_000)
        load_peak = monitor.peak
        time.sleep(2)
        open_readers = sum(1 for reader in readers if not reader.done())
        loop.call_soon_threadsafe(stop_event.set)
        monitor.running = False

        stop(daemon)
        daemon = None
        stored = sqlite3.connect(db).execute("SELECT count(*) FROM fixes").fetchone()[0]
        print(json.dumps({
            "benchmark": "sse_load", "clients": args.clients, "slow": args.slow, "devices": args.devices, "batch": args.batch,
            "baseline": {"acknowledged": baseline_sent, "fixes_per_s": round(baseline_sent / baseline_seconds),
                         "peak_rss_mib": round(baseline_peak / 1024, 1)},
            "with_clients": {"acknowledged": load_sent, "fixes_per_s": round(load_sent / load_seconds),
                             "rss_idle_mib": round(idle_with_clients / 1024, 1), "peak_rss_mib": round(load_peak / 1024, 1),
                             "reading_clients_still_open": open_readers, "bytes_received": received[0]},
            "stored": stored, "lost": baseline_sent + load_sent - stored,
        }))
    finally:
        if daemon:
            stop(daemon)
        shutil.rmtree(work, ignore_errors=True)


main()
