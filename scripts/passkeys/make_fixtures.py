#!/usr/bin/env python3
"""Writes browser passkey fixtures: for each algorithm, a registration and two sign-ins made by headless Chromium's
virtual authenticator (CTAP2, internal, resident keys, user verification) at http://localhost:PORT, RP ID localhost.
Each fixture holds the options' challenges and user handle and the credentials' toJSON() output, byte for byte.
   make_fixtures.py OUTPUT_DIR      (needs chromium, chromium-driver and selenium==4.51.0)"""
import base64, http.server, json, os, sys, threading
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions

PAGE = b"<!doctype html><meta charset=utf-8><title>passkey fixtures</title><p>fixtures"


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


# Runs create/get in the page; answers the credential's toJSON() or the DOMException's name and message.
CALL = """const [kind, options, done] = arguments;
(async () => {
  const publicKey = kind === 'create' ? PublicKeyCredential.parseCreationOptionsFromJSON(options)
                                      : PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const cred = await navigator.credentials[kind]({publicKey});
  done({ok: true, cred: cred.toJSON()});
})().catch(e => done({ok: false, error: e.name + ': ' + e.message}));"""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main(out_dir: str) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin, rp_id = f"http://localhost:{port}", "localhost"
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)

    def call(kind, opts):
        result = driver.execute_async_script(CALL, kind, opts)
        if not result["ok"]:
            raise SystemExit(f"navigator.credentials.{kind}: {result['error']}")
        return result["cred"]

    try:
        driver.get(origin + "/")
        for name, alg in (("es256", -7), ("rs256", -257)):
            authenticator = driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
                protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True,
                has_user_verification=True, is_user_consenting=True, is_user_verified=True))
            user_handle, challenge = os.urandom(32), os.urandom(32)
            created = call("create", {
                "rp": {"id": rp_id, "name": "CareSync"},
                "user": {"id": b64url(user_handle), "name": "theo@clinic.example", "displayName": "Theo"},
                "challenge": b64url(challenge), "pubKeyCredParams": [{"type": "public-key", "alg": alg}],
                "timeout": 30000, "attestation": "none",
                "authenticatorSelection": {"residentKey": "required", "requireResidentKey": True, "userVerification": "required"}})
            fixture = {"origin": origin, "rpId": rp_id, "algorithm": alg, "userHandle": b64url(user_handle),
                       "registration": {"challenge": b64url(challenge), "response": created}, "signIns": []}
            for _ in range(2):
                challenge = os.urandom(32)
                got = call("get", {"challenge": b64url(challenge), "rpId": rp_id, "timeout": 30000, "userVerification": "required"})
                fixture["signIns"].append({"challenge": b64url(challenge), "response": got})
            driver.remove_virtual_authenticator()  # only one internal authenticator per browser
            path = os.path.join(out_dir, f"chromium-{name}.json")
            with open(path, "w") as f:
                json.dump(fixture, f, indent=1, sort_keys=True)
                f.write("\n")
            print(f"wrote {path}")
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
