#!/usr/bin/env bash
# API benchmark, CareSync side: release build, HTTP with keep-alive, on this machine (wrk shares the cores).
#  1. ingest: POST /samples with 500 new samples per request (ingest.lua), 4 connections
#     1b. the same 500 samples posted again and again (post.lua; duplicates, no sync identifiers)
#  2. single-sample POSTs, 32 connections
#  3. a device pulling 100,000 samples from no anchor, limit 5,000, gzip, one keep-alive connection
# Prints each figure; bench/api/kinto.sh does the same work against Kinto + PostgreSQL, and
# bench/postgres/run.sh the same phases (bench/api/phases.sh) on PostgreSQL beside SQLite.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/api/caresync-server.sh
source bench/api/phases.sh
bench_setup
bench_phases "$url"
