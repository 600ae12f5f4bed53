#!/usr/bin/python3
"""Drives Waymark's web page in Debian's headless Chromium (Selenium + chromium-driver) against a
real daemon replaying a track, and checks what issue 20 asks of it:

- signing in with the TCP listener's token;
- the live marker moving with the stream;
- a region entry appearing in the event list and recolouring the region;
- a live region entry's "why?" showing the daemon's explanation, reproduced;
- the history view for a range showing as many points and events as `waymark history`;
- a GeoJSON file imported through the page appearing in `waymark regions list`;
- every request the page made being a documented endpoint (docs/openapi.yaml) or the page's files;
- the layout fitting a phone's width; no console errors.

Against a fleet's api node (`--postgres URL`, docs/fleet.md "API and web page") the expected
counts and regions come from PostgreSQL instead of `waymark history` and `waymark regions list`,
and what the fleet does not have is not asked of the page: "why?" (fleet events carry no
integer id to explain) and the energy chart (no energy ledger: the handlers tab says so instead).

Exits 0 when all hold, 1 with the failures listed. WebPageBrowserTests and
FleetWebPageBrowserTests (Swift) run it.
"""
import argparse
import calendar
import json
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser_support import check, check_page_rules, drive, sign_in, wait


def waymark(args, arguments):
    result = subprocess.run([args.waymark] + arguments, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"waymark {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def psql(args, query):
    result = subprocess.run(["/usr/bin/psql", args.postgres, "-Atc", query], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"psql {query}: {result.stderr}")
    return result.stdout.strip()


def quoted(text):
    return "'" + text.replace("'", "''") + "'"


def past(args, device, settled):
    """Whether the device's history holds a fix at or after `settled`."""
    if args.postgres:
        return psql(args, f"SELECT count(*) FROM fixes WHERE device = {quoted(device)} AND time >= {quoted(settled)}") != "0"
    return bool(waymark(args, ["history", "--db", args.db, "--kind", "fix", "--from", settled, "--limit", "1"]).strip())


def expected_counts(args, device):
    """(points, events) of the device's history in the range, as the CLI or PostgreSQL count them."""
    if args.postgres:
        within = f"device = {quoted(device)} AND time >= {quoted(args.start)} AND time < {quoted(args.end)}"
        return int(psql(args, f"SELECT count(*) FROM fixes WHERE {within}")), int(psql(args, f"SELECT count(*) FROM events WHERE {within}"))
    lines = [json.loads(line) for line in waymark(args, ["history", "--db", args.db, "--device", device, "--from", args.start, "--to", args.end]).splitlines()]
    return sum(1 for line in lines if line["kind"] == "fix"), sum(1 for line in lines if line["kind"] not in ("fix", "gap"))


def listed_regions(args):
    if args.postgres:
        return psql(args, "SELECT identifier FROM regions ORDER BY identifier")
    return waymark(args, ["regions", "list", "--db", args.db])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--waymark", required=True)
    parser.add_argument("--db", help="the daemon's database (a single daemon)")
    parser.add_argument("--postgres", help="the fleet's PostgreSQL URL (a fleet's api node)")
    parser.add_argument("--openapi", required=True)
    parser.add_argument("--import-file", required=True, help="a GeoJSON file whose one region is `--import-id`")
    parser.add_argument("--import-id", required=True)
    parser.add_argument("--from", dest="start", required=True, help="history range start, RFC 3339 UTC")
    parser.add_argument("--to", dest="end", required=True, help="history range end (exclusive, as the API and CLI take it), RFC 3339 UTC")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    if bool(args.db) == bool(args.postgres):
        parser.error("give --db (a single daemon) or --postgres (a fleet)")

    return drive(run, args, "web page")


def run(driver, args):
    # The TCP listener asks for the token: the page shows its sign-in dialog.
    if not sign_in(driver, args.url, args.token):
        return

    # With several devices the page starts on "All devices" ("*"): choose the first, whose
    # marker, region states, events and history the checks below follow.
    device = driver.find_element(By.ID, "device").get_attribute("value")
    if device == "*":
        options = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "device")).options]
        device = options[1]
        Select(driver.find_element(By.ID, "device")).select_by_value(device)

    # Live: the marker moves.
    position = lambda d: d.find_element(By.ID, "position").get_attribute("data-latitude")
    first = wait(driver, 30, position, "a first position")
    moved = wait(driver, 30, lambda d: position(d) not in (None, first) and position(d), "the marker to move")
    check(first is not None and moved is not None, "the live position did not move")
    markers = driver.execute_script("return document.querySelectorAll('#map path.leaflet-interactive').length")
    check(markers >= 1, "no marker or region is drawn on the map")

    # Live: a region entry is listed and recolours the region.
    entry = wait(driver, 90, lambda d: d.find_elements(By.CSS_SELECTOR, f"#events li[data-transition=enter][data-source=stream][data-device='{device}']"),
                 "a region entry in the event list")
    if entry:
        region = entry[0].get_attribute("data-region")
        state = wait(driver, 10, lambda d: d.execute_script(
            "const p = document.querySelector(`#map path[data-region='${arguments[0]}']`); return p && p.getAttribute('data-state')", region) == "inside",
            f"region {region} drawn as inside")
        fill = driver.execute_script("const p = document.querySelector(`#map path[data-region='${arguments[0]}']`); return p && p.getAttribute('fill')", region)
        check(state and fill == "#2e7d32", f"region {region} was not recoloured (fill {fill})")
        # "why?" beside it: the daemon recomputes the entry from the stored fixes (docs/explain.md).
        why = entry[0].find_elements(By.CSS_SELECTOR, "button.why")
        check(bool(why) != bool(args.postgres), "the region entry has no why? button" if not args.postgres else "a fleet event offers why?")
        if why and not args.postgres:
            why[0].click()
            shown = wait(driver, 15, lambda d: d.execute_script(
                "const p = arguments[0].querySelector('pre.explanation'); return p && p.dataset.reproduced", entry[0]), "the entry's explanation")
            text = driver.execute_script("const p = arguments[0].querySelector('pre.explanation'); return p && p.textContent", entry[0])
            check(shown == "yes" and "rule: " in (text or ""), f"the entry's explanation: {text}")

    # History: the range's points and events, as `waymark history` counts them. Wait until the
    # replay is past the range's end, so both count the same records.
    # A minute of track time past the end, so crossings inside the range are confirmed.
    settled = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(calendar.timegm(time.strptime(args.end, "%Y-%m-%dT%H:%M:%SZ")) + 60))
    deadline = time.time() + 120
    while time.time() < deadline and not past(args, device, settled):
        time.sleep(0.5)
    expected_points, expected_events = expected_counts(args, device)
    driver.find_element(By.ID, "tab-history").click()
    set_local = "const [input, iso] = arguments; const d = new Date(iso); const pad = n => String(n).padStart(2, '0');" \
        "input.value = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;"
    driver.execute_script(set_local, driver.find_element(By.ID, "history-from"), args.start)
    driver.execute_script(set_local, driver.find_element(By.ID, "history-to"), args.end)
    driver.execute_script("document.getElementById('history-summary').removeAttribute('data-points')")
    driver.find_element(By.CSS_SELECTOR, "#history-form button[type=submit]").click()
    summary = wait(driver, 30, lambda d: d.find_element(By.ID, "history-summary").get_attribute("data-points") and d.find_element(By.ID, "history-summary"), "the history summary")
    if summary:
        points, events = int(summary.get_attribute("data-points")), int(summary.get_attribute("data-events"))
        check(points == expected_points and events == expected_events,
              f"history shows {points} points and {events} events; waymark history has {expected_points} and {expected_events}")
        check(expected_points > 0 and expected_events > 0, f"the range holds {expected_points} points and {expected_events} events: nothing to compare")
    stats = wait(driver, 30, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#history-stats dt")) >= 5, "the history statistics")
    check(stats, "no statistics in the history view")
    check(driver.find_element(By.ID, "profile").get_attribute("hidden") is None, "no elevation profile in the history view")
    if args.screenshot:
        time.sleep(0.5)
        driver.save_screenshot(args.screenshot)

    # Regions: a GeoJSON file through the file input (the drop zone's own chooser).
    driver.find_element(By.ID, "tab-regions").click()
    driver.find_element(By.ID, "region-file").send_keys(args.import_file)
    wait(driver, 20, lambda d: "added" in d.find_element(By.ID, "import-result").text, "the import's report")
    listed = listed_regions(args)
    check(args.import_id in listed, f"{args.import_id} imported through the page is not in the regions:\n{listed}")
    check(wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f"#region-rows tr[data-region='{args.import_id}']"), "the imported region's row"),
          "the imported region is not listed on the page")
    # …and removed through the page again (it asks first).
    driver.find_element(By.CSS_SELECTOR, f"#region-rows tr[data-region='{args.import_id}'] button.danger").click()
    WebDriverWait(driver, 10).until(lambda d: d.switch_to.alert).accept()
    gone = wait(driver, 20, lambda d: not d.find_elements(By.CSS_SELECTOR, f"#region-rows tr[data-region='{args.import_id}']"), "the removed region's row to go")
    listed = listed_regions(args)
    check(gone is not None and args.import_id not in listed, f"{args.import_id} removed through the page is still in the regions:\n{listed}")

    # Handlers and power; a fleet has neither, and the tab says so without asking the API.
    driver.find_element(By.ID, "tab-handlers").click()
    if args.postgres:
        check(wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, "#handler-rows tr[data-fleet=yes]"), "the fleet's note"),
              "the handlers tab does not say a fleet has no handlers")
    else:
        check(wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, "#power-radio rect.bar, #power-radio text"), "the energy chart"),
              "no energy chart")

    # A phone's width, named controls, documented requests, a quiet console.
    check_page_rules(driver, args.openapi)


if __name__ == "__main__":
    sys.exit(main())
