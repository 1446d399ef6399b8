"""Bulk export check of a live CareSync (scripts/ci-fhir.sh, after check_fhir.py seeded patient alice): runs a
Patient $export, validates the manifest against the Bulk Data specification's fields and every NDJSON line with
fhir.resources 6.4.0 (R4 Observation and Bundle models, plus the code values they do not check), then changes
alice's data and checks that an export from the manifest's caresyncNextSince holds exactly those changes, the
deletion included; also cancellation, the token check and a refused kick-off. With OTHER_URL, a second `caresync
serve` over the same database: an export kicked off on the first is polled, downloaded (every line validated) and
cancelled on the other, as behind a load balancer without affinity. Exits non-zero on any failure.

Usage: check_export.py URL DEVICE_TOKEN THERAPIST_TOKEN [OTHER_URL]
"""
import json
import re
import sys
import time

from fhir.resources.bundle import Bundle
from fhir.resources.observation import Observation
from fhir.resources.operationoutcome import OperationOutcome

from fhirhttp import Server, check, failures

URL, DEVICE, THERAPIST = sys.argv[1], sys.argv[2], sys.argv[3]
OTHER = sys.argv[4] if len(sys.argv) > 4 else None
BASE = URL + "/fhir/R4"
request = Server(URL).raw
INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def check_outcome(status, headers, raw, expected, severity, code):
    check(status == expected, f"expected {expected}, got {status}: {raw[:200]}")
    check(headers.get("Content-Type") == "application/fhir+json", f"{expected}: Content-Type {headers.get('Content-Type')}")
    body = json.loads(raw)
    OperationOutcome.parse_obj(body)
    check(body["issue"][0]["severity"] == severity and body["issue"][0]["code"] == code, f"{expected}: issue {body['issue']}")


def export(path, token):
    """Kicks off, polls to the end, validates the manifest and every line; answers (manifest, observations, deleted ids)."""
    status, headers, raw = request("GET", path, token, headers={"Prefer": "respond-async", "Accept": "application/fhir+json"})
    check_outcome(status, headers, raw, 202, "information", "informational")
    location = headers.get("Content-Location", "")
    check(location.startswith(BASE + "/bulk-export/"), f"Content-Location {location}")
    for _ in range(3000):
        status, headers, raw = request("GET", location, token)
        if status != 202:
            break
        check(headers.get("X-Progress") and headers.get("Retry-After") == "2", f"202 headers {dict(headers)}")
        time.sleep(0.05)
    check(status == 200 and headers.get("Content-Type") == "application/json", f"status {status}: {raw[:300]}")
    check(bool(headers.get("Expires")), "no Expires on the manifest")
    manifest = json.loads(raw)
    check_manifest(manifest, path)
    observations, deleted = [], []
    for entry in manifest["output"]:
        for line in lines(entry, token):
            Observation.parse_obj(line)
            check(line["status"] == "final" and UUID.match(line["id"]), f"Observation {line.get('id')} status {line.get('status')}")
            check(line["subject"]["reference"] == "Patient/alice", f"subject {line['subject']}")
            observations.append(line)
    for entry in manifest["deleted"]:
        for line in lines(entry, token):
            Bundle.parse_obj(line)
            check(line["type"] == "transaction", f"deleted Bundle.type {line['type']}")
            for e in line["entry"]:
                url = e["request"]["url"]
                check(e["request"]["method"] == "DELETE" and url.startswith("Observation/") and UUID.match(url[12:]),
                      f"deleted entry {e}")
                deleted.append(url[12:])
    return location, manifest, observations, deleted


def check_manifest(m, path):
    """The manifest fields of the Bulk Data specification, typed, plus CareSync's extension."""
    check(set(m) == {"transactionTime", "request", "requiresAccessToken", "output", "deleted", "error", "extension"},
          f"manifest fields {sorted(m)}")
    check(INSTANT.match(m["transactionTime"]) is not None, f"transactionTime {m['transactionTime']}")
    check(m["request"] == BASE + path[len("/fhir/R4"):], f"request {m['request']}")
    check(m["requiresAccessToken"] is True, "requiresAccessToken")
    check(m["error"] == [], f"error {m['error']}")
    for key, kind in (("output", "Observation"), ("deleted", "Bundle")):
        for entry in m[key]:
            check(entry["type"] == kind and entry["url"].startswith(BASE + "/bulk-export/") and entry["count"] > 0,
                  f"{key} entry {entry}")
    check(isinstance(m["extension"], dict) and isinstance(m["extension"].get("caresyncNextSince"), str), f"extension {m['extension']}")


def second_time(added):
    """The write time of the sample the incremental export added."""
    return added[0]["meta"]["lastUpdated"] if added else None


def lines(entry, token):
    status, headers, raw = request("GET", entry["url"], token, headers={"Accept": "application/fhir+ndjson"})
    check(status == 200 and headers.get("Content-Type") == "application/fhir+ndjson", f"file {entry['url']}: {status}")
    text = raw.decode()
    check(text.endswith("\n"), f"file {entry['url']} does not end with a newline")
    parsed = [json.loads(line) for line in text.split("\n")[:-1]]
    check(len(parsed) == entry["count"], f"file {entry['url']}: {len(parsed)} lines, count {entry['count']}")
    return parsed


