"""FHIR check of daily step totals (LOINC 41950-7) on a live CareSync (scripts/ci-fhir.sh; docs/fhir.md "Daily step
totals"): seeds bob's steps (Europe/Berlin) from a phone and a watch over 24 and 25 October 2020 (the 25th is 25 hours),
validates the search Bundle, every page of a _count=1 search and each read with fhir.resources 6.4.0 (R4 models),
checks each total against the statistics API's day sums (watch before phone, the web app's default order), and reads
them through SMART's fhirclient 4.4.0. Exits non-zero on any failure.

Usage: check_daily.py URL PHONE_TOKEN WATCH_TOKEN
"""
import datetime
import sys
from urllib.parse import quote

from fhir.resources.bundle import Bundle
from fhir.resources.observation import Observation
from fhir.resources.operationoutcome import OperationOutcome

from fhirhttp import Server, check, failures

URL, PHONE, WATCH = sys.argv[1], sys.argv[2], sys.argv[3]
BASE = URL + "/fhir/R4"
request = Server(URL).json
SEARCH = "/fhir/R4/Observation?patient=bob&code=" + quote("http://loinc.org|41950-7", safe="")


def steps(value, start, minutes, ident):
    begin = datetime.datetime.fromisoformat(start.replace("Z", "+00:00"))
    end = (begin + datetime.timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"type": "stepCount", "value": value, "unit": "count", "start": start, "end": end,
            "syncIdentifier": ident, "syncVersion": 1}


def seed():
    for token, samples in [(PHONE, [steps(3000, "2020-10-24T08:00:00Z", 60, "p1"), steps(600, "2020-10-24T21:30:00Z", 60, "p2"),
                                    steps(1000, "2020-10-25T10:00:00Z", 30, "p3")]),
                           (WATCH, [steps(2000, "2020-10-24T08:15:00Z", 30, "w1"), steps(1200, "2020-10-25T10:00:00Z", 30, "w2")])]:
        status, _, body = request("POST", "/v1/patients/bob/samples", token, {"samples": samples})
        check(status == 200, f"seeding bob answered {status}: {body}")


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def statistics_sums():
    """Bucket start (epoch seconds) -> sum of the statistics API, days with a sum only."""
    query = {"type": "stepCount", "start": "2020-10-23T00:00:00+02:00", "end": "2020-10-27T00:00:00+01:00", "interval": "day",
             "timeZone": "Europe/Berlin", "options": "cumulativeSum", "priority": "org.example.watch,org.example.phone"}
    path = "/v1/patients/bob/statistics?" + "&".join(f"{k}={quote(v, safe=',')}" for k, v in query.items())
    status, _, body = request("GET", path, PHONE)
    check(status == 200, f"statistics {status}: {body}")
    return {instant(b["start"]): b["sum"] for b in body["buckets"] if b["sum"] is not None}


def check_total(o, expected):
    Observation.parse_obj(o)
    codes = [(c["system"], c["code"]) for c in o["code"]["coding"]]
    check(codes == [("http://loinc.org", "41950-7"), ("urn:caresync:daily-total", "stepCount.daily")], f"codes {codes}")
    check(o["category"][0]["coding"][0]["code"] == "activity" and o["status"] == "final", f"category/status of {o['id']}")
    check("device" not in o and "meta" not in o and "identifier" not in o, f"{o['id']} carries sample fields")
    q = o["valueQuantity"]
    check(q["system"] == "http://unitsofmeasure.org" and q["code"] == "{steps}", f"unit {q}")
    start = instant(o["effectivePeriod"]["start"])
    check(start in expected and abs(q["value"] - expected[start]) < 1e-6,
              f"{o['id']}: {q['value']} is not the statistics' {expected.get(start)}")
    check(o["id"] == "steps." + o["effectivePeriod"]["start"][:10] + ".bob", f"id {o['id']}")


def main():
    seed()
    expected = statistics_sums()
    check(len(expected) == 2, f"statistics days {expected}")
    status, _, bundle = request("GET", SEARCH, PHONE)
    check(status == 200, f"daily search {status}: {bundle}")
    Bundle.parse_obj(bundle)
    totals = [e["resource"] for e in bundle.get("entry", [])]
    check(bundle["total"] == 2 and len(totals) == 2, f"total {bundle.get('total')}")
    for o in totals:
        check_total(o, expected)
    dst = next((o for o in totals if o["id"] == "steps.2020-10-25.bob"), None)
    check(dst is not None and dst["effectivePeriod"] == {"start": "2020-10-25T00:00:00+02:00", "end": "2020-10-26T00:00:00+01:00"},
              f"the DST day {dst and dst['effectivePeriod']}")

    ids, url = [], SEARCH + "&_count=1"
    while url and len(ids) < 5:
        status, _, page = request("GET", url, PHONE)
        Bundle.parse_obj(page)
        ids += [e["resource"]["id"] for e in page.get("entry", [])]
        url = next((l["url"] for l in page["link"] if l["relation"] == "next"), None)
    check(ids == ["steps.2020-10-24.bob", "steps.2020-10-25.bob"], f"paged ids {ids}")
    for o in totals:
        status, _, one = request("GET", f"/fhir/R4/Observation/{o['id']}", PHONE)
        check(status == 200 and one == o, f"read {o['id']}: {status}")
        check_total(one, expected)
    status, _, outcome = request("GET", "/fhir/R4/Observation/steps.2020-10-23.bob", PHONE)
    check(status == 404, f"a day without steps answered {status}")
    OperationOutcome.parse_obj(outcome)
    status, _, outcome = request("GET", SEARCH + ",55423-8", PHONE)
    check(status == 400 and outcome["issue"][0]["code"] == "not-supported", f"mixed codes answered {status}: {outcome}")

    from fhirclient import client
    from fhirclient.models.observation import Observation as ClientObservation
    smart = client.FHIRClient(settings={"app_id": "caresync-ci", "api_base": BASE + "/"})
    smart.server.session.headers.update({"Authorization": "Bearer " + PHONE})
    search = ClientObservation.where(struct={"patient": "bob", "code": "http://loinc.org|41950-7", "_count": "1"})
    read = [e.resource for b in search.perform_iter(smart.server) for e in (b.entry or [])]
    check([r.id for r in read] == ids, f"fhirclient ids {[r.id for r in read]}")
    check([r.valueQuantity.value for r in read] == [o["valueQuantity"]["value"] for o in totals], "fhirclient values")
    one = ClientObservation.read("steps.2020-10-25.bob", smart.server)
    check(one.effectivePeriod.start.isostring == "2020-10-25T00:00:00+02:00", f"fhirclient period {one.effectivePeriod.as_json()}")

    print(f"checked {len(totals)} daily totals against the statistics, {len(ids)} pages, fhirclient read {len(read)}")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)


main()
