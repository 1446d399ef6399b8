# Sourced by the CareSync API benchmarks: a release build on a fresh database in a temporary folder.
#   caresync_prepare      builds (or takes BENCH_BIN, e.g. an older build to compare; not CARESYNC_…:
#                         the server refuses unknown CARESYNC_ variables), sets $bin and $work,
#                         exports the database settings, cleans up on exit
#   caresync_serve [NAME] starts `caresync serve --port 0` on the environment's database (CARESYNC_DATABASE_URL
#                         when set: PostgreSQL), sets $pid and $url once it listens; call it again for another instance
#   caresync_stop         stops every instance started so far
source "$(dirname "${BASH_SOURCE[0]}")/../lib/release-build.sh"
caresync_prepare() {
  if [ -n "${BENCH_BIN:-}" ]; then
    bin="$BENCH_BIN"
  else
    bin="$(release_build caresync)"
  fi
  work="$(mktemp -d)"
  pid=""
  pids=()
  trap caresync_cleanup EXIT
  export CARESYNC_DATABASE="$work/caresync.sqlite" CARESYNC_LOG_LEVEL=warning
  export CARESYNC_SQLITE_SYNCHRONOUS="${SYNCHRONOUS:-full}"
}

caresync_cleanup() {
  caresync_stop
  rm -rf "$work"
}

caresync_serve() {
  local name="${1:-serve}"
  "$bin" serve --port 0 >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1 100); do grep -q listening "$work/$name.out" && break; sleep 0.1; done
  url="$(sed -n 's/^listening on //p' "$work/$name.out")"
  [ -n "$url" ] || { echo "caresync serve did not start"; cat "$work/$name.err"; exit 1; }
  if [ -n "${CARESYNC_DATABASE_URL:-}" ]; then
    echo "caresync at $url (PostgreSQL)"
  else
    echo "caresync at $url (sqlite synchronous=$CARESYNC_SQLITE_SYNCHRONOUS)"
  fi
}

caresync_stop() {
  local p
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  pid=""
}
