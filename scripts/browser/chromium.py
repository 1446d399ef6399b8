"""What the browser checks (test_webapp.py, test_passkeys.py) share: headless Chromium, checks that record a pass or a
failure and go on, element lookups and waits that ride out a re-rendered view. The running script sets `driver`
(through `start`) and reads `results`; `on_failure` (optional) is called with each failed check's number."""
import traceback

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

driver = None
results = []
on_failure = None


def start(*arguments):
    """Headless Chromium with `arguments` beside the common ones; WebAuthn calls time out after 30 s, not never."""
    global driver
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US", *arguments]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)   # a WebAuthn call without an authenticator never settles
    return driver


def check(name):
    """Runs the decorated step now and records whether it passed."""
    def run(step):
        try:
            step()
            results.append(True)
            print(f"ok   {name}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            results.append(False)
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=3)
            if on_failure and driver:
                on_failure(len(results))
        return step
    return run


def wait(condition, timeout=20, message=""):
    """Waits until `condition()` is truthy; a view re-rendered meanwhile (stale element) just means try again."""
    def attempt(_):
        try:
            return condition()
        except StaleElementReferenceException:
            return False
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(attempt, message)


def q(css):
    """The first element matching `css`."""
    return driver.find_element(By.CSS_SELECTOR, css)


def qs(css):
    """Every element matching `css`."""
    return driver.find_elements(By.CSS_SELECTOR, css)


def finish():
    """Quits the browser and prints the tally; answers the exit status."""
    if driver:
        driver.quit()
    passed = sum(results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def quit_quietly():
    """Quits the browser if one is running, ignoring errors (after a crash)."""
    if driver:
        try:
            driver.quit()
        except Exception:  # noqa: BLE001
            pass
