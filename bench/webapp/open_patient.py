"""Seeds alice with N minute-level step samples and bob with a week of them, signs a therapist in (an invitation
redeemed over HTTP, its session cookie handed to Chromium) and times opening each patient's page (bench/webapp/run.sh).
Usage: open_patient.py URL ADMIN_TOKEN ALICE_DEVICE_TOKEN BOB_DEVICE_TOKEN SAMPLES"""
import http.cookies
import json
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

URL = sys.argv[1].rstrip("/").replace("://127.0.0.1:", "://localhost:")
ADMIN, ALICE, BOB, TOTAL = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])


def call(method, path, token=None, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(URL + path, data=data, method=method, headers=headers)) as r:
        return r.headers, json.loads(r.read() or b"null")


def seed(patient, token, count):
    """`count` one-minute step samples, the newest ending at this minute."""
    now = int(time.time()) // 60 * 60
    began = time.monotonic()
    for first in range(0, count, 5000):
        batch = [{"type": "stepCount", "value": 20 + i % 60, "unit": "count",
                  "start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 60 * (i + 1))),
                  "end": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 60 * i))} for i in range(first, min(count, first + 5000))]
        call("POST", f"/v1/patients/{patient}/samples", token, {"samples": batch})
    print(f"seeded {patient}: {count} samples in {time.monotonic() - began:.1f} s", flush=True)


def session_cookie():
    """A therapist's browser session: an invitation made with the admin token, redeemed."""
    _, invitation = call("POST", "/v1/people/invitations", ADMIN, {"role": "therapist", "careTeams": ["physio"], "displayName": "Bench"})
    headers, _ = call("POST", "/v1/invitations/redeem", None, {"secret": invitation["secret"]})
    cookie = http.cookies.SimpleCookie(headers["Set-Cookie"])
    name = next(iter(cookie))
    return name, cookie[name].value


def driver_with(cookie):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(URL + "/favicon.svg")
    driver.add_cookie({"name": cookie[0], "value": cookie[1], "path": "/", "httpOnly": True})
    return driver


def open_page(driver, patient):
    """Seconds from navigation to the complete page, and the change-feed requests it made."""
    driver.get("about:blank")
    began = time.monotonic()
    driver.get(f"{URL}/#patient/{patient}")
    WebDriverWait(driver, 120, poll_frequency=0.02).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#steps-chart rect.bar")) == 28
        and "Live" in d.find_element(By.CSS_SELECTOR, "#live").text)
    elapsed = time.monotonic() - began
    feed = driver.execute_script("return performance.getEntriesByType('resource')"
                                 ".filter(e => e.name.includes('/changes')).map(e => [e.name.split('?')[1], e.transferSize])")
    return elapsed, feed


seed("alice", ALICE, TOTAL)
seed("bob", BOB, 7 * 1440)
driver = driver_with(session_cookie())
try:
    for run in range(3):
        for patient, count in (("bob", 7 * 1440), ("alice", TOTAL)):
            elapsed, feed = open_page(driver, patient)
            print(f"run {run + 1}: {patient} ({count} samples) page complete in {elapsed:.3f} s; feed reads: {feed}", flush=True)
finally:
    driver.quit()
