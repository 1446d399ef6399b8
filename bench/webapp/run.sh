#!/usr/bin/env bash
# Opening a patient page with a long history (issue 30): one patient with N minute-level step samples (default
# 1,000,000, about two years back from now) and one with a week of them, on a release build; headless Chromium opens
# each patient's page in a therapist's browser session and prints the time until the page is complete (28 daily
# bars drawn, the live feed at the head), and what the page read from the change feed. Not run in CI (it takes
# minutes and the machine's cores); figures and the target (<= 1 s for 1,000,000 samples) in docs/benchmarks.md.
# Usage: bench/webapp/run.sh [SAMPLES]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci-lib.sh
samples="${1:-1000000}"
ci_selenium
source bench/lib/release-build.sh
bin="$(release_build caresync)"
ci_workdir
export CARESYNC_LOG_LEVEL=warning CARESYNC_SQLITE_SYNCHRONOUS=normal
for p in alice bob; do
  "$bin" patient create "$p" --time-zone America/Los_Angeles >/dev/null
  "$bin" token create --role device --patient "$p" --source org.example.phone 2>/dev/null >"$work/$p.token"
done
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
"$bin" care-team add-patient physio bob >/dev/null
admin="$("$bin" token create --role admin 2>/dev/null)"
ci_serve
"$venv/bin/python" bench/webapp/open_patient.py "$url" "$admin" "$(cat "$work/alice.token")" "$(cat "$work/bob.token")" "$samples"
ci_stop
