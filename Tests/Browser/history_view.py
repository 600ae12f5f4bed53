#!/usr/bin/env python3
"""The web page's History view in headless Chromium, in Berlin's time zone, against a daemon that
replayed the sample ride as `local` and holds Tracks/three-days.gpx imported as `phone`:

- opened, it shows the selected device's latest local day (midnight to midnight); choosing
  another device while it is open shows that device's latest day;
- the calendar is a grid named "Days with data" with a named button per day of the month, the
  days with fixes marked with their counts (as `waymark history` counts them per Berlin day);
  clicking a day shows it; the arrow and Page keys move the focus between days and months;
- the heat map switch draws the range as canvas tiles instead of the track line, and back;
- every request is documented and the console has no errors.
"""
import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import time
import zoneinfo

import yaml

# Before the browser starts: Chromium takes its zone from TZ.
os.environ["TZ"] = "Europe/Berlin"

from browser_support import browser, check, documented, finish, sign_in, wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def fixes_per_day(args, device):
    """{YYYY-MM-DD: fixes} of the device, per Berlin day, as the CLI lists its history."""
    out = subprocess.run([args.waymark, "history", "--db", args.db, "--device", device, "--kind", "fix"],
                         check=True, capture_output=True, text=True).stdout
    days = collections.Counter()
    for line in out.splitlines():
        when = datetime.datetime.fromisoformat(json.loads(line)["time"].replace("Z", "+00:00"))
        days[when.astimezone(BERLIN).date().isoformat()] += 1
    return days


def range_of(driver):
    value = lambda id: driver.find_element(By.ID, id).get_attribute("value")
    return value("history-from"), value("history-to")


def day_range(date):
    """The range inputs' values for a whole day (Chromium drops the zero seconds)."""
    next_day = (datetime.date.fromisoformat(date) + datetime.timedelta(days=1)).isoformat()
    return f"{date}T00:00", f"{next_day}T00:00"


def shown(driver, date, points=None):
    """Waits until the range is `date` and the summary counts `points` fixes (any, when None)."""
    def ready(d):
        counted = d.find_element(By.ID, "history-summary").get_attribute("data-points")
        return range_of(d) == day_range(date) and counted and (points is None or counted == str(points))
    return wait(driver, 30, ready, f"History showing {date} with {points} points (range {range_of(driver)}, "
                                   f"summary {driver.find_element(By.ID, 'history-summary').text!r})")


