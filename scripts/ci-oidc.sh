#!/usr/bin/env bash
# OpenID Connect sign-in end to end (issue 27): a real provider, Glewlwyd 2.7.5 from Debian (scripts/oidc/glewlwyd-up.sh
# installs it with its packaging fixes and starts it on a free loopback port), CareSync servers with oidc.* (ES256 with
# a confidential client, RS256 with a public client, a fake provider for crafted ID tokens), driven by
# scripts/oidc/test_oidc.py through the provider's API and once through headless Chromium. Prints "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ci-lib.sh
export DEBIAN_FRONTEND=noninteractive

ci_apt chromium chromium-driver

ci_venv "${CI_OIDC_VENV:-.build/ci-oidc-venv}" "selenium==4.51.0" "PyJWT[crypto]==2.15.1" "cryptography==50.0.2" "requests==2.34.2"
ci_build
ci_workdir
read -r glewlwyd_pid glewlwyd_port glewlwyd_dir < <(scripts/oidc/glewlwyd-up.sh)
# Glewlwyd is not this shell's child: wait for it to exit (it writes its database on the way out) before removing its
# folder, or `rm` can race its last writes ("Directory not empty") and fail the step after every check passed.
stop_glewlwyd() {
  kill "$glewlwyd_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$glewlwyd_pid" 2>/dev/null || break; sleep 0.1; done
  rm -rf "$glewlwyd_dir"
}
trap 'stop_glewlwyd; ci_cleanup' EXIT
echo "glewlwyd at http://127.0.0.1:$glewlwyd_port"
GLEWLWYD_URL="http://127.0.0.1:$glewlwyd_port" SERVER_BIN="$bin" WORK="$work" "$venv/bin/python" scripts/oidc/test_oidc.py
