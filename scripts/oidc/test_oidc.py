#!/usr/bin/env python3
"""OpenID Connect sign-in end to end (scripts/ci-oidc.sh): CareSync against a real provider (Glewlwyd: ES256 with a
confidential client whose secret comes from a file, RS256 with a public client), through the provider's API
(`g_continue`) and once through headless Chromium; then refusals, each leaving people, sessions and identities as
they were: a wrong state, a replayed callback, a replayed code, a missing browser cookie, an unknown or unlinked or
deactivated identity, and (against a fake provider) an ID token signed by another key, of an unknown kid, expired,
issued in the future, for another audience, issuer or nonce, or unsigned.
Invitations are accepted through the provider by POSTing them (never in a URL), in Chromium from the invitation page.
   env: GLEWLWYD_URL, SERVER_BIN, WORK   prints "N passed, M failed"."""
import base64, hashlib, json, os, secrets, subprocess, sys, time, traceback, urllib.parse
import requests
from fake_provider import FakeProvider, SUBJECT as FAKE_SUBJECT

HERE = os.path.dirname(os.path.abspath(__file__))
GLEWLWYD, BIN, WORK = os.environ["GLEWLWYD_URL"].rstrip("/"), os.environ["SERVER_BIN"], os.environ["WORK"]
ES_ISSUER, RS_ISSUER = GLEWLWYD + "/api/oidc", GLEWLWYD + "/api/oidcrs"
results, servers = [], []


def check(name, fn):
    try:
        fn()
        results.append((name, True)); print(f"✔ {name}")
    except Exception:
        results.append((name, False)); print(f"✘ {name}"); traceback.print_exc()


