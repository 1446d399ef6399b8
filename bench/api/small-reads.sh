#!/usr/bin/env bash
# Small feed reads (GET …/changes?limit=10 on a one-sample patient), 32 connections, keep-alive:
# what each read's audit record, committed before the answer, costs. Release build, SQLite synchronous=FULL.
#   DURATION=10s bench/api/small-reads.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/api/caresync-server.sh
caresync_prepare
"$bin" patient create reader >/dev/null
token="$("$bin" token create --role device --patient reader 2>/dev/null)"
caresync_serve
curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"samples":[{"type":"stepCount","value":5,"unit":"count","start":"2020-06-18T09:00:00Z","end":"2020-06-18T09:30:00Z"}]}' \
  "$url/v1/patients/reader/samples"
for run in 1 2; do
  echo "== small feed reads, 32 connections, ${DURATION:-10s}, run $run"
  wrk -t2 -c32 -d"${DURATION:-10s}" --latency -H "Authorization: Bearer $token" "$url/v1/patients/reader/changes?limit=10" \
    | grep -E "Requests/sec|Non-2xx|^ +(50|99)%"
done
