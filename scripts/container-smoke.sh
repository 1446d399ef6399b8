#!/usr/bin/env bash
# Runs the built image the way docs/deployment.md recommends (read-only root, no capabilities,
# memory limit, /data volume, loopback-published port), waits for its own HEALTHCHECK command
# to pass, exercises the API through the published port, then stops it with SIGTERM while a
# request is in flight and checks that the request was answered and the exit code is 0.
set -euo pipefail
source "$(dirname "$0")/container-env.sh"
name="caresync-smoke-$$"
volume="caresync-smoke-data-$$"
work="$(mktemp -d)"
passed=0
pass() { passed=$((passed + 1)); log "PASS $*"; }
fail() {
  log "FAIL $*"
  podman logs "$name" 2>&1 | tail -n 40 >&2 || true
  echo "deploy checks: $passed passed, 1 failed"
  exit 1
}
cleanup() {
  podman rm -f -t 0 "$name" > /dev/null 2>&1 || true
  podman volume rm -f "$volume" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
# http METHOD PATH [TOKEN] [BODY-FILE]: prints the status; the body goes to $work/body.
http() {
  local args=(-sS -o "$work/body" -w '%{http_code}' -X "$1" --max-time 70)
  [ -n "${3:-}" ] && args+=(-H "Authorization: Bearer $3")
  [ -n "${4:-}" ] && args+=(-H 'Content-Type: application/json' --data-binary "@$4")
  curl "${args[@]}" "$base$2" || echo 000
}
in_container() { podman exec "$name" /app/caresync "$@"; }

podman volume create "$volume" > /dev/null
log "podman run $image_tag on 127.0.0.1:$port"
podman run -d --name "$name" \
  --read-only --tmpfs /tmp:rw,size=16m,mode=1777 \
  --cap-drop ALL --security-opt no-new-privileges \
  --memory 512m --pids-limit 256 \
  --health-interval disable \
  -v "$volume:/data" -p "127.0.0.1:$port:8080" \
  "$image_tag" > /dev/null

# The HEALTHCHECK command from the image, run on demand: podman schedules it with systemd timers,
# and there is no systemd here (hence --health-interval disable above; the command stays the image's).
deadline=$((SECONDS + 120))
until podman healthcheck run "$name" > /dev/null 2>&1; do
  state="$(podman inspect --format '{{.State.Status}}' "$name")"
  [ "$state" = running ] || fail "container stopped before it was healthy ($state)"
  [ $SECONDS -lt $deadline ] || fail "HEALTHCHECK did not pass within 120 s"
  sleep 1
done
pass "HEALTHCHECK (caresync healthcheck) passed after $((SECONDS + 120 - deadline)) s; health: $(podman inspect --format '{{.State.Health.Status}}' "$name" 2>/dev/null || echo n/a)"

if in_container healthcheck --port 1 > /dev/null 2>&1; then fail "healthcheck against a closed port exited 0"; fi
pass "healthcheck against a closed port exits non-zero"

# The binary allocates through jemalloc (Package.swift links it; the runtime stage installs libjemalloc2): asked to,
# jemalloc prints its statistics at exit, which glibc's malloc would ignore.
stats="$(podman exec -e MALLOC_CONF=stats_print:true "$name" /app/caresync --help 2>&1 || true)"
case "$stats" in
  *"Begin jemalloc statistics"*) pass "the server's allocator is jemalloc" ;;
  *) fail "the server's allocator is not jemalloc: MALLOC_CONF=stats_print:true printed no jemalloc statistics" ;;
esac

[ "$(http GET /healthz)" = 200 ] || fail "GET /healthz"
pass "GET /healthz 200 through the published port"
[ "$(http GET /readyz)" = 200 ] || fail "GET /readyz"
pass "GET /readyz 200"
status="$(http GET /metrics)"
if [ "$status" = 200 ] && grep -q '^# TYPE' "$work/body"; then
  pass "GET /metrics: Prometheus text ($(grep -c '^# TYPE' "$work/body") metric families)"
elif [ "$status" = 404 ] && [ "${CARESYNC_REQUIRE_METRICS:-0}" != 1 ]; then
  log "NOTE GET /metrics answered 404: the API does not serve it yet (CARESYNC_REQUIRE_METRICS=1 makes this fatal)"
