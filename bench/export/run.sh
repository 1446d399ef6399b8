#!/usr/bin/env bash
# The bulk export benchmark of issue 29: one patient with N samples (default 1,000,000) exported through
# Patient/{id}/$export on a release build; prints the export's wall-clock time, the server's resident memory before
# the export and the most seen while it ran (VmRSS from /proc, read every 50 ms), and the size of the files. Not run in CI (it takes
# minutes and the machine's cores); see docs/benchmarks.md for figures and the target (<= 10 s, <= 64 MB growth).
# Usage: bench/export/run.sh [SAMPLES]        PERF_OUT=FILE also records the server with `perf record -g` while it exports
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci-lib.sh
samples="${1:-1000000}"
source bench/lib/release-build.sh
bin="$(release_build caresync)"
ci_workdir
export CARESYNC_LOG_LEVEL=warning CARESYNC_SQLITE_SYNCHRONOUS=normal CARESYNC_EXPORT_DIRECTORY="$work/exports"
"$bin" patient create alice --time-zone UTC >/dev/null
device="$("$bin" token create --role device --patient alice --source org.example.phone 2>/dev/null)"
ci_serve
python3 - "$url" "$device" "$samples" "$server_pid" "$work/exports" <<'PY'
import json, os, signal, subprocess, sys, time, urllib.request
url, token, total, pid, folder = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
def call(method, path, body=None, headers=None):
    h = {"Authorization": "Bearer " + token, **(headers or {})}
    data = json.dumps(body).encode() if body is not None else None
    if data: h["Content-Type"] = "application/json"
    req = urllib.request.Request(path if path.startswith("http") else url + path, data=data, method=method, headers=h)
    with urllib.request.urlopen(req) as r:
        return r.status, r.headers, r.read()
def memory():
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) // 1024
t0 = 1592474400
for start in range(0, total, 5000):
    batch = [{"type": "heartRate", "value": 60 + i % 40, "unit": "count/min",
              "start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + 60 * i)),
              "end": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + 60 * i))} for i in range(start, min(total, start + 5000))]
    call("POST", "/v1/patients/alice/samples", {"samples": batch})
rss_before = peak = memory()
perf = os.environ.get("PERF_OUT") and subprocess.Popen(["perf", "record", "-g", "-o", os.environ["PERF_OUT"], "-p", pid],
                                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if perf: time.sleep(1)
began = time.monotonic()
_, headers, _ = call("GET", "/fhir/R4/Patient/alice/$export", headers={"Prefer": "respond-async"})
location = headers["Content-Location"]
while True:
    status, _, body = call("GET", location)
    peak = max(peak, memory())
    if status == 200: break
    time.sleep(0.05)
elapsed = time.monotonic() - began
if perf: perf.send_signal(signal.SIGINT); perf.wait()
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
manifest = json.loads(body)
print(f"exported {sum(o['count'] for o in manifest['output'])} Observations of {total} samples in {elapsed:.2f} s")
print(f"server memory: {rss_before} MB before the export, at most {peak} MB while it ran (growth {peak - rss_before} MB)")
print(f"files: {len(manifest['output'])} output, {size / 1e6:.1f} MB")
PY
ci_stop
