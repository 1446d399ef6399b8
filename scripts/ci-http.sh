#!/usr/bin/env bash
# CI for the HTTP server beyond `swift test`: the differential check of our request parser against
# llhttp (Python httptools). Non-interactive; installs what it needs; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1

if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq python3 python3-pip
fi
if ! python3 -c "import httptools" 2>/dev/null; then
  python3 -m pip install -q httptools 2>/dev/null \
    || python3 -m pip install -q --break-system-packages httptools
fi

swift build --product http-bench-server
python3 scripts/http-differential.py "$(swift build --show-bin-path)/http-bench-server" --mutants "${HTTP_DIFF_MUTANTS:-10000}"
