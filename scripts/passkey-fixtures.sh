#!/usr/bin/env bash
# Regenerates the browser passkey fixtures of Tests/CareSyncCoreTests/Passkeys/Fixtures: headless Chromium with
# Selenium's virtual authenticator registers a passkey (ES256, then RS256) at http://localhost:PORT (RP ID localhost)
# and signs in with it twice. The Swift tests verify these exact bytes (PasskeyBrowserFixtureTests).
#   scripts/passkey-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

ci_selenium
"$venv/bin/python" scripts/passkeys/make_fixtures.py Tests/CareSyncCoreTests/Passkeys/Fixtures