class CareSync:
    """A `caresync serve --port 0` on its own database, with an admin token."""
    def __init__(self, name, **oidc):
        self.db = f"{WORK}/{name}.sqlite"
        self.env = dict(os.environ, CARESYNC_DATABASE=self.db, CARESYNC_LOG_LEVEL="info",
                        **{"CARESYNC_OIDC_" + k.upper(): v for k, v in oidc.items()})
        made = subprocess.run([BIN, "token", "create", "--role", "admin"], env=self.env, capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        self.admin = made.stdout.strip()
        self.log = open(f"{WORK}/{name}.stderr", "w")
        self.process = subprocess.Popen([BIN, "serve", "--port", "0"], env=self.env, stdout=subprocess.PIPE, stderr=self.log, text=True)
        servers.append(self)
        for line in self.process.stdout:
            if line.startswith("listening on "):
                self.url = line.split()[-1].rstrip("/"); break
        else:
            sys.exit(f"{name} did not start")
        self.callback = self.url + "/v1/oidc/callback"

    def api(self, method, path, **kw):
        return requests.request(method, self.url + path, headers={"Authorization": f"Bearer {self.admin}"}, timeout=10, **kw)

    def invite(self, role="admin", **extra):
        r = self.api("POST", "/v1/people/invitations", json=dict(role=role, displayName=extra.pop("name", ""), **extra))
        assert r.status_code == 201, r.text
        return r.json()["secret"]

    def snapshot(self):
        """People, each one's sessions and identities, and invitations used: what no refusal may change."""
        people = self.api("GET", "/v1/people").json()["people"]
        return [(p["id"], p["deactivatedAt"], [s["id"] for s in self.api("GET", f"/v1/people/{p['id']}/sessions").json()["sessions"]],
                 self.api("GET", f"/v1/people/{p['id']}/identities").json()["identities"]) for p in people]


def begin(server, invitation=None, **params):
    """A sign-in begun in a new browser-like session: the provider's authorization URL. Without an invitation the
    browser navigates to GET /v1/oidc/start (302); with one it POSTs it, as the web app's invitation page does."""
    browser = requests.Session()
    if invitation is None:
        r = browser.get(server.url + "/v1/oidc/start", params=params, allow_redirects=False, timeout=10)
        assert r.status_code == 302, (r.status_code, r.text)
        location = r.headers["Location"]
    else:
        r = browser.post(server.url + "/v1/oidc/start", json=dict(invitation=invitation, **params), headers={"Origin": server.url}, timeout=10)
        assert r.status_code == 200, (r.status_code, r.text)
        location = r.json()["authorizationUrl"]
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    assert query["code_challenge_method"] == "S256" and query["state"] and query["nonce"] and query["redirect_uri"] == server.callback, query
    assert "HttpOnly" in r.headers["Set-Cookie"] and "SameSite=Lax" in r.headers["Set-Cookie"], r.headers["Set-Cookie"]
    return browser, location


def glewlwyd_login(auth_url, user, password):
    """The provider's login by its own API, as its login page does: the redirect back to CareSync."""
    g = requests.Session()
    assert g.post(GLEWLWYD + "/api/auth/", json={"username": user, "password": password}, timeout=10).status_code == 200
    r = g.get(auth_url + "&g_continue", allow_redirects=False, timeout=10)
    assert r.status_code == 302 and "code=" in r.headers["Location"], (r.status_code, r.headers.get("Location"), r.text)
    return r.headers["Location"]


def fake_login(auth_url):
    r = requests.get(auth_url, allow_redirects=False, timeout=10)
    assert r.status_code == 302, r.status_code
    return r.headers["Location"]


def finish(browser, callback_url):
    return browser.get(callback_url, allow_redirects=False, timeout=20)


def signed_in(server, browser, callback_url, return_to="/"):
    """Finishes a sign-in that must succeed: 303 to the web app, and /v1/session names the person."""
    r = finish(browser, callback_url)
    assert r.status_code == 303, (r.status_code, r.text)
    assert r.headers["Location"] == return_to, r.headers["Location"]
    assert "caresync_session=" in r.headers.get("Set-Cookie", ""), r.headers
    me = browser.get(server.url + "/v1/session", timeout=10)
    assert me.status_code == 200, me.text
    return me.json()["person"]


def refused(server, browser, callback_url, detail):
    """Finishes a sign-in that must be refused: 401 problem naming why, no session cookie, nothing changed."""
    before, had_session = server.snapshot(), "caresync_session" in browser.cookies
    r = finish(browser, callback_url)
    assert r.status_code == 401, (r.status_code, r.text)
    problem = r.json()
    assert r.headers["Content-Type"] == "application/problem+json" and problem["code"] == "unauthorized", problem
    assert detail in problem["detail"], problem["detail"]
    assert "caresync_session=" not in r.headers.get("Set-Cookie", ""), r.headers
    if not had_session:
        assert browser.get(server.url + "/v1/session", timeout=10).status_code == 401
    assert server.snapshot() == before, (before, server.snapshot())
    return problem


def subject_of(user, password):
    """The provider's `sub` for a user, by a code + PKCE flow of this test's own (public client)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    meta = requests.get(ES_ISSUER + "/.well-known/openid-configuration", timeout=10).json()
    url = meta["authorization_endpoint"] + "?" + urllib.parse.urlencode(dict(
        response_type="code", client_id="caresync-public", redirect_uri=A.callback, scope="openid", state="s", nonce="n",
        code_challenge=challenge, code_challenge_method="S256"))
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(glewlwyd_login(url, user, password)).query))["code"]
    token = requests.post(meta["token_endpoint"], data=dict(grant_type="authorization_code", code=code, redirect_uri=A.callback,
                                                            code_verifier=verifier, client_id="caresync-public"), timeout=10).json()
    payload = token["id_token"].split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]


secret_file = f"{WORK}/oidc-client-secret"
with open(secret_file, "w") as f:
    f.write("caresync-secret-1\n")
A = CareSync("es256-confidential", issuer=ES_ISSUER, client_id="caresync", client_secret_file=secret_file, display_name="Clinic sign-in")
B = CareSync("rs256-public", issuer=RS_ISSUER, client_id="caresync-public")
fake = FakeProvider("caresync-fake")
C = CareSync("fake-provider", issuer=fake.issuer, client_id="caresync-fake")
D = CareSync("no-oidc")
setup = subprocess.run([sys.executable, f"{HERE}/glewlwyd_setup.py", GLEWLWYD, A.callback, B.callback], check=True,
                       capture_output=True, text=True).stdout
env = dict(line[len("export "):].split("=", 1) for line in setup.splitlines())
USER, PASSWORD, USER2, PASSWORD2 = (env[k].strip("'") for k in ("OIDC_USER", "OIDC_PASSWORD", "OIDC_USER2", "OIDC_PASSWORD2"))
state = {}


def sign_in_methods():
    assert requests.get(A.url + "/v1/sign-in/methods", timeout=10).json() == {
        "passkeys": True, "openIDConnect": {"name": "Clinic sign-in", "start": "/v1/oidc/start"}}
    assert requests.get(D.url + "/v1/sign-in/methods", timeout=10).json()["openIDConnect"] is None
    assert requests.get(D.url + "/v1/oidc/start", allow_redirects=False, timeout=10).status_code == 404


def invitation_through_provider_confidential_es256():
    secret = A.invite(name="Theo")
    browser, auth = begin(A, invitation=secret, returnTo="/#patients")
    person = signed_in(A, browser, glewlwyd_login(auth, USER, PASSWORD), return_to="/#patients")
    assert person["displayName"] == "Theo" and person["role"] == "admin", person
    identities = A.api("GET", f"/v1/people/{person['id']}/identities").json()["identities"]
    assert [(i["issuer"], len(i["subject"]) > 0) for i in identities] == [(ES_ISSUER, True)], identities
    state["theo"], state["theo_sub"], state["theo_invitation"] = person["id"], identities[0]["subject"], secret


def linked_identity_signs_in_again():
    browser, auth = begin(A)
    assert signed_in(A, browser, glewlwyd_login(auth, USER, PASSWORD))["id"] == state["theo"]


def used_invitation_through_provider_is_refused():
    browser, auth = begin(A, invitation=state["theo_invitation"])
    refused(A, browser, glewlwyd_login(auth, USER, PASSWORD), "linked to a person already")


def wrong_state_is_refused_and_the_right_one_still_works():
    browser, auth = begin(A)
    callback = glewlwyd_login(auth, USER, PASSWORD)
    q = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query))
    wrong = A.callback + "?" + urllib.parse.urlencode(dict(q, state=secrets.token_urlsafe(32)))
    refused(A, browser, wrong, "state is unknown")
    assert signed_in(A, browser, callback)["id"] == state["theo"]
    state["used_callback"], state["used_browser"] = callback, browser


def replayed_callback_is_refused():
    refused(A, state["used_browser"], state["used_callback"], "state is unknown, used already")


def replayed_code_is_refused():
    used_code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(state["used_callback"]).query))["code"]
    browser, auth = begin(A)
    fresh_state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(auth).query))["state"]
    refused(A, browser, A.callback + "?" + urllib.parse.urlencode(dict(code=used_code, state=fresh_state)),
            "refused the authorization code")


def another_browser_is_refused():
    _, auth = begin(A)
    refused(A, requests.Session(), glewlwyd_login(auth, USER, PASSWORD), "started in another browser")


def provider_error_is_refused():
    browser, auth = begin(A)
    q = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(auth).query))
    refused(A, browser, A.callback + "?" + urllib.parse.urlencode(dict(error="access_denied", state=q["state"])), "access_denied")


def unknown_identity_is_refused():
    browser, auth = begin(A)
    refused(A, browser, glewlwyd_login(auth, USER2, PASSWORD2), "No CareSync person is linked")


def admin_links_and_unlinks_an_identity():
    tara = requests.post(A.url + "/v1/invitations/redeem", json={"secret": A.invite(role="admin", name="Tara")}, timeout=10).json()["person"]
    sub = subject_of(USER2, PASSWORD2)
    r = A.api("POST", f"/v1/people/{tara['id']}/identities", json={"subject": sub})
    assert r.status_code == 201 and r.json()["issuer"] == ES_ISSUER, r.text
    assert A.api("POST", f"/v1/people/{state['theo']}/identities", json={"subject": sub}).status_code == 409
    assert A.api("POST", f"/v1/people/{tara['id']}/identities", json={"subject": ""}).status_code == 422
    browser, auth = begin(A)
    assert signed_in(A, browser, glewlwyd_login(auth, USER2, PASSWORD2))["id"] == tara["id"]
    assert A.api("DELETE", f"/v1/people/{tara['id']}/identities/{r.json()['id']}").status_code == 204
    assert A.api("DELETE", f"/v1/people/{tara['id']}/identities/{r.json()['id']}").status_code == 404
    browser, auth = begin(A)
    refused(A, browser, glewlwyd_login(auth, USER2, PASSWORD2), "No CareSync person is linked")
    assert A.api("POST", f"/v1/people/{tara['id']}/identities", json={"subject": sub}).status_code == 201
    assert A.api("POST", f"/v1/people/{tara['id']}/deactivate").status_code == 200
    browser, auth = begin(A)
    refused(A, browser, glewlwyd_login(auth, USER2, PASSWORD2), "deactivated")


def public_client_rs256():
    browser, auth = begin(B, invitation=B.invite(name="Theo B"))
    person = signed_in(B, browser, glewlwyd_login(auth, USER, PASSWORD))
    identities = B.api("GET", f"/v1/people/{person['id']}/identities").json()["identities"]
    assert [i["issuer"] for i in identities] == [RS_ISSUER], identities
    browser, auth = begin(B)
    assert signed_in(B, browser, glewlwyd_login(auth, USER, PASSWORD))["id"] == person["id"]


def invitation_in_a_url_is_refused():
    secret, before = A.invite(name="Never in a URL"), A.snapshot()
    for r in (requests.get(A.url + "/v1/oidc/start", params={"invitation": secret}, allow_redirects=False, timeout=10),
              requests.post(A.url + "/v1/oidc/start", params={"invitation": secret}, json={}, timeout=10)):
        assert r.status_code == 422 and r.json()["code"] == "validationFailed", (r.status_code, r.text)
        assert "Set-Cookie" not in r.headers, r.headers
    r = requests.post(A.url + "/v1/oidc/start", json={"invitation": secret}, headers={"Origin": "https://evil.example"}, timeout=10)
    assert r.status_code == 403 and "Set-Cookie" not in r.headers, (r.status_code, r.text)
    assert A.snapshot() == before
    # The invitation is still unused: accepted through the provider now, it would link; redeemed here, it makes its person.
    r = requests.post(A.url + "/v1/invitations/redeem", json={"secret": secret}, timeout=10)
    assert r.status_code == 201 and r.json()["person"]["displayName"] == "Never in a URL", r.text


def refusals_are_audited():
    records = A.api("GET", "/v1/audit", params={"token": "-", "limit": 1000}).json()["records"]
    actions = [(r["action"], r["status"]) for r in records]
    assert actions.count(("session.signIn.oidc", 401)) >= 9, actions


def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(driver):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 20, ignored_exceptions=(StaleElementReferenceException,))   # the login page re-renders


def glewlwyd_login_page(driver, server, user, password):
    """Signs in on the provider's own login page (Chromium is there), until it sends the browser back to `server`."""
    from selenium.webdriver.common.by import By
    wait = wait_for(driver)
    wait.until(lambda d: d.find_elements(By.ID, "username"))
    assert driver.current_url.startswith(GLEWLWYD), driver.current_url
    driver.find_element(By.ID, "username").send_keys(user)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "loginbut").click()
    continue_button = "//button[normalize-space()='Continue']"
    wait.until(lambda d: d.find_elements(By.XPATH, continue_button) or d.current_url.startswith(server.url))
    if not driver.current_url.startswith(server.url):
        wait.until(lambda d: d.find_element(By.XPATH, continue_button).click() or True)
    wait.until(lambda d: d.current_url == server.url + "/")


