#!/usr/bin/env bash
# The feed at memory speed (issue 13): how long the server takes to hand out 200,000 samples in pages of 5,000, with
# and without gzip, measured by a client that does not parse (curl, one keep-alive connection, bodies to /dev/null),
# beside reading the same rows in the same run: from C with the server's own query (bench/api/read-rows.c, the
# floor), and with Python's sqlite3; then gzip's libraries on one page (deflate-libraries.c). Prints figures; asserts
# nothing.
#   bench/api/feed-encoder.sh                       # release build; ROUNDS=5 by default, best round reported
#   SAMPLES=100000 bench/api/feed-encoder.sh        # issue 13's walk of 100,000 samples (200,000 by default, issue 30's)
#   CARESYNC_GZIP_LEVEL=5 bench/api/feed-encoder.sh # another gzip effort (the server's gzipLevel: ISA-L level 2)
#   PERF_OUT=FILE bench/api/feed-encoder.sh         # also records the server with `perf record -g` over the gzipped walks
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
source "$here/caresync-server.sh"
caresync_prepare
"$bin" patient create pull >/dev/null
token="$("$bin" token create --role device --patient pull 2>/dev/null)"
caresync_serve
python3 "$here/bodies.py" caresync "$work"
# Issue 30's walk: 200,000 samples (SAMPLES, in steps of 100,000: the 20 bodies posted again, new samples each time).
samples="${SAMPLES:-200000}"
[[ "$samples" =~ ^[1-9][0-9]*00000$ ]] || { echo "SAMPLES must be a multiple of 100000, not $samples" >&2; exit 2; }
copies=$(( samples / 100000 ))
for _ in $(seq 1 "$copies"); do
  for i in $(seq 1 20); do
    curl -sf -o /dev/null -X POST "$url/v1/patients/pull/samples" -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' --data-binary @"$work/batch5000-$i.json"
  done
done
# The page URLs, found once by a client that parses (untimed): every anchor of the walk from no anchor.
python3 "$here/feed-urls.py" "$url" "$token" pull >"$work/urls"
pages=$(grep -c '^url' "$work/urls")
walk() {  # $1: extra curl flags; prints the seconds of one walk over the pages (one connection) and its bytes
  curl -sf -K "$work/urls" -H "Authorization: Bearer $token" $1 -w '%{time_total} %{size_download}\n' |
    python3 -c 'import sys; rows = [l.split() for l in sys.stdin]; print(f"{sum(float(t) for t, _ in rows):.3f} {sum(int(b) for _, b in rows)}")'
}
read_rows() {
  python3 - "$work/caresync.sqlite" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
started = time.monotonic()
rows = db.execute("SELECT seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata FROM samples WHERE patient = 'pull' ORDER BY seq").fetchall()
print(f"{time.monotonic() - started:.3f} {len(rows)}")
PY
}
cc -O2 "$here/read-rows.c" -lsqlite3 -o "$work/read-rows"
best() { sort -n | head -1; }
rounds="${ROUNDS:-5}"
plain_walk=$(for _ in $(seq 1 "$rounds"); do walk ""; done | best)
if [ -n "${PERF_OUT:-}" ]; then perf record -F 999 -g -o "$PERF_OUT" -p "$pid" >/dev/null 2>&1 & perf_pid=$!; sleep 0.5; fi
faults() { awk '{print $10}' "/proc/$pid/stat"; }   # the server's minor page faults so far
faults_before=$(faults)
gzip_walk=$(for _ in $(seq 1 "$rounds"); do walk "-H Accept-Encoding:gzip"; done | best)
faults_after=$(faults)
if [ -n "${PERF_OUT:-}" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
plain=${plain_walk%% *} gzipped=${gzip_walk%% *}
sqlite=$(for _ in $(seq 1 "$rounds"); do read_rows; done | sort -n | head -1)
floor=$(for _ in $(seq 1 "$rounds"); do "$work/read-rows" "$work/caresync.sqlite" pull; done | best)
echo "feed of $((copies * 100000)) samples in $pages pages, best of $rounds walks (curl, bodies not parsed):"
echo "  plain JSON: ${plain} s (${plain_walk##* } bytes)   gzip level ${CARESYNC_GZIP_LEVEL:-1}: ${gzipped} s (${gzip_walk##* } bytes)"
echo "  reading the same rows from C with the feed's query: ${floor%% *} s ($(echo "$floor" | cut -d' ' -f2) rows)"
echo "  reading the same rows with Python's sqlite3: ${sqlite%% *} s (${sqlite##* } rows)"
echo "  server during the gzipped walks: $((faults_after - faults_before)) minor page faults; peak RSS $(awk '/^VmHWM/ {print $2, $3}' "/proc/$pid/status")"
python3 -c "print(f'  ratios to the read from C: plain {$plain / ${floor%% *}:.1f}x, gzip {$gzipped / ${floor%% *}:.1f}x; targets: gzip <= 1.5x the read from C (issue 30); with SAMPLES=100000, gzip <= 0.20 s (issue 13)')"
# gzip's share, library by library, on the walk's first page (bench/api/deflate-libraries.c).
curl -sf -o "$work/page.json" -H "Authorization: Bearer $token" "$(sed -n 's/^url = "\(.*\)"$/\1/p' "$work/urls" | head -n 1)"
cc -O2 "$here/deflate-libraries.c" -lisal -lz -o "$work/deflate-libraries"
"$work/deflate-libraries" "$work/page.json"
