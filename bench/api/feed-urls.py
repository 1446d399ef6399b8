#!/usr/bin/env python3
"""Prints a curl config (-K) with the URL of every page of a patient's feed walk from no anchor, pages of 5,000:
feed-urls.py BASE_URL TOKEN PATIENT. Found once by a client that parses, so a timed walk need not."""
import http.client, json, sys, urllib.parse

base, token, patient = sys.argv[1], sys.argv[2], sys.argv[3]
u = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(u.hostname, u.port)
anchor = None
while True:
    path = f"/v1/patients/{patient}/changes?limit=5000" + (f"&anchor={anchor}" if anchor else "")
    print(f"url = \"{base}{path}\"\noutput = \"/dev/null\"")
    conn.request("GET", path, headers={"Authorization": "Bearer " + token})
    page = json.loads(conn.getresponse().read())
    anchor = page["anchor"]
    if not page["hasMore"]:
        break
