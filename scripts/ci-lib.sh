# Shared by the scripts/ci-*.sh checks that run a live caresync. Source it after `cd` to the repository root.
#   ci_venv DIR REQUIREMENT...   a venv at DIR (relative: under the repo) with the pinned packages; sets $venv
#   ci_build                     builds caresync (debug); sets $bin
#   ci_workdir                   a temporary folder for the database and logs; sets $work, cleans up on exit
#   ci_serve [VAR=value...]      starts `caresync serve --port 0` with the given environment; sets $url, $server_pid
#   ci_stop                      SIGTERM, and fails unless serve exits 0
#   ci_selenium                  Chromium, its driver and the pinned Selenium venv (CI_BROWSER_VENV, default
#                                .build/ci-browser-venv); sets $venv
#   ci_browser_prepare           ci_selenium, ci_build and ci_workdir: what a browser check needs before its data
#   ci_browser_check SCRIPT [VAR=value...]
#                                ci_serve with the given environment, runs SCRIPT with the venv's Python (given
#                                CARESYNC_URL and SERVER_LOG, the server's stderr), then ci_stop; fails if either failed
#   ci_postgres                  a throwaway PostgreSQL 15 (initdb in a temporary folder, a free loopback port,
#                                run as an unprivileged user); sets $pg_url; stopped and removed on exit
#   ci_postgres durable          the same with fsync, synchronous_commit and full_page_writes on (benchmarks)

repo="$(pwd)"
server_pid=""
pg_dir=""
pg_bin=/usr/lib/postgresql/15/bin

# Installs the Debian packages among the arguments that this machine lacks.
ci_apt() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

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
  if [ -n "$pg_dir" ]; then
    ci_as_pg_user "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
  fi
  rm -rf "${work:-}"
}

# PostgreSQL refuses to run as root: as root, run it as the `postgres` user the package created.
ci_as_pg_user() {
  if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups "$@"; else "$@"; fi
}

ci_postgres() {
  pg_dir="$(mktemp -d)"
  trap ci_cleanup EXIT
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$pg_dir"
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  # Throwaway data: no fsync, unless `durable`. Trust on loopback only (initdb's default for local connections).
  local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${1:-}" = durable ] && durability="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
  (cd "$pg_dir" && ci_as_pg_user "$pg_bin/initdb" -D "$pg_dir/data" -U caresync --auth=trust -E UTF8 --no-locale --no-sync >"$pg_dir/initdb.log")
  (cd "$pg_dir" && ci_as_pg_user "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w start -o \
    "-p $port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=300 $durability" \
    >/dev/null) || { cat "$pg_dir/server.log"; exit 1; }
  pg_url="postgresql://caresync@127.0.0.1:$port/postgres"
  echo "postgresql at $pg_url (${durability//-c /})"
}

ci_workdir() {
  work="$(mktemp -d)"
  trap ci_cleanup EXIT
  export CARESYNC_DATABASE="$work/caresync.sqlite"
}

# Waits up to 60 s for `caresync serve`'s "listening on URL" line in the file $1; prints the URL (nothing if none came).
ci_listening() {
  for _ in $(seq 1 600); do
    grep -q '^listening on ' "$1" 2>/dev/null && break
    sleep 0.1
  done
  sed -n 's/^listening on //p' "$1"
}

ci_serve() {
  env "$@" "$bin" serve --port 0 >"$work/stdout" 2>"$work/stderr" &
  server_pid=$!
  url="$(ci_listening "$work/stdout")"
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

ci_selenium() {
  ci_apt chromium chromium-driver
  # 4.52.0 needs a certifi newer than the registry holds.
  ci_venv "${CI_BROWSER_VENV:-.build/ci-browser-venv}" "selenium==4.51.0"
}

ci_browser_prepare() {
  ci_selenium
  ci_build
  ci_workdir
}

ci_browser_check() {
  local script="$1" status=0
  shift
  ci_serve "$@"
  CARESYNC_URL="$url" SERVER_LOG="$work/stderr" "$venv/bin/python" "$script" || status=1
  ci_stop || status=1
  return $status
}
