#!/usr/bin/env bash
# Webhook deliveries per second to a local receiver (issue 13): EVENTS changes queue while SUBSCRIPTIONS subscriptions
# are paused, then all are resumed and timed until every delivery is acknowledged. The receiver is
# scripts/webhooks/receiver.py --no-verify (Python's threading HTTP server, which answers 200 at once): on this
# machine it shares the two cores with caresync and may be the limit. Prints figures; asserts nothing.
# Do not run it while builds run.
#   bench/webhooks/run.sh                       # release build; EVENTS=5000, SUBSCRIPTIONS="1 8"
#   RECEIVER=nginx bench/webhooks/run.sh        # nginx answering 200 instead (C, far below the dispatcher's cost)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/api/caresync-server.sh
source bench/lib/nginx.sh
caresync_prepare
export CARESYNC_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true
"$bin" patient create alice >/dev/null
admin="$("$bin" token create --role admin 2>/dev/null)"
device="$("$bin" token create --role device --patient alice 2>/dev/null)"
caresync_serve
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
if [ "${RECEIVER:-python}" = nginx ]; then
  command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; }
  nginx_start "$work/nginx" "$port" off 'location / { return 200; }' 1 4096
  receiver=$nginx_pid
else
  python3 scripts/webhooks/receiver.py --port "$port" --no-verify >"$work/receiver.out" &
  receiver=$!
fi
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; kill "$receiver" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
events="${EVENTS:-5000}"

for subscriptions in ${SUBSCRIPTIONS:-1 8}; do
  python3 - "$url" "$admin" "$device" "$port" "$events" "$subscriptions" <<'PY'
import http.client, json, sys, time, urllib.parse
base, admin, device, port, events, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
u = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(u.hostname, u.port)
def call(method, path, token, body=None):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    reply = conn.getresponse(); data = reply.read()
    assert reply.status < 300, (reply.status, data)
    return json.loads(data) if data else None
ids = [call("POST", "/v1/webhooks", admin, {"url": f"http://127.0.0.1:{port}/hook/{i}"})["id"] for i in range(count)]
for i in ids: call("POST", f"/v1/webhooks/{i}/pause", admin)
# One patient per event: a subscription's waiting deliveries coalesce per patient (docs/api.md "Webhooks"), so
# events of one patient would queue as one delivery.
tokens = []
for n in range(events):
    patient = f"w{count}-{n}"
    call("POST", "/v1/patients", admin, {"id": patient})
    tokens.append((patient, call("POST", "/v1/tokens", admin, {"role": "device", "patient": patient})["secret"]))
started = time.monotonic()
for n, (patient, token) in enumerate(tokens):  # one commit, one event per subscription
    call("POST", f"/v1/patients/{patient}/samples", token, {"samples": [{"type": "stepCount", "value": n, "unit": "count",
         "start": "2020-06-18T09:00:00Z", "end": "2020-06-18T09:30:00Z"}]})
written = time.monotonic() - started
def queued():  # one list call, every 50 ms: polling each subscription would load the store beside the dispatcher
    return sum(w["pendingDeliveries"] for w in call("GET", "/v1/webhooks", admin)["webhooks"] if w["id"] in ids)
while queued() < events * count: time.sleep(0.05)  # fanned out
started = time.monotonic()
for i in ids: call("POST", f"/v1/webhooks/{i}/resume", admin)
while queued() > 0: time.sleep(0.05)
elapsed = time.monotonic() - started
for i in ids: call("DELETE", f"/v1/webhooks/{i}", admin)
print(f"{count} subscription(s), {events} events each: {events * count} deliveries in {elapsed:.2f} s = "
      f"{events * count / elapsed:,.0f} deliveries/s ({events} single-sample POSTs took {written:.1f} s)")
PY
done