def across_instances(expected):
    """Kicked off on URL; status, files and cancel on OTHER (the URLs rewritten to it): the export's record and files are
    shared through the database and the export folder."""
    def there(url):
        check(url.startswith(URL + "/"), f"{url} is not on {URL}")
        return OTHER + url[len(URL):]
    status, headers, raw = request("GET", "/fhir/R4/Patient/alice/$export", THERAPIST, headers={"Prefer": "respond-async"})
    check_outcome(status, headers, raw, 202, "information", "informational")
    location = headers.get("Content-Location", "")
    for _ in range(3000):
        status, headers, raw = request("GET", there(location), THERAPIST)
        if status != 202:
            break
        time.sleep(0.05)
    check(status == 200, f"the other instance's status {status}: {raw[:300]}")
    if status != 200:
        return
    manifest = json.loads(raw)
    check_manifest(manifest, "/fhir/R4/Patient/alice/$export")
    count = 0
    for entry in manifest["output"]:
        moved = dict(entry, url=there(entry["url"]))
        for line in lines(moved, THERAPIST):
            Observation.parse_obj(line)
            count += 1
    check(count == expected, f"the other instance served {count} Observations, expected {expected}")
    status, headers, raw = request("DELETE", there(location), THERAPIST)
    check_outcome(status, headers, raw, 202, "information", "informational")
    check_outcome(*request("GET", location, THERAPIST), 404, "error", "not-found")
    check_outcome(*request("GET", manifest["output"][0]["url"], THERAPIST), 404, "error", "not-found")


def main():
    # The whole history, as the therapist's EHR would take it first.
    path = "/fhir/R4/Patient/alice/$export?_type=Observation&_outputFormat=application/fhir%2Bndjson"
    location, first, observations, deleted = export(path, THERAPIST)
    check(len(observations) > 20 and deleted == [], f"first export: {len(observations)} Observations, {len(deleted)} deletions")
    check_outcome(*request("GET", location, DEVICE), 404, "error", "not-found")

    # Changes since: one deletion (of the device's own sample) and one new sample; the patient's own copy from the anchor.
    own = next(o for o in observations if o["device"]["display"] == "org.example.phone")
    status, _, raw = request("POST", "/v1/patients/alice/samples/delete", DEVICE, {"uuids": [own["id"].upper()]})
    check(status == 200, f"delete {status}: {raw[:200]}")
    status, _, raw = request("POST", "/v1/patients/alice/samples", DEVICE, {"samples": [
        {"type": "bodyMass", "value": 71, "unit": "kg", "start": "2020-06-19T08:00:00Z", "end": "2020-06-19T08:00:00Z"}]})
    check(status == 200, f"post {status}: {raw[:200]}")
    since = first["extension"]["caresyncNextSince"]
    _, second, added, removed = export(f"/fhir/R4/Patient/alice/$export?_since={since}", DEVICE)
    check([o["valueQuantity"]["value"] for o in added] == [71], f"incremental output {[o.get('valueQuantity') for o in added]}")
    check(removed == [own["id"]], f"incremental deleted {removed}, expected {own['id']}")
    # The same changes from the first manifest's transactionTime as an instant: every one of them, and at most the
    # changes committed in that very millisecond again (docs/fhir.md, "An instant as `_since`").
    _, _, timed, timed_gone = export(f"/fhir/R4/Patient/alice/$export?_since={first['transactionTime']}", DEVICE)
    check(71 in [o["valueQuantity"]["value"] for o in timed if "valueQuantity" in o], "the instant export misses the new sample")
    check(own["id"] in timed_gone, "the instant export misses the deletion")
    repeated = [o for o in timed if o["meta"]["lastUpdated"] != second_time(added)]
    check(all(o["meta"]["lastUpdated"] == first["transactionTime"] for o in repeated),
          f"the instant export repeats changes from before it: {[o['meta']['lastUpdated'] for o in repeated]}")
    _, third, none, gone = export(f"/fhir/R4/Patient/alice/$export?_since={second['extension']['caresyncNextSince']}", DEVICE)
    check(none == [] and gone == [] and third["output"] == [], f"nothing changed, yet {len(none)} and {len(gone)}")

    # Cancellation removes the status and the files.
    status, headers, raw = request("DELETE", location, THERAPIST)
    check_outcome(status, headers, raw, 202, "information", "informational")
    check_outcome(*request("GET", location, THERAPIST), 404, "error", "not-found")
    check_outcome(*request("GET", first["output"][0]["url"], THERAPIST), 404, "error", "not-found")
    check_outcome(*request("GET", "/fhir/R4/Patient/alice/$export", THERAPIST), 400, "error", "invalid")
    check_outcome(*request("GET", "/fhir/R4/Group/physio/$export", DEVICE, headers={"Prefer": "respond-async"}), 404, "error",
                  "not-found")

    if OTHER:
        across_instances(len(observations) - len(removed) + len(added))  # alice now
    print(f"checked {5 if OTHER else 4} exports: {len(observations)} Observations, then {len(added)} added and "
          f"{len(removed)} deleted{'; one across two instances' if OTHER else ''}")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)


main()
