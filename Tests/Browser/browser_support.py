"""What the browser scripts share: Debian's headless Chromium through Selenium and
chromium-driver, failures collected rather than raised, and signing in with the TCP listener's
token."""
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


def finish(name):
    """The exit status: 0 when nothing failed, else 1 with the failures printed."""
    if failures:
        print("\n".join(failures))
        return 1
    print(f"{name}: all checks passed")
    return 0
