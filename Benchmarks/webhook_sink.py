"""The benchmarks' webhook receiver (webhook_outputs.py, fleet_ingest.py)."""
import asyncio, hashlib, hmac, json, threading, time


class Receiver:
    """A fast webhook receiver: keep-alive HTTP/1.1 on asyncio, 204 to everything while up."""

    def __init__(self, port, secret):
        self.port, self.secret = port, secret
        self.arrivals = []  # (arrival, event)
        self.bad_signatures = 0
        self.loop = asyncio.new_event_loop()
        self.server = None
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    async def handle(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                headers = dict(line.split(": ", 1) for line in head.decode().split("\r\n")[1:] if ": " in line)
                body = await reader.readexactly(int(headers.get("Content-Length", "0")))
                arrived = time.time()
                event = json.loads(body)
                if len(self.arrivals) % 100 == 0:
                    fields = dict(p.split("=", 1) for p in headers.get("Waymark-Signature", "").split(","))
                    expected = hmac.new(self.secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
                    if not hmac.compare_digest(expected, fields.get("v1", "")):
                        self.bad_signatures += 1
                self.arrivals.append((arrived, event))
                writer.write(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def start(self):
        async def up():
            self.server = await asyncio.start_server(self.handle, "127.0.0.1", self.port)
        asyncio.run_coroutine_threadsafe(up(), self.loop).result()

    def stop(self):
        async def down():
            self.server.close()
            self.server.close_clients() if hasattr(self.server, "close_clients") else None
            await self.server.wait_closed()
        asyncio.run_coroutine_threadsafe(down(), self.loop).result(30)