def run(driver, args):
    if not sign_in(driver, args.url, args.token):
        return
    phone = fixes_per_day(args, "phone")
    local = fixes_per_day(args, "local")
    check(sorted(phone) == ["2026-06-01", "2026-06-02", "2026-06-03"], f"phone's Berlin days: {sorted(phone)}")
    check(driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone") == "Europe/Berlin", "the browser is not in Berlin")

    select = Select(driver.find_element(By.ID, "device"))
    select.select_by_value("local")
    driver.find_element(By.ID, "tab-history").click()
    # The replay may still be adding to its day: its count is not compared.
    shown(driver, max(local))

    # Another device while the view is open: its own latest day.
    select.select_by_value("phone")
    shown(driver, "2026-06-03", phone["2026-06-03"])

    # The calendar: a grid of June's days, the phone's three marked with their counts.
    grid = driver.find_element(By.CSS_SELECTOR, "#history-calendar [role=grid]")
    check(grid.get_attribute("aria-label") == "Days with data", f"the calendar grid is named {grid.get_attribute('aria-label')!r}")
    check(grid.find_element(By.TAG_NAME, "caption").text == "June 2026", f"caption {grid.find_element(By.TAG_NAME, 'caption').text!r}")
    days = driver.find_elements(By.CSS_SELECTOR, "#history-calendar button[data-date]")
    check([b.get_attribute("data-date") for b in days] == [f"2026-06-{d:02}" for d in range(1, 31)], "the grid does not hold June's 30 days")
    marked = {b.get_attribute("data-date"): b.get_attribute("aria-label") for b in days if b.get_attribute("data-has-data") == "yes"}
    check(sorted(marked) == sorted(phone), f"days marked with data: {sorted(marked)}")
    for date, label in marked.items():
        check(f"{phone[date]:,} fixes" in label and "2026" in label, f"{date} is named {label!r}, not with its {phone[date]:,} fixes")
    check(all(b.get_attribute("aria-label") for b in days), "a day button has no name")
    check([b.get_attribute("tabindex") for b in days].count("0") == 1, "not exactly one day in the tab order")
    for id, name in (("calendar-prev", "Previous month"), ("calendar-next", "Next month")):
        check(driver.find_element(By.ID, id).get_attribute("aria-label") == name, f"#{id} is not named {name!r}")

    # A click shows that day.
    driver.find_element(By.CSS_SELECTOR, '#history-calendar button[data-date="2026-06-01"]').click()
    shown(driver, "2026-06-01", phone["2026-06-01"])
    # The keyboard: a day to the right, then a month on.
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    check(driver.switch_to.active_element.get_attribute("data-date") == "2026-06-02", "ArrowRight did not move to 2 June")
    driver.switch_to.active_element.send_keys(Keys.PAGE_DOWN)
    check(driver.switch_to.active_element.get_attribute("data-date") == "2026-07-02", "PageDown did not move to 2 July")
    check(driver.find_element(By.CSS_SELECTOR, "#history-calendar caption").text == "July 2026", "PageDown did not show July")
    driver.find_element(By.ID, "calendar-prev").click()
    check(driver.find_element(By.CSS_SELECTOR, "#history-calendar caption").text == "June 2026", "Previous month did not show June")

    # A chosen range stays when the device changes.
    select.select_by_value("local")
    time.sleep(1)
    check(range_of(driver) == day_range("2026-06-01"), f"the chosen day did not stay: {range_of(driver)}")
    select.select_by_value("phone")
    shown(driver, "2026-06-01", phone["2026-06-01"])

    # The heat map: canvas tiles instead of the track line, and back.
    toggle = driver.find_element(By.ID, "heat-toggle")
    label = driver.execute_script("return arguments[0].labels[0]?.textContent.trim()", toggle)
    check(label == "Heat map", f"#heat-toggle is labelled {label!r}")
    track = "#map path[stroke='#c2410c']"
    check(len(driver.find_elements(By.CSS_SELECTOR, track)) > 0, "no track line before the heat map")
    toggle.click()
    tiles = wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .heat-layer canvas"), "the heat map's canvas tiles")
    check(bool(tiles), "no heat map tiles")
    check(not driver.find_elements(By.CSS_SELECTOR, track), "the track line is still drawn under the heat map")
    painted = driver.execute_script("""
        return [...document.querySelectorAll('#map .heat-layer canvas')].some((canvas) => {
          const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
          return false;
        });""")
    check(painted, "the heat map's tiles are all empty")
    if args.screenshot:
        driver.save_screenshot(args.screenshot)
    toggle.click()
    check(wait(driver, 10, lambda d: not d.find_elements(By.CSS_SELECTOR, "#map .heat-layer"), "the heat map gone") is not None, "the heat map stayed")
    check(len(driver.find_elements(By.CSS_SELECTOR, track)) > 0, "no track line after the heat map")

    # Only documented requests; no console errors.
    paths = yaml.safe_load(open(args.openapi))["paths"]
    requests = driver.execute_script("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    for path in requests:
        if path.startswith("/v1/"):
            check(documented(paths, path), f"the page asked {path}, which docs/openapi.yaml does not document")
    check("/v1/history/days" in requests, "the page never asked /v1/history/days")
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"console errors: {errors}")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--url", "--token", "--waymark", "--db", "--openapi"):
        parser.add_argument(name, required=True)
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    driver = browser()
    try:
        run(driver, args)
    finally:
        driver.quit()
    return finish("history view")


if __name__ == "__main__":
    sys.exit(main())
