#!/usr/bin/env bash
# The care team's status (issue 28): PATIENTS patients in one care team, each with a phone that sent SAMPLES one-minute
# step samples back from now, on a release build; prints the seeding's ingest rate and the time of
# `GET /v1/care-teams/physio/status` (and of one patient's `GET /v1/patients/{id}/status`) over several calls. Not run
# in CI (it takes minutes and the machine's cores); figures and the target in docs/benchmarks.md.
# Usage: bench/status/run.sh [PATIENTS] [SAMPLES]      defaults: 500 patients, 10,080 samples (a week) each
#        STEP=SECONDS between sample starts (default 60: minute-level; `STEP=3600 bench/status/run.sh 500 8760` is a year of hourly steps,
#        which leaves the status the same day figures to read as a year of minute-level ones, in a 60th of the seeding)
#        RUNS=N timed rounds (default 5)
#        PERF_OUT=FILE also records the server with `perf record -g` during the status calls
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci-lib.sh
patients="${1:-500}" samples="${2:-10080}"
source bench/lib/release-build.sh
bin="$(release_build caresync)"
ci_workdir
export CARESYNC_LOG_LEVEL=warning CARESYNC_SQLITE_SYNCHRONOUS=normal
"$bin" care-team create physio >/dev/null
for n in $(seq 1 "$patients"); do
  "$bin" patient create "p$n" --time-zone America/Los_Angeles >/dev/null
  "$bin" care-team add-patient physio "p$n" >/dev/null
  "$bin" token create --role device --patient "p$n" --source org.example.phone 2>/dev/null >>"$work/devices"
done
therapist="$("$bin" token create --role therapist --care-team physio --source org.example.therapist 2>/dev/null)"
ci_serve
python3 - "$url" "$therapist" "$work/devices" "$samples" "$server_pid" "${STEP:-60}" <<'PY'
import json, os, signal, subprocess, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
url, therapist, devices, total = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().split(), int(sys.argv[4])
step = int(sys.argv[6])
def call(method, path, token, body=None):
    h = {"Authorization": "Bearer " + token}
    if body is not None: h["Content-Type"] = "application/json"
    req = urllib.request.Request(url + path, data=json.dumps(body).encode() if body is not None else None, method=method, headers=h)
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())
now = int(time.time()) // 60 * 60
def seed(n):
    for first in range(0, total, 5000):
        batch = [{"type": "stepCount", "value": 20 + i % 60, "unit": "count",
                  "start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - step * i - 60)),
                  "end": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - step * i))} for i in range(first, min(total, first + 5000))]
        call("POST", f"/v1/patients/p{n + 1}/samples", devices[n], {"samples": batch})
began = time.monotonic()
with ThreadPoolExecutor(4) as pool: list(pool.map(seed, range(len(devices))))
seeded = time.monotonic() - began
print(f"seeded {len(devices)} patients x {total} samples in {seeded:.1f} s ({len(devices) * total / seeded:,.0f} samples/s)", flush=True)
# SETTLE seconds (default 10) between the seeding and the timed calls, so the alert job's evaluation of the patients
# just written is not inside them.
time.sleep(float(os.environ.get("SETTLE", "10")))
perf = os.environ.get("PERF_OUT") and subprocess.Popen(["perf", "record", "-g", "-o", os.environ["PERF_OUT"], "-p", sys.argv[5]],
                                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if perf: time.sleep(1)
for run in range(int(os.environ.get("RUNS", "5"))):
    began = time.monotonic(); one = call("GET", "/v1/patients/p1/status", therapist); single = time.monotonic() - began
    began = time.monotonic(); team = call("GET", "/v1/care-teams/physio/status", therapist); whole = time.monotonic() - began
    print(f"run {run + 1}: care-team status of {len(team['patients'])} patients in {whole * 1000:.0f} ms; one patient's status in {single * 1000:.1f} ms "
          f"({len(one['daysWithData'])} days with data)", flush=True)
if perf: perf.send_signal(signal.SIGINT); perf.wait()
PY
ci_stop
