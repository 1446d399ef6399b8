#!/usr/bin/env bash
# API benchmark, CareSync side: release build, HTTP with keep-alive, on this machine (wrk shares the cores).
#  1. ingest: POST /samples with 500 new samples per request (ingest.lua), 4 connections
#     1b. the same 500 samples posted again and again (post.lua; duplicates, no sync identifiers)
#  2. single-sample POSTs, 32 connections
#  3. a device pulling 100,000 samples from no anchor, limit 5,000, gzip, one keep-alive connection
# Prints each figure; bench/api/kinto.sh does the same work against Kinto + PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
source "$here/caresync-server.sh"
caresync_prepare
for p in ingest repost single pull; do "$bin" patient create "$p" >/dev/null; done
t_ingest="$("$bin" token create --role device --patient ingest 2>/dev/null)"
t_repost="$("$bin" token create --role device --patient repost 2>/dev/null)"
t_single="$("$bin" token create --role device --patient single 2>/dev/null)"
t_pull="$("$bin" token create --role device --patient pull 2>/dev/null)"
caresync_serve

python3 "$here/bodies.py" caresync "$work"
duration="${DURATION:-20s}"

echo "== ingest, 500 new samples per POST, 4 connections, $duration"
TARGET_PATH=/v1/patients/ingest/samples AUTH="Bearer $t_ingest" \
  wrk -t2 -c4 -d"$duration" -s "$here/ingest.lua" "$url" | tee "$work/ingest.txt"
rps=$(awk '/Requests\/sec/ {print $2}' "$work/ingest.txt")
echo "ingest: $(python3 -c "print(f'{$rps * 500:,.0f}')") samples/s"

echo "== ingest, the same 500 samples posted again and again, 4 connections, $duration"
BODY_FILE="$work/batch500.json" TARGET_PATH=/v1/patients/repost/samples AUTH="Bearer $t_repost" \
  wrk -t2 -c4 -d"$duration" -s "$here/post.lua" "$url" | tee "$work/repost.txt"
rps=$(awk '/Requests\/sec/ {print $2}' "$work/repost.txt")
echo "ingest (same body): $(python3 -c "print(f'{$rps * 500:,.0f}')") samples/s"

echo "== single-sample POSTs, 32 connections, $duration"
BODY_FILE="$work/one.json" TARGET_PATH=/v1/patients/single/samples AUTH="Bearer $t_single" \
  wrk -t2 -c32 -d"$duration" --latency -s "$here/post.lua" "$url" | tee "$work/single.txt"

echo "== pull 100,000 samples from no anchor, limit 5,000, gzip"
for i in $(seq 1 20); do
  curl -sf -o /dev/null -X POST "$url/v1/patients/pull/samples" -H "Authorization: Bearer $t_pull" \
    -H 'Content-Type: application/json' --data-binary @"$work/batch5000-$i.json"
done
python3 "$here/pull.py" caresync "$url" pull "$t_pull" 5000
python3 "$here/pull.py" caresync "$url" pull "$t_pull" 5000
