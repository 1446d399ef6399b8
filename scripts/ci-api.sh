#!/usr/bin/env bash
# API contract check: builds caresync, serves it on a temporary database with a patient and tokens,
# and runs schemathesis against /openapi.json — no 5xx, and every response matches the document.
# Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

SCHEMATHESIS_VERSION=4.32.5
ci_venv "${CI_API_VENV:-.build/ci-api-venv}" "schemathesis==$SCHEMATHESIS_VERSION"
ci_build
ci_workdir
export CARESYNC_LOG_LEVEL=warning
"$bin" patient create alice --time-zone America/Los_Angeles >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
therapist="$("$bin" token create --role therapist --care-team physio --source org.example.therapist 2>/dev/null)"
admin="$("$bin" token create --role admin 2>/dev/null)"

# Event streams end after a second, so a schemathesis call that asks for text/event-stream does not hold the run.
ci_serve CARESYNC_STREAM_LIFETIME_SECONDS=1

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

ci_stop || status=1
exit $status
