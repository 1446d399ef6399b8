# Shared by the scripts/ci-*.sh checks that run a live caresync. Source it after `cd` to the repository root.
#   ci_venv DIR REQUIREMENT...   a venv at DIR (relative: under the repo) with the pinned packages; sets $venv
#   ci_build                     builds caresync (debug); sets $bin
#   ci_workdir                   a temporary folder for the database and logs; sets $work, cleans up on exit
#   ci_serve [VAR=value...]      starts `caresync serve --port 0` with the given environment; sets $url, $server_pid
#   ci_stop                      SIGTERM, and fails unless serve exits 0

repo="$(pwd)"
server_pid=""

ci_venv() {
  venv="$1"; shift
  case "$venv" in /*) ;; *) venv="$repo/$venv" ;; esac
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/pip" show -q "${1%%==*}" >/dev/null 2>&1 \
     || [ "$("$venv/bin/pip" show "${1%%==*}" 2>/dev/null | sed -n 's/^Version: //p')" != "${1##*==}" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "$@"
  fi
}

ci_build() {
  swift build --product caresync
  bin="$(swift build --show-bin-path)/caresync"
}

ci_cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid"; wait "$server_pid" || true; fi
  rm -rf "$work"
}

ci_workdir() {
  work="$(mktemp -d)"
  trap ci_cleanup EXIT
  export CARESYNC_DATABASE="$work/caresync.sqlite"
}

ci_serve() {
  env "$@" "$bin" serve --port 0 >"$work/stdout" 2>"$work/stderr" &
  server_pid=$!
  for _ in $(seq 1 100); do
    grep -q '^listening on ' "$work/stdout" 2>/dev/null && break
    sleep 0.1
  done
  url="$(sed -n 's/^listening on //p' "$work/stdout")"
  [ -n "$url" ] || { echo "server did not start"; cat "$work/stderr"; exit 1; }
  echo "server at $url"
}

ci_stop() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || { echo "serve did not exit 0 on SIGTERM"; status=1; }
  server_pid=""
  return $status
}
