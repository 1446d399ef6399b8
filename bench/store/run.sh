#!/usr/bin/env bash
# Store benchmark (release build, store level, no HTTP/JSON). Prints figures; see docs/benchmarks.md "## Sync store".
#   bench/store/run.sh                      # 1M samples, then the store grown to 10M (about 5 min of bulk load more)
#   bench/store/run.sh --big 0              # 1M only
#   bench/store/run.sh --samples 200000     # quick look
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/release-build.sh
bin="$(release_build caresync-store-bench)"
exec "$bin" --migrations migrations --big 10000000 "$@"
