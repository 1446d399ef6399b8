#!/usr/bin/env bash
# FHIR R4 check: builds caresync, serves it on a temporary database with a patient and tokens, seeds samples of
# several types, validates every Observation, Bundle, OperationOutcome and the CapabilityStatement with
# fhir.resources 6.4.0 (the last release with R4 models; it needs pydantic<2), checks codes and units against
# docs/fhir.md, and reads Observations through SMART's fhirclient 4.4.0 with search and paging; then a bulk export
# (scripts/fhir/check_export.py): the manifest's fields, every NDJSON Observation and deleted Bundle validated with
# fhir.resources, an incremental export from caresyncNextSince holding exactly the changes since, and one kicked off
# on this server and polled, downloaded and cancelled on a second `caresync serve` over the same database; then daily step
# totals (scripts/fhir/check_daily.py): a search Bundle, its pages and reads validated, each total the statistics' day sum.
# Self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

ci_venv "${CI_FHIR_VENV:-.build/ci-fhir-venv}" "fhir.resources==6.4.0" "pydantic<2" "fhirclient==4.4.0"
ci_build
ci_workdir
export CARESYNC_LOG_LEVEL=warning
"$bin" patient create alice --time-zone America/Los_Angeles >/dev/null
"$bin" patient create bob --time-zone Europe/Berlin >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
device="$("$bin" token create --role device --patient alice --source org.example.phone 2>/dev/null)"
therapist="$("$bin" token create --role therapist --care-team physio --source org.example.therapist 2>/dev/null)"
bob_phone="$("$bin" token create --role device --patient bob --source org.example.phone 2>/dev/null)"
bob_watch="$("$bin" token create --role device --patient bob --source org.example.watch 2>/dev/null)"
ci_serve
# A second instance over the same database and export folder, as behind a load balancer.
"$bin" serve --port 0 >"$work/stdout2" 2>"$work/stderr2" &
other_pid=$!
other="$(ci_listening "$work/stdout2")"
[ -n "$other" ] || { echo "the second server did not start"; cat "$work/stderr2"; exit 1; }

status=0
"$venv/bin/python" scripts/fhir/check_fhir.py "$url" "$device" "$therapist" || status=1
"$venv/bin/python" scripts/fhir/check_export.py "$url" "$device" "$therapist" "$other" || status=1
"$venv/bin/python" scripts/fhir/check_daily.py "$url" "$bob_phone" "$bob_watch" || status=1
kill -TERM "$other_pid"; wait "$other_pid" || { echo "the second serve did not exit 0 on SIGTERM"; status=1; }
ci_stop || status=1
exit $status
