"""A tiny OpenID Connect provider for refusal tests: discovery, JWKS, an authorization endpoint that answers at
once, and a token endpoint that checks the code and its PKCE verifier, then returns an ID token crafted as `mode`
says (good, or one flaw each). Runs on a thread on a free loopback port."""
import base64, hashlib, http.server, json, secrets, threading, time, urllib.parse
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from jwt.algorithms import ECAlgorithm

SUBJECT = "fake-subject-1"


class FakeProvider:
    def __init__(self, client_id):
        self.client_id = client_id
        self.key, self.other_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
        self.mode = "good"
        self.codes = {}          # code -> (nonce, challenge, redirect_uri), each redeemable once
        self.token_requests = 0
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                q = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/.well-known/openid-configuration":
                    return self.json(200, {"issuer": provider.issuer, "authorization_endpoint": provider.issuer + "/authorize",
                                           "token_endpoint": provider.issuer + "/token", "jwks_uri": provider.issuer + "/jwks",
                                           "id_token_signing_alg_values_supported": ["ES256"]})
                if url.path == "/jwks":
                    jwk = json.loads(ECAlgorithm.to_jwk(provider.key.public_key()))
                    jwk.update(kid="fake-1", alg="ES256", use="sig")
                    return self.json(200, {"keys": [jwk]})
                if url.path == "/authorize":
                    assert q["code_challenge_method"] == "S256" and q["response_type"] == "code" and q["client_id"] == provider.client_id
                    code = secrets.token_urlsafe(16)
                    provider.codes[code] = (q["nonce"], q["code_challenge"], q["redirect_uri"])
                    self.send_response(302)
                    self.send_header("Location", q["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": q["state"]}))
                    self.end_headers()
                    return
                self.json(404, {"error": "not_found"})

            def do_POST(self):
                form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["Content-Length"])).decode()))
                provider.token_requests += 1
                entry = provider.codes.pop(form.get("code"), None)
                if entry is None or form.get("redirect_uri") != entry[2] or form.get("client_id") != provider.client_id:
                    return self.json(400, {"error": "invalid_grant"})
                challenge = base64.urlsafe_b64encode(hashlib.sha256(form["code_verifier"].encode()).digest()).rstrip(b"=").decode()
                if challenge != entry[1]:
                    return self.json(400, {"error": "invalid_grant"})
                self.json(200, {"access_token": "unused", "token_type": "Bearer", "id_token": provider.id_token(entry[0])})

            def json(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def id_token(self, nonce):
        now = int(time.time())
        claims = {"iss": self.issuer, "sub": SUBJECT, "aud": self.client_id, "nonce": nonce, "iat": now, "exp": now + 300}
        key, headers, mode = self.key, {"kid": "fake-1"}, self.mode
        if mode == "other-key":
            key = self.other_key                       # same kid, another key: the signature does not verify
        elif mode == "unknown-kid":
            key, headers = self.other_key, {"kid": "rotated-2"}   # a kid the JWKS never lists, even when fetched again
        elif mode == "expired":
            claims.update(iat=now - 7200, exp=now - 3600)
        elif mode == "future-iat":
            claims.update(iat=now + 3600, exp=now + 7200)
        elif mode == "wrong-aud":
            claims.update(aud="another-app")
        elif mode == "wrong-nonce":
            claims.update(nonce="not-this-sign-ins")
        elif mode == "wrong-iss":
            claims.update(iss=self.issuer + "/other")
        elif mode == "alg-none":
            header = base64.urlsafe_b64encode(json.dumps({"alg": "none", "kid": "fake-1"}).encode()).rstrip(b"=").decode()
            body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
            return f"{header}.{body}."
        else:
            assert mode == "good", mode
        return jwt.encode(claims, key, algorithm="ES256", headers=headers)

    def stop(self):
        self.server.shutdown()
