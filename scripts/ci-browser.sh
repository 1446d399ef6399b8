#!/usr/bin/env bash
# Browser check of the therapist web app (issue 15): builds caresync, serves it on a temporary database
# with the README walkthrough's patient, care team and tokens, and drives headless Chromium through the
# app with Selenium (scripts/browser/test_webapp.py). Self-contained and non-interactive; prints
# "N passed, M failed" and exits non-zero on any failure.
#   SCREENSHOTS=docs/screenshots scripts/ci-browser.sh   # also refreshes the committed screenshots
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

ci_browser_prepare

# The walkthrough's patient, team and therapist; bob in another team (the therapist must not see him);
# a watch and a phone for alice, a device whose source is markup, and an admin.
export CARESYNC_LOG_LEVEL=info
"$bin" patient create alice --time-zone America/Los_Angeles >/dev/null
"$bin" patient create bob --time-zone Europe/Berlin >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team create cardio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
"$bin" care-team add-patient cardio bob >/dev/null
"$bin" patient create carol --time-zone Europe/London >/dev/null   # in the team, no device yet: first on the triage list
"$bin" care-team add-patient physio carol >/dev/null
token() { "$bin" token create "$@" 2>/dev/null; }
export THERAPIST_TOKEN="$(token --role therapist --care-team physio --source org.example.therapist)"
export WATCH_TOKEN="$(token --role device --patient alice --source org.example.watch)"
export PHONE_TOKEN="$(token --role device --patient alice --source org.example.phone)"
export MARKUP_TOKEN="$(token --role device --patient alice --source '<img/src/onerror=alert(1)>')"
export ADMIN_TOKEN="$(token --role admin)"
export OTHER_THERAPIST_TOKEN="$(token --role therapist --care-team cardio --source org.example.cardiologist)"

export SCREENSHOTS="${SCREENSHOTS:-$work/screenshots}"
ci_browser_check scripts/browser/test_webapp.py
