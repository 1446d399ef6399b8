#!/usr/bin/env python3
"""Checks the receiver's log after scripts/ci-webhooks.sh: every delivery delivered at least once, in order per
subscription, each patient's last change's anchor among them (a waiting delivery takes its patient's later
changes, so there are fewer deliveries than changes), every signature verified, no sample value in any payload.
Prints the figures; exits 1 on a failure.

usage: check.py LOG EXPECTED   (EXPECTED: JSON {"/hook/a": {"changes": n, "deliveries": m, "id": "wh_…",
                               "covered": {patient: true}}, …}, FORBIDDEN values in env)
"""
import json
import os
import sys


def main():
    log, expected = sys.argv[1], json.load(open(sys.argv[2]))
    forbidden = os.environ.get("FORBIDDEN", "").split()
    entries = [json.loads(line) for line in open(log) if line.strip()]
    failures = []
    unverified = [e for e in entries if not e["verified"]]
    if unverified:
        failures.append(f"{len(unverified)} request(s) did not verify")
    for path, want in sorted(expected.items()):
        mine = sorted((e for e in entries if e["path"] == path), key=lambda e: e["received"])
        acknowledged, requested, highest, order_ok, repeated = set(), set(), 0, True, 0
        for e in mine:
            payload = json.loads(e["body"])
            if set(payload) != {"type", "timestamp", "data"} or set(payload["data"]) != {"patient", "anchor", "sequence"}:
                failures.append(f"{path}: unexpected payload members {e['body']}")
            if payload["type"] != "patient.changed":
                failures.append(f"{path}: type {payload['type']}")
            for value in forbidden:
                if value in e["body"]:
                    failures.append(f"{path}: sample value {value} in a payload")
            seq = e["sequence"]
            if e["id"] != f"msg_{want['id']}_{seq}":
                failures.append(f"{path}: webhook-id {e['id']} for sequence {seq}")
            # In order: nothing goes out before every earlier sequence was acknowledged (repeats are allowed).
            if seq > highest + 1:
                order_ok = False
                failures.append(f"{path}: sequence {seq} arrived before {highest + 1} was delivered")
            if seq in requested:
                repeated += 1
            requested.add(seq)
            # A request answered in time counts as delivered; slow and hanging ones CareSync gave up on or died during.
            if e["mode"] == "ok" and e["status"] == 200:
                acknowledged.add(seq)
                highest = max(highest, seq)
        missing = sorted(set(range(1, want["deliveries"] + 1)) - acknowledged)
        if missing:
            failures.append(f"{path}: never delivered {missing[:10]}{'…' if len(missing) > 10 else ''}")
        # Every change covered: for each patient, an acknowledged delivery's anchor reads on to an empty feed (it
        # covers the patient's last change, so every earlier one); ci-webhooks.sh asked the server before it stopped.
        for patient, covered in sorted(want["covered"].items()):
            if not covered:
                failures.append(f"{path}: {patient}'s last change was never delivered (no delivered anchor reads on to an empty feed)")
        # At-least-once across the SIGKILL: what was in flight then went out again after the restart.
        for e in (e for e in mine if e["mode"] == "hang"):
            if not any(o["sequence"] == e["sequence"] and o["mode"] == "ok" and o["received"] > e["received"] for o in mine):
                failures.append(f"{path}: sequence {e['sequence']}, in flight at the kill, was not delivered again")
        modes = {m: sum(1 for e in mine if e["mode"] == m) for m in ("ok", "slow", "hang")}
        print(f"{path} ({want['id']}): {want['changes']} changes in {want['deliveries']} deliveries, {len(mine)} requests "
              f"({modes['ok']} answered at once, {modes['slow']} too slow, {modes['hang']} in flight at the kill), "
              f"{len(acknowledged)} distinct delivered, {repeated} requests repeated a sequence, in order: {'yes' if order_ok else 'NO'}")
    print(f"signatures verified with standardwebhooks: {len(entries) - len(unverified)} of {len(entries)}")
    for failure in failures:
        print("FAIL", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
