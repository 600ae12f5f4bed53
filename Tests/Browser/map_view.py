#!/usr/bin/python3
"""Checks the web page's map (issue 42) in Debian's headless Chromium against a daemon replaying
one of `map_tracks.py`'s tracks over its regions; `--scenario` names which:

- scale: a circle region is drawn at its true radius: its drawn width against the scale bar's
  metres per pixel, within 10 %, at 47° and at 65° (each circle centred, so the scale bar, which
  is for the map's centre, is for the circle's latitude); a geodesic polygon, not a dot; the
  legend, a region's name on hover, and "Fit everything";
- basemap: with no tiles configured, the installed basemap's tiles load from the page's own
  `/v1/tiles` and nowhere else, and the attribution names its source (skipped, saying so, when
  the basemap is not installed);
- trail: the device's trail covers about the selected minutes (its drawn length against the
  scale bar and the track's speed), older parts fainter;
- follow: with follow on, the moving device stays in view in at least 95 % of samples over 20 s
  of a fast replay, on a desktop and on a phone; dragging the map turns follow off and the map
  then stays put while fixes arrive;
- devices: the receiver and a phone posting OwnTracks over HTTP, both drawn with "All devices"
  in two colours and listed in the legend; choosing one hides the other;
- locate: an event's "Show on the map" centres the map on it, turns follow off and opens the
  event's explanation;
- history: opening History sets the range to the latest local day with data (in the browser's
  zone, Asia/Tokyo here), the calendar marks the days with data and not the others, and the heat
  map draws;
- ride: the project's sample ride over its sample regions (not a check of its own: the README's
  picture, taken with `--screenshot`): every region drawn, History opening on the whole ride;
- a11y: regions listed in natural order (c3, c11, c12), the drop zone named and opened with
  Enter, and the page's rules (browser_support.check_page_rules: every focusable node of
  Chromium's accessibility tree named in each view, the header on one row at 390 px).

Every scenario also applies check_page_rules. Exits 0 when all hold, 1 with the failures listed.
MapViewBrowserTests (Swift) runs it.
"""
import base64
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser_support import check, check_page_rules, daemon_arguments, drive, failures, metres, sign_in, wait
from map_tracks import scenario

BASEMAP = "/usr/local/share/waymark/basemap.mbtiles"


def replayed(driver, args, fix):
    """Waits until the daemon has stored the track's last fix (`waymark history`)."""
    last = fix[2].strftime("%Y-%m-%dT%H:%M:%SZ")

    def stored(_):
        try:
            result = subprocess.run([args.waymark, "history", "--db", args.db, "--kind", "fix", "--from", last, "--limit", "1"],
                                    capture_output=True, text=True, timeout=60)
        except OSError:  # the executable being rebuilt ("text file busy"): ask again
            return False
        return bool(result.stdout.strip())
    return wait(driver, 120, stored, "the replay's last fix to be stored")


def settle(driver):
    """Waits until the map stops moving (pans and zooms are animated)."""
    state = "const p = document.querySelector('#map .leaflet-map-pane'); const s = document.querySelector('.leaflet-control-scale-line');" \
            "return [p && p.style.transform, s && s.textContent, s && s.style.width, document.querySelector('#map').className].join('|')"
    previous, same = None, 0
    for _ in range(40):
        now = driver.execute_script(state)
        same = same + 1 if now == previous else 0
        if same >= 2:
            return
        previous = now
        time.sleep(0.2)


def metres_per_pixel(driver):
    """The scale bar's metres per CSS pixel (Leaflet's, at the map's vertical centre)."""
    text, width = driver.execute_script(
        "const s = document.querySelector('#map .leaflet-control-scale-line'); return s ? [s.textContent, s.style.width] : [null, null]")
    match = re.fullmatch(r"\s*([\d.]+)\s*(m|km)\s*", text or "")
    if not check(match and width, f"no readable scale bar: {text!r} {width!r}"):
        return None
    return float(match.group(1)) * (1000 if match.group(2) == "km" else 1) / float(width.replace("px", ""))


def rect(driver, selector):
    return driver.execute_script("const e = document.querySelector(arguments[0]); if (!e) return null;"
                                 "const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}", selector)


def click_tab(driver, name):
    driver.find_element(By.ID, f"tab-{name}").click()
    time.sleep(0.3)


