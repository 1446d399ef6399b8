#!/usr/bin/env python3
"""The therapist web app in headless Chromium (issue 15), driven by Selenium against a live caresync.

Run by scripts/ci-browser.sh, which starts the server and passes CARESYNC_URL, the tokens, SERVER_LOG and
SCREENSHOTS in the environment. Seeds a week of step samples from a watch and a phone, then walks the
WWDC20 screens as a therapist would: signed in through an invitation link (made with the admin token) and a passkey
registered with Selenium's virtual authenticator, at http://localhost:PORT (passkeys need a host name).
Prints one line per check and "N passed, M failed" last.
"""
import datetime as dt
import json
import os
import sys
import tempfile
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from zoneinfo import ZoneInfo

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
from selenium.webdriver.support.ui import Select

import chromium
from chromium import check, q, qs, wait

URL = os.environ["CARESYNC_URL"].rstrip("/").replace("://127.0.0.1:", "://localhost:")
THERAPIST = os.environ["THERAPIST_TOKEN"]
WATCH = os.environ["WATCH_TOKEN"]
PHONE = os.environ["PHONE_TOKEN"]
MARKUP = os.environ["MARKUP_TOKEN"]
ADMIN = os.environ["ADMIN_TOKEN"]
OTHER_THERAPIST = os.environ["OTHER_THERAPIST_TOKEN"]
SHOTS = os.environ.get("SCREENSHOTS", "")
ZONE = ZoneInfo("America/Los_Angeles")
MARKUP_SOURCE = "<img/src/onerror=alert(1)>"
MARKUP_NOTE = "<img src=x onerror=alert(1)>"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
WATCH_SOURCE, PHONE_SOURCE, TABLET_SOURCE = "org.example.watch", "org.example.phone", "org.example.tablet"
ALICE_LINK = '#triage-body tr[data-patient="alice"] a.patient-link'

# --- HTTP ------------------------------------------------------------------------------------------


def http(method, path, token=None, body=None, headers=None):
    """One request; answers (status, headers, parsed JSON or raw bytes)."""
    request = urllib.request.Request(URL + path, method=method, data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, head, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, error.headers, error.read()
    kind = head.get("Content-Type", "")
    return status, head, (json.loads(raw) if "json" in kind and "ndjson" not in kind and raw else raw)


def api(method, path, token, body=None):
    status, _, answer = http(method, path, token, body)
    if status >= 400:
        raise AssertionError(f"{method} {path}: {status} {answer}")
    return answer


def local(day, hour, minute=0):
    return dt.datetime.combine(day, dt.time(hour, minute), ZONE)


def steps(start, minutes, value, identifier):
    return {"type": "stepCount", "value": value, "unit": "count", "start": start.isoformat(),
            "end": (start + dt.timedelta(minutes=minutes)).isoformat(),
            "syncIdentifier": identifier, "syncVersion": 1, "metadata": {"wasUserEntered": False}}


def seed():
    """A week of steps: the phone counts every hour 8–19, the watch every other half hour (they overlap)."""
    today = dt.datetime.now(ZONE).date()
    watch, phone = [], []
    for n in range(7):
        day = today - dt.timedelta(days=6 - n)
        for hour in range(8, 20):
            phone.append(steps(local(day, hour), 60, 300 + 17 * n + 9 * hour, f"phone-{day}-{hour}"))
            if hour % 2 == 0:
                watch.append(steps(local(day, hour), 30, 250 + 13 * n + 7 * hour, f"watch-{day}-{hour}"))
    api("POST", "/v1/patients/alice/samples", PHONE, {"samples": phone})
    api("POST", "/v1/patients/alice/samples", WATCH, {"samples": watch})
    api("POST", "/v1/patients/alice/samples", MARKUP, {"samples": [steps(local(today, 21), 10, 42, "markup-1")]})
    api("PUT", "/v1/patients/alice/goals/dailySteps", THERAPIST, {"target": 3000})
    api("POST", "/v1/patients/alice/monitoring/episodes", THERAPIST, {"startDay": (today - dt.timedelta(days=9)).isoformat()})


def statistics(first, last, priority):
    """The statistics endpoint's daily sums for [first, last] in alice's zone, by day."""
    start = local(first, 0).isoformat()
    end = local(last + dt.timedelta(days=1), 0).isoformat()
    query = urllib.parse.urlencode({"type": "stepCount", "interval": "day", "timeZone": "America/Los_Angeles",
                                    "options": "cumulativeSum", "start": start, "end": end,
                                    "priority": ",".join(priority)})
    answer = api("GET", f"/v1/patients/alice/statistics?{query}", THERAPIST)
    return {dt.datetime.fromisoformat(b["start"].replace("Z", "+00:00")).astimezone(ZONE).date().isoformat(): b["sum"]
            for b in answer["buckets"]}

# --- Browser ---------------------------------------------------------------------------------------


def make_driver():
    driver = chromium.start("--window-size=1280,800", "--hide-scrollbars")
    # Installed before any page script runs, outside the page's CSP: records every violation the page causes.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "window.__cspViolations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));")})
    if SHOTS:
        chromium.on_failure = lambda n: (os.makedirs(SHOTS, exist_ok=True),
                                         driver.save_screenshot(os.path.join(SHOTS, f"failed-{n}.png")))
    return driver


driver = None


def act(action, tries=20):
    """Runs `action` (which finds elements afresh), again if the view re-rendered under it."""
    for n in range(tries):
        try:
            return action()
        except StaleElementReferenceException:
            if n == tries - 1:
                raise
            time.sleep(0.1)


def js(script, *args):
    return driver.execute_script(script, *args)


def set_value(element, value):
    js("arguments[0].value = arguments[1];"
       "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
       "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", element, value)


held_logs = []


def page_session_status():
    """What GET /v1/session answers the page now (200 signed in, 401 not); the cookie itself is HttpOnly. The console
    line Chromium writes for this probe's own 401 is dropped, every other one kept for `browser_errors`."""
    status = driver.execute_async_script("fetch('/v1/session').then(r => arguments[0](r.status), () => arguments[0](0))")
    held_logs.extend(e for e in driver.get_log("browser") if not ("/v1/session" in e["message"] and " 401 " in e["message"]))
    return status


def browser_errors(allowed_statuses=()):
    """SEVERE console entries since the last call, less network refusals with an expected status."""
    errors = []
    entries = held_logs + driver.get_log("browser")
    held_logs.clear()
    for entry in entries:
        if entry["level"] != "SEVERE":
            continue
        message = entry["message"]
        if any(f"status of {s} " in message for s in allowed_statuses) and "Failed to load resource" in message:
            continue
        errors.append(message)
    return errors


def alert_open():
    try:
        driver.switch_to.alert.dismiss()
        return True
    except NoAlertPresentException:
        return False


def as_person(method, path, body):
    """A request in the browser's session: its cookie (HttpOnly, read through WebDriver), Origin and CSRF token."""
    cookie = next(c for c in driver.get_cookies() if c["name"] == "caresync_session")
    pair = f"caresync_session={cookie['value']}"
    _, _, current = http("GET", "/v1/session", headers={"Cookie": pair})
    status, _, answer = http(method, path, body=body, headers={"Cookie": pair, "Origin": URL, "X-CSRF-Token": current["csrfToken"]})
    if status >= 400:
        raise AssertionError(f"{method} {path}: {status} {answer}")
    return answer


def invite(role="therapist", teams=("physio",), name="Theo"):
    """A one-time invitation secret made with the admin token."""
    body = {"role": role, "careTeams": list(teams), "displayName": name}
    return api("POST", "/v1/people/invitations", ADMIN, body)["secret"]


def sign_in_invited(secret, passkey="Laptop"):
    """Opens the invitation link for `secret` and registers a passkey, as an invited person does."""
    open_invitation(URL + "/invite#" + secret, passkey)


def open_invitation(link, passkey="Laptop"):
    """Opens an invitation link and registers a passkey."""
    driver.get(link)
    wait(lambda: q("#invitation").is_displayed(), message="the invitation screen")
    q("#invitation-passkey-name").send_keys(passkey)
    q("#invitation-form button[type=submit]").click()


def metrics(width, height, scale, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})


