#!/usr/bin/env bash
# The report list under a flood (issue 25.2): a device posts REPORTS weekly reports of SAMPLES heart rates each, then
# READERS therapists walk the whole list at once, page by page, ROUNDS times. Prints the server's resident memory
# (VmRSS at start, after the flood, and its peak while the readers read, sampled every 10 ms), the largest answer, and the peak's growth
# as a share of the 512 MiB the container runs with. Builds caresync in release mode (CONFIGURATION=debug: debug).
#   bench/api/report-list-memory.sh            # 20 reports of 5,000 samples, 8 readers, 3 rounds
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci-lib.sh
source bench/lib/release-build.sh
if [ "${CONFIGURATION:-release}" = release ]; then bin="$(release_build caresync)"; else
  swift build -c "$CONFIGURATION" --product caresync >/dev/null
  bin="$(swift build -c "$CONFIGURATION" --show-bin-path)/caresync"
fi
ci_workdir
export CARESYNC_LOG_LEVEL=warning
"$bin" patient create alice --time-zone UTC >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
device="$("$bin" token create --role device --patient alice --source org.example.phone 2>/dev/null)"
therapist="$("$bin" token create --role therapist --care-team physio --source org.example.therapist 2>/dev/null)"
ci_serve CARESYNC_RATE_LIMIT_TOKEN_REQUESTS_PER_SECOND=0
python3 - "$url" "$device" "$therapist" "$server_pid" "${REPORTS:-20}" "${SAMPLES:-5000}" "${READERS:-8}" "${ROUNDS:-3}" <<'PY'
import concurrent.futures, datetime as dt, http.client, json, sys, urllib.parse
url, device, therapist, pid = sys.argv[1:5]
reports, samples, readers, rounds = map(int, sys.argv[5:9])
host = urllib.parse.urlparse(url)

def status(field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
def call(method, path, token, body=None):
    c = http.client.HTTPConnection(host.hostname, host.port, timeout=300)
    c.request(method, path, body=json.dumps(body) if body is not None else None,
              headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    r = c.getresponse(); data = r.read(); c.close()
    assert r.status == 200, (r.status, data[:300])
    return data

print(f"VmRSS at start: {status('VmRSS')} MiB")
monday = dt.datetime(2020, 6, 15, tzinfo=dt.timezone.utc)
for n in range(reports):
    week = monday + dt.timedelta(weeks=n)
    items = [{"key": f"m{k}", "type": "heartRate", "value": 70, "unit": "count/min",
              "start": (week + dt.timedelta(minutes=k)).isoformat(), "end": (week + dt.timedelta(minutes=k)).isoformat()}
             for k in range(samples)]
    call("POST", "/v1/patients/alice/weekly-reports", device,
         {"syncIdentifier": f"flood-{n}", "syncVersion": 1, "weekStart": week.date().isoformat(), "timeZone": "UTC", "samples": items})
print(f"VmRSS after {reports} reports of {samples} samples: {status('VmRSS')} MiB")

def walk(_):
    cursor, largest, count = None, 0, 0
    while True:
        body = call("GET", "/v1/patients/alice/weekly-reports" + (f"?cursor={cursor}" if cursor else ""), therapist)
        page = json.loads(body); largest = max(largest, len(body)); count += len(page["reports"])
        cursor = page["next"]
        if not cursor:
            return largest, count
import threading, time
baseline = status("VmRSS")
peak, reading = baseline, True
def sample():
    global peak
    while reading:
        peak = max(peak, status("VmRSS")); time.sleep(0.01)
sampler = threading.Thread(target=sample); sampler.start()
largest = 0
with concurrent.futures.ThreadPoolExecutor(readers) as pool:
    for _ in range(rounds):
        for size, count in pool.map(walk, range(readers)):
            assert count == reports, count
            largest = max(largest, size)
reading = False; sampler.join()
print(f"{readers} readers x {rounds} rounds walked every page; largest answer {largest / 1e6:.2f} MB")
print(f"VmRSS peak while reading {peak} MiB; growth over the {baseline} MiB after the flood: {peak - baseline} MiB"
      f" = {(peak - baseline) / 512:.2f} of the container's 512 MiB")
PY
ci_stop
