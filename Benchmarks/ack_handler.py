#!/usr/bin/python3
"""The load generator's handler for the fan-out benchmark (Benchmarks/handlers.py): as cheap as
a handler can be, so that the daemon is what is measured. It acknowledges every event it reads,
all the events of one read in one write (as a handler that batches its work would), keeps the
receipt time of each in memory, and writes them to --out (one JSON object per line: id,
attempt, receivedAt) when the daemon closes the connection or sends SIGTERM.

It stores nothing: a real handler stores an event before acknowledging it
(examples/handlers/event_logger.py fsyncs each one), and that costs what the handler's disk
costs, not what Waymark costs.
"""
import argparse
import json
import os
import signal
import socket
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    received = []

    def write_out(*_):
        with open(args.out + ".part", "w", encoding="utf-8") as out:
            for event_id, attempt, at in received:
                out.write('{"id":%d,"attempt":%d,"receivedAt":%.6f}\n' % (event_id, attempt, at))
        os.rename(args.out + ".part", args.out)  # whole or absent: the benchmark waits for it
        sys.exit(0)

    signal.signal(signal.SIGTERM, write_out)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(os.environ["WAYMARK_HANDLER_SOCKET"])
    hello = {"type": "hello", "handler": os.environ["WAYMARK_HANDLER_NAME"], "token": os.environ.get("WAYMARK_HANDLER_TOKEN")}
    connection.sendall((json.dumps(hello) + "\n").encode())
    pending = b""
    while True:
        chunk = connection.recv(1 << 20)
        if not chunk:
            break
        now = time.time()
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        acks = []
        for line in lines:
            if not line.startswith(b'{"type":"event"'):
                continue
            start = line.index(b'"id":') + 5
            event_id = int(line[start:line.index(b",", start)])
            start = line.index(b'"attempt":') + 10
            attempt = int(line[start:line.index(b",", start)])
            received.append((event_id, attempt, now))
            acks.append(b'{"type":"ack","id":%d}\n' % event_id)
        if acks:
            connection.sendall(b"".join(acks))
    write_out()


if __name__ == "__main__":
    main()
