#!/usr/bin/env bash
# Single-sample POSTs (32 connections) on PostgreSQL against SQLite, in one sitting: ROUNDS rounds, each runs
# bench/api/single-posts.sh on SQLite (synchronous=full) and then on a fresh database of one throwaway, durable
# PostgreSQL 15 (fsync, synchronous_commit and full_page_writes on), and prints both rates and their ratio.
# Issue 30's target: PostgreSQL ≥ 0.6 of SQLite's. Needs root (PostgreSQL runs as the postgres user).
#   BENCH_BIN=/path/to/caresync ROUNDS=3 DURATION=10s bench/postgres/single-posts.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/ci-lib.sh
if [ -z "${BENCH_BIN:-}" ]; then
  source bench/lib/release-build.sh
  BENCH_BIN="$(release_build caresync)"
fi
export BENCH_BIN
ci_postgres durable
echo "started $(date -u +%FT%TZ) on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $BENCH_BIN"
printf '%-6s %12s %12s %8s\n' round sqlite/s postgres/s ratio
for round in $(seq 1 "${ROUNDS:-3}"); do
  sqlite="$(bench/api/single-posts.sh | awk '{print $1}')"
  psql -q "$pg_url" -c "CREATE DATABASE singles$round"
  postgres="$(CARESYNC_DATABASE_URL="${pg_url%/*}/singles$round" bench/api/single-posts.sh | awk '{print $1}')"
  printf '%-6s %12s %12s %8s\n' "$round" "$sqlite" "$postgres" "$(python3 -c "print(f'{$postgres / $sqlite:.2f}')")"
done
echo "finished $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
