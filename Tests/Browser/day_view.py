#!/usr/bin/python3
"""Drives the web page's day view (docs/timeline/web.md) in Debian's headless Chromium against a
daemon that has replayed a track with a stop, and checks it against the track itself:

- the date picker starts on the track's day (the latest day with data);
- the stop is listed as a stay named by the user's region holding it, at the local time the
  track stopped (within the detector's few minutes), in the time zone the page says;
- the rides before and after it are listed as trips with a mode, a distance in km, and the places
  they joined, and drawn on the map in their mode's colour, as the legend gives it;
- the stay is a named marker on the map; choosing its list entry with the keyboard centres it;
- the Day tab is reached with the arrow keys; every control has a name; at 390 px nothing
  overflows and the list is under the map; every request is documented; no console errors.

Exits 0 when all hold, 1 with the failures listed. DayViewBrowserTests (Swift) runs it.
"""
import json
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import check, check_page_rules, daemon_arguments, drive, metres, sign_in, wait


def track_stop(gpx, centre, radius):
    """(arrival, departure) in UTC of the longest run of the track's points within `radius` m of
    `centre` that moved less than 15 m over the 30 s around them (the noise is a few metres, the
    ride 150 m in that time): the track's own account of the stop."""
    ns = {"g": "http://www.topografix.com/GPX/1/1"}
    points = []
    for point in ElementTree.parse(gpx).getroot().iterfind(".//g:trkpt", ns):
        at = datetime.fromisoformat(point.find("g:time", ns).text.replace("Z", "+00:00"))
        points.append((at, (float(point.get("lat")), float(point.get("lon")))))
    half = 15
    still = [half <= i < len(points) - half and metres(points[i - half][1], points[i + half][1]) < 15
             and metres(points[i][1], centre) <= radius for i in range(len(points))]
    best, start = None, None
    for index, now in enumerate(still + [False]):
        if now and start is None:
            start = index
        elif not now and start is not None:
            run = (points[start][0], points[index - 1][0])
            if best is None or run[1] - run[0] > best[1] - best[0]:
                best = run
            start = None
    return best


def region(path, identifier):
    with open(path) as file:
        for feature in json.load(file)["features"]:
            if feature.get("id") == identifier:
                longitude, latitude = feature["geometry"]["coordinates"]
                return feature["properties"]["name"], (latitude, longitude), feature["properties"]["radius"]
    raise RuntimeError(f"no region {identifier} in {path}")


def clock_minutes(text):
    hours, minutes = text.strip()[-5:].split(":")
    return int(hours) * 60 + int(minutes)


def main():
    parser = daemon_arguments()
    parser.add_argument("--track", required=True, help="the replayed GPX track")
    parser.add_argument("--regions", required=True, help="the GeoJSON regions the daemon was given")
    parser.add_argument("--stop-region", required=True, help="the region the track stops in")
    parser.add_argument("--start-region", required=True, help="the region the track starts and ends in")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    return drive(run, args, "day view")


def replayed(args, last):
    """Whether the store holds the track's last fix."""
    result = subprocess.run([args.waymark, "history", "--db", args.db, "--kind", "fix", "--from", last, "--limit", "1"],
                            capture_output=True, text=True, timeout=60)
    return result.returncode == 0 and bool(result.stdout.strip())


