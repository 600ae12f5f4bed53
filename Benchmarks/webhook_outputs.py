"""Webhook outputs: delivery rate from a backlog, event-to-receiver latency, nothing lost while the
receiver is down.

Usage: /usr/bin/python3 Benchmarks/webhook_outputs.py WAYMARK [--devices 50] [--rate 200]
                                                      [--seconds 20] [--backlog 20000] [--down 10]

A fresh store with --devices devices (rows written straight into it, as Benchmarks/http_ingest.py
does) and one webhook output for the kind `reportedRegion`; a real `WAYMARK serve --listen`; a
receiver on asyncio in this process (HTTP/1.1 keep-alive, answers 204, checks every 100th
request's signature and counts the bad ones). The events are the devices' own OwnTracks
`transition` messages, which the daemon records as they come (no hysteresis), so their rate is
the sender's; each `tst` is its send time with milliseconds.

1. Latency: --rate transitions a second, round-robin over the devices, over one keep-alive
   connection, for --seconds; event-to-receiver = arrival - `tst` (send, HTTP ingest, commit,
   delivery; every step of the event's way out).
2. Down and back: the receiver stops; --backlog transitions are sent (100 a request); it waits
   --down seconds; the receiver returns. Reported: the rate at which the backlog drained (events
   a second from the first arrival to the last), whether every event arrived, and whether each
   device's arrived in its order (by `sequence`, and by the transitions' own order).
Prints one JSON object.
"""
import argparse, datetime, http.client, json, os, shutil, subprocess, tempfile, time

from benchkit import add_devices, free_port, percentile, stop
from webhook_sink import Receiver

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--devices", type=int, default=50)
parser.add_argument("--rate", type=float, default=200)
parser.add_argument("--seconds", type=float, default=20)
parser.add_argument("--backlog", type=int, default=20000)
parser.add_argument("--down", type=float, default=10)
args = parser.parse_args()


def transition(device, number):
    return {"_type": "transition", "event": "enter" if number % 2 == 0 else "leave", "desc": f"r{number}", "rid": f"r{number}",
            "tst": round(time.time(), 3), "wtst": 1700000000, "lat": 47.3, "lon": 8.5, "acc": 5, "t": "c"}


def post(connection, token, device, messages):
    connection.request("POST", "/v1/owntracks", json.dumps(messages if len(messages) > 1 else messages[0]),
                       {"Authorization": "Bearer " + token, "X-Limit-D": device, "Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise SystemExit(f"the daemon answered {response.status}")


def main():
    work = tempfile.mkdtemp(prefix="waymark-webhook-")
    daemon = None
    try:
        db = os.path.join(work, "w.sqlite")
        subprocess.run([args.waymark, "regions", "list", "--db", db], check=True, capture_output=True)  # makes the store
        tokens = add_devices(db, args.devices)
        receiver_port, listen_port = free_port(), free_port()
        added = subprocess.run([args.waymark, "outputs", "add", "bench", "--webhook", f"http://127.0.0.1:{receiver_port}/",
                                "--kind", "reportedRegion", "--db", db], check=True, capture_output=True, text=True).stdout
        secret = next(line[8:] for line in added.splitlines() if line.startswith("secret: "))
        receiver = Receiver(receiver_port, secret)
        receiver.start()
        daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", os.path.join(work, "api.sock"),
                                   "--listen", f"127.0.0.1:{listen_port}"], stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
        deadline = time.time() + 30
        while True:
            try:
                client = http.client.HTTPConnection("127.0.0.1", listen_port, timeout=30)
                client.connect()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("the daemon's listener never opened")
                time.sleep(0.2)

        # 1. Latency at a steady rate.
        sent = 0
        began = time.time()
        while time.time() - began < args.seconds:
            due = int((time.time() - began) * args.rate)
            while sent < due:
                device = sent % args.devices
                post(client, tokens[device], f"d{device}", [transition(device, sent)])
                sent += 1
            time.sleep(0.001)
        deadline = time.time() + 30
        while len(receiver.arrivals) < sent and time.time() < deadline:
            time.sleep(0.05)
        latencies = [(arrived - time_of(event)) * 1000 for arrived, event in receiver.arrivals]
        steady = {"rate": args.rate, "seconds": args.seconds, "sent": sent, "received": len(receiver.arrivals),
                  "event_to_receiver_ms": {"p50": round(percentile(latencies, 0.5), 2), "p99": round(percentile(latencies, 0.99), 2)}}

        # 2. Down, a backlog, back.
        receiver.stop()
        before = len(receiver.arrivals)
        backlog = 0
        while backlog < args.backlog:
            device = backlog // 100 % args.devices
            post(client, tokens[device], f"d{device}", [transition(device, sent + backlog + k) for k in range(100)])
            backlog += 100
        time.sleep(args.down)
        receiver.start()
        deadline = time.time() + 600
        while len(receiver.arrivals) < before + backlog and time.time() < deadline:
            time.sleep(0.1)
        drained = receiver.arrivals[before:]
        seconds = (drained[-1][0] - drained[0][0]) if len(drained) > 1 else None
        ids = [event["id"] for _, event in drained]
        in_order = True
        last = {}
        for _, event in drained:
            if event["subject"] in last and last[event["subject"]] >= event["sequence"]:
                in_order = False
            last[event["subject"]] = event["sequence"]
        recovery = {"backlog": backlog, "down_s": args.down, "received": len(drained), "distinct": len(set(ids)),
                    "every_event_arrived": len(set(ids)) == backlog, "in_order_per_device": in_order,
                    "drain_events_per_s": round((len(drained) - 1) / seconds) if seconds else None}
        print(json.dumps({"benchmark": "webhook_outputs", "devices": args.devices, "steady": steady, "down_and_back": recovery,
                          "bad_signatures": receiver.bad_signatures}))
    finally:
        if daemon:
            stop(daemon)
        shutil.rmtree(work, ignore_errors=True)


def time_of(event):
    """The transition's own time: its tst, which the sender set to the send time."""
    return datetime.datetime.fromisoformat(event["data"]["time"].replace("Z", "+00:00")).timestamp()


main()
