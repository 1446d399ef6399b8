#!/usr/bin/env python3
"""Passkeys end to end in headless Chromium with Selenium's virtual authenticator, against a live caresync.

Run by scripts/ci-signin.sh, which starts the server and passes CARESYNC_URL, ADMIN_TOKEN and SERVER_LOG. The page is
opened at http://localhost:PORT (an IP address is never a WebAuthn relying-party id). An admin invites a therapist
over the API; the therapist opens the link, registers a passkey, signs out, signs in with it, adds a second passkey
(another authenticator), removes the first, and the removed one signs no one in. Then refusals: user not verified, a
replayed finish request, a foreign Origin, a modified assertion and a cloned authenticator whose counter went back.
Prints one line per check and "N passed, M failed" last.
"""
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import (Credential, Protocol, Transport,
                                                              VirtualAuthenticatorOptions)

import chromium
from chromium import check, q, qs, wait

URL = os.environ["CARESYNC_URL"].rstrip("/").replace("://127.0.0.1:", "://localhost:")
ADMIN = os.environ["ADMIN_TOKEN"]
SERVER_LOG = os.environ["SERVER_LOG"]
REFUSED = "The passkey sign-in was refused; start again."

# Runs a whole sign-in ceremony in the page without signing in: answers the credential's toJSON() (or the error).
ASSERTION = """const done = arguments[0];
(async () => {
  const options = await (await fetch('/v1/sign-in/passkey/challenge', {method: 'POST'})).json();
  const cred = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
  done({ok: true, credential: cred.toJSON()});
})().catch(e => done({ok: false, error: e.name + ': ' + e.message}));"""


def http(method, path, body=None, headers=None, token=None):
    """One request; answers (status, headers, parsed JSON or None)."""
    request = urllib.request.Request(URL + path, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, head, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, error.headers, error.read()
    return status, head, (json.loads(raw) if raw and "json" in head.get("Content-Type", "") else None)


def b64u_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


driver = None


def authenticator(verified=True):
    """A fresh internal authenticator (the browser allows one at a time: the previous one is removed)."""
    if driver.virtual_authenticator_id:
        driver.remove_virtual_authenticator()
    driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True, has_user_verification=True,
        is_user_consenting=True, is_user_verified=verified))


def holding(credential, sign_count=None):
    """A fresh authenticator holding `credential` (optionally with an older counter: a clone)."""
    authenticator()
    data = credential.to_dict()
    if sign_count is not None:
        data["signCount"] = sign_count
    driver.add_credential(Credential.from_dict(data))


def passkeys_listed():
    return [li.find_element(By.CSS_SELECTOR, ".passkey-name").text for li in qs("#passkey-list li")]


def sign_out():
    q("#sign-out").click()
    wait(lambda: q("#sign-in").is_displayed(), message="the sign-in screen")


def click_sign_in():
    q("#passkey-sign-in").click()


def signed_in():
    return q("#patients").is_displayed() and "Theo" in q("#who").text


def page_assertion():
    answer = driver.execute_async_script(ASSERTION)
    assert answer["ok"], answer
    return answer["credential"]