def shoot(name):
    if not SHOTS:
        return
    os.makedirs(SHOTS, exist_ok=True)
    js("document.activeElement && document.activeElement.blur && document.activeElement.blur();")
    driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def bars():
    return act(lambda: {b.get_attribute("data-key"): b.get_attribute("data-value") for b in qs("#steps-chart rect.bar")})


def priority_order():
    return act(lambda: [e.get_attribute("textContent") for e in qs("#priority-list .source-name")])


def same(bar_values, sums):
    """Every bar of the chart equals the endpoint's figure for its day (empty bar: null)."""
    assert set(bar_values) == set(sums), (sorted(bar_values), sorted(sums))
    for day, figure in sums.items():
        shown = bar_values[day]
        if figure is None:
            assert shown == "", (day, shown)
        else:
            assert abs(float(shown) - figure) < 1e-6, (day, shown, figure)


def walk_values():
    return act(lambda: [float(c.get_attribute("data-value")) for c in qs("#walk-table tbody td.num[data-value]")])


def newest_change():
    entries = qs("#change-log > li")
    return entries[0] if entries else None


def main():
    global driver
    seed()
    driver = make_driver()
    metrics(1280, 800, 1, False)
    state = {}

    @check("the page and its scripts carry the CSP and security headers; a matching ETag is 304; API answers are no-store")
    def _():
        for path in ["/", "/app.js", "/app.css"]:
            status, head, _ = http("GET", path)
            assert status == 200, path
            assert head["Content-Security-Policy"] == CSP, head["Content-Security-Policy"]
            assert head["X-Content-Type-Options"] == "nosniff"
            assert head["Referrer-Policy"] == "no-referrer"
            assert head["Cache-Control"] == "no-cache"
            again, _, body = http("GET", path, headers={"If-None-Match": head["ETag"]})
            assert again == 304 and not body, (path, again)
        _, head, _ = http("GET", "/v1/patients", THERAPIST)
        assert head["Cache-Control"] == "no-store"

    @check("the sign-in screen: nothing loaded from elsewhere, no console error, no CSP violation")
    def _():
        driver.get(URL + "/")
        driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
            protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True, has_user_verification=True,
            is_user_consenting=True, is_user_verified=True))
        wait(lambda: q("#passkey-sign-in").is_displayed())
        assert qs("input[type=password]") == [] and q("#provider-sign-in").is_displayed() is False
        shoot("desktop-sign-in")
        assert browser_errors(allowed_statuses=(401,)) == [], "only the signed-out GET /v1/session"
        assert js("return window.__cspViolations") == []
        resources = js("return performance.getEntriesByType('resource').map(e => e.name)")
        assert resources and all(r.startswith(URL + "/") for r in resources), resources

    @check("a used invitation link is refused with the server's detail and signs no one in")
    def _():
        secret = invite(name="Used")
        api("POST", "/v1/invitations/redeem", None, {"secret": secret})
        driver.get(URL + "/invite#" + secret)
        wait(lambda: q("#alert").is_displayed())
        text = q("#alert").text
        assert "This invitation link cannot be used" in text and "The invitation is invalid, expired or already used." in text, text
        assert secret not in driver.current_url and page_session_status() == 401
        assert q("#sign-in").is_displayed() and not q("#patients").is_displayed()
        assert browser_errors(allowed_statuses=(401,)) == []

    @check("a device token opens no browser session: the API refuses it there, the page stays on sign-in")
    def _():
        status, _, answer = http("GET", "/v1/session", WATCH)
        assert status == 403 and "browser session" in answer["detail"], answer
        assert q("#sign-in").is_displayed() and page_session_status() == 401

    @check("an invited admin registers a passkey and gets the administration screen, never patient data")
    def _():
        sign_in_invited(invite(role="admin", teams=(), name="Ada"), passkey="Admin key")
        wait(lambda: qs("#admin") and q("#admin").is_displayed() and "Administration" in q("#admin").text)
        assert "Ada" in q("#admin").text and not q("#patients").is_displayed()
        # The admin pages: create a patient with a display name, enrol a device for alice, see the people.
        wait(lambda: qs("#admin-patients tr[data-patient='alice']"))
        form = q("#admin-patient-form")
        set_value(form.find_element(By.NAME, "id"), "dora")
        set_value(form.find_element(By.NAME, "displayName"), "Dora Kalnins")
        set_value(form.find_element(By.NAME, "timeZone"), "Europe/Riga")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(lambda: qs("#admin-patients tr[data-patient='dora']"), message="the new patient is listed")
        assert "Dora Kalnins" in q("#admin-patients tr[data-patient='dora']").text
        dora = api("GET", "/v1/patients/dora", ADMIN)
        assert dora["displayName"] == "Dora Kalnins" and dora["timeZone"] == "Europe/Riga", dora
        q("#admin-patients tr[data-patient='alice'] button").click()
        wait(lambda: qs("#enrol-device"))
        pending = len(api("GET", "/v1/patients/alice/enrolments", ADMIN)["enrolments"])
        q("#enrol-device").click()
        wait(lambda: qs("#admin-devices img.qr") and qs("#admin-devices .enrolment-code"))
        code = q("#admin-devices .enrolment-code").text
        assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code), code
        assert len(api("GET", "/v1/patients/alice/enrolments", ADMIN)["enrolments"]) == pending + 1
        # The device redeems the code; its token works until the admin revokes it on this page, then it is refused.
        device = api("POST", "/v1/enrolments/redeem", None, {"code": code, "source": TABLET_SOURCE, "displayName": "Clinic tablet"})
        assert http("GET", "/v1/patients/alice/changes?limit=1", device["token"])[0] == 200
        q("#admin-patients tr[data-patient='alice'] button").click()
        row = f"#device-table tr[data-source='{TABLET_SOURCE}']"
        wait(lambda: qs(row) and q(row + " .device-state").text == "active", message="the enrolled device, active")
        act(lambda: q(row + " button").click())
        wait(lambda: q(row + " button").text.startswith("Confirm: revoke"), message="the revoke button asks to confirm")
        q(row + " button").click()
        wait(lambda: q(row + " .device-state").text.startswith("revoked"), message="the device shown revoked")
        status, _, refused = http("GET", "/v1/patients/alice/changes?limit=1", device["token"])
        assert status == 401 and refused["status"] == 401, (status, refused)
        # The care teams page: add dora to physio, then take her off again with her row's button (a discharge): the
        # team's therapist reached her in between and does not after.
        q("#admin nav a[href='#admin/teams']").click()
        wait(lambda: qs("#admin-teams tr[data-team='physio']") and qs("#admin-team-add"))
        form = q("#admin-team-add")
        Select(form.find_element(By.NAME, "team")).select_by_value("physio")
        Select(form.find_element(By.NAME, "patient")).select_by_value("dora")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        member = "#admin-teams tr[data-team='physio'] li[data-patient='dora']"
        wait(lambda: qs(member), message="dora listed on physio")
        assert http("GET", "/v1/patients/dora", THERAPIST)[0] == 200
        act(lambda: q(member + " button").click())
        wait(lambda: q(member + " button").text.startswith("Confirm: remove"), message="the remove button asks to confirm")
        q(member + " button").click()
        wait(lambda: qs("#admin-teams tr[data-team='physio']") and not qs(member), message="dora no longer on physio")
        assert "alice" in q("#admin-teams tr[data-team='physio'] .team-patients").text
        team = next(t for t in api("GET", "/v1/care-teams", ADMIN)["careTeams"] if t["name"] == "physio")
        assert "dora" not in team["patients"] and "alice" in team["patients"], team
        assert http("GET", "/v1/patients/dora", THERAPIST)[0] == 404
        # The people page: invite a therapist of physio; the link shown once is what the therapist opens next.
        q("#admin nav a[href='#admin/people']").click()
        wait(lambda: qs("#admin-people") and "Ada" in q("#admin-people").text and qs("#admin-invite-form"))
        form = q("#admin-invite-form")
        set_value(form.find_element(By.NAME, "displayName"), "Theo")
        form.find_element(By.CSS_SELECTOR, "input[name=careTeams][value=physio]").click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(lambda: qs("#invitation-link code.secret"), message="the invitation link, shown once")
        state["theo-link"] = q("#invitation-link code.secret").text
        assert state["theo-link"].startswith(URL + "/invite#"), state["theo-link"]
        assert browser_errors() == [] and js("return window.__cspViolations") == []
        q("#sign-out").click()
        wait(lambda: q("#sign-in").is_displayed())
        assert page_session_status() == 401

    @check("the therapist invited on the admin page registers a passkey and sees the patients of its care team only")
    def _():
        open_invitation(state["theo-link"])
        wait(lambda: q("#patients").is_displayed() and len(qs("#triage-body a.patient-link")) == 2)
        invited = [p for p in api("GET", "/v1/people", ADMIN)["people"] if p["displayName"] == "Theo"]
        assert [(p["role"], p["careTeams"]) for p in invited] == [("therapist", ["physio"])], invited
        assert sorted(a.find_element(By.CSS_SELECTOR, ".patient-id").text for a in qs("#triage-body a.patient-link")) \
            == ["alice", "carol"]
        assert page_session_status() == 200 and js("return document.cookie") == "", "the session cookie is HttpOnly"
        assert "invite" not in driver.current_url
        assert "Theo" in q("#who").text and "physio" in q("#who").text
        assert not q("#alert").is_displayed()
        shoot("desktop-patients")

    @check("the triage list: the team's patients in the server's attention order, each row's figures the API's")
    def _():
        team = api("GET", "/v1/care-teams/physio/status", THERAPIST)["patients"]
        rows = qs("#triage-body tr")
        assert [r.get_attribute("data-patient") for r in rows] == [p["patient"] for p in team], team
        assert team[0]["patient"] == "carol" and team[0]["attention"]["noDevice"], team[0]
        for row, status in zip(rows, team):
            assert int(row.get_attribute("data-score")) == status["attention"]["score"]
            shown = {li.get_attribute("data-source"): li.get_attribute("data-last")
                     for li in row.find_elements(By.CSS_SELECTOR, "ul.sources li")}
            assert shown == {s["source"]: s["lastReceivedAt"] or "" for s in status["sources"]}, shown
            names = {li.get_attribute("data-source"): li.find_element(By.CSS_SELECTOR, ".source-name").text
                     for li in row.find_elements(By.CSS_SELECTOR, "ul.sources li")}
            assert names == {s["source"]: s["displayName"] or s["source"] for s in status["sources"]}, names
            active = {li.get_attribute("data-source"): li.get_attribute("data-active")
                      for li in row.find_elements(By.CSS_SELECTOR, "ul.sources li")}
            assert active == {s["source"]: str(s["active"]).lower() for s in status["sources"]}, active
            if status["patient"] == "alice":
                assert names[TABLET_SOURCE] == "Clinic tablet" and active[TABLET_SOURCE] == "false", (names, active)
                tablet = row.find_element(By.CSS_SELECTOR, f'ul.sources li[data-source="{TABLET_SOURCE}"]')
                assert "revoked or expired" in tablet.text, tablet.text
        assert "No device enrolled" in q('#triage-body tr[data-patient="carol"] td.devices').text
        episode = next(e for e in api("GET", "/v1/patients/alice/monitoring", THERAPIST)["episodes"] if e["open"])
        period = next(p for p in episode["periods"] if p["state"] == "inProgress")
        cell = q('#triage-body tr[data-patient="alice"] td.period span[data-days]')
        assert (int(cell.get_attribute("data-days")), int(cell.get_attribute("data-left"))) \
            == (period["daysWithData"], period["daysLeft"]), period
        assert period["daysWithData"] == 7, period
        goal = next(g for g in api("GET", "/v1/patients/alice/goals", THERAPIST)["goals"] if g["kind"] == "dailySteps")
        cell = q('#triage-body tr[data-patient="alice"] td.goal span[data-met]')
        assert (int(cell.get_attribute("data-met")), int(cell.get_attribute("data-days"))) \
            == (goal["adherence"]["daysMet"], goal["adherence"]["days"]), goal
        devices = q('#triage-body tr[data-patient="alice"] td.devices').text
        assert "PST" in devices or "PDT" in devices, f"last sync times say their zone: {devices}"

    @check("the triage filters: the server's `only=` lists, and a text filter on the page")
    def _():
        for only in ["silent", "attention"]:
            Select(q("#triage-only")).select_by_value(only)
            expected = [p["patient"] for p in api("GET", f"/v1/care-teams/physio/status?only={only}", THERAPIST)["patients"]]
            wait(lambda: [r.get_attribute("data-patient") for r in qs("#triage-body tr")] == expected
                 and q("#triage-none").is_displayed() == (expected == []), message=f"only={only}: {expected}")
        Select(q("#triage-only")).select_by_value("")
        wait(lambda: len(qs("#triage-body tr")) == 2)
        set_value(q("#triage-filter"), "CAR")
        wait(lambda: [r.get_attribute("data-patient") for r in qs("#triage-body tr")] == ["carol"])
        set_value(q("#triage-filter"), "org.example.watch")
        wait(lambda: [r.get_attribute("data-patient") for r in qs("#triage-body tr")] == ["alice"])
        set_value(q("#triage-filter"), "")
        wait(lambda: len(qs("#triage-body tr")) == 2)

    @check("the patient's daily steps: one bar per day of 4 weeks, watch before phone by default")
    def _():
        q(ALICE_LINK).click()
        wait(lambda: len(qs("#steps-chart rect.bar")) == 28 and "Live" in q("#live").text, 30)
        order = priority_order()
        assert order[:2] == [WATCH_SOURCE, PHONE_SOURCE], order
        assert "alice" in q("#patient-title").text and "America/Los_Angeles" in q("#patient-zone").text
        state["last"] = dt.date.fromisoformat(q("#steps-end").get_attribute("value"))
        state["first"] = state["last"] - dt.timedelta(days=27)
        # Axis titles with the unit, the year and the zone; a day without data is drawn apart from a day of zero.
        assert q("#steps-chart .y-title").get_attribute("textContent") == "Steps (count)"
        x_title = q("#steps-chart .x-title").get_attribute("textContent")
        assert str(state["last"].year) in x_title and "America/Los_Angeles" in x_title, x_title
        empty = qs("#steps-chart rect.bar.empty")
        assert empty and all(b.get_attribute("data-value") == "" for b in empty)
        assert "no data" in empty[0].find_element(By.CSS_SELECTOR, "title").get_attribute("textContent")

    @check("the bars and the table equal the statistics endpoint's figures with the same priority")
    def _():
        sums = statistics(state["first"], state["last"], priority_order())
        same(bars(), sums)
        cells = act(lambda: {r.get_attribute("data-day"): r.find_element(By.CSS_SELECTOR, "td.num").get_attribute("data-value")
                             for r in qs("#steps-table tbody tr")})
        same(cells, sums)
        assert sum(1 for v in sums.values() if v) == 7, sums
        no_priority = statistics(state["first"], state["last"], [])
        phone_first = statistics(state["first"], state["last"], [PHONE_SOURCE, WATCH_SOURCE])
        assert sum(v or 0 for v in sums.values()) < sum(v or 0 for v in no_priority.values()), "overlaps count once"
        assert sums != phone_first, "the seed must make priority matter"
        state["watch_first"] = sums

    @check("the source priority is editable: phone first changes the bars to the endpoint's phone-first figures")
    def _():
        q("#priority summary").click()
        assert q("#priority").get_attribute("open") is not None
        q(f"button[aria-label='Move {PHONE_SOURCE} up']").click()
        wait(lambda: priority_order()[:2] == [PHONE_SOURCE, WATCH_SOURCE])
        expected = statistics(state["first"], state["last"], priority_order())
        wait(lambda: bars() != {} and all(abs(float(bars()[d] or 0) - (v or 0)) < 1e-6 for d, v in expected.items()))
        same(bars(), expected)
        assert expected != state["watch_first"]
        q(f"button[aria-label='Move {PHONE_SOURCE} down']").click()
        wait(lambda: priority_order()[:2] == [WATCH_SOURCE, PHONE_SOURCE])
        wait(lambda: all(abs(float(bars()[d] or 0) - (v or 0)) < 1e-6 for d, v in state["watch_first"].items()))

    @check("a source name made of markup is shown as text, never as an element")
    def _():
        assert MARKUP_SOURCE in priority_order()
        headers = act(lambda: [e.get_attribute("textContent") for e in qs("#steps-table thead .source-name")])
        assert MARKUP_SOURCE in headers, headers
        assert qs("#patient img") == [] and not alert_open()

    @check("a week's tests entered in the form are posted as a weekly report (inserted) and charted")
    def _():
        set_value(q("#report-week"), "2020-06-15")
        wait(lambda: q("#report-id").get_attribute("value") == "report-2020-W25")
        assert q("#report-version").get_attribute("value") == "1"
        q("#add-test").click()
        q("#add-test").click()
        for row, (day, meters) in zip(qs("#tests tbody tr"), [("2020-06-16", "380"), ("2020-06-18", "400"), ("2020-06-19", "420")]):
            inputs = row.find_elements(By.CSS_SELECTOR, "input")
            set_value(inputs[0], day)
            set_value(inputs[1], "10:00")
            inputs[2].send_keys(meters)
        q("#report-form button[type=submit]").click()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text == "inserted")
        wait(lambda: walk_values() == [380, 400, 420])
        assert len(qs("#walk-chart circle.point")) == 3
        wait(lambda: newest_change() is not None and newest_change().get_attribute("data-added") == "3", 40)
        report = api("GET", "/v1/patients/alice/weekly-reports/report-2020-W25", THERAPIST)
        assert [s["value"] for s in report["samples"]] == [380, 400, 420]
        assert report["samples"][0]["start"] == "2020-06-16T17:00:00.000Z", report["samples"][0]["start"]
        state["uuids"] = {s["key"]: s["uuid"] for s in report["samples"]}

    @check("correcting one test posts version 2: the answer replaces exactly one sample, the feed shows one tombstone and one new sample")
    def _():
        act(lambda: next(r for r in qs("#walk-table tbody tr")
                         if r.find_element(By.CSS_SELECTOR, "td.num").get_attribute("data-value") == "400")
            .find_element(By.CSS_SELECTOR, "button").click())
        wait(lambda: q("#report-version").get_attribute("value") == "2")
        focused = driver.switch_to.active_element
        assert focused.get_attribute("value") == "400", focused.get_attribute("value")
        focused.send_keys(Keys.CONTROL, "a")
        focused.send_keys("450")
        q("#report-form button[type=submit]").click()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text == "replaced")
        assert q("#report-result .change-count").get_attribute("data-changed") == "1"
        assert "1 sample changed, 2 unchanged" in q("#report-result").text, q("#report-result").text
        wait(lambda: newest_change().get_attribute("data-deleted") == "1" and newest_change().get_attribute("data-added") == "1", 40)
        text = act(lambda: newest_change().text)
        assert state["uuids"]["2020-06-18"] in text and "report-2020-W25/2020-06-18 v1" in text and "v2" in text, text
        wait(lambda: walk_values() == [380, 450, 420])
        report = api("GET", "/v1/patients/alice/weekly-reports/report-2020-W25", THERAPIST)
        now = {s["key"]: s["uuid"] for s in report["samples"]}
        assert now["2020-06-16"] == state["uuids"]["2020-06-16"] and now["2020-06-19"] == state["uuids"]["2020-06-19"]
        assert now["2020-06-18"] != state["uuids"]["2020-06-18"]

    @check("screenshots of the patient screens at desktop and phone widths")
    def _():
        js("window.scrollTo(0, 0)")
        shoot("desktop-patient")
        js("document.getElementById('editor').scrollIntoView({block: 'start'})")
        shoot("desktop-report")
        metrics(390, 844, 2, True)
        wait(lambda: q("#steps-chart svg").get_attribute("width") and int(q("#steps-chart svg").get_attribute("width")) < 400)
        js("window.scrollTo(0, 0)")
        shoot("phone-patient")
        js("document.getElementById('walk').scrollIntoView({block: 'start'})")
        shoot("phone-walk")
        js("document.getElementById('editor').scrollIntoView({block: 'start'})")
        shoot("phone-report")
        overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways on a phone by {overflow}px"
        js("location.hash = '#patients'")
        wait(lambda: q("#patients").is_displayed() and qs(ALICE_LINK))
        shoot("phone-patients")
        overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the triage list scrolls sideways on a phone by {overflow}px"
        metrics(1280, 800, 1, False)
        q(ALICE_LINK).click()
        wait(lambda: len(qs("#steps-chart rect.bar")) == 28 and "Live" in q("#live").text, 30)

    @check("a refused report shows the problem's detail and its field errors, and marks the field")
    def _():
        q("#new-report").click()
        wait(lambda: q("#report-version").get_attribute("value") == "1")
        q("#report-form button[type=submit]").click()
        wait(lambda: q("#report-problem").is_displayed())
        text = q("#report-problem").text
        assert "The server refused the report" in text and "nothing was stored" in text, text
        items = [li.text for li in qs("#report-problem .problem-errors li")]
        assert any(i.startswith("test 1, Distance (m):") for i in items), items
        assert not any(", value:" in i for i in items), f"errors name the form's fields, not the API's: {items}"
        value = q("#tests tbody tr input[type=number]")
        assert value.get_attribute("aria-invalid") == "true"
        assert browser_errors(allowed_statuses=(422,)) == []

    @check("a note made of markup is stored and shown as text; deleting the report leaves tombstones in the feed")
    def _():
        value = q("#tests tbody tr input[type=number]")
        value.send_keys("300")
        q("#tests tbody tr input[type=text]").send_keys(MARKUP_NOTE)
        q("#report-form button[type=submit]").click()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text == "inserted")
        wait(lambda: MARKUP_NOTE in [c.get_attribute("textContent") for c in qs("#walk-table td.notes")])
        assert qs("#patient img") == [] and not alert_open()
        # Let the feed report the insert (and the views reload) before starting the two-step delete.
        wait(lambda: newest_change().get_attribute("data-added") == "1" and newest_change().get_attribute("data-deleted") == "0", 40)
        time.sleep(0.5)
        name = q("#report-id").get_attribute("value")
        wait(lambda: qs(f"#report-list li[data-report='{name}'] button.danger"))
        act(lambda: q(f"#report-list li[data-report='{name}'] button.danger").click())
        confirm = q(f"#report-list li[data-report='{name}'] .actions button.danger")
        assert confirm.text == "Delete" and driver.switch_to.active_element == confirm
        confirm.click()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text == "deleted")
        wait(lambda: not qs(f"#report-list li[data-report='{name}']"))
        wait(lambda: newest_change().get_attribute("data-deleted") == "1" and newest_change().get_attribute("data-added") == "0", 40)
        status, _, _ = http("GET", f"/v1/patients/alice/weekly-reports/{name}", THERAPIST)
        assert status == 404

    @check("typing a date into 'Week starting' moves the week once the date is complete, not on every keystroke")
    def _():
        q("#new-report").click()
        wait(lambda: q("#report-version").get_attribute("value") == "1")
        field = q("#report-week")
        js("arguments[0].focus()", field)
        field.send_keys("10262020")
        field.send_keys(Keys.TAB)
        wait(lambda: q("#report-id").get_attribute("value") == "report-2020-W44")
        assert q("#report-week").get_attribute("value") == "2020-10-26", q("#report-week").get_attribute("value")
        field = q("#report-week")
        js("arguments[0].focus()", field)
        field.send_keys("10282020")
        field.send_keys(Keys.TAB)
        wait(lambda: q("#report-week").get_attribute("value") == "2020-10-26")
        assert q("#report-id").get_attribute("value") == "report-2020-W44"

    @check("a report holding a blood-pressure pair and a heart rate keeps both when the editor posts its next version")
    def _():
        week = dt.date(2020, 7, 20)
        at = local(dt.date(2020, 7, 21), 10)
        iso = lambda t: t.isoformat()
        # Posted in the signed-in therapist's session (the editor edits the reports of its own source: person.<id>).
        as_person("POST", "/v1/patients/alice/weekly-reports", {
            "syncIdentifier": "report-2020-W30", "syncVersion": 1, "weekStart": week.isoformat(),
            "timeZone": "America/Los_Angeles", "samples": [
                {"key": "walk", "type": "sixMinuteWalkTestDistance", "value": 410, "unit": "m",
                 "start": iso(at), "end": iso(at + dt.timedelta(minutes=6))},
                {"key": "bp", "type": "bloodPressure", "unit": "mmHg",
                 "components": {"bloodPressureSystolic": 128, "bloodPressureDiastolic": 84},
                 "start": iso(at + dt.timedelta(minutes=10)), "end": iso(at + dt.timedelta(minutes=10))},
                {"key": "pulse", "type": "heartRate", "value": 72, "unit": "count/min",
                 "start": iso(at + dt.timedelta(minutes=11)), "end": iso(at + dt.timedelta(minutes=11)),
                 "metadata": {"HKMetadataKeyHeartRateMotionContext": 1}}]})
        before = {s["key"]: s for s in api("GET", "/v1/patients/alice/weekly-reports/report-2020-W30", THERAPIST)["samples"]}
        wait(lambda: qs("#report-list li[data-report='report-2020-W30'] button"), 40)
        act(lambda: q("#report-list li[data-report='report-2020-W30'] button").click())
        wait(lambda: q("#report-version").get_attribute("value") == "2")
        mode = q("#report-mode").text
        rows = qs("#tests tbody tr")
        assert len(rows) == 1, len(rows)
        value = rows[0].find_element(By.CSS_SELECTOR, "input[type=number]")
        value.send_keys(Keys.CONTROL, "a")
        value.send_keys("430")
        q("#report-form button[type=submit]").click()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text == "replaced")
        after = {s["key"]: s for s in api("GET", "/v1/patients/alice/weekly-reports/report-2020-W30", THERAPIST)["samples"]}
        assert set(after) == {"walk", "bp", "pulse"}, sorted(after)
        for key in ["bp", "pulse"]:
            assert after[key]["uuid"] == before[key]["uuid"], (key, before[key], after[key])
        assert after["walk"]["value"] == 430 and after["walk"]["uuid"] != before["walk"]["uuid"]
        assert after["bp"]["components"] == {"bloodPressureSystolic": 128, "bloodPressureDiastolic": 84}, after["bp"]
        assert "2 other samples" in mode and "bloodPressure" in mode, mode

    @check("a double click on 'Post report' is one write with one answer: the new version, never 'ignored'")
    def _():
        wait(lambda: q("#report-version").get_attribute("value") == "3")
        value = q("#tests tbody tr input[type=number]")
        value.send_keys(Keys.CONTROL, "a")
        value.send_keys("440")
        submit = q("#report-form button[type=submit]")
        js("arguments[0].scrollIntoView({block: 'center'})", submit)
        ActionChains(driver).double_click(submit).perform()
        wait(lambda: qs("#report-result .outcome") and q("#report-result .outcome").text in ("replaced", "ignored"))
        time.sleep(1)
        assert q("#report-result .outcome").text == "replaced", q("#report-result").text
        assert "version 3" in q("#report-result").text, q("#report-result").text
        report = api("GET", "/v1/patients/alice/weekly-reports/report-2020-W30", THERAPIST)
        assert report["syncVersion"] == 3 and [s["value"] for s in report["samples"] if s["key"] == "walk"] == [440]

    @check("a negative walk test is refused, nothing stored, the distance field marked")
    def _():
        wait(lambda: q("#report-version").get_attribute("value") == "4")
        value = q("#tests tbody tr input[type=number]")
        value.send_keys(Keys.CONTROL, "a")
        value.send_keys("-5")
        q("#report-form button[type=submit]").click()
        wait(lambda: q("#report-problem").is_displayed())
        assert "must not be negative" in q("#report-problem").text or "from 0 to" in q("#report-problem").text, q("#report-problem").text
        assert q("#tests tbody tr input[type=number]").get_attribute("aria-invalid") == "true"
        assert api("GET", "/v1/patients/alice/weekly-reports/report-2020-W30", THERAPIST)["syncVersion"] == 3
        browser_errors(allowed_statuses=(422,))

    @check("live: steps another device posts appear in the chart without a reload")
    def _():
        today = state["last"]
        api("POST", "/v1/patients/alice/samples", PHONE, {"samples": [steps(local(today, 22), 30, 777, "phone-late")]})
        expected = statistics(state["first"], state["last"], priority_order())
        wait(lambda: bars().get(today.isoformat()) not in (None, "") and abs(float(bars()[today.isoformat()]) - expected[today.isoformat()]) < 1e-6, 40)
        same(bars(), expected)

    @check("the patient page's monitoring periods and goals are the API's")
    def _():
        wait(lambda: qs("#periods tbody tr"))
        episode = next(e for e in api("GET", "/v1/patients/alice/monitoring", THERAPIST)["episodes"] if e["open"])
        period = next(p for p in episode["periods"] if p["state"] == "inProgress")
        row = q(f'#periods tbody tr[data-episode="{episode["id"]}"][data-period="{period["number"]}"]')
        assert (int(row.get_attribute("data-days")), int(row.get_attribute("data-left"))) \
            == (period["daysWithData"], period["daysLeft"])
        assert "Monitoring since" in q("#episode-state").text and q("#episode-button").text == "End monitoring"
        assert [li.get_attribute("data-target") for li in qs('#goal-list li[data-kind="dailySteps"]')] == ["3000"]
        assert q("#goal-steps").get_attribute("value") == "3000"

    @check("enrolling a device from the patient page: a QR code and a code the device redeems once for its token")
    def _():
        wait(lambda: qs("#patient-devices #enrol-device"))
        before = len(api("GET", "/v1/patients/alice/enrolments", THERAPIST)["enrolments"])
        q("#patient-devices #enrol-device").click()
        wait(lambda: qs("#patient-devices img.qr") and qs("#patient-devices .enrolment-code"), message="the code")
        code = q("#patient-devices .enrolment-code").text
        assert q("#patient-devices .enrolment-url").text == URL + "/enrol#" + code, q("#patient-devices .enrolment-url").text
        assert len(api("GET", "/v1/patients/alice/enrolments", THERAPIST)["enrolments"]) == before + 1
        body = {"code": code, "source": "org.example.scale", "displayName": "Bathroom scale"}
        device = api("POST", "/v1/enrolments/redeem", None, body)
        assert (device["patient"], device["source"], device["role"]) == ("alice", "org.example.scale", "device"), device
        assert http("POST", "/v1/enrolments/redeem", None, body)[0] == 400, "a code works once"
        devices = api("GET", "/v1/patients/alice/devices", THERAPIST)["devices"]
        assert any(d["source"] == "org.example.scale" and d["tokenId"] == device["tokenId"] for d in devices), devices

    @check("the patient's copy: the page links the FHIR export's files, and they hold every Observation the API answers")
    def _():
        q("#copy-button").click()
        wait(lambda: qs("#copy-files a[href]"), 60, "the copy's files")
        links = [a for a in qs("#copy-files a") if a.text.startswith("Observations")]
        assert links and all(a.get_attribute("download").startswith("caresync-alice-") for a in links)
        cookie = next(c for c in driver.get_cookies() if c["name"] == "caresync_session")
        lines = []
        for link in links:
            path = urllib.parse.urlsplit(link.get_attribute("href")).path
            status, head, raw = http("GET", path, headers={"Cookie": f"caresync_session={cookie['value']}", "Accept": "application/fhir+ndjson"})
            assert status == 200 and head["Content-Type"].startswith("application/fhir+ndjson"), (status, head["Content-Type"])
            own = [json.loads(line) for line in raw.decode().splitlines() if line]
            assert len(own) == int(link.get_attribute("data-count")), (len(own), link.get_attribute("data-count"))
            lines += own
        total = api("GET", "/fhir/R4/Observation?patient=alice&_count=1", THERAPIST)["total"]
        assert len(lines) == total and all(o["resourceType"] == "Observation" and o["subject"]["reference"] == "Patient/alice"
                                           for o in lines), (len(lines), total)
        assert not qs("#care-problem .problem-title") or not q("#care-problem").is_displayed()

    @check("logging minutes: the month's total is the API's; a bad entry names the form's field and stores nothing")
    def _():
        before = api("GET", "/v1/patients/alice/monitoring/minutes", THERAPIST)["total"]
        set_value(q("#minutes-count"), "0")
        q("#minutes-form button[type=submit]").click()
        wait(lambda: q("#care-problem").is_displayed())
        items = [li.text for li in qs("#care-problem .problem-errors li")]
        assert any(i.startswith("Minutes:") for i in items), items
        assert api("GET", "/v1/patients/alice/monitoring/minutes", THERAPIST)["total"] == before
        set_value(q("#minutes-count"), "12")
        Select(q("#minutes-category")).select_by_value("patientCall")
        q("#minutes-form button[type=submit]").click()
        wait(lambda: q("#minutes-total").get_attribute("data-total") == str(before + 12))
        answer = api("GET", "/v1/patients/alice/monitoring/minutes", THERAPIST)
        assert answer["total"] == before + 12, answer
        assert any(e["minutes"] == 12 and e["category"] == "patientCall" for e in answer["entries"]), answer
        assert not q("#care-problem").is_displayed()
        browser_errors(allowed_statuses=(422,))

    @check("starting monitoring for carol from her page opens an episode on the server")
    def _():
        js("location.hash = '#patient/carol'")
        wait(lambda: "Not monitoring" in q("#episode-state").text and q("#episode-button").text == "Start monitoring")
        assert qs("#periods tbody tr") == [] and q("#periods-empty").is_displayed()
        q("#episode-button").click()
        wait(lambda: "Monitoring since" in q("#episode-state").text)
        episodes = api("GET", "/v1/patients/carol/monitoring", THERAPIST)["episodes"]
        assert [e["open"] for e in episodes] == [True], episodes
        wait(lambda: len(qs("#periods tbody tr")) == 1)

    @check("the monthly worksheet downloads as the API's CSV")
    def _():
        js("location.hash = '#patients'")
        wait(lambda: q("#patients").is_displayed() and qs(ALICE_LINK))
        month = q("#worksheet-month").get_attribute("value")
        assert len(month) == 7 and q("#worksheet-team").get_attribute("value") == "physio"
        with tempfile.TemporaryDirectory(prefix="caresync-downloads-") as folder:
            driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
            q("#worksheet-form button[type=submit]").click()
            wait(lambda: q("#worksheet-link").is_displayed())
            name = f"caresync-worksheet-physio-{month}.csv"
            assert q("#worksheet-link").get_attribute("download") == name
            path = os.path.join(folder, name)
            wait(lambda: os.path.exists(path) and os.path.getsize(path) > 0, message=f"{name} downloaded")
            downloaded = open(path, encoding="utf-8", newline="").read()
            status, _, expected = http("GET", f"/v1/care-teams/physio/worksheet?month={month}", THERAPIST, headers={"Accept": "text/csv"})
            assert status == 200 and downloaded == expected.decode(), (downloaded, expected)
        assert downloaded.startswith("patient,month,") and "\nalice," in downloaded and "\ncarol," in downloaded, downloaded

    @check("an alert on the triage list, named by the device's name, is acknowledged and then resolved from the page")
    def _():
        # alice's bathroom scale (enrolled above) never sent anything: her next commit's evaluation raises its silence.
        api("POST", "/v1/patients/alice/samples", PHONE, {"samples": [steps(local(state["last"], 6), 5, 11, "phone-alert")]})
        def scale_alert():
            alerts = api("GET", "/v1/patients/alice/alerts?state=open", THERAPIST)["alerts"]
            return next((a for a in alerts if a["rule"] == "deviceSilent" and a["subject"] == "org.example.scale"), None)
        alert = wait(scale_alert, 30, "the scale's deviceSilent alert")
        driver.refresh()
        item = f'#triage-body tr[data-patient="alice"] li[data-alert="{alert["id"]}"]'
        wait(lambda: qs(item), message="the alert on alice's row")
        assert "Device silent (Bathroom scale)" in q(item).text, q(item).text
        q(item + " button[aria-label^='Acknowledge']").click()
        wait(lambda: q(item).get_attribute("data-state") == "acknowledged", message="shown acknowledged")
        stored = next(a for a in api("GET", "/v1/patients/alice/alerts?state=acknowledged", THERAPIST)["alerts"] if a["id"] == alert["id"])
        assert stored["acknowledgedBy"], stored
        q(item + " button[aria-label^='Resolve']").click()
        wait(lambda: not qs(item), message="gone from the row once resolved")
        resolved = next(a for a in api("GET", "/v1/patients/alice/alerts?state=resolved", THERAPIST)["alerts"] if a["id"] == alert["id"])
        assert resolved["resolution"] == "therapist" and resolved["resolvedBy"], resolved

    @check("no console error and no CSP violation during the whole session")
    def _():
        assert browser_errors() == []
        assert js("return window.__cspViolations") == []
        assert not alert_open()

    @check("the CSP check can fail: an inline script is blocked and reported")
    def _():
        js("const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s);")
        wait(lambda: js("return window.__cspViolations.length") == 1)
        assert js("return window.__inline") is None
        driver.get_log("browser")  # drop the violation's own console message

    @check("signing out ends the session on the server; no secret appears in the server's log")
    def _():
        q("#sign-out").click()
        wait(lambda: q("#sign-in").is_displayed())
        assert page_session_status() == 401 and q("#who").text == ""
        assert "Signed out" in q("#status").text
        metrics(390, 844, 2, True)
        shoot("phone-sign-in")
        time.sleep(1)  # the server's log is buffered: lines reach the file within 250 ms
        log = open(os.environ["SERVER_LOG"], encoding="utf-8", errors="replace").read()
        secret = THERAPIST.split("_", 2)[2]
        assert "/v1/patients" in log, "the server logs requests at info level"
        assert secret not in log

    @check("another care team's therapist in the same tab sees nothing of alice: not on the page, not after a failed load")
    def _():
        metrics(1280, 800, 1, False)
        # The same browser, after the first therapist signed out: another person's invitation link.
        wait(lambda: q("#passkey-sign-in").is_displayed())
        sign_in_invited(invite(teams=("cardio",), name="Cora"), passkey="Cora's key")
        wait(lambda: q("#patients").is_displayed() and "Cora" in q("#who").text)
        js("location.hash = '#patient/alice'")
        wait(lambda: q("#alert").is_displayed())
        assert "No such patient" in q("#alert").text or "Could not open patient alice" in q("#alert").text, q("#alert").text
        html = js("return document.body.innerHTML")
        for trace in ["report-2020-W25", "report-2020-W30", WATCH_SOURCE, PHONE_SOURCE, "Live: updates", "rect class=\"bar\""]:
            assert trace not in html, trace
        assert qs("#steps-chart *") == [] and qs("#walk-table tbody tr") == [] and qs("#report-list li") == []
        assert q("#patient-title").get_attribute("textContent") == "" and q("#live").get_attribute("textContent") == ""
        # Nothing polls alice's feed any more: no request for her after the failed load.
        js("performance.clearResourceTimings()")
        time.sleep(2)
        names = js("return performance.getEntriesByType('resource').map(e => e.name)")
        assert not [n for n in names if "/patients/alice/" in n], names
        q("#sign-out").click()
        wait(lambda: q("#sign-in").is_displayed())

    return chromium.finish()


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        chromium.quit_quietly()