def session_in(driver):
    driver.set_script_timeout(10)
    return driver.execute_async_script("fetch('/v1/session').then(r => r.json()).then(arguments[0])")


def browser_sign_in_reaches_the_web_app():
    driver = chromium()
    try:
        driver.get(A.url + "/v1/oidc/start")
        glewlwyd_login_page(driver, A, USER, PASSWORD)
        me = session_in(driver)
        assert me["person"]["id"] == state["theo"], me
        cookie = next(c for c in driver.get_cookies() if c["name"] == "caresync_session")
        assert cookie["httpOnly"] and cookie.get("sameSite") == "Lax", cookie
        assert not any(c["name"] == "caresync_oidc" for c in driver.get_cookies())
    finally:
        driver.quit()


def browser_invitation_page_offers_the_provider():
    """The invitation link in Chromium, on a server with a provider: the page offers it beside a passkey; choosing it
    posts the secret (never putting it in a URL), goes through the provider's login and comes back signed in as the
    invited person, the identity linked."""
    from selenium.webdriver.common.by import By
    secret = B.invite(name="Tara B")
    driver = chromium()
    try:
        wait = wait_for(driver)
        driver.get(B.url + "/invite#" + secret)
        wait.until(lambda d: d.find_element(By.ID, "invitation-choice").is_displayed())
        assert driver.current_url == B.url + "/", driver.current_url   # the secret left the address bar
        button = driver.find_element(By.ID, "invitation-use-provider")
        assert button.text == "Clinic sign-in", button.text   # oidc.displayName, the label as configured
        assert driver.find_element(By.ID, "invitation-use-passkey").is_displayed()
        button.click()
        glewlwyd_login_page(driver, B, USER2, PASSWORD2)
        wait.until(lambda d: "Tara B" in d.find_element(By.ID, "who").text)
        person = session_in(driver)["person"]
        assert person["displayName"] == "Tara B" and person["role"] == "admin", person
        identities = B.api("GET", f"/v1/people/{person['id']}/identities").json()["identities"]
        assert [i["issuer"] for i in identities] == [RS_ISSUER], identities
        with open(f"{WORK}/rs256-public.stderr") as log:
            assert secret not in log.read()
    finally:
        driver.quit()