else
  fail "GET /metrics answered $status without Prometheus text"
fi

in_container patient create P-SMOKE --time-zone America/Los_Angeles > /dev/null || fail "caresync patient create"
token="$(in_container token create --role device --patient P-SMOKE --source org.caresync.smoke | tail -n 1)"
[ -n "$token" ] || fail "caresync token create printed no secret"
pass "patient and device token created with podman exec"

cat > "$work/report.json" <<'JSON'
{"syncIdentifier": "report-2020-W25", "syncVersion": 1, "weekStart": "2020-06-15",
 "timeZone": "America/Los_Angeles",
 "samples": [
  {"key": "2020-06-16", "type": "sixMinuteWalkTestDistance", "value": 420, "unit": "m",
   "start": "2020-06-16T10:00:00-07:00", "end": "2020-06-16T10:06:00-07:00"},
  {"key": "2020-06-18", "type": "sixMinuteWalkTestDistance", "value": 450, "unit": "m",
   "start": "2020-06-18T10:00:00-07:00", "end": "2020-06-18T10:06:00-07:00"}]}
JSON
status="$(http POST /v1/patients/P-SMOKE/weekly-reports "$token" "$work/report.json")"
[ "$status" = 200 ] || fail "POST weekly report answered $status: $(head -c 300 "$work/body")"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["outcome"] == "inserted"' "$work/body" \
  || fail "weekly report outcome is not inserted: $(head -c 300 "$work/body")"
pass "POST /v1/patients/P-SMOKE/weekly-reports 200 inserted"

status="$(http GET /v1/patients/P-SMOKE/changes "$token")"
[ "$status" = 200 ] || fail "GET changes answered $status"
python3 - "$work/body" <<'PY' || fail "feed does not hold the report's samples: $(head -c 300 "$work/body")"
import json, sys
page = json.load(open(sys.argv[1]))
ids = sorted(s["syncIdentifier"] for s in page["samples"])
assert ids == ["report-2020-W25/2020-06-16", "report-2020-W25/2020-06-18"], ids
assert page["hasMore"] is False and page["anchor"]
open(sys.argv[1] + ".anchor", "w").write(page["anchor"])
PY
anchor="$(cat "$work/body.anchor")"
pass "GET /v1/patients/P-SMOKE/changes returns both report samples"

# An online backup while the server runs, then a change made after it.
in_container backup --to /data/backup.sqlite > /dev/null || fail "caresync backup while serving"
pass "caresync backup --to /data/backup.sqlite while serving"
sed -e 's/"syncVersion": 1/"syncVersion": 2/' -e 's/"value": 450/"value": 470/' "$work/report.json" > "$work/report2.json"
[ "$(http POST /v1/patients/P-SMOKE/weekly-reports "$token" "$work/report2.json")" = 200 ] || fail "POST report version 2"
[ "$(http GET "/v1/patients/P-SMOKE/changes?anchor=$anchor" "$token")" = 200 ] || fail "GET changes after version 2"
after_backup="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["anchor"])' "$work/body")"

# A long poll in flight when SIGTERM arrives must still be answered.
curl -sS -o "$work/poll" -w '%{http_code}' --max-time 70 -H "Authorization: Bearer $token" \
  "$base/v1/patients/P-SMOKE/changes?anchor=$anchor&wait=3" > "$work/poll.status" 2> "$work/poll.err" &
poll=$!
sleep 1
log "podman stop (SIGTERM) with a long poll in flight"
podman stop -t 30 "$name" > /dev/null
wait "$poll" || true
[ "$(cat "$work/poll.status")" = 200 ] || fail "in-flight long poll got '$(cat "$work/poll.status")' $(cat "$work/poll.err")"
pass "request in flight at SIGTERM answered 200"
code="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
[ "$code" = 0 ] || fail "exit code after SIGTERM is $code"
pass "SIGTERM: exit code 0"
# Besides the JSON log, the two terminal lines of `caresync serve`: where it listens and, on a fresh database, the
# one-time first-admin link (the operator reads it with `podman logs`, docs/deployment.md).
if podman logs "$name" 2>&1 | grep -v -e '^listening on ' -e '^no one can sign in yet; open this one-time link' | python3 -c '
import json, sys
lines = [l for l in sys.stdin if l.strip()]
for l in lines: json.loads(l)
assert lines' 2> /dev/null; then
  pass "every log line is JSON"