def follow_off(driver):
    found = driver.find_elements(By.ID, "follow")
    if not check(found, "no button#follow"):
        return
    button = found[0]
    if button.get_attribute("aria-pressed") == "true":
        button.click()
    check(button.get_attribute("aria-pressed") == "false", "#follow did not turn off when clicked")


# --- a: regions at their true size ---

def check_scale(driver, args, data):
    follow_off(driver)
    radius = data["radius"]
    for region in ("c47", "c65"):
        click_tab(driver, "regions")
        show = wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f"#region-rows tr[data-region='{region}'] button.link"), f"region {region}'s row")
        if not show:
            continue
        show[0].click()
        settle(driver)
        path = f"#map path[data-region='{region}']"
        shape = driver.execute_script("const p = document.querySelector(arguments[0]); return p && p.getAttribute('d')", path)
        if not check(shape, f"region {region} is not drawn as a path with data-region"):
            continue
        check(not re.search(r"[aA]", shape), f"region {region} is drawn with arcs (a circle marker or a projected circle), not a geodesic polygon")
        box = rect(driver, path)
        per_pixel = metres_per_pixel(driver)
        # Shown by its button, a circle fills much of the map: a dot or an unzoomed map is no measure.
        if per_pixel and check(min(box["width"], box["height"]) >= 100,
                               f"region {region}, shown by its button, is drawn {box['width']:.0f} × {box['height']:.0f} px: too small to measure"):
            drawn = (box["width"] + box["height"]) / 2 * per_pixel
            print(f"{region}: drawn diameter {drawn:.0f} m ({box['width']:.1f} × {box['height']:.1f} px at {per_pixel:.3f} m/px), true {2 * radius} m")
            check(abs(drawn / (2 * radius) - 1) <= 0.10,
                  f"region {region} is drawn {drawn:.0f} m across by the scale bar ({box['width']:.0f} px × {per_pixel:.2f} m/px); its diameter is {2 * radius} m")

    # The legend: one entry per state colour, in words.
    states = driver.execute_script(
        "const l = document.getElementById('map-legend'); return l ? [l.getAttribute('role'), l.getAttribute('aria-label'),"
        " [...l.querySelectorAll('li[data-state]')].map(li => [li.dataset.state, li.textContent.trim()])] : null")
    if check(states, "no #map-legend on the map"):
        role, label, entries = states
        check(role == "group" and label == "Legend", f"#map-legend has role {role!r} and name {label!r}, not group / Legend")
        check(sorted(state for state, _ in entries) == ["inside", "outside", "unknown"], f"the legend's states: {entries}")
        check(all(state in text.lower() for state, text in entries), f"the legend does not say each state in words: {entries}")

    # A region's name on hover.
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "#map path[data-region='c65']")).perform()
    check(wait(driver, 5, lambda d: any("c65" in t.text for t in d.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip")), "c65's tooltip"),
          "hovering region c65 shows no tooltip naming it")

    # Fit everything: both circles (2,000 km apart) and the device in view.
    click_tab(driver, "live")
    driver.find_element(By.ID, "fit-all").click()
    settle(driver)
    inside = driver.execute_script("""
        const map = document.getElementById('map').getBoundingClientRect();
        return [...document.querySelectorAll("#map path[data-region], #map path[data-device]")].map(p => {
            const r = p.getBoundingClientRect();
            return [p.dataset.region || p.dataset.device, r.left >= map.left - 1 && r.right <= map.right + 1 && r.top >= map.top - 1 && r.bottom <= map.bottom + 1];
        });""")
    check(inside and all(ok for _, ok in inside), f"after Fit everything, not everything is in view: {inside}")


# --- b: the basemap, offline ---

def check_basemap(driver, args, data):
    origin = args.url.rstrip("/")
    # The basemap may stop at a low zoom: zoom out (the page's own button) until tiles with
    # pixels show, as a user would.
    loaded = "return [...document.querySelectorAll('#map img.leaflet-tile-loaded')].filter(i => i.naturalWidth > 0).length"
    for _ in range(14):
        if wait(driver, 6, lambda d: d.execute_script(loaded) > 0, "basemap tiles") is not None:
            break
        failures.pop()
        buttons = driver.find_elements(By.CSS_SELECTOR, "#map .leaflet-control-zoom-out:not(.leaflet-disabled)")
        if not buttons:
            break
        buttons[0].click()
        settle(driver)
    count = driver.execute_script(loaded)
    check(count > 0, "no basemap tile with pixels loaded at any zoom")
    print(f"basemap: {count} tiles with pixels, scale bar {driver.find_element(By.CSS_SELECTOR, '.leaflet-control-scale-line').text}")
    entries = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    tiles = [entry for entry in entries if "/tiles/" in entry]
    check(tiles, "the page requested no /v1/tiles")
    foreign = [entry for entry in entries if not entry.startswith(origin + "/")]
    check(not foreign, f"the page requested something not from its own origin: {foreign[:5]}")
    check(all(entry.startswith(origin + "/v1/tiles/") for entry in tiles), f"tiles requested elsewhere than /v1/tiles: {tiles[:5]}")
    credit = driver.execute_script("const a = document.querySelector('#map .leaflet-control-attribution'); return a ? a.textContent : ''")
    with sqlite3.connect(f"file:{BASEMAP}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM metadata WHERE name = 'attribution'").fetchone()
    source = (row[0] if row else "").strip()
    check(source, f"{BASEMAP} has no attribution in its metadata")
    check(source and source in credit, f"the attribution {credit!r} does not name the basemap's source {source!r}")


# --- c: the trail ---

def trail(driver, device):
    """[(stroke-opacity, centre y, rect)] of the device's trail paths."""
    return driver.execute_script("""
        return [...document.querySelectorAll(`#map path.trail[data-device='${arguments[0]}']`)].map(p => {
            const r = p.getBoundingClientRect();
            const opacity = p.getAttribute('stroke-opacity') ?? getComputedStyle(p).strokeOpacity;
            return [parseFloat(opacity), r.y + r.height / 2, {top: r.top, bottom: r.bottom, height: r.height}];
        }).filter(([, , r]) => r.height > 0);""", device)


def trail_metres(driver, paths):
    top = min(r["top"] for _, _, r in paths)
    bottom = max(r["bottom"] for _, _, r in paths)
    per_pixel = metres_per_pixel(driver)
    return (bottom - top) * per_pixel if per_pixel else None


def check_trail(driver, args, data):
    replayed(driver, args, data["track"][-1])
    time.sleep(1)
    minutes = driver.find_element(By.ID, "trail-minutes")
    check(minutes.get_attribute("value") == "10", f"the trail's default is {minutes.get_attribute('value')} minutes, not 10")
    options = [o.get_attribute("value") for o in Select(minutes).options]
    check(options == ["2", "10", "30", "60"], f"the trail's choices: {options}")
    # Zoom out twice (the whole 3 km trail in view), after which follow is off and nothing moves.
    for _ in range(2):
        driver.find_element(By.CSS_SELECTOR, "#map .leaflet-control-zoom-out").click()
        settle(driver)
    speed = data["metres_per_second"]
    for chosen in ("10", "2"):
        Select(minutes).select_by_value(chosen)
        time.sleep(0.5)
        paths = trail(driver, "local")
        if not check(paths, f"no trail (path.trail[data-device=local]) with {chosen} minutes"):
            continue
        length = trail_metres(driver, paths)
        expected = int(chosen) * 60 * speed
        print(f"trail, {chosen} min: {len(paths)} paths, {length:.0f} m drawn; {expected} m expected")
        check(length and abs(length / expected - 1) <= 0.2, f"the {chosen}-minute trail covers {length:.0f} m; {chosen} minutes at {speed} m/s is {expected} m")
        if chosen == "10":
            # North-bound: the older a part, the lower on the screen; it must be fainter.
            by_age = [opacity for opacity, _, _ in sorted(paths, key=lambda p: -p[1])]
            check(len(by_age) >= 2 and by_age[0] < by_age[-1] and all(a <= b + 1e-6 for a, b in zip(by_age, by_age[1:])),
                  f"the trail does not fade with age (stroke-opacity oldest to newest: {by_age})")


# --- d: follow ---

def sample_in_view(driver, device, seconds):
    """(in view, samples) of the device's marker over `seconds`, counted while it moves."""
    script = """
        const m = document.querySelector(`#map path[data-device='${arguments[0]}']:not(.trail)`);
        const p = document.getElementById('position').dataset.latitude;
        if (!m) return [null, p];
        const r = m.getBoundingClientRect(), c = document.getElementById('map').getBoundingClientRect();
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        return [x >= Math.max(c.left, 0) && x <= Math.min(c.right, innerWidth) && y >= Math.max(c.top, 0) && y <= Math.min(c.bottom, innerHeight), p];"""
    inside = total = 0
    previous = None
    end = time.time() + seconds
    while time.time() < end:
        seen, position = driver.execute_script(script, device)
        if position != previous:
            total += 1
            inside += bool(seen)
        previous = position
        time.sleep(0.2)
    return inside, total


def check_follow(driver, args, data):
    follow = wait(driver, 20, lambda d: d.find_elements(By.ID, "follow"), "the follow button")
    if not follow:
        return
    check(follow[0].get_attribute("aria-pressed") == "true", "follow is not on by default")
    where = lambda: [float(driver.find_element(By.ID, "position").get_attribute(f"data-{axis}")) for axis in ("latitude", "longitude")]
    for size, (width, height) in (("desktop", (1280, 800)), ("phone", (390, 844))):
        driver.set_window_size(width, height)
        time.sleep(0.5)
        start, per_pixel = where(), metres_per_pixel(driver)
        across = driver.execute_script("return document.getElementById('map').getBoundingClientRect().width") * (per_pixel or 0)
        inside, total = sample_in_view(driver, "local", 20)
        share = inside / total if total else 0
        travelled = metres(start, where())
        print(f"follow, {size}: the marker in view in {inside} of {total} samples ({share:.0%}); "
              f"it travelled {travelled / 1000:.1f} km across a map {across / 1000:.1f} km wide")
        # Staying in view must take following: a map zoomed out over the whole drive would pass.
        check(travelled >= 2 * across, f"follow, {size}: the map is {across / 1000:.1f} km wide; the device travelled only {travelled / 1000:.1f} km")
        check(total >= 30, f"follow, {size}: only {total} samples while the device moved (is the replay over?)")
        check(share >= 0.95, f"follow, {size}: the moving marker was in view in {share:.0%} of {total} samples, not 95 % "
                             f"(follow then {follow[0].get_attribute('aria-pressed')})")

    # Dragging the map turns follow off; the map then stays where it was left.
    driver.set_window_size(1280, 800)
    time.sleep(0.5)
    settle(driver)
    chain = ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), -150, -120).click_and_hold()
    for _ in range(6):
        chain = chain.move_by_offset(25, 15).pause(0.05)
    chain.pause(0.3).release().perform()
    check(follow[0].get_attribute("aria-pressed") == "false", "after dragging the map, follow is still on")
    settle(driver)
    visible = """
        const c = document.getElementById('map').getBoundingClientRect();
        const p = [...document.querySelectorAll('#map path[data-region]')].find(p => { const r = p.getBoundingClientRect();
            return r.width > 0 && r.right > c.left && r.left < c.right && r.bottom > c.top && r.top < c.bottom; });
        return p ? p.dataset.region : null;"""
    region = driver.execute_script(visible)
    if not check(region, "after the drag no region is in view to watch"):
        return
    before = rect(driver, f"#map path[data-region='{region}']")
    start = driver.find_element(By.ID, "position").get_attribute("data-latitude")
    time.sleep(3)
    after = rect(driver, f"#map path[data-region='{region}']")
    moving = driver.find_element(By.ID, "position").get_attribute("data-latitude") != start
    check(moving, "no fixes arrived after the drag (is the replay over?)")
    check(abs(before["x"] - after["x"]) < 1 and abs(before["y"] - after["y"]) < 1,
          f"with follow off the map moved: region {region} from {before} to {after}")


