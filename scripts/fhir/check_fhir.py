"""FHIR check of a live CareSync (scripts/ci-fhir.sh): seeds samples, validates every Observation, Bundle,
OperationOutcome and the CapabilityStatement with fhir.resources 6.4.0 (R4 models), checks codes and units
against docs/fhir.md's table and the code values fhir.resources does not check, then reads the Observations
through SMART's fhirclient 4.4.0 with search and paging. Exits non-zero on any failure.

Usage: check_fhir.py URL DEVICE_TOKEN THERAPIST_TOKEN
"""
import sys
from urllib.parse import urlparse

from fhir.resources.bundle import Bundle
from fhir.resources.capabilitystatement import CapabilityStatement
from fhir.resources.observation import Observation
from fhir.resources.operationoutcome import OperationOutcome

from fhirhttp import Server, check, failures

URL, DEVICE, THERAPIST = sys.argv[1], sys.argv[2], sys.argv[3]
BASE = URL + "/fhir/R4"
request = Server(URL).json


def sample(type_, value, unit, minute, minutes=0):
    start = 1592474400 + minute * 60
    iso = lambda t: __import__("datetime").datetime.utcfromtimestamp(t).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return {"type": type_, "value": value, "unit": unit, "start": iso(start), "end": iso(start + minutes * 60)}


# The mapping table of docs/fhir.md: type -> (LOINC codes, category, UCUM code, expected value) for the seeded samples.
TABLE = {
    "heartRate": (["8867-4"], "vital-signs", "/min", None),
    "stepCount": (["55423-8"], "activity", "{steps}", 1200),
    "sixMinuteWalkTestDistance": (["64098-7"], "activity", "m", 420),
    "bodyMass": (["29463-7"], "vital-signs", "kg", 72.5),
    "height": (["8302-2"], "vital-signs", "cm", 183),
    "respiratoryRate": (["9279-1"], "vital-signs", "/min", 16),
    "oxygenSaturation": (["59408-5", "2708-6"], "vital-signs", "%", 97),
    "bodyTemperature": (["8310-5"], "vital-signs", "Cel", 37.2),
    "bodyMassIndex": (["39156-5"], "vital-signs", "kg/m2", 21.6),
    "bloodPressure": (["85354-9"], "vital-signs", None, None),
    "flightsClimbed": ([], "activity", "1", 3),
    "dietaryWater": ([], None, "mL", 250),
    "sleepAnalysis": ([], None, None, None),
}
HEART_RATES = 23


def seed():
    samples = [sample("heartRate", 60 + i, "count/min", i) for i in range(HEART_RATES)] + [
        sample("stepCount", 1200, "count", 0, 30), sample("bodyMass", 72.5, "kg", 1), sample("height", 1.83, "m", 2),
        sample("respiratoryRate", 16, "count/min", 3), sample("oxygenSaturation", 0.97, "%", 4),
        sample("bodyTemperature", 37.2, "degC", 5), sample("bodyMassIndex", 21.6, "count", 6),
        sample("flightsClimbed", 3, "count", 7, 2), sample("dietaryWater", 250, "mL", 8),
        {"type": "bloodPressure", "unit": "mmHg", "components": {"bloodPressureSystolic": 120, "bloodPressureDiastolic": 80},
         "start": "2020-06-18T10:09:00Z", "end": "2020-06-18T10:09:00Z"},
        sample("sleepAnalysis", 5, None, -480, 420),
    ]
    samples[-1].pop("unit")
    status, _, body = request("POST", "/v1/patients/alice/samples", DEVICE, {"samples": samples})
    check(status == 200, f"seeding answered {status}: {body}")
    status, _, body = request("POST", "/v1/patients/alice/samples", THERAPIST,
                              {"samples": [sample("sixMinuteWalkTestDistance", 420, "m", 60, 6)]})
    check(status == 200, f"seeding the walk test answered {status}: {body}")
    return len(samples) + 1


def check_observation(o):
    """Validates one Observation with fhir.resources and checks it against the mapping table."""
    Observation.parse_obj(o)
    check(o["status"] == "final", f"status {o['status']}")
    codings = o["code"]["coding"]
    caresync = [c["code"] for c in codings if c["system"] == "urn:caresync:sample-type"]
    check(len(caresync) == 1, f"no CareSync code in {codings}")
    type_ = caresync[0]
    loinc, category, unit, value = TABLE[type_]
    check([c["code"] for c in codings if c["system"] == "http://loinc.org"] == loinc, f"{type_}: LOINC {codings}")
    categories = [c["code"] for cat in o.get("category", []) for c in cat["coding"]]
    check(categories == ([category] if category else []), f"{type_}: category {categories}")
    if unit:
        q = o["valueQuantity"]
        check(q["system"] == "http://unitsofmeasure.org" and q["code"] == unit, f"{type_}: unit {q}")
        if value is not None:
            check(abs(q["value"] - value) < 1e-9, f"{type_}: value {q['value']} != {value}")
    if type_ == "bloodPressure":
        comps = [(c["code"]["coding"][0]["code"], c["valueQuantity"]["code"], c["valueQuantity"]["value"]) for c in o["component"]]
        check(comps == [("8480-6", "mm[Hg]", 120), ("8462-4", "mm[Hg]", 80)], f"blood pressure components {comps}")
    if type_ == "sleepAnalysis":
        check(o["valueCodeableConcept"]["coding"][0]["code"] == "sleepAnalysis.asleepREM", f"sleep value {o.get('valueCodeableConcept')}")
    check(("effectivePeriod" in o) != ("effectiveDateTime" in o), f"{type_}: one effective[x]")
    check(o["subject"]["reference"] == "Patient/alice", f"subject {o['subject']}")
    check(("performer" in o) == (type_ == "sixMinuteWalkTestDistance"), f"{type_}: performer {o.get('performer')}")
    return type_


