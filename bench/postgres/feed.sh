#!/usr/bin/env bash
# The feed walk on PostgreSQL beside psql's read of the same rows (issue 30: "on PostgreSQL, report the same walk
# against psql's read"). One throwaway, durable PostgreSQL 15 (scripts/ci-lib.sh `ci_postgres durable`); CareSync on
# it with 200,000 step samples of one patient (the 20 bodies of bench/api/bodies.py, each posted twice); then ROUNDS
# rounds of: the walk from no anchor in pages of 5,000 with gzip (curl, one keep-alive connection, bodies to
# /dev/null, page URLs found once beforehand), and psql reading the feed's rows in its order to /dev/null (aligned
# text off: `-At`). Prints each and their ratio; asserts nothing. Needs root (PostgreSQL runs as the postgres user).
#   BENCH_BIN=/path/to/caresync ROUNDS=5 bench/postgres/feed.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
source "$here/caresync-server.sh"
source scripts/ci-lib.sh
caresync_prepare
ci_postgres durable
trap 'caresync_cleanup; ci_cleanup' EXIT
psql -q "$pg_url" -c "CREATE DATABASE feed"
export CARESYNC_DATABASE_URL="${pg_url%/*}/feed"
"$bin" patient create pull >/dev/null
token="$("$bin" token create --role device --patient pull 2>/dev/null)"
caresync_serve
python3 "$here/bodies.py" caresync "$work"
for copy in 1 2; do
  for i in $(seq 1 20); do
    curl -sf -o /dev/null -X POST "$url/v1/patients/pull/samples" -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' --data-binary @"$work/batch5000-$i.json"
  done
done
psql -q "$CARESYNC_DATABASE_URL" -c "VACUUM ANALYZE"
python3 "$here/feed-urls.py" "$url" "$token" pull >"$work/urls"
pages=$(grep -c '^url' "$work/urls")
walk() {
  curl -sf -K "$work/urls" -H "Authorization: Bearer $token" -H 'Accept-Encoding: gzip' -w '%{time_total} %{size_download}\n' |
    python3 -c 'import sys; rows = [l.split() for l in sys.stdin]; print(f"{sum(float(t) for t, _ in rows):.3f} {sum(int(b) for _, b in rows)}")'
}
psql_read() {
  local started ended
  started=$(date +%s.%N)
  psql -At "$CARESYNC_DATABASE_URL" -c "SELECT seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata,
    user_entered, second_value, components FROM samples WHERE patient = 'pull' ORDER BY seq" >/dev/null
  ended=$(date +%s.%N)
  python3 -c "print(f'{$ended - $started:.3f}')"
}
echo "started $(date -u +%FT%TZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %12s %10s %8s\n' round walk gzip-bytes psql ratio
for round in $(seq 1 "${ROUNDS:-5}"); do
  w=$(walk); p=$(psql_read)
  printf '%-6s %10s %12s %10s %8s\n' "$round" "${w%% *} s" "${w##* }" "$p s" "$(python3 -c "print(f'{${w%% *} / $p:.2f}')")"
done
echo "$pages pages of up to 5,000; finished $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