# --- e: two devices ---

def post_phone(args, data):
    """The phone's OwnTracks locations over the device listener (docs/devices.md)."""
    latitude, longitude = data["phone"]
    now = int(time.time())
    batch = [{"_type": "location", "lat": latitude, "lon": longitude + 0.0001 * i, "tst": now - 120 + 30 * i, "acc": 5, "t": "u", "tid": "ph"}
             for i in range(3)]
    credentials = base64.b64encode(f"{args.device_user}:{args.device_secret}".encode()).decode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{args.device_port}/v1/owntracks", data=json.dumps(batch).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Basic {credentials}",
                 "X-Limit-U": args.device_user, "X-Limit-D": args.device_name})
    for _ in range(40):
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return check(answer.status == 200, f"OwnTracks post answered {answer.status}")
        except OSError:
            time.sleep(0.5)
    return check(False, f"the device listener on {args.device_port} never answered")


def markers(driver):
    """{device: fill} of the device markers drawn and visible."""
    return dict(driver.execute_script("""
        return [...document.querySelectorAll('#map path[data-device]:not(.trail)')].filter(p => {
            const r = p.getBoundingClientRect(), s = getComputedStyle(p);
            return r.width > 0 && s.display !== 'none' && s.visibility !== 'hidden' && parseFloat(s.opacity) > 0
                && parseFloat(p.getAttribute('fill-opacity') ?? '1') > 0;
        }).map(p => [p.dataset.device, p.getAttribute('fill')]);"""))


