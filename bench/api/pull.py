#!/usr/bin/env python3
"""Pull a whole change feed over one keep-alive connection, gzip, following anchors (CareSync) or
Kinto's `_since` + `Next-Page`, and print the wall time. Usage:
  pull.py caresync BASE_URL PATIENT TOKEN LIMIT
  pull.py kinto    BASE_URL COLLECTION_PATH BASIC_AUTH LIMIT
"""
import gzip, http.client, json, sys, time, urllib.parse

def get_page(conn, path, headers):
    """GETs one page; returns the decoded JSON, the bytes on the wire and the response (for its headers)."""
    conn.request("GET", path, headers=headers)
    r = conn.getresponse()
    raw = r.read()
    assert r.status == 200, (r.status, raw[:200])
    size = len(raw)
    if r.getheader("Content-Encoding") == "gzip":
        raw = gzip.decompress(raw)
    return json.loads(raw), size, r


def main():
    kind, base, target, auth, limit = sys.argv[1:6]
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port)
    headers = {"Accept-Encoding": "gzip"}
    headers["Authorization"] = ("Bearer " + auth) if kind == "caresync" else ("Basic " + auth)
    started = time.monotonic()
    items, pages, wire = 0, 0, 0
    if kind == "caresync":
        anchor = None
        while True:
            path = f"/v1/patients/{target}/changes?limit={limit}" + (f"&anchor={anchor}" if anchor else "")
            page, size, r = get_page(conn, path, headers)
            wire += size
            items += len(page["samples"]) + len(page["deletedObjects"])
            pages += 1
            anchor = page["anchor"]
            if not page["hasMore"]:
                break
    else:
        path = f"{target}/records?_since=0&_sort=last_modified&_limit={limit}"
        while path:
            page, size, r = get_page(conn, path, headers)
            wire += size
            items += len(page["data"])
            pages += 1
            nxt = r.getheader("Next-Page")
            path = None
            if nxt:
                u = urllib.parse.urlparse(nxt)
                path = u.path + ("?" + u.query if u.query else "")
    elapsed = time.monotonic() - started
    print(f"{kind}: pulled {items} items in {pages} pages, {wire} bytes on the wire, {elapsed:.3f} s")

main()