def check_bundle(b):
    Bundle.parse_obj(b)
    check(b["type"] == "searchset", f"Bundle.type {b['type']}")
    for link in b["link"]:
        parsed = urlparse(link["url"])
        check(link["relation"] in ("self", "next") and parsed.scheme == "http" and parsed.netloc, f"link {link}")
    for e in b.get("entry", []):
        check(e["fullUrl"] == f"{BASE}/Observation/{e['resource']['id']}", f"fullUrl {e['fullUrl']}")
        check(e["search"]["mode"] == "match", f"search.mode {e['search']}")


def check_outcome(status, headers, body, expected, code):
    check(status == expected, f"expected {expected}, got {status}: {body}")
    check(headers.get("Content-Type") == "application/fhir+json", f"{expected}: Content-Type {headers.get('Content-Type')}")
    OperationOutcome.parse_obj(body)
    check(body["issue"][0]["severity"] == "error" and body["issue"][0]["code"] == code, f"{expected}: issue {body['issue']}")


def main():
    total = seed()
    status, headers, body = request("GET", "/fhir/R4/metadata")
    check(status == 200 and headers.get("Content-Type") == "application/fhir+json", f"metadata {status}")
    CapabilityStatement.parse_obj(body)
    check(body["status"] == "active" and body["kind"] == "instance" and body["fhirVersion"] == "4.0.1", "CapabilityStatement codes")

    # Every Observation, page by page, through raw HTTP.
    seen, pages, url = {}, 0, "/fhir/R4/Observation?patient=alice&_count=7"
    while url:
        status, headers, bundle = request("GET", url, THERAPIST)
        check(status == 200 and headers.get("Content-Type") == "application/fhir+json", f"search {status}: {bundle}")
        check_bundle(bundle)
        check(bundle["total"] == total, f"total {bundle['total']} != {total}")
        for e in bundle.get("entry", []):
            seen[e["resource"]["id"]] = check_observation(e["resource"])
        pages += 1
        url = next((l["url"] for l in bundle["link"] if l["relation"] == "next"), None)
        if url and not url.startswith(BASE + "/Observation?"):
            check(False, f"next link {url} is not absolute under {BASE}")
            break
    check(len(seen) == total and pages == -(-total // 7), f"paged {len(seen)} of {total} in {pages} pages")
    check(set(seen.values()) == set(TABLE), f"types seen {sorted(set(seen.values()))}")
    some_id = next(iter(seen))
    status, _, one = request("GET", f"/fhir/R4/Observation/{some_id}", DEVICE)
    check(status == 200, f"read {status}")
    check_observation(one)

    check_outcome(*request("GET", "/fhir/R4/Observation?patient=alice"), 401, "login")
    check_outcome(*request("GET", "/fhir/R4/Observation?patient=bob", THERAPIST), 404, "not-found")
    check_outcome(*request("GET", "/fhir/R4/Observation/" + "0" * 8 + "-0000-7000-8000-" + "0" * 12, THERAPIST), 404, "not-found")
    check_outcome(*request("GET", "/fhir/R4/Observation?patient=alice&color=red", THERAPIST, headers={"Prefer": "handling=strict"}),
                  400, "not-supported")
    check_outcome(*request("GET", "/fhir/R4/Observation?patient=alice&date=gt2020-13", THERAPIST), 400, "invalid")
    status, _, lenient = request("GET", "/fhir/R4/Observation?patient=alice&color=red&_count=1", THERAPIST)
    check(status == 200 and "color" not in lenient["link"][0]["url"], f"lenient self link {lenient.get('link')}")

    # SMART's fhirclient: a search for heart rates in a date window, followed over several pages.
    from fhirclient import client
    from fhirclient.models.observation import Observation as ClientObservation
    smart = client.FHIRClient(settings={"app_id": "caresync-ci", "api_base": BASE + "/"})
    smart.server.session.headers.update({"Authorization": "Bearer " + DEVICE})
    search = ClientObservation.where(struct={"patient": "alice", "code": "http://loinc.org|8867-4",
                                             "date": "ge2020-06-18T10:03:00Z", "_count": "4", "_sort": "date"})
    bundles = list(search.perform_iter(smart.server))
    values = [e.resource.valueQuantity.value for b in bundles for e in (b.entry or [])]
    check(len(bundles) == 5, f"fhirclient read {len(bundles)} pages, expected 5")
    check(values == [60 + i for i in range(3, HEART_RATES)], f"fhirclient values {values}")
    read = ClientObservation.read(some_id, smart.server)
    check(read.id == some_id, "fhirclient read by id")

    print(f"checked {len(seen)} Observations over {pages} pages, {len(bundles)} fhirclient pages")
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)


main()
