#!/usr/bin/env bash
# Webhooks end to end: caresync serves with two subscriptions (every patient; alice only) to a small Python receiver
# (scripts/webhooks/receiver.py) that verifies every signature with the Standard Webhooks reference library. The
# receiver is down for a while, then up, then too slow (CareSync's attempts time out), then restarted; CareSync is
# killed with SIGKILL while a delivery is in flight and restarted on the same database. Then every delivery must
# have been delivered at least once, in order per subscription, each patient's last change's anchor among them (a
# waiting delivery takes its patient's later changes), every signature verified, and no sample value in any
# payload (scripts/webhooks/check.py). Then an alert is raised (a device of alice never heard from) and resolved: a fresh
# receiver verifies the alert.raised and alert.resolved signatures, and no payload carries a value
# (scripts/webhooks/alerts.py). Prints the figures. Self-contained and non-interactive; about 40 s once built.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh

STANDARDWEBHOOKS_VERSION=1.0.0
ci_venv "${CI_WEBHOOKS_VENV:-.build/ci-webhooks-venv}" "standardwebhooks==$STANDARDWEBHOOKS_VERSION"
ci_build
ci_workdir
started=$SECONDS
receiver_pid=""
stop_receiver() { if [ -n "$receiver_pid" ]; then kill "$receiver_pid" 2>/dev/null || true; wait "$receiver_pid" 2>/dev/null || true; fi; receiver_pid=""; }
trap 'stop_receiver; ci_cleanup' EXIT

export CARESYNC_LOG_LEVEL=error
"$bin" patient create alice --time-zone UTC >/dev/null
"$bin" patient create bob --time-zone UTC >/dev/null
admin="$("$bin" token create --role admin 2>/dev/null)"
alice="$("$bin" token create --role device --patient alice 2>/dev/null)"
bob="$("$bin" token create --role device --patient bob 2>/dev/null)"
# The receiver is on loopback; attempts time out after 2 s and retries come quickly, so the run stays short.
serve_env=(CARESYNC_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true CARESYNC_WEBHOOKS_TIMEOUT_SECONDS=2
           CARESYNC_WEBHOOKS_RETRY_INITIAL_SECONDS=0.5 CARESYNC_WEBHOOKS_RETRY_MAX_SECONDS=2)
ci_serve "${serve_env[@]}"

json() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
create() {  # PATH EXTRA-JSON → the answer
  curl -fsS -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' "$url/v1/webhooks" \
    -d "{\"url\": \"http://127.0.0.1:$port$1\"$2}"
}
all_answer="$(create /hook/a '')"
alice_answer="$(create /hook/b ', "patients": ["alice"]')"
all_id="$(json '["id"]' <<<"$all_answer")"; alice_id="$(json '["id"]' <<<"$alice_answer")"
python3 -c "import json, sys; json.dump({'/hook/a': sys.argv[1], '/hook/b': sys.argv[2]}, open(sys.argv[3], 'w'))" \
  "$(json '["secret"]' <<<"$all_answer")" "$(json '["secret"]' <<<"$alice_answer")" "$work/secrets.json"