def check_devices(driver, args, data):
    phone = args.device_name
    select = Select(driver.find_element(By.ID, "device"))
    first = select.options[0]
    check(first.get_attribute("value") == "*" and first.text == "All devices", f"select#device's first option is {first.get_attribute('value')!r} {first.text!r}")
    check(wait(driver, 10, lambda d: d.find_element(By.ID, "device").get_attribute("value") == "*", "All devices by default"),
          "with two devices with fixes the page does not start on All devices")
    shown = wait(driver, 15, lambda d: len(markers(d)) >= 2 and markers(d), "both devices' markers")
    if shown:
        check(set(shown) >= {"local", phone}, f"markers drawn: {shown}")
        check(shown.get("local") != shown.get(phone), f"both devices are drawn in the same colour: {shown}")
    legend = driver.execute_script("return [...document.querySelectorAll('#device-legend li[data-device]')].map(li => [li.dataset.device, li.textContent])")
    check({name for name, _ in legend} >= {"local", phone}, f"#device-legend lists {legend}")
    select.select_by_value("local")
    time.sleep(1)
    alone = markers(driver)
    check("local" in alone and phone not in alone, f"with local chosen the markers drawn are {alone}")
    select.select_by_value(phone)
    time.sleep(1)
    alone = markers(driver)
    check(phone in alone and "local" not in alone, f"with {phone} chosen the markers drawn are {alone}")
    select.select_by_value("*")


