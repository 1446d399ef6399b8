#!/usr/bin/env bash
# The server's CPU time per request (utime + stime of the server process, /proc/PID/stat) during 15 s of ingest
# (500 new samples a request, 4 connections) and 15 s of single-sample POSTs (32 connections), on a fresh database.
# Compare builds in one sitting by alternating them:
#   for b in /tmp/old /tmp/new /tmp/old /tmp/new; do BENCH_BIN=$b bench/api/write-cpu.sh; done
# Without BENCH_BIN it builds and runs the release build of this tree. Prints figures, asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/api/caresync-server.sh
source bench/api/phases.sh
bench_setup
tick=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
phase() {
  local name="$1" before after out requests; shift
  before=$(cpu)
  out=$("$@")
  after=$(cpu)
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "$name: $(echo "$out" | awk '/Requests\/sec/ {print $2}') requests/s, server CPU" \
       "$(python3 -c "print(f'{($after - $before) / $tick / $requests * 1e6:,.0f}')") µs a request ($requests requests)"
}
echo "== $bin"
phase ingest env TARGET_PATH=/v1/patients/ingest/samples AUTH="Bearer $t_ingest" wrk -t2 -c4 -d15s -s bench/api/ingest.lua "$url"
phase single env BODY_FILE="$work/one.json" TARGET_PATH=/v1/patients/single/samples AUTH="Bearer $t_single" \
  wrk -t2 -c32 -d15s -s bench/api/post.lua "$url"
