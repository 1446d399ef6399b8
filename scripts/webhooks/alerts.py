#!/usr/bin/env python3
"""The alert events of scripts/ci-webhooks.sh: against a serving CareSync (its URL, an admin token and alice's device
token), makes care team `physio` with alice, a therapist token and a second device token of alice that never writes,
subscribes a fresh receiver (receiver.py, which verifies each signature with `standardwebhooks`) to alert.raised and
alert.resolved, writes one sample with alice's first device (the commit makes the server evaluate alice's rules: the
second device was never heard from, so `deviceSilent` is raised), resolves the alert as the therapist, and checks what
arrived: one verified alert.raised and one alert.resolved naming the alert the API lists, alice and the rule, and no
sample value. Exit status 0 when every check passes; prints each failure.

Usage: alerts.py URL ADMIN_TOKEN ALICE_DEVICE_TOKEN WORKDIR VENV_PYTHON
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

url, admin, alice, work, python = sys.argv[1:6]
VALUE = 7349999  # the sample's value: no payload may carry it


def call(method, path, token, body=None):
    request = urllib.request.Request(url + path, method=method, headers={"Authorization": f"Bearer {token}"},
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def wait_for(log, event, seconds=40):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(log):
            for line in open(log):
                entry = json.loads(line)
                if entry["verified"] and json.loads(entry["body"])["type"] == event:
                    return entry
        time.sleep(0.1)
    return None


def main():
    failures = []
    port = socket.socket()
    port.bind(("127.0.0.1", 0))
    port_number = port.getsockname()[1]
    port.close()
    call("POST", "/v1/care-teams", admin, {"name": "physio"})
    call("POST", "/v1/care-teams/physio/patients", admin, {"patientId": "alice"})
    therapist = call("POST", "/v1/tokens", admin, {"role": "therapist", "careTeams": ["physio"]})["secret"]
    call("POST", "/v1/tokens", admin, {"role": "device", "patient": "alice", "source": "org.example.watch"})
    hook = call("POST", "/v1/webhooks", admin, {"url": f"http://127.0.0.1:{port_number}/hook/alerts", "careTeams": ["physio"],
                                                "events": ["alert.raised", "alert.resolved"]})
    secrets, log = os.path.join(work, "alert-secrets.json"), os.path.join(work, "alerts.jsonl")
    json.dump({"/hook/alerts": hook["secret"]}, open(secrets, "w"))
    receiver = subprocess.Popen([python, os.path.join(os.path.dirname(__file__), "receiver.py"), "--port", str(port_number),
                                 "--secrets", secrets, "--log", log])
    try:
        call("POST", "/v1/patients/alice/samples", alice, {"samples": [{
            "type": "stepCount", "value": VALUE, "unit": "count", "start": "2020-06-19T09:00:00Z", "end": "2020-06-19T09:30:00Z"}]})
        raised = wait_for(log, "alert.raised")
        if raised is None:
            failures.append("no verified alert.raised arrived")
            return failures
        listed = call("GET", "/v1/care-teams/physio/alerts?state=open", therapist)["alerts"]
        data = json.loads(raised["body"])["data"]
        if [a["id"] for a in listed] != [data["alertId"]]:
            failures.append(f"the open alerts {listed} are not the raised one {data}")
        if data["patient"] != "alice" or data["rule"] != "deviceSilent" or data["careTeam"] != "physio":
            failures.append(f"alert.raised names {data}")
        call("POST", f"/v1/patients/alice/alerts/{data['alertId']}/resolve", therapist, {})
        resolved = wait_for(log, "alert.resolved")
        if resolved is None:
            failures.append("no verified alert.resolved arrived")
        elif json.loads(resolved["body"])["data"]["alertId"] != data["alertId"]:
            failures.append("alert.resolved names another alert")
        for line in open(log):
            entry = json.loads(line)
            body = json.loads(entry["body"])
            if not entry["verified"]:
                failures.append(f"a delivery did not verify: {entry['id']}")
            if str(VALUE) in entry["body"] or set(body["data"]) != {"patient", "alertId", "rule", "careTeam", "sequence"}:
                failures.append(f"a payload carries more than it may: {entry['body']}")
        print(f"alert events: {sum(1 for _ in open(log))} delivered and verified, alert {data['alertId']}")
        return failures
    finally:
        receiver.terminate()
        receiver.wait()


if __name__ == "__main__":
    problems = main()
    for problem in problems:
        print("alert webhook check failed:", problem)
    sys.exit(1 if problems else 0)
