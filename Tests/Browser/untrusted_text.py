#!/usr/bin/python3
"""Drives Waymark's web page in Debian's headless Chromium (Selenium + chromium-driver) with text
from outside planted in the daemon, and checks what issue 48 asks of the page:

- each `--payload` (an `<img src=x onerror=…>` as a region identifier, a phone's transition
  `desc`, the tiles' attribution, and optionally a transition `desc` sent over MQTT) is shown as text on the map's tooltips, the event lists and
  the attribution, and no script runs (`window.__pwned` stays undefined);
- the page and its scripts come with the Content-Security-Policy, which admits the configured
  tile server's images (tiles load, the console has no errors) and blocks an inline handler even
  where markup does get in;
- the token is kept neither in sessionStorage, localStorage nor a cookie;
- a page on another origin (served here on `--side-port`) cannot change state through the
  documented Unix-socket forward (a Python stand-in for socat on `--forward-port`): its form
  posts and fetches are answered 403, a JSON fetch is stopped at its preflight, while the page's
  own origin through the same forward still works.

Exits 0 when all hold, 1 with the failures listed. WebPageSecurityBrowserTests (Swift) runs it.
"""
import argparse
import http.server
import json
import re
import socket
import socketserver
import sys
import threading
import time
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import browser, check, finish, sign_in, wait


# A 1×1 PNG: every tile the side server is asked for.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f6f5"
    "d90000000049454e44ae426082")


