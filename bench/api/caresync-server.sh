# Sourced by the CareSync API benchmarks: a release build on a fresh database in a temporary folder.
#   caresync_prepare    builds, sets $bin and $work, exports the database settings, cleans up on exit
#   caresync_serve      starts `caresync serve --port 0`, sets $pid and $url once it listens
caresync_prepare() {
  swift build -c release --product caresync >/dev/null
  bin="$(swift build -c release --show-bin-path)/caresync"
  work="$(mktemp -d)"
  pid=""
  trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
  export CARESYNC_DATABASE="$work/caresync.sqlite" CARESYNC_LOG_LEVEL=warning
  export CARESYNC_SQLITE_SYNCHRONOUS="${SYNCHRONOUS:-full}"
}

caresync_serve() {
  "$bin" serve --port 0 >"$work/out" 2>"$work/err" &
  pid=$!
  for _ in $(seq 1 100); do grep -q listening "$work/out" && break; sleep 0.1; done
  url="$(sed -n 's/^listening on //p' "$work/out")"
  echo "caresync at $url (sqlite synchronous=$CARESYNC_SQLITE_SYNCHRONOUS)"
}
