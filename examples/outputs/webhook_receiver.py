#!/usr/bin/env python3
"""A webhook receiver for Waymark's outputs (docs/outputs.md), standard library only.

It checks each request's Waymark-Signature (HMAC-SHA256 with the output's secret over
"UNIX_SECONDS.BODY", timestamps within --max-skew seconds), answers 401 to a bad one, and prints
each CloudEvent as one JSON line — with "duplicate": true when its id was seen before (Waymark
delivers at least once; the id is stable across redeliveries).

Usage: webhook_receiver.py --secret SECRET [--port 8080] [--log FILE] [--fail-first N]

--fail-first N answers 503 to the first N requests (to watch Waymark retry); --log appends the
lines to FILE as well as printing them.
"""
import argparse, hashlib, hmac, http.server, json, sys, threading, time


def signature_ok(header, body, secret, max_skew):
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    stamp, given = fields.get("t", ""), fields.get("v1", "")
    expected = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return stamp.isdigit() and abs(time.time() - int(stamp)) <= max_skew and hmac.compare_digest(expected, given)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--log")
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--max-skew", type=int, default=300)
    args = parser.parse_args()
    seen = set()
    state = {"to_fail": args.fail_first}
    lock = threading.Lock()  # Waymark keeps several connections open (one per delivery lane)

    def emit(record):
        line = json.dumps(record, sort_keys=True)
        print(line, flush=True)
        if args.log:
            with open(args.log, "a") as out:
                out.write(line + "\n")

    class Receiver(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: Waymark reuses its connection

        def answer(self, status):
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                status = self.receive(body)
            self.answer(status)

        def receive(self, body):
            if state["to_fail"] > 0:
                state["to_fail"] -= 1
                emit({"refused": "failing on purpose"})
                return 503
            if not signature_ok(self.headers.get("Waymark-Signature", ""), body, args.secret, args.max_skew):
                emit({"refused": "bad signature"})
                return 401
            event = json.loads(body)
            emit({"id": event["id"], "type": event["type"], "subject": event.get("subject"), "sequence": event.get("sequence"),
                  "time": event["time"], "data": event["data"], "duplicate": event["id"] in seen})
            seen.add(event["id"])
            return 204

        def log_message(self, *_):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Receiver).serve_forever()


if __name__ == "__main__":
    main()
