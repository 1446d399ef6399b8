#!/usr/bin/env python3
"""Sets a fresh glewlwyd-up.sh instance up over its admin API: two OpenID Connect plugin instances, `oidc` signing
ID tokens with ES256 and `oidcrs` with RS256; two users; a confidential client (client_secret_basic) and a public
client (PKCE only), both allowed every redirect URI given. Prints shell `export` lines.
   glewlwyd_setup.py http://127.0.0.1:PORT REDIRECT_URI...   (needs requests, PyJWT[crypto])"""
import json, shlex, sys
import requests
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

BASE, REDIRECTS = sys.argv[1].rstrip("/"), sys.argv[2:]
s = requests.Session()


def ok(r):
    if r.status_code != 200:
        sys.exit(f"{r.request.method} {r.url} -> {r.status_code} {r.text}")
    return r


def plugin(name, alg):
    if alg == "RS256":
        jwk = json.loads(RSAAlgorithm.to_jwk(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    else:
        jwk = json.loads(ECAlgorithm.to_jwk(ec.generate_private_key(ec.SECP256R1())))
    jwk.update(kid=alg.lower() + "-1", alg=alg, use="sig")
    # A rejected POST still takes the instance name: on any failure start again from a fresh database.
    ok(s.post(f"{BASE}/api/mod/plugin/", json={
        "module": "oidc", "name": name, "display_name": f"OpenID Connect {alg}", "enabled": True,
        "parameters": {
            "iss": f"{BASE}/api/{name}", "jwks-private": json.dumps({"keys": [jwk]}), "default-kid": jwk["kid"], "jwks-show": True,
            "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
            "auth-type-code-enabled": True, "auth-type-refresh-enabled": True,
            "auth-type-token-enabled": False, "auth-type-password-enabled": False, "auth-type-client-enabled": False,
            "pkce-allowed": True, "pkce-method-plain-allowed": False, "pkce-required": True,
            "allow-non-oidc": False, "subject-type": "public", "name-claim": "on-demand", "email-claim": "on-demand",
        }}))
    return f"{BASE}/api/{name}"


ok(s.post(f"{BASE}/api/auth/", json={"username": "admin", "password": "password"}))   # the schema's seeded admin
es_issuer, rs_issuer = plugin("oidc", "ES256"), plugin("oidcrs", "RS256")
# openid ships with password_required=0: make the password the gate for it.
ok(s.put(f"{BASE}/api/scope/openid", json={"name": "openid", "display_name": "Open ID", "password_required": True,
                                           "password_max_age": 0, "scheme": {}}))
users = [("therapist1", "therapist-pass-1", "Theo Therapist"), ("therapist2", "therapist-pass-2", "Tara Therapist")]
for user, password, name in users:
    ok(s.post(f"{BASE}/api/user/", json={"username": user, "password": password, "name": name, "email": f"{user}@clinic.example",
                                         "scope": ["openid", "g_profile"], "enabled": True}))
ok(s.post(f"{BASE}/api/client/", json={"client_id": "caresync", "name": "CareSync", "confidential": True,
                                       "password": "caresync-secret-1",
                                       "token_endpoint_auth_method": ["client_secret_basic", "client_secret_post"],
                                       "redirect_uri": REDIRECTS, "authorization_type": ["code", "refresh_token"],
                                       "scope": [], "enabled": True}))
ok(s.post(f"{BASE}/api/client/", json={"client_id": "caresync-public", "name": "CareSync (public)", "confidential": False,
                                       "token_endpoint_auth_method": ["none"], "redirect_uri": REDIRECTS,
                                       "authorization_type": ["code"], "scope": [], "enabled": True}))
env = dict(ES_ISSUER=es_issuer, RS_ISSUER=rs_issuer, OIDC_USER=users[0][0], OIDC_PASSWORD=users[0][1],
           OIDC_USER2=users[1][0], OIDC_PASSWORD2=users[1][1], CLIENT_ID="caresync", CLIENT_SECRET="caresync-secret-1",
           PUBLIC_CLIENT_ID="caresync-public")
print("\n".join(f"export {k}={shlex.quote(v)}" for k, v in env.items()))