def main():
    global driver
    driver = chromium.start()
    state = {}
    status, _, made = http("POST", "/v1/people/invitations", {"role": "therapist", "careTeams": ["physio"], "displayName": "Theo"},
                           token=ADMIN)
    assert status == 201, made

    @check("the invitation link opens at localhost, is redeemed, and asks for a passkey")
    def _():
        driver.get(URL + "/")
        authenticator()
        driver.get(URL + "/invite#" + made["secret"])
        wait(lambda: q("#invitation").is_displayed())
        assert "Theo" in q("#invitation-who").text and driver.current_url == URL + "/", driver.current_url
        time.sleep(1)  # the server's log is buffered: lines reach the file within 250 ms
        assert made["secret"] not in open(SERVER_LOG, encoding="utf-8", errors="replace").read()

    @check("registering a passkey continues signed in; My account lists it")
    def _():
        q("#invitation-passkey-name").send_keys("Laptop")
        q("#invitation-form button[type=submit]").click()
        wait(signed_in, message="signed in after registering")
        driver.get(URL + "/#account")
        wait(lambda: q("#account").is_displayed() and passkeys_listed() == ["Laptop"])
        people = http("GET", "/v1/people", token=ADMIN)[2]["people"]
        state["person"] = next(p["id"] for p in people if p["displayName"] == "Theo")
        state["first"] = driver.get_credentials()[0]
        assert len(qs("#session-list li")) == 1

    @check("signed out, the same passkey signs the therapist in again (discoverable: nothing typed)")
    def _():
        sign_out()
        status, _, _ = http("GET", "/v1/session")
        assert status == 401
        click_sign_in()
        wait(signed_in, message="signed in with the passkey")

    @check("a second passkey from another authenticator is added in My account")
    def _():
        authenticator()
        driver.get(URL + "/#account")
        wait(lambda: passkeys_listed() == ["Laptop"])
        q("#passkey-name").send_keys("Phone")
        q("#passkey-form button[type=submit]").click()
        wait(lambda: passkeys_listed() == ["Laptop", "Phone"], message="two passkeys")
        state["second"] = driver.get_credentials()[0]

    @check("the first passkey is removed, and it signs no one in any more; the second still does")
    def _():
        q("#passkey-list li:first-child button").click()
        wait(lambda: passkeys_listed() == ["Phone"])
        sign_out()
        holding(state["first"])
        click_sign_in()
        wait(lambda: q("#alert").is_displayed())
        assert "Sign-in refused" in q("#alert").text and REFUSED in q("#alert").text, q("#alert").text
        assert q("#sign-in").is_displayed()
        holding(state["second"])
        click_sign_in()
        wait(signed_in)
        sign_out()

    @check("user not verified: the authenticator refuses, the page says so, no session is made")
    def _():
        sessions = lambda: len(http("GET", f"/v1/people/{state['person']}/sessions", token=ADMIN)[2]["sessions"])
        before = sessions()
        driver.set_user_verified(False)
        try:
            click_sign_in()
            wait(lambda: q("#alert").is_displayed())
            assert "could not verify you" in q("#alert").text, q("#alert").text
            assert q("#sign-in").is_displayed() and sessions() == before
        finally:
            driver.set_user_verified(True)

    @check("a replayed finish request is refused: the challenge worked once")
    def _():
        body = {"credential": page_assertion()}
        first = http("POST", "/v1/sign-in/passkey", body)
        assert first[0] == 201 and "Set-Cookie" in first[1], first
        again = http("POST", "/v1/sign-in/passkey", body)
        assert again[0] == 401 and again[2]["detail"] == REFUSED, again

    @check("a request naming another Origin is refused, and so is an assertion whose clientDataJSON names one")
    def _():
        body = {"credential": page_assertion()}
        status, _, answer = http("POST", "/v1/sign-in/passkey", body, headers={"Origin": "https://caresync.evil.example"})
        assert status == 403, (status, answer)
        credential = page_assertion()
        client = json.loads(b64u_decode(credential["response"]["clientDataJSON"]))
        assert client["origin"] == URL, client
        client["origin"] = "https://caresync.evil.example"
        credential["response"]["clientDataJSON"] = b64u(json.dumps(client, separators=(",", ":")).encode())
        status, _, answer = http("POST", "/v1/sign-in/passkey", {"credential": credential})
        assert status == 401 and answer["detail"] == REFUSED, (status, answer)

    @check("a modified assertion (its counter lowered) is refused")
    def _():
        credential = page_assertion()
        data = bytearray(b64u_decode(credential["response"]["authenticatorData"]))
        data[33:37] = (0).to_bytes(4, "big")
        credential["response"]["authenticatorData"] = b64u(bytes(data))
        status, _, answer = http("POST", "/v1/sign-in/passkey", {"credential": credential})
        assert status == 401 and answer["detail"] == REFUSED, (status, answer)

    @check("a cloned authenticator whose counter went back is refused, logged and audited")
    def _():
        current = driver.get_credentials()[0]
        holding(current, sign_count=1)
        driver.get(URL + "/")
        wait(lambda: q("#sign-in").is_displayed())
        click_sign_in()
        wait(lambda: q("#alert").is_displayed())
        assert REFUSED in q("#alert").text, q("#alert").text
        # The server's log is buffered (a warning is written at once, other lines within 250 ms).
        wait(lambda: "passkey.possible_clone" in open(SERVER_LOG, encoding="utf-8", errors="replace").read(), 5,
             "the clone is logged")
        status, _, audit = http("GET", f"/v1/audit?token=p:{state['person']}&limit=100", token=ADMIN)
        assert status == 200, audit
        assert any(r["action"] == "session.signIn.passkey.possibleClone" for r in audit["records"]), audit

    @check("a browser without passkeys: the buttons are disabled, the page says why, an invitation is left unused")
    def _():
        status, _, fresh = http("POST", "/v1/people/invitations", {"role": "therapist", "careTeams": ["physio"],
                                                                    "displayName": "Nia"}, token=ADMIN)
        assert status == 201, fresh
        hide = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PublicKeyCredential;"})
        try:
            driver.get(URL + "/")
            wait(lambda: q("#sign-in").is_displayed())
            assert not q("#passkey-sign-in").is_enabled()
            assert q("#sign-in-no-passkeys").is_displayed() and "cannot use passkeys" in q("#sign-in-no-passkeys").text
            driver.get(URL + "/invite#" + fresh["secret"])
            wait(lambda: q("#invitation-choice").is_displayed(), message="the invitation page explains")
            assert not q("#invitation-use-passkey").is_enabled() and not q("#invitation-use-provider").is_displayed()
            assert "cannot use passkeys" in q("#invitation-no-passkeys").text
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hide["identifier"]})
        # The link still works in a browser that has passkeys: nothing was redeemed.
        driver.get(URL + "/")
        wait(lambda: q("#sign-in").is_displayed())
        assert not q("#sign-in-no-passkeys").is_displayed() and q("#passkey-sign-in").is_enabled()
        driver.get(URL + "/invite#" + fresh["secret"])
        wait(lambda: q("#invitation").is_displayed(), message="the unused invitation is redeemed")
        assert "Nia" in q("#invitation-who").text

    return chromium.finish()


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        chromium.quit_quietly()