# --- f: an event on the map ---

def check_locate(driver, args, data):
    entry = wait(driver, 30, lambda d: d.find_elements(By.CSS_SELECTOR, "#events li[data-transition=enter] button.locate"), "an entry's Show on the map")
    if not entry:
        return
    button = entry[0]
    label = button.get_attribute("aria-label") or ""
    check(label.startswith("Show on the map: ") and "pond" in label, f"the locate button's name: {label!r}")
    # Move the map away first, so that centring is seen to happen.
    ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), -100, -100).click_and_hold() \
        .move_by_offset(120, 90).pause(0.3).release().perform()
    settle(driver)
    button.click()
    settle(driver)
    offset = driver.execute_script("""
        const f = document.querySelector('#map path.event-focus'); if (!f) return null;
        const r = f.getBoundingClientRect(), c = document.getElementById('map').getBoundingClientRect();
        return Math.hypot(r.x + r.width / 2 - (c.x + c.width / 2), r.y + r.height / 2 - (c.y + c.height / 2));""")
    if check(offset is not None, "no path.event-focus after Show on the map"):
        print(f"locate: the event's marker {offset:.1f} px from the map's centre")
        check(offset <= 3, f"the event's marker is {offset:.1f} px from the map's centre")
    check(driver.find_element(By.ID, "follow").get_attribute("aria-pressed") == "false", "follow is still on after Show on the map")
    li = button.find_element(By.XPATH, "./ancestor::li[1]")
    check(wait(driver, 15, lambda d: li.find_elements(By.CSS_SELECTOR, "pre.explanation"), "the event's explanation"),
          "Show on the map did not open the event's explanation")


# --- g: history ---