else
  fail "log lines are not all JSON: $(podman logs "$name" 2>&1 | head -n 3)"
fi
# Restore the backup into the volume (documented procedure), start again: an anchor taken after the
# backup must make the client resync (400 invalidAnchor or 410 anchorExpired), never skip changes.
podman run --rm --health-interval disable --user 0 -v "$volume:/data" --entrypoint /bin/sh "$image_tag" -c \
  'cp /data/backup.sqlite /data/caresync.sqlite && rm -f /data/caresync.sqlite-wal /data/caresync.sqlite-shm && chown 10001:10001 /data/caresync.sqlite' \
  || fail "restoring the backup"
podman rm "$name" > /dev/null
podman run -d --name "$name" --read-only --tmpfs /tmp:rw,size=16m,mode=1777 --cap-drop ALL \
  --security-opt no-new-privileges --memory 512m --health-interval disable \
  -v "$volume:/data" -p "127.0.0.1:$port:8080" "$image_tag" > /dev/null
deadline=$((SECONDS + 60))
until podman healthcheck run "$name" > /dev/null 2>&1; do
  [ "$(podman inspect --format '{{.State.Status}}' "$name")" = running ] || fail "restored server stopped"
  [ $SECONDS -lt $deadline ] || fail "restored server not healthy within 60 s"
  sleep 1
done
status="$(http GET "/v1/patients/P-SMOKE/changes?anchor=$after_backup" "$token")"
case "$status" in
  400|410) grep -Eq '"code" *: *"(invalidAnchor|anchorExpired)"' "$work/body" \
             || fail "restored server answered $status without invalidAnchor/anchorExpired: $(head -c 300 "$work/body")" ;;
  *) fail "restored server accepted an anchor taken after the backup ($status)" ;;
esac
pass "restored backup: an anchor from after the backup answers $status (client resyncs)"
status="$(http GET /v1/patients/P-SMOKE/changes "$token")"
[ "$status" = 200 ] && grep -q '"value" *: *450' "$work/body" || fail "restored server does not serve the backed-up report ($status)"
pass "restored server serves the data as of the backup"
podman stop -t 30 "$name" > /dev/null
[ "$(podman inspect --format '{{.State.ExitCode}}' "$name")" = 0 ] || fail "restored server exit code after SIGTERM"

# Startup fails closed: a database it cannot use stops it with a non-zero exit and a clear line.
# refuses NAME SETUP [VOLUME-SUFFIX]: prepares a fresh volume as root with SETUP (sh, or `migrate`), then starts
# the server on it and expects a non-zero exit within 60 s.
refuses() {
  local what="$1" setup="$2" suffix="${3:-}" vol="$volume-$RANDOM" out
  podman volume create "$vol" > /dev/null
  if [ "$setup" = migrate ]; then   # a valid, migrated database
    podman run --rm --health-interval disable -v "$vol:/data" "$image_tag" migrate > /dev/null 2>&1
  else
    podman run --rm --health-interval disable --user 0 -v "$vol:/data" --entrypoint /bin/sh "$image_tag" -c "$setup"
  fi || { podman volume rm -f "$vol" > /dev/null; fail "preparing the $what volume"; }
  if out="$(timeout 60 podman run --rm --read-only --cap-drop ALL --health-interval disable -v "$vol:/data$suffix" "$image_tag" 2>&1)"; then
    podman volume rm -f "$vol" > /dev/null; fail "server started on a $what database"
  fi
  podman volume rm -f "$vol" > /dev/null
  [ -n "$out" ] || fail "no message when refusing a $what database"
  pass "refuses to start on the $what database: $(printf '%s' "$out" | tail -n 1 | cut -c1-160)"
}
refuses corrupt 'head -c 8192 /dev/urandom > /data/caresync.sqlite && chown 10001:10001 /data/caresync.sqlite'
refuses unreadable 'echo x > /data/caresync.sqlite && chmod 000 /data/caresync.sqlite && chmod 755 /data && chown 0:0 /data /data/caresync.sqlite'
refuses read-only migrate ':ro'

echo "deploy checks: $passed passed, 0 failed"