writes_all=0; writes_alice=0; forbidden=""
write() {  # PATIENT TOKEN: one sample with a value no payload may carry
  local value=$((7340000 + writes_all))
  curl -fsS -X POST -H "Authorization: Bearer $2" -H 'Content-Type: application/json' "$url/v1/patients/$1/samples" \
    -d "{\"samples\":[{\"type\":\"stepCount\",\"value\":$value,\"unit\":\"count\",\"start\":\"2020-06-18T09:00:00Z\",\"end\":\"2020-06-18T09:30:00Z\"}]}" \
    >/dev/null
  writes_all=$((writes_all + 1)); forbidden="$forbidden $value"
  if [ "$1" = alice ]; then writes_alice=$((writes_alice + 1)); fi
}
writes() { for _ in $(seq 1 "$1"); do write alice "$alice"; write bob "$bob"; done; }
start_receiver() {
  "$venv/bin/python" scripts/webhooks/receiver.py --port "$port" --secrets "$work/secrets.json" --mode "$work/mode" \
    --log "$work/received.jsonl" 2>>"$work/receiver.stderr" &
  receiver_pid=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done
}
until_true() {  # SECONDS COMMAND…: polls until COMMAND succeeds
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -lt $deadline ] || { echo "timed out: $*"; return 1; }; sleep 0.1; done
}
received_at_least() { [ -f "$work/received.jsonl" ] && [ "$(grep -c "\"mode\": \"$1\"" "$work/received.jsonl")" -ge "$2" ]; }
delivered() {  # ID: no delivery pending and the last one delivered
  local state; state="$(curl -fsS -H "Authorization: Bearer $admin" "$url/v1/webhooks/$1")"
  [ "$(json '["pendingDeliveries"]' <<<"$state")" = 0 ] \
    && [ "$(json '["lastDeliveredSequence"]' <<<"$state")" = "$(( $(json '["nextSequence"]' <<<"$state") - 1 ))" ]
}
deliveries() { curl -fsS -H "Authorization: Bearer $admin" "$url/v1/webhooks/$1" | json '["nextSequence"] - 1'; }

echo "phase 1: receiver down, 10 changes"
writes 5
sleep 3   # the receiver is down this long: attempts are refused and retried
echo "phase 2: receiver up"
echo ok >"$work/mode"; start_receiver
until_true 20 delivered "$all_id"; until_true 20 delivered "$alice_id"
echo "phase 3: receiver too slow (3 s > the 2 s timeout), 4 changes"
echo slow >"$work/mode"; writes 2
until_true 20 received_at_least slow 3
echo "phase 4: receiver restarted; CareSync killed (SIGKILL) mid-delivery and restarted"
stop_receiver; echo hang >"$work/mode"; start_receiver
until_true 20 test -e "$work/mode.hanging"
attempts_before="$(curl -fsS "$url/metrics" | grep '^caresync_webhook_attempts_total' || true)"
kill -KILL "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
echo ok >"$work/mode"
ci_serve "${serve_env[@]}"
writes 2
echo "phase 5: everything delivered"
status=0
{ until_true 40 delivered "$all_id" && until_true 40 delivered "$alice_id"; } || status=1
attempts_after="$(curl -fsS "$url/metrics" | grep '^caresync_webhook_attempts_total' || true)"
deliveries_all="$(deliveries "$all_id")"; deliveries_alice="$(deliveries "$alice_id")"
# Anchors in answers are sealed (a fresh string each time), so "the last change was delivered" is asked of the
# server: for each subscription and patient, some acknowledged delivery's anchor reads on to an empty feed.
python3 - "$work/received.jsonl" "$url" "$alice" "$bob" >"$work/covered.json" <<'PY'
import json, sys, urllib.request
log, url, tokens = sys.argv[1], sys.argv[2], {"alice": sys.argv[3], "bob": sys.argv[4]}
def empty_after(patient, anchor):
    request = urllib.request.Request(f"{url}/v1/patients/{patient}/changes?anchor={anchor}",
                                     headers={"Authorization": f"Bearer {tokens[patient]}"})
    page = json.load(urllib.request.urlopen(request, timeout=30))
    return not page["samples"] and not page["deletedObjects"]
covered = {}
for line in open(log):
    e = json.loads(line)
    if e["mode"] != "ok" or e["status"] != 200:
        continue
    data = json.loads(e["body"])["data"]
    key = covered.setdefault(e["path"], {})
    if not key.get(data["patient"]):
        key[data["patient"]] = empty_after(data["patient"], data["anchor"])
json.dump(covered, sys.stdout)
PY
echo "phase 6: alert.raised and alert.resolved to a fresh receiver (scripts/webhooks/alerts.py)"
# The first two subscriptions are done: deleted, so the alert phase's write sends them nothing check.py would count.
for id in "$all_id" "$alice_id"; do curl -fsS -o /dev/null -X DELETE -H "Authorization: Bearer $admin" "$url/v1/webhooks/$id"; done
"$venv/bin/python" scripts/webhooks/alerts.py "$url" "$admin" "$alice" "$work" "$venv/bin/python" || status=1
ci_stop || status=1
stop_receiver

python3 - "$work/expected.json" <<EOF
import json, sys
covered = json.load(open("$work/covered.json"))
json.dump({"/hook/a": {"changes": $writes_all, "deliveries": $deliveries_all, "id": "$all_id",
                       "covered": {p: covered.get("/hook/a", {}).get(p, False) for p in ["alice", "bob"]}},
           "/hook/b": {"changes": $writes_alice, "deliveries": $deliveries_alice, "id": "$alice_id",
                       "covered": {"alice": covered.get("/hook/b", {}).get("alice", False)}}}, open(sys.argv[1], "w"))
EOF
FORBIDDEN="$forbidden" python3 scripts/webhooks/check.py "$work/received.jsonl" "$work/expected.json" || status=1
echo "attempts by outcome, first process (killed):" $attempts_before
echo "attempts by outcome, second process:" $attempts_after
[ $status = 0 ] || { echo "webhook checks FAILED"; exit 1; }
echo "webhook checks passed in $((SECONDS - started)) s"
