"""Many OwnTracks devices over MQTT: every fix stored, and publish-to-commit latency.

Usage: /usr/bin/python3 Benchmarks/mqtt_ingest.py WAYMARK [--devices 10000] [--interval 5]
                                                 [--seconds 60]

A real mosquitto (Debian's) on a free port, a real `WAYMARK serve --mqtt` with the project's
regions, and --devices devices (their rows written straight into the fresh store, as
Benchmarks/http_ingest.py does). One paho-mqtt client publishes, paced, each device's next
location every --interval seconds (QoS 1, to `owntracks/dN/dN`, as the app does), for --seconds;
each `tst` is its publish time with milliseconds, so the daemon's live stream
(`/v1/stream`, read here) shows when each fix was committed: latency = stream arrival -
tst. Counts published, stored (rows in `fixes` for the devices) and streamed; prints one JSON
object with the p50/p99 latency.
"""
import argparse, datetime, hashlib, json, os, secrets, shutil, socket, sqlite3, subprocess, tempfile, threading, time

import paho.mqtt.client as mqtt

from benchkit import free_port, percentile

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--devices", type=int, default=10000)
parser.add_argument("--interval", type=float, default=5)
parser.add_argument("--seconds", type=float, default=60)
args = parser.parse_args()
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def wait_for(predicate, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def main():
    work = tempfile.mkdtemp(prefix="waymark-mqtt-")
    processes = []
    try:
        broker_port = free_port()
        with open(os.path.join(work, "mosquitto.conf"), "w") as out:
            out.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n")
        processes.append(subprocess.Popen(["/usr/sbin/mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        db = os.path.join(work, "w.sqlite")
        subprocess.run([args.waymark, "regions", "import", os.path.join(root, "Regions"), "--db", db], check=True, capture_output=True)
        connection = sqlite3.connect(db)
        connection.executemany(
            "INSERT INTO devices (name, user, secret_hash, secret_hint, created_ns) VALUES (?, ?, ?, ?, ?)",
            [(f"d{i}", f"d{i}", hashlib.sha256(secrets.token_bytes(16)).digest(), "-", time.time_ns()) for i in range(args.devices)])
        connection.commit()
        connection.close()
        socket_path = os.path.join(work, "api.sock")
        log = os.path.join(work, "daemon.log")
        daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", socket_path,
                                   "--mqtt", f"127.0.0.1:{broker_port}"], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        processes.append(daemon)
        wait_for(lambda: "MQTT connected" in open(log).read(), "the daemon's MQTT subscription")
        latencies = []

        def read_stream():
            """Each fix of the live stream: arrival (now) minus its own time (the publish time)."""
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
                        stamp = json.loads(line[6:])["time"]
                        sent_at = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
                        latencies.append((arrived - sent_at) * 1000)
        threading.Thread(target=read_stream, daemon=True).start()
        time.sleep(1)

        client = mqtt.Client(client_id="bench-publisher", clean_session=True)
        client.max_inflight_messages_set(2000)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", broker_port)
        client.loop_start()
        rate = args.devices / args.interval
        began = time.time()
        sent = 0
        while True:
            now = time.time()
            if now - began >= args.seconds:
                break
            due = int((now - began) * rate)
            while sent < due:
                device = sent % args.devices
                lap = sent // args.devices
                body = json.dumps({"_type": "location", "lat": 47.35 + (device % 100) * 0.001 + lap * 0.0001, "lon": 8.67,
                                   "tst": round(time.time(), 3), "acc": 5, "vel": 3})
                client.publish(f"owntracks/d{device}/d{device}", body, qos=1)
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
        deadline = time.monotonic() + 60
        while stored() < sent and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(1)
        count = stored()
        print(json.dumps({"benchmark": "mqtt_ingest", "devices": args.devices, "interval": args.interval,
                          "seconds": round(elapsed, 1), "published": sent, "stored": count,
                          "every_fix_stored": count == sent, "streamed": len(latencies),
                          "publish_to_commit_ms": {"p50": round(percentile(latencies, 0.5), 1) if latencies else None,
                                                   "p99": round(percentile(latencies, 0.99), 1) if latencies else None}}))
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


main()
