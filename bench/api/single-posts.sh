#!/usr/bin/env bash
# The single-sample POST phase of run.sh alone (32 connections), on a fresh database: short enough to
# alternate two builds many times in one sitting. Prints "requests/s p99".
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
source "$here/caresync-server.sh"
caresync_prepare
"$bin" patient create single >/dev/null
t_single="$("$bin" token create --role device --patient single 2>/dev/null)"
caresync_serve >/dev/null
python3 "$here/bodies.py" caresync "$work" >/dev/null
BODY_FILE="$work/one.json" TARGET_PATH=/v1/patients/single/samples AUTH="Bearer $t_single" \
  wrk -t2 -c32 -d"${DURATION:-10s}" --latency -s "$here/post.lua" "$url" | awk '/99%/ {p=$2} /Requests\/sec/ {r=$2} END {print r, p}'