def check_history(driver, args, data):
    zone = ZoneInfo(data["zone"])
    replayed(driver, args, data["track"][-1])
    days = sorted({at.astimezone(zone).date() for _, _, at in data["track"]})
    latest = days[-1]
    click_tab(driver, "history")
    midnight = lambda day: datetime.combine(day, datetime.min.time())
    expected = (midnight(latest), midnight(latest + timedelta(days=1)))

    def values(d):
        """The range's inputs as local datetimes (a browser leaves ":00" seconds out of the value)."""
        read = [d.find_element(By.ID, name).get_attribute("value") for name in ("history-from", "history-to")]
        return tuple(datetime.fromisoformat(value) if value else None for value in read)
    got = wait(driver, 15, lambda d: values(d) == expected, f"the History range {expected}")
    check(got, f"opening History set the range to {values(driver)}; the latest day with data in {data['zone']} is {expected}")
    calendar = wait(driver, 15, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-calendar button[data-date]"), "the calendar's days")
    if calendar:
        grid = driver.execute_script("const g = document.querySelector('#history-calendar [role=grid]') || document.getElementById('history-calendar');"
                                     "return [g.getAttribute('role'), g.getAttribute('aria-label')]")
        check(grid == ["grid", "Days with data"], f"the calendar's grid role and name: {grid}")
        marked = set(driver.execute_script(
            "return [...document.querySelectorAll('#history-calendar button[data-date][data-has-data=yes]')].map(b => b.dataset.date)"))
        shown = {b.get_attribute("data-date") for b in calendar}
        for day in days:
            if day.isoformat() in shown:
                check(day.isoformat() in marked, f"the calendar does not mark {day}, a day with data (marked: {sorted(marked)})")
        empty = (latest - timedelta(days=2)).isoformat()
        check(empty in shown and empty not in marked, f"the calendar marks {empty}, a day without data, or does not show it (marked: {sorted(marked)})")
        check(latest.isoformat() in marked, f"the calendar does not mark {latest}, the latest day with data")
        for control in ("calendar-prev", "calendar-next"):
            found = driver.find_elements(By.ID, control)
            check(found and (found[0].get_attribute("aria-label") or found[0].text.strip()), f"#{control} missing or unnamed")
        # Clicking the first day with data shows that day.
        first = days[0].isoformat()
        driver.execute_script("document.getElementById('history-summary').removeAttribute('data-points')")
        driver.find_element(By.CSS_SELECTOR, f"#history-calendar button[data-date='{first}']").click()
        check(wait(driver, 15, lambda d: values(d)[0] == midnight(days[0]) and d.find_element(By.ID, "history-summary").get_attribute("data-points"),
                   f"{first} shown"), f"clicking {first} in the calendar did not show that day: {values(driver)}")
    # The heat map.
    driver.find_element(By.ID, "heat-toggle").click()
    painted = """
        return [...document.querySelectorAll('#map .heat-layer canvas')].some(c => {
            if (!c.width || !c.height) return false;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
            return false;
        });"""
    check(wait(driver, 15, lambda d: d.execute_script(painted), "the heat map's pixels"), "with Heat map checked no .heat-layer canvas has pixels")


# --- h: accessibility ---

def check_a11y(driver, args, data):
    click_tab(driver, "regions")
    rows = wait(driver, 10, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#region-rows tr[data-region]")) >= 3 and
                d.find_elements(By.CSS_SELECTOR, "#region-rows tr[data-region]"), "the region rows")
    if rows:
        order = [row.get_attribute("data-region") for row in rows]
        print(f"regions listed: {order}")
        check(order == ["c3", "c11", "c12"], f"regions are listed as {order}, not in natural order c3, c11, c12")
    drop = driver.find_element(By.ID, "drop")
    check(drop.get_attribute("role") == "button" and drop.get_attribute("aria-label") == "Import regions from a GeoJSON file",
          f"#drop has role {drop.get_attribute('role')!r} and name {drop.get_attribute('aria-label')!r}")
    for key in (Keys.ENTER, Keys.SPACE):
        # Record the chooser's opening instead of opening it.
        driver.execute_script("window.__chooser = 0; document.getElementById('region-file').addEventListener('click',"
                              " e => { window.__chooser += 1; e.preventDefault(); }, { once: true })")
        drop.send_keys(key)
        check(wait(driver, 3, lambda d: d.execute_script("return window.__chooser") == 1, "the file chooser"),
              f"{'Enter' if key == Keys.ENTER else 'Space'} on the drop zone does not open the file chooser")
    # A tap (a click) on a region names it too.
    click_tab(driver, "live")
    region = driver.find_elements(By.CSS_SELECTOR, "#map path[data-region='c12']")
    if check(region, "region c12 is not drawn"):
        # A click event alone, as a tap ends in (no hover before it).
        driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                              "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2}))",
                              region[0])
        check(wait(driver, 5, lambda d: any("c12" in t.text for t in d.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip")), "c12's tooltip"),
              "clicking region c12 shows no tooltip naming it")


# --- the README's picture: the sample ride over the sample regions ---

def ride(track):
    """The GPX track's points as (latitude, longitude, time)."""
    ns = {"g": "http://www.topografix.com/GPX/1/1"}
    return [(float(p.get("lat")), float(p.get("lon")), datetime.fromisoformat(p.find("g:time", ns).text.replace("Z", "+00:00")))
            for p in ElementTree.parse(track).getroot().iterfind(".//g:trkpt", ns)]


def check_ride(driver, args, data):
    features = []
    for name in sorted(glob.glob(os.path.join(args.regions, "*.geojson")) if os.path.isdir(args.regions) else [args.regions]):
        with open(name) as file:
            features += json.load(file)["features"]
    drawn = set(driver.execute_script("return [...document.querySelectorAll('#map path[data-region]')].map(p => p.dataset.region)"))
    missing = [f["id"] for f in features if f.get("geometry") and f["id"] not in drawn]
    check(not missing, f"regions not drawn: {missing}")
    # History opens on the ride's day: all of it.
    click_tab(driver, "history")
    points = wait(driver, 20, lambda d: d.find_element(By.ID, "history-summary").get_attribute("data-points"), "the history summary")
    check(points and int(points) == len(data["track"]), f"History opened on {points} points; the ride's day has {len(data['track'])}")
    wait(driver, 10, lambda d: d.execute_script("return document.querySelectorAll('#map img.leaflet-tile-loaded').length") > 0 or not os.path.exists(BASEMAP),
         "the basemap's tiles")
    settle(driver)


CHECKS = {"scale": check_scale, "basemap": check_basemap, "trail": check_trail, "follow": check_follow,
          "devices": check_devices, "locate": check_locate, "history": check_history, "a11y": check_a11y, "ride": check_ride}


def main():
    parser = daemon_arguments()
    parser.add_argument("--scenario", required=True, choices=sorted(CHECKS))
    parser.add_argument("--device-port", type=int, help="devices: the device listener's port")
    parser.add_argument("--device-user", default="alice")
    parser.add_argument("--device-name", default="phone")
    parser.add_argument("--device-secret")
    parser.add_argument("--track", help="ride: the replayed GPX track")
    parser.add_argument("--regions", help="ride: the regions' GeoJSON file or folder")
    parser.add_argument("--screenshot", help="a picture of the page at 1280 × 800 once checked")
    args = parser.parse_args()
    if args.scenario == "basemap" and not os.path.exists(BASEMAP):
        print(f"map view, basemap: SKIPPED: {BASEMAP} is not installed (scripts/install-dependencies.sh makes it)")
        return 0
    if args.scenario == "ride" and not (args.track and args.regions):
        parser.error("ride needs --track and --regions")
    if args.scenario == "devices" and not (args.device_port and args.device_secret):
        parser.error("devices needs --device-port and --device-secret")
    return drive(run, args, f"map view, {args.scenario}")


def run(driver, args):
    data = {"track": ride(args.track)} if args.scenario == "ride" else scenario(args.scenario)
    if "zone" in data:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": data["zone"]})
    if args.scenario == "devices" and not post_phone(args, data):
        return
    # Follow and the trail are watched while the replay runs; the others look at what it left.
    if args.scenario not in ("follow", "trail"):
        replayed(driver, args, data["track"][-1])
    if not sign_in(driver, args.url, args.token):
        return
    wait(driver, 30, lambda d: d.find_elements(By.CSS_SELECTOR, "#map path[data-device]"), "a device's marker")
    try:
        CHECKS[args.scenario](driver, args, data)
    except WebDriverException as error:
        # A missing element or a script error: reported as a failure, and the page's rules still checked.
        check(False, f"{args.scenario}: {error.msg or error}")
    if args.screenshot:
        driver.set_window_size(1280, 800)
        time.sleep(0.5)
        driver.save_screenshot(args.screenshot)
    check_page_rules(driver, args.openapi)


if __name__ == "__main__":
    sys.exit(main())