def side_server(port, forward_port, tiles):
    """Another origin: tiles for the basemap, and a page that tries to change the daemon's state
    through the forward, as a form and as fetches."""
    target = f"http://127.0.0.1:{forward_port}"
    page = f"""<!doctype html><html><body>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="launch" method="POST" action="{target}/v1/handlers/logger/launch" target="sink1"></form>
<form id="register" method="POST" enctype="text/plain" action="{target}/v1/handlers" target="sink2"><input name='{{"name":"pwn","executable":"/bin/sh","x":"' value='"}}'></form>
<script src="/evil.js"></script></body></html>"""
    script = f"""
document.getElementById("launch").submit();
document.getElementById("register").submit();
fetch("{target}/v1/handlers", {{method: "POST", mode: "no-cors", body: '{{"name":"pwn2","executable":"/bin/sh"}}'}})
  .then(() => {{ window.__simple = "sent"; }}, () => {{ window.__simple = "failed"; }});
fetch("{target}/v1/handlers", {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: '{{"name":"pwn3","executable":"/bin/sh"}}'}})
  .then((r) => {{ window.__json = "answered " + r.status; }}, () => {{ window.__json = "refused"; }});
"""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.startswith("/tiles/"):
                tiles.append(self.path)
                body, kind = PNG, "image/png"
            elif self.path == "/evil.html":
                body, kind = page.encode(), "text/html"
            elif self.path == "/evil.js":
                body, kind = script.encode(), "text/javascript"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def forward(port, socket_path, exchanges):
    """What `socat TCP-LISTEN:PORT,bind=127.0.0.1,fork UNIX-CONNECT:SOCKET` does (docs/web.md),
    noting in `exchanges` each request's method, target and Origin with the daemon's status."""

    def pipe(source, sink, seen):
        try:
            while data := source.recv(65536):
                seen(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    class Relay(socketserver.BaseRequestHandler):
        def handle(self):
            pending = []  # this connection's requests still waiting for their status

            def request(data):
                for method, target in re.findall(rb"(?m)^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+) HTTP/1\.1\r$", data):
                    head = data.split(b"\r\n\r\n", 1)[0]
                    origin = re.search(rb"(?mi)^Origin: (.*)\r$", head)
                    exchange = [method.decode(), target.decode(), origin.group(1).decode() if origin else None, None]
                    pending.append(exchange)
                    exchanges.append(exchange)

            def response(data):
                for code in re.findall(rb"(?:^|\n)HTTP/1\.1 (\d{3}) ", data):
                    if pending:
                        pending.pop(0)[3] = int(code)

            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(socket_path)
            back = threading.Thread(target=pipe, args=(upstream, self.request, response), daemon=True)
            back.start()
            pipe(self.request, upstream, request)
            back.join(30)
            upstream.close()

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", port), Relay)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


HOVER = """
const p = arguments[0], r = p.getBoundingClientRect();
p.dispatchEvent(new MouseEvent('mouseover', {bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2}));
"""
TOOLTIPS = "return [...document.querySelectorAll('.leaflet-tooltip')].map(t => t.textContent)"
PWNED = "return window.__pwned === undefined ? null : String(window.__pwned)"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the TCP listener's page")
    parser.add_argument("--token", required=True)
    parser.add_argument("--socket", required=True, help="the daemon's Unix socket, for the forward")
    parser.add_argument("--side-port", type=int, required=True, help="another origin: the tile server and a hostile page")
    parser.add_argument("--forward-port", type=int, required=True)
    parser.add_argument("--payload", action="append", required=True,
                        help="region identifier, OwnTracks desc, attribution (in that order)")
    args = parser.parse_args()

    tiles, exchanges = [], []
    servers = [side_server(args.side_port, args.forward_port, tiles), forward(args.forward_port, args.socket, exchanges)]
    driver = browser(("browser", "performance"))
    try:
        run(driver, args, tiles, exchanges)
    finally:
        driver.quit()
        for server in servers:
            server.shutdown()
    return finish("untrusted text")


def run(driver, args, tiles, exchanges):
    region_id, desc, attribution = args.payload[:3]
    mqtt_desc = args.payload[3] if len(args.payload) > 3 else None

    # The page's own answers carry the policy and its companions.
    for path in ("/", "/web/app.js", "/v1/health"):
        with urllib.request.urlopen(args.url.rstrip("/") + path, timeout=20) as answer:
            policy = answer.headers.get("Content-Security-Policy") or ""
            check("script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy,
                  f"{path}: Content-Security-Policy is {policy!r}")
            check(f"http://127.0.0.1:{args.side_port}" in policy, f"{path}: the policy does not admit the tile server: {policy!r}")
            check(answer.headers.get("X-Content-Type-Options") == "nosniff", f"{path}: no X-Content-Type-Options: nosniff")
            check(answer.headers.get("X-Frame-Options") == "DENY", f"{path}: no X-Frame-Options: DENY")
            check(answer.headers.get("Referrer-Policy") == "no-referrer", f"{path}: no Referrer-Policy: no-referrer")

    if not sign_in(driver, args.url, args.token):
        return
    kept = driver.execute_script(
        "return JSON.stringify([Object.keys(sessionStorage), Object.keys(localStorage), document.cookie, document.getElementById('login-token').value])")
    check(args.token not in kept and kept == '[[],[],"",""]', f"the token is kept where script can read it: {kept}")

    # The region whose identifier is markup: its tooltip, its row.
    path = wait(driver, 20, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#map path')].find(p => p.getAttribute('data-region') === arguments[0])", region_id),
        "the payload region on the map")
    if path:
        driver.execute_script(HOVER, path)
        check(wait(driver, 10, lambda d: any(region_id in t for t in d.execute_script(TOOLTIPS)), "the region's tooltip"),
              f"the region's tooltip does not show its identifier as text: {driver.execute_script(TOOLTIPS)}")

    # The phone's transition, named by its desc, in the live list.
    check(wait(driver, 20, lambda d: any(desc in e.text for e in d.find_elements(By.CSS_SELECTOR, "#events li strong")), "the transition in the event list"),
          "the transition's desc is not shown as text in the event list")

    if mqtt_desc:
        check(wait(driver, 20, lambda d: any(mqtt_desc in e.text for e in d.find_elements(By.CSS_SELECTOR, "#events li strong")),
                   "the MQTT transition in the event list"),
              "the desc of the transition sent over MQTT is not shown as text in the event list")

    # The history's event markers: each one's tooltip.
    driver.find_element(By.ID, "tab-history").click()
    wait(driver, 30, lambda d: d.find_element(By.ID, "history-summary").get_attribute("data-points"), "the history")
    markers = driver.execute_script("return [...document.querySelectorAll('#map path')].filter(p => p.getAttribute('fill') === '#facc15')")
    check(len(markers) >= 2, f"{len(markers)} event markers in the history, expected the two enters at least")
    for marker in markers:
        driver.execute_script(HOVER, marker)
    shown = wait(driver, 10, lambda d: (lambda t: t if any(desc in x for x in t) and any(f"enter {region_id}" in x for x in t) else None)(d.execute_script(TOOLTIPS)),
                 "the event markers' tooltips")
    check(shown, f"the event tooltips do not show the region names as text: {driver.execute_script(TOOLTIPS)}")

    # The basemap: tiles from the configured origin, its credit as text.
    credit = driver.execute_script("const a = document.querySelector('.leaflet-control-attribution'); return a && a.textContent")
    check(credit is not None and attribution in credit, f"the attribution is not shown as text: {credit!r}")
    loaded = wait(driver, 20, lambda d: d.execute_script(
        "return [...document.querySelectorAll('img.leaflet-tile')].some(i => i.complete && i.naturalWidth > 0)"), "a tile to load")
    check(loaded and tiles, f"no tile loaded from the configured tile server ({len(tiles)} asked for)")

    check(driver.execute_script(PWNED) is None, f"a payload ran: window.__pwned = {driver.execute_script(PWNED)}")
    check(driver.execute_script("return document.querySelectorAll('img[src=\"x\"], img[onerror]').length") == 0,
          "a payload became an element")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"console errors (a Content-Security-Policy refusal among them?): {errors}")

    # Second layer: markup that does get in still cannot run an inline handler.
    driver.execute_script("document.body.insertAdjacentHTML('beforeend', '<img src=x onerror=\"window.__pwned=99\">')")
    time.sleep(1)
    check(driver.execute_script(PWNED) is None, "the Content-Security-Policy let an inline handler run")
    blocked = [entry for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
    check(blocked, "Chromium reported no Content-Security-Policy refusal for the inline handler")

    cross_origin(driver, args, exchanges)


def cross_origin(driver, args, exchanges):
    """Another origin's page posts to the daemon through the forward (what the daemon answered,
    as the forward saw it); the page's own origin through the same forward still may."""
    driver.get(f"http://127.0.0.1:{args.side_port}/evil.html")
    wait(driver, 20, lambda d: d.execute_script("return window.__simple && window.__json"), "the hostile page's fetches")
    check(driver.execute_script("return window.__json") == "refused",
          f"a JSON fetch from another origin was not stopped at its preflight: {driver.execute_script('return window.__json')}")
    hostile = f"http://127.0.0.1:{args.side_port}"
    posts = lambda: [e for e in exchanges if e[2] == hostile and e[0] == "POST"]
    wait(driver, 10, lambda d: len(posts()) >= 3 and all(e[3] is not None for e in posts()), "the hostile page's three posts")
    check(len(posts()) == 3 and all(e[3] == 403 for e in posts()),
          f"posts from another origin (two forms, a no-cors fetch) were not all refused 403: {posts()}")
    check(all(e[3] is not None and e[3] >= 400 for e in exchanges if e[2] == hostile),
          f"the daemon said yes to another origin: {[e for e in exchanges if e[2] == hostile]}")

    # The page itself through the forward: no token, same origin, allowed.
    driver.get(f"http://127.0.0.1:{args.forward_port}/")
    wait(driver, 20, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live", "the page through the forward")
    status = driver.execute_async_script(
        "const done = arguments[0]; fetch('/v1/handlers/logger/launch', {method: 'POST'}).then(r => done(r.status), e => done(String(e)))")
    check(status == 204, f"the page's own origin through the forward could not launch a handler: {status}")


if __name__ == "__main__":
    sys.exit(main())