def run(driver, args):
    stop_name, stop_centre, stop_radius = region(args.regions, args.stop_region)
    start_name, _, _ = region(args.regions, args.start_region)
    stop = track_stop(args.track, stop_centre, stop_radius)
    if not check(stop and stop[1] - stop[0] >= timedelta(minutes=5), f"the track has no stop in {args.stop_region}: {stop}"):
        return
    times = re.findall(r"<time>([^<]+)</time>", open(args.track).read())
    deadline = time.time() + 120
    while time.time() < deadline and not replayed(args, times[-1]):
        time.sleep(0.5)

    if not sign_in(driver, args.url, args.token):
        return

    # The Day tab, reached from History with the arrow key as the tab pattern has it.
    driver.find_element(By.ID, "tab-history").click()
    driver.find_element(By.ID, "tab-history").send_keys(Keys.ARROW_RIGHT)
    check(driver.find_element(By.ID, "tab-day").get_attribute("aria-selected") == "true", "the arrow key did not reach the Day tab")
    check(driver.switch_to.active_element.get_attribute("id") == "tab-day", "the Day tab does not have the focus")
    summary = wait(driver, 30, lambda d: d.find_element(By.ID, "day-summary").get_attribute("data-entries"), "the day's timeline")
    if summary is None:
        return
    day = driver.find_element(By.ID, "day-date").get_attribute("value")
    check(day == times[-1][:10], f"the date picker starts on {day}, not the track's day {times[-1][:10]}")
    zone = driver.find_element(By.ID, "day-summary").get_attribute("data-time-zone")
    check(zone and driver.find_element(By.ID, "day-summary").text.endswith(zone), f"the summary does not say the time zone: {driver.find_element(By.ID, 'day-summary').text}")
    local = ZoneInfo(zone or "UTC")

    # The stop: a stay named by its region, at the local time the track stopped.
    stays = driver.find_elements(By.CSS_SELECTOR, "#day-entries li[data-kind=stay]")
    named = [item for item in stays if item.get_attribute("data-place") == stop_name]
    if check(len(named) == 1, f"no single stay named {stop_name!r}: {[s.text for s in stays]}"):
        item = named[0]
        shown = item.find_elements(By.CSS_SELECTOR, ".when time")
        arrival = stop[0].astimezone(local)
        departure = stop[1].astimezone(local)
        check(len(shown) == 2, f"the stay shows {len(shown)} times: {item.text}")
        if len(shown) == 2:
            for label, element, expected in (("arrival", shown[0], arrival), ("departure", shown[1], departure)):
                minutes = clock_minutes(element.text)
                want = expected.hour * 60 + expected.minute
                check(abs(minutes - want) <= 3, f"the stay's {label} reads {element.text}; the track stopped at {expected:%H:%M} {zone}")
        check(stop_name in item.text and "min" in item.text, f"the stay's entry: {item.text}")

    # The rides: trips with a mode, a distance and the places they joined, drawn in their colour.
    trips = driver.find_elements(By.CSS_SELECTOR, "#day-entries li[data-kind=trip]")
    check(len(trips) >= 2, f"{len(trips)} trips listed: the ride to the stop and back are two")
    legend = {item.get_attribute("data-mode"): driver.execute_script(
        "return getComputedStyle(arguments[0].querySelector('.swatch')).backgroundColor", item)
        for item in driver.find_elements(By.CSS_SELECTOR, "#day-legend li")}
    for trip in trips:
        mode = trip.get_attribute("data-mode")
        check(mode in legend, f"a trip's mode {mode!r} is not in the legend {sorted(legend)}")
        check(re.search(r"\d+(\.\d+)? k?m\b", trip.text), f"a trip without a distance: {trip.text}")
    if trips:
        check(start_name in trips[0].text and stop_name in trips[0].text, f"the first trip does not join {start_name} to {stop_name}: {trips[0].text}")
    lines = driver.find_elements(By.CSS_SELECTOR, "#map path[data-trip]")
    check(len(lines) == len(trips), f"{len(lines)} trips drawn for {len(trips)} listed")
    for line in lines:
        mode = line.get_attribute("data-trip")
        stroke = driver.execute_script("return getComputedStyle(arguments[0]).stroke", line)
        check(stroke == legend.get(mode), f"a {mode} trip is drawn in {stroke}, the legend says {legend.get(mode)}")
    tooltips = [tip.text for tip in driver.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip.stay-name")]
    check(stop_name in tooltips, f"the map does not name the stay: {tooltips}")

    # Choosing the stay's entry with the keyboard shows it on the map: its marker in the middle.
    if named:
        button = named[0].find_element(By.CSS_SELECTOR, "button.entry")
        driver.execute_script("arguments[0].focus()", button)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        check(wait(driver, 5, lambda d: named[0].get_attribute("aria-current") == "true", "the chosen entry marked"), "the chosen stay is not marked")
        time.sleep(0.6)
        offset = driver.execute_script("""
            const marker = document.querySelector(`#map path[data-stay='${arguments[0]}']`).getBoundingClientRect();
            const map = document.getElementById('map').getBoundingClientRect();
            return Math.hypot(marker.x + marker.width / 2 - (map.x + map.width / 2), marker.y + marker.height / 2 - (map.y + map.height / 2));""",
            stop_name)
        check(offset < 30, f"the chosen stay is {offset:.0f} px from the map's centre")
    if args.screenshot:
        driver.save_screenshot(args.screenshot)

    # A phone: the list under the map; then the page's own rules.
    driver.set_window_size(390, 844)
    time.sleep(0.5)
    below = driver.execute_script(
        "return document.getElementById('day-entries').getBoundingClientRect().top >= document.getElementById('map').getBoundingClientRect().bottom")
    check(below, "on a phone the day's list is not under the map")
    requested = check_page_rules(driver, args.openapi)
    check("/v1/timeline" in requested, "the day view did not ask GET /v1/timeline")


if __name__ == "__main__":
    sys.exit(main())