def fake_provider_good_token_signs_in():
    fake.mode = "good"
    browser, auth = begin(C, invitation=C.invite(name="Fay"))
    state["fay"] = signed_in(C, browser, fake_login(auth))["id"]
    assert C.api("GET", f"/v1/people/{state['fay']}/identities").json()["identities"][0]["subject"] == FAKE_SUBJECT


def fake_provider_refusal(mode, detail):
    def run():
        fake.mode = mode
        browser, auth = begin(C)
        refused(C, browser, fake_login(auth), detail)
        browser, auth = begin(C, invitation=C.invite(name="Never"))   # an invitation is not redeemed either
        refused(C, browser, fake_login(auth), detail)
        fake.mode = "good"
        browser, auth = begin(C)
        assert signed_in(C, browser, fake_login(auth))["id"] == state["fay"]
    return run


check("sign-in methods name the provider; without oidc.issuer none and 404", sign_in_methods)
check("an invitation accepted through the provider (ES256, confidential client, secret from a file)",
      invitation_through_provider_confidential_es256)
check("the linked identity signs in again", linked_identity_signs_in_again)
check("a used invitation through the provider is refused", used_invitation_through_provider_is_refused)
check("a wrong state is refused, and the right one still signs in", wrong_state_is_refused_and_the_right_one_still_works)
check("a replayed callback is refused", replayed_callback_is_refused)
check("a replayed code is refused", replayed_code_is_refused)
check("a callback from another browser (no binding cookie) is refused", another_browser_is_refused)
check("the provider's error answer is refused", provider_error_is_refused)
check("an identity linked to nobody is refused", unknown_identity_is_refused)
check("an admin links and unlinks an identity; a deactivated person is refused", admin_links_and_unlinks_an_identity)
check("a public client with RS256 ID tokens", public_client_rs256)
check("headless Chromium: the provider's login page, then the web app signed in", browser_sign_in_reaches_the_web_app)
check("headless Chromium: an invitation link offers the provider and signs the invited person in through it",
      browser_invitation_page_offers_the_provider)
check("an invitation in the start URL is refused, and one from another origin; nothing changes", invitation_in_a_url_is_refused)
check("fake provider: a good ID token signs in", fake_provider_good_token_signs_in)
for mode, detail in [("other-key", "(badSignature)"), ("unknown-kid", "(unknownKey)"), ("expired", "(expired)"),
                     ("future-iat", "(issuedInFuture)"), ("wrong-aud", "(wrongAudience)"), ("wrong-nonce", "(wrongNonce)"),
                     ("wrong-iss", "(wrongIssuer)"), ("alg-none", "(unsupportedAlgorithm)")]:
    check(f"fake provider: an ID token {mode} is refused", fake_provider_refusal(mode, detail))
check("every refusal is audited", refusals_are_audited)

for server in servers:
    server.process.terminate()
    server.process.wait(timeout=20)
fake.stop()
passed = sum(1 for _, ok in results if ok)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
