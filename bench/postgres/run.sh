#!/usr/bin/env bash
# CareSync on PostgreSQL beside CareSync on SQLite, in one run: the phases of bench/api/run.sh (bench/api/phases.sh:
# ingest 500 new samples per request, the same 500 again, single-sample POSTs, a 100,000-sample pull) against
#   sqlite  one instance, synchronous=full (SYNCHRONOUS)
#   pg x1   one instance on a fresh database
#   pg x2   two instances on another fresh database: each wrk phase runs one wrk per instance with half the
#           connections, at once, and sums them; the pull posts through the first and pulls once from each
# PostgreSQL 15 is a throwaway server (scripts/ci-lib.sh `ci_postgres durable`: fsync, synchronous_commit and
# full_page_writes on, so an acknowledged write is durable; every other setting the default) in a temporary folder.
# Then a table with each figure and its ratio to SQLite's. KINTO=1 also runs bench/api/kinto.sh (Kinto + PostgreSQL,
# the same work) and adds its column. Needs root (PostgreSQL runs as the postgres user).
#   DURATION=20s bench/postgres/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/api/caresync-server.sh
source bench/api/phases.sh
source scripts/ci-lib.sh
caresync_prepare
ci_postgres durable
trap 'caresync_cleanup; ci_cleanup' EXIT
python3 bench/api/bodies.py caresync "$work"
out="${OUT_DIR:-$work}"
echo "started $(date -u +%FT%TZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

bench_accounts
caresync_serve sqlite
bench_phases "$url" | tee "$out/sqlite.txt"
caresync_stop

for instances in 1 2; do
  psql -q "$pg_url" -c "CREATE DATABASE bench$instances"
  export CARESYNC_DATABASE_URL="${pg_url%/*}/bench$instances"
  bench_accounts
  urls_pg=()
  for i in $(seq 1 "$instances"); do caresync_serve "pg$instances-$i"; urls_pg+=("$url"); done
  bench_phases "${urls_pg[@]}" | tee "$out/pg$instances.txt"
  caresync_stop
  unset CARESYNC_DATABASE_URL
done

kinto=""
if [ "${KINTO:-0}" = 1 ]; then
  bench/api/kinto.sh | tee "$out/kinto.txt"
  kinto="$out/kinto.txt"
fi
echo "finished $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/postgres/table.py "$out/sqlite.txt" "$out/pg1.txt" "$out/pg2.txt" $kinto
