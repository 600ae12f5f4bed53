#!/usr/bin/env python3
"""Sends a GPX track's points as OwnTracks location messages, for several devices at once,
to a Waymark device listener (single daemon or fleet ingest node): the way phones in HTTP
mode send them, batched as the apps do when they have queued messages.

    feed_owntracks.py URL TRACK.gpx NAME:SECRET [NAME:SECRET ...] [--batch N] [--pause S]

Each device sends the whole track in order, one request at a time (a phone does not send its
next batch before the last was answered); devices send concurrently. Prints one JSON line
with the fixes sent and the requests' latencies, and exits 1 if any request was not 200.
"""
import argparse
import base64
import json
import sys
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET
from datetime import datetime

GPX = "{http://www.topografix.com/GPX/1/1}"


def points(path):
    """(lat, lon, ele, seconds) of the track's timed points. Only for the project's own
    tracks: ElementTree must not parse untrusted XML."""
    result = []
    for point in ET.parse(path).getroot().iter(GPX + "trkpt"):
        when = point.find(GPX + "time")
        if when is None:
            continue
        seconds = int(datetime.fromisoformat(when.text.replace("Z", "+00:00")).timestamp())
        ele = point.find(GPX + "ele")
        result.append((point.get("lat"), point.get("lon"), None if ele is None else ele.text, seconds))
    return result


def send(url, device, secret, track, batch, pause, latencies, failures, lock):
    token = base64.b64encode(f"{device}:{secret}".encode()).decode()
    for start in range(0, len(track), batch):
        messages = []
        for lat, lon, ele, seconds in track[start:start + batch]:
            # The coordinates as the GPX spells them: the fix is the replayed one, bit for bit.
            body = f'{{"_type":"location","lat":{lat},"lon":{lon},"tst":{seconds},"tid":"wm"'
            if ele is not None:
                body += f',"alt":{ele}'
            messages.append(body + "}")
        request = urllib.request.Request(
            url + "/v1/owntracks", data=("[" + ",".join(messages) + "]").encode(), method="POST",
            headers={"Content-Type": "application/json", "Authorization": "Basic " + token,
                     "X-Limit-U": device, "X-Limit-D": device})
        began = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.read()
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        except OSError as error:
            status = str(error)
        with lock:
            latencies.append(time.monotonic() - began)
            if status != 200:
                failures.append(f"{device} batch {start // batch}: {status}")
        if pause:
            time.sleep(pause)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("track")
    parser.add_argument("devices", nargs="+")
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--pause", type=float, default=0)
    args = parser.parse_args()
    track = points(args.track)
    latencies, failures, lock = [], [], threading.Lock()
    threads = []
    began = time.monotonic()
    for pair in args.devices:
        device, secret = pair.split(":", 1)
        thread = threading.Thread(target=send, args=(args.url, device, secret, track, args.batch, args.pause, latencies, failures, lock))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    latencies.sort()
    print(json.dumps({
        "fixes": len(track) * len(args.devices), "requests": len(latencies), "seconds": round(time.monotonic() - began, 3),
        "p50": latencies[len(latencies) // 2] if latencies else None,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None,
        "failures": failures[:10]}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
