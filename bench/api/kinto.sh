#!/usr/bin/env bash
# API benchmark, reference side: Kinto (PyPI) with its PostgreSQL storage, permission and cache backends,
# PostgreSQL 15 from Debian on loopback, Kinto under gunicorn (2 workers x 4 threads), doing the work of
# bench/api/run.sh through its records, /batch and _since endpoints. Needs root (runs postgres as postgres).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
venv="${KINTO_VENV:-.build/kinto-venv}"
if [ ! -x "$venv/bin/kinto" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "kinto[postgresql]==26.5.0" gunicorn
fi
pgbin=/usr/lib/postgresql/15/bin
work="$(mktemp -d)"
chmod 777 "$work"
pgport=55432
kport="${KINTO_PORT:-18888}"
gpid=""
cleanup() {
  [ -n "$gpid" ] && kill -TERM "$gpid" 2>/dev/null && wait "$gpid" 2>/dev/null || true
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

runuser -u postgres -- "$pgbin/initdb" -D "$work/pg" -A trust -U postgres >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $pgport -k $work -c listen_addresses=127.0.0.1" start >/dev/null
"$pgbin/createdb" -h 127.0.0.1 -p $pgport -U postgres kinto
db="postgresql://postgres@127.0.0.1:$pgport/kinto"
cat >"$work/kinto.ini" <<INI
[app:main]
use = egg:kinto
kinto.storage_backend = kinto.core.storage.postgresql
kinto.storage_url = $db
kinto.permission_backend = kinto.core.permission.postgresql
kinto.permission_url = $db
kinto.cache_backend = kinto.core.cache.postgresql
kinto.cache_url = $db
kinto.userid_hmac_secret = bench-secret
multiauth.policies = basicauth
kinto.bucket_create_principals = system.Authenticated
kinto.batch_max_requests = 500
kinto.storage_max_fetch_size = 10000

[loggers]
keys = root
[handlers]
keys = console
[formatters]
keys = plain
[logger_root]
level = WARNING
handlers = console
[handler_console]
class = StreamHandler
args = (sys.stderr,)
formatter = plain
[formatter_plain]
format = %(message)s
INI
"$venv/bin/kinto" migrate --ini "$work/kinto.ini" >/dev/null 2>&1
"$venv/bin/gunicorn" --paste "$work/kinto.ini" -w 2 --threads 4 -b "127.0.0.1:$kport" --log-level warning 2>"$work/gunicorn.log" &
gpid=$!
url="http://127.0.0.1:$kport"
for _ in $(seq 1 100); do curl -sf "$url/v1/" >/dev/null && break; sleep 0.2; done
auth="$(printf 'bench:bench' | base64)"
curl -sf -o /dev/null -X PUT "$url/v1/buckets/bench" -H "Authorization: Basic $auth"
for c in ingest single pull; do
  curl -sf -o /dev/null -X PUT "$url/v1/buckets/bench/collections/$c" -H "Authorization: Basic $auth"
done
echo "kinto at $url (PostgreSQL 15, synchronous_commit=on)"

python3 "$here/bodies.py" kinto "$work"
duration="${DURATION:-20s}"

echo "== ingest, /batch of 500 new record POSTs, 4 connections, $duration"
FORMAT=kinto TARGET_PATH=/v1/batch AUTH="Basic $auth" \
  wrk -t2 -c4 -d"$duration" --timeout 30s -s "$here/ingest.lua" "$url" | tee "$work/ingest.txt"
rps=$(awk '/Requests\/sec/ {print $2}' "$work/ingest.txt")
echo "ingest: $(python3 -c "print(f'{$rps * 500:,.0f}')") records/s"

sleep 5  # let batches still in flight finish
echo "== single-record POSTs, 32 connections, $duration"
BODY_FILE="$work/one.json" TARGET_PATH=/v1/buckets/bench/collections/single/records AUTH="Basic $auth" \
  wrk -t2 -c32 -d"$duration" --latency --timeout 30s -s "$here/post.lua" "$url" | tee "$work/single.txt"

sleep 5
echo "== pull 100,000 records with _since, _limit=5000"
for i in $(seq 1 200); do
  curl -sf --retry 10 --retry-delay 1 --retry-all-errors -o /dev/null -X POST "$url/v1/batch" -H "Authorization: Basic $auth" \
    -H 'Content-Type: application/json' --data-binary @"$work/pull500-$i.json"
done
python3 "$here/pull.py" kinto "$url" /v1/buckets/bench/collections/pull "$auth" 5000
python3 "$here/pull.py" kinto "$url" /v1/buckets/bench/collections/pull "$auth" 5000
