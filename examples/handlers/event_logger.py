#!/usr/bin/python3
"""A Waymark handler in plain Python (standard library only): appends every event it is given
to a file, one JSON object per line, and acknowledges it.

Register it with, for example:
    waymark handlers add hut-log --exec examples/handlers/event_logger.py --regions hut -- --out /tmp/hut.jsonl

The protocol (docs/handlers.md): connect to the Unix socket in $WAYMARK_HANDLER_SOCKET, send
hello with $WAYMARK_HANDLER_NAME and $WAYMARK_HANDLER_TOKEN, then read JSON Lines. Each
{"type":"event","id":N,...} is acknowledged with {"type":"ack","id":N} once it is safely stored.

With --finish it also says {"type":"finished","useful":true,"through":N} after each
acknowledgement, so the daemon suspends it at once instead of at the end of its budget: quick
and truthful handlers keep their full background time (docs/handlers.md, "Standing").

Options used by Waymark's own tests: --no-ack (never acknowledge), --hold-task (begin a
background task at the first event and never end it), --crash (exit 3 at once),
--ask-remaining (ask backgroundTimeRemaining at welcome and at each change of state),
--log-sigterm (note SIGTERM in the file, then exit), --fetch-result newData|noData|failed
(answer each background fetch with finished and that result), --ballast MB (hold that much memory),
--task-seconds S (begin a background task at welcome and end it S seconds after it is granted).
"""
import argparse
import json
import os
import signal
import socket
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="file the events are appended to")
    parser.add_argument("--no-ack", action="store_true")
    parser.add_argument("--hold-task", action="store_true")
    parser.add_argument("--crash", action="store_true")
    parser.add_argument("--finish", action="store_true", help="say finished after each acknowledgement")
    parser.add_argument("--ask-remaining", action="store_true")
    parser.add_argument("--log-sigterm", action="store_true")
    parser.add_argument("--fetch-result", choices=["newData", "noData", "failed"])
    parser.add_argument("--ballast", type=int, default=0, help="megabytes to hold in memory")
    parser.add_argument("--task-seconds", type=float, help="begin a background task at welcome, end it this much later")
    args = parser.parse_args()
    ballast = bytearray(os.urandom(1024)) * (args.ballast * 1024)  # touched, so resident
    if args.crash:
        sys.exit(3)
    if args.log_sigterm:
        def terminated(signum, frame):
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps({"pid": os.getpid(), "notice": "SIGTERM"}) + "\n")
            sys.exit(0)
        signal.signal(signal.SIGTERM, terminated)

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(os.environ["WAYMARK_HANDLER_SOCKET"])
    # One file object to read and another to write: a single "rw" text wrapper loses buffered
    # input when it is written to.
    reader = connection.makefile("r", encoding="utf-8", newline="\n")
    writer = connection.makefile("w", encoding="utf-8", newline="\n")

    lock = threading.Lock()  # the task timer writes too

    def send(message):
        with lock:
            writer.write(json.dumps(message) + "\n")
            writer.flush()

    send({"type": "hello", "handler": os.environ["WAYMARK_HANDLER_NAME"],
          "token": os.environ.get("WAYMARK_HANDLER_TOKEN")})
    task_started = False
    for line in reader:  # ends when the daemon closes the connection
        message = json.loads(line)
        kind = message.get("type")
        with open(args.out, "a", encoding="utf-8") as out:
            if kind == "event":
                out.write(json.dumps({"pid": os.getpid(), "id": message["id"], "attempt": message["attempt"],
                                      "reason": message["reason"], "device": message.get("device"), "receivedAt": time.time(),
                                      "event": message["event"]}) + "\n")
            elif kind in ("welcome", "expiration", "willSuspend", "didResume", "didBecomeActive", "didEnterBackground",
                          "willTerminate", "didReceiveMemoryWarning", "backgroundTimeRemaining", "backgroundTask",
                          "backgroundTaskEnded", "error"):
                out.write(json.dumps({"pid": os.getpid(), "notice": kind, "message": message}) + "\n")
            out.flush()
            os.fsync(out.fileno())
        if args.task_seconds is not None and kind == "welcome":
            send({"type": "beginBackgroundTask", "name": "upload"})
        if args.task_seconds is not None and kind == "backgroundTask":
            end = {"type": "endBackgroundTask", "token": message["token"]}
            threading.Timer(args.task_seconds, send, [end]).start()
        if args.ask_remaining and kind in ("welcome", "didBecomeActive", "didEnterBackground", "didResume"):
            send({"type": "backgroundTimeRemaining"})
        if kind == "event":
            if not args.no_ack:
                send({"type": "ack", "id": message["id"]})
            if args.hold_task and not task_started:
                send({"type": "beginBackgroundTask", "name": "upload"})
                task_started = True
            if args.fetch_result and message["event"].get("kind") == "fetch":
                send({"type": "finished", "result": args.fetch_result, "through": message["id"]})
            elif args.finish:
                send({"type": "finished", "useful": not args.no_ack, "through": message["id"]})


if __name__ == "__main__":
    main()
