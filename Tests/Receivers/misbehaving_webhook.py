#!/usr/bin/env python3
"""A webhook receiver that misbehaves on purpose, for Waymark's tests of its webhook sender.

    misbehaving_webhook.py MODE PORT LOG [ARGS…]

Listens on 127.0.0.1:PORT; writes to LOG a line per request (`POST /hook 123`: method, path
and the body's size) and `closed` whenever the client closed a connection it was still writing
to. MODE:
  ok                 200, an empty answer
  redirect CODE TO   CODE (301, 307…) with Location http://127.0.0.1:TO/elsewhere
  trickle            the first request: a 200 head, then its body a byte a second, forever;
                     later requests: 200
  trickle-all        every request trickled
  flood              a 200 whose body never ends, written as fast as the client reads
"""
import socketserver
import sys
import threading
import time

mode, port, log, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
lock = threading.Lock()
requests = [0]


def note(line):
    with lock, open(log, "a") as f:
        f.write(line + "\n")


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        fields = (line.partition(":") for line in lines[1:])
        length = next((int(v) for k, _, v in fields if k.strip().lower() == "content-length"), 0)
        while len(body) < length:
            chunk = self.request.recv(65536)
            if not chunk:
                break
            body += chunk
        note(" ".join(lines[0].split(" ")[:2]) + " " + str(len(body)))
        with lock:
            requests[0] += 1
            first = requests[0] == 1
        try:
            if mode == "redirect":
                self.request.sendall(
                    b"HTTP/1.1 %s Moved\r\nLocation: http://127.0.0.1:%s/elsewhere\r\n" % (extra[0].encode(), extra[1].encode())
                    + b"Content-Length: 0\r\nConnection: close\r\n\r\n")
            elif mode == "trickle-all" or (mode == "trickle" and first):
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
                while True:
                    self.request.sendall(b"x")
                    time.sleep(1)
            elif mode == "flood":
                self.request.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
                while True:
                    self.request.sendall(b"x" * 65536)
            else:
                self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        except OSError:
            note("closed")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", port), Handler).serve_forever()
