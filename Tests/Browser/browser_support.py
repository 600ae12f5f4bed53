"""What the browser scripts share: Debian's headless Chromium through Selenium and
chromium-driver, failures collected rather than raised, and signing in with the TCP listener's
token."""
import argparse
import math
import re
import time

import yaml
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def wait(driver, seconds, condition, what):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.2).until(lambda d: condition(d))
    except Exception:
        failures.append(f"timed out after {seconds} s waiting for {what}")
        return None


def browser(logs=("browser",)):
    """Headless Chromium keeping the named logs (`browser`: the console)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {log: "ALL" for log in logs})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def sign_in(driver, url, token):
    """Opens the page, which asks for the token, gives it and waits for the live stream; False
    when the sign-in dialog never showed."""
    driver.get(url)
    dialog = wait(driver, 20, lambda d: d.find_element(By.ID, "login").get_attribute("open") is not None and d.find_element(By.ID, "login"), "the sign-in dialog")
    if dialog is None:
        return False
    driver.find_element(By.ID, "login-token").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    wait(driver, 20, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live", "the live stream")
    return True


def daemon_arguments():
    """A parser holding what BrowserScriptRun gives every script: `--url`, `--token`, `--waymark`,
    `--db` and `--openapi`."""
    parser = argparse.ArgumentParser()
    for name in ("--url", "--token", "--waymark", "--db", "--openapi"):
        parser.add_argument(name, required=True)
    return parser


def finish(name):
    """The exit status: 0 when nothing failed, else 1 with the failures printed."""
    if failures:
        print("\n".join(failures))
        return 1
    print(f"{name}: all checks passed")
    return 0


def drive(run, args, name):
    """Runs `run(driver, args)` in a fresh browser, which it then quits; the exit status."""
    driver = browser()
    try:
        run(driver, args)
    finally:
        driver.quit()
    return finish(name)


def metres(a, b):
    """Equirectangular distance between two (latitude, longitude) points: within a fraction of a
    per cent over tens of kilometres."""
    north = (b[0] - a[0]) * 111_195
    east = (b[1] - a[1]) * 111_195 * math.cos(math.radians(a[0]))
    return math.hypot(north, east)


def documented(paths, request_path):
    """Whether an /v1 path matches one of openapi.yaml's templates."""
    for template in paths:
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, request_path):
            return True
    return False


def unnamed_focusable(driver):
    """The nodes of Chromium's accessibility tree that take focus but have no name, described by
    their element: what a screen reader would announce as just "button" or "group"."""
    driver.execute_cdp_cmd("Accessibility.enable", {})
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    unnamed = []
    for node in nodes:
        properties = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
        if node.get("ignored") or properties.get("focusable") is not True:
            continue
        if str((node.get("name") or {}).get("value") or "").strip():
            continue
        described = node.get("role", {}).get("value")
        if "backendDOMNodeId" in node:
            element = driver.execute_cdp_cmd("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})["node"]
            attributes = element.get("attributes", [])
            pairs = " ".join(f'{attributes[i]}="{attributes[i + 1][:40]}"' for i in range(0, len(attributes), 2))
            described = f"<{element['localName']} {pairs}> ({described})"
        unnamed.append(described)
    driver.execute_cdp_cmd("Accessibility.disable", {})
    return unnamed


def check_header_row(driver):
    """The header's children on one row (the same top, within 4 px)."""
    tops = driver.execute_script("""
        return [...document.querySelector('.topbar').children].filter(e => e.getClientRects().length)
            .map(e => [e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''), e.getBoundingClientRect().top]);""")
    spread = max(top for _, top in tops) - min(top for _, top in tops)
    check(spread <= 4, f"at {driver.execute_script('return innerWidth')} px the header is not one row: tops {tops}")


def check_page_rules(driver, openapi):
    """What every page state must keep (docs/web.md): nothing wider than a 390 px phone, the
    header on one row there, every control named (in the markup, and every focusable node of
    Chromium's accessibility tree in each view), only documented requests besides the page's own
    files, no console errors. Returns the paths the page requested."""
    driver.set_window_size(390, 844)
    time.sleep(0.5)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"the page is {overflow} px wider than a 390 px phone screen")
    check_header_row(driver)

    # Each view in turn, then back to the one that was shown.
    tabs = driver.find_elements(By.CSS_SELECTOR, '[role="tab"]')
    shown = next((tab for tab in tabs if tab.get_attribute("aria-selected") == "true"), None)
    for tab in tabs:
        tab.click()
        time.sleep(1)
        unnamed = unnamed_focusable(driver)
        check(not unnamed, f"{tab.text} view: focusable without a name in the accessibility tree: {unnamed}")
    if shown:
        shown.click()
        time.sleep(0.5)

    # Every button and form field has a name a screen reader can say.
    unnamed = driver.execute_script("""
        return [...document.querySelectorAll('button, input, select')].filter(e => {
            if (e.type === 'hidden') return false;
            const label = e.labels && e.labels.length ? e.labels[0].textContent.trim() : '';
            return !(e.getAttribute('aria-label') || label || e.textContent.trim());
        }).map(e => e.outerHTML.slice(0, 80));""")
    check(not unnamed, f"controls without an accessible name: {unnamed}")

    with open(openapi) as spec:
        paths = list(yaml.safe_load(spec)["paths"].keys())
    requested = driver.execute_script("return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")
    requested.append("/")
    for path in sorted(set(requested)):
        check(path == "/" or path.startswith("/web/") or documented(paths, path), f"the page requested an undocumented path: {path}")

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"console errors: {errors}")
    return requested
