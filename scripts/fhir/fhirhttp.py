"""What the FHIR checks (check_fhir.py, check_export.py, check_daily.py) share: failures recorded without stopping the
check, and one HTTP helper for the server under test."""
import json
import urllib.error
import urllib.request

failures = []


def check(condition, message):
    """Records `message` as a failure unless `condition` holds; the check goes on."""
    if not condition:
        failures.append(message)
        print("FAIL:", message)


class Server:
    """Requests to the server at `url` (a path is relative to it, an absolute URL is used as it is)."""

    def __init__(self, url):
        self.url = url

    def raw(self, method, path, token=None, body=None, headers=None):
        """(status, headers, body bytes) of one request; an error status is answered, not raised."""
        h = dict(headers or {})
        if token:
            h["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        req = urllib.request.Request(path if path.startswith("http") else self.url + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def json(self, method, path, token=None, body=None, headers=None):
        """(status, headers, parsed JSON body) of one request."""
        status, answer_headers, raw = self.raw(method, path, token, body, headers)
        return status, answer_headers, json.loads(raw or b"null")
