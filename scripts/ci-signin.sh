#!/usr/bin/env bash
# Passkeys end to end (issue 27): builds caresync, serves it on a temporary database with a care team, and drives
# headless Chromium with Selenium's virtual authenticator through scripts/browser/test_passkeys.py at
# http://localhost:PORT (the default relying party). Self-contained and non-interactive; prints "N passed, M failed"
# and exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

ci_browser_prepare

"$bin" patient create alice --time-zone America/Los_Angeles >/dev/null
"$bin" care-team create physio >/dev/null
"$bin" care-team add-patient physio alice >/dev/null
export ADMIN_TOKEN="$("$bin" token create --role admin 2>/dev/null)"

ci_browser_check scripts/browser/test_passkeys.py CARESYNC_LOG_LEVEL=info
