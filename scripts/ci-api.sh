#!/usr/bin/env bash
# API contract check: builds caresync, serves it on a temporary database with a patient and tokens,
# and runs schemathesis against /openapi.json — no 5xx, and every response matches the document.
# Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
export DEBIAN_FRONTEND=noninteractive

SCHEMATHESIS_VERSION=4.32.5
venv="${CI_API_VENV:-.build/ci-api-venv}"
case "$venv" in /*) ;; *) venv="$repo/$venv" ;; esac
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
fi

swift build --product caresync
bin="$(swift build --show-bin-path)/caresync"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid"; wait "$server_pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

export CARESYNC_DATABASE="$work/caresync.sqlite"
export CARESYNC_LOG_LEVEL=warning
"$bin" patient create alice --time-zone America/Los_Angeles >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
therapist="$("$bin" token create --role therapist --care-team physio --source org.example.therapist 2>/dev/null)"
admin="$("$bin" token create --role admin 2>/dev/null)"

# Event streams end after a second, so a schemathesis call that asks for text/event-stream does not hold the run.
CARESYNC_STREAM_LIFETIME_SECONDS=1 "$bin" serve --port 0 >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$work/stdout" 2>/dev/null && break
  sleep 0.1
done
url="$(sed -n 's/^listening on //p' "$work/stdout")"
[ -n "$url" ] || { echo "server did not start"; cat "$work/stderr"; exit 1; }
echo "server at $url"

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
status=0
for token in "$therapist" "$admin"; do
  # Run from the temporary directory: schemathesis keeps a .schemathesis cache in the working directory.
  (cd "$work" && "$venv/bin/schemathesis" run "$url/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks "$checks" \
    --phases examples,fuzzing \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-25}" \
    --seed 1 \
    --workers 1 \
    --suppress-health-check all \
    --exclude-checks negative_data_rejection,positive_data_acceptance) || status=1
done

kill -TERM "$server_pid"
wait "$server_pid" || { echo "serve did not exit 0 on SIGTERM"; status=1; }
server_pid=""
exit $status
