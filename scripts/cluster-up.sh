#!/usr/bin/env bash
# A high-availability CareSync on this machine's loopback: a three-member etcd (v3 API), a three-node Patroni
# cluster of PostgreSQL 15 with synchronous replication (an acknowledged commit is on two nodes), HAProxy
# routing to the leader by Patroni's REST `/primary` check, and two `caresync serve` instances on it.
# Everything (data, logs, configuration, PID files, cluster.env with the ports) lives in one directory,
# $CLUSTER_DIR, which it prints; scripts/cluster-down.sh stops exactly what this started and removes the
# directory. scripts/cluster-failover.sh (CI) runs it; see docs/deployment.md.
#
#   scripts/cluster-up.sh            # ~10-15 s once the packages and the caresync build exist
#   CLUSTER_CARESYNC_BIN=.build/release/caresync scripts/cluster-up.sh
#
# Environment:
#   CLUSTER_PORT_OFFSET=N            added to every port below (default 0); two clusters on one machine need
#                                    offsets whose port sets do not meet, e.g. 0 and 10000
#   CLUSTER_DIR=DIR                  default /tmp/caresync-cluster, or /tmp/caresync-cluster-N with an offset N
#   CLUSTER_SYNCHRONOUS_COMMIT=LEVEL PostgreSQL's synchronous_commit (default on). `local` makes replication
#                                    asynchronous (a commit is acknowledged before any standby has it): only
#                                    to show that scripts/cluster-failover.sh then fails (README, Development)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
started=$SECONDS
say() { printf '[%s +%ds] %s\n' "$(date -u +%H:%M:%S)" "$((SECONDS - started))" "$*" >&2; }
fail() { echo "cluster-up: $*" >&2; exit 1; }

offset="${CLUSTER_PORT_OFFSET:-0}"
[[ "$offset" =~ ^[0-9]+$ ]] && [ "$offset" -le 57000 ] || fail "CLUSTER_PORT_OFFSET must be a whole number from 0 to 57000"
offset=$((10#$offset))
if [ "$offset" = 0 ]; then dir="${CLUSTER_DIR:-/tmp/caresync-cluster}"; else dir="${CLUSTER_DIR:-/tmp/caresync-cluster-$offset}"; fi
synchronous_commit="${CLUSTER_SYNCHRONOUS_COMMIT:-on}"
case "$synchronous_commit" in on|remote_apply|remote_write|local|off) ;; *) fail "CLUSTER_SYNCHRONOUS_COMMIT must be on, remote_apply, remote_write, local or off" ;; esac
pg_bin=/usr/lib/postgresql/15/bin
python=/usr/bin/python3   # Debian's: the interpreter Patroni runs on
# Loopback ports (the layout docs/deployment.md describes for several hosts), each plus the offset.
etcd_client=(2379 2479 2579); etcd_peer=(2380 2480 2580)
patroni_rest=(8008 8009 8010); pg_port=(5433 5434 5435)
haproxy_port=5000; haproxy_stats=7000
caresync_port=(8081 8082)
shift_ports() { local -n ports=$1; local i; for i in "${!ports[@]}"; do ports[$i]=$((ports[$i] + offset)); done; }
for group in etcd_client etcd_peer patroni_rest pg_port haproxy_port haproxy_stats caresync_port; do shift_ports $group; done

# Packages: Debian's patroni (3.0.x), etcd 3.4, HAProxy 2.6, PostgreSQL 15.
missing=()
for p in postgresql-15 patroni etcd-server etcd-client haproxy; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing packages ${missing[*]} (install them as root)"
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || { apt-get update -q >/dev/null; apt-get install -y -q "${missing[@]}" >/dev/null; }
fi

# The caresync binary: $CLUSTER_CARESYNC_BIN, else a release build, else a debug build (built when missing).
bin="${CLUSTER_CARESYNC_BIN:-}"
if [ -z "$bin" ]; then
  if [ -x .build/release/caresync ]; then bin=.build/release/caresync
  elif [ -x .build/debug/caresync ]; then bin=.build/debug/caresync
  else say "building caresync (debug)"; nice -n 10 swift build --product caresync >/dev/null; bin=.build/debug/caresync; fi
fi
case "$bin" in /*) ;; *) bin="$repo/$bin" ;; esac
[ -x "$bin" ] || fail "no caresync binary at $bin"

if [ -e "$dir/pids" ] && ls "$dir"/pids/*.pid >/dev/null 2>&1; then
  fail "$dir holds a running cluster (scripts/cluster-down.sh first)"
fi
for port in "${etcd_client[@]}" "${etcd_peer[@]}" "${patroni_rest[@]}" "${pg_port[@]}" $haproxy_port $haproxy_stats "${caresync_port[@]}"; do
  if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then fail "port $port is taken"; fi
done
rm -rf "$dir"
mkdir -p "$dir/pids" "$dir/logs"
chmod 755 "$dir"
# Records a started process: `started_pid NAME PID`.
started_pid() { echo "$2" > "$dir/pids/$1.pid"; }
# If anything below fails, stop what was started.
trap 'status=$?; if [ $status != 0 ]; then echo "cluster-up failed; logs in $dir/logs; stopping" >&2; scripts/cluster-down.sh --keep "$dir" >&2 || true; fi' EXIT

# --- etcd: three members, fresh data (a stale /service/<scope> key would confuse a new cluster).
initial=""
for i in 0 1 2; do initial+="${initial:+,}e$((i + 1))=http://127.0.0.1:${etcd_peer[$i]}"; done
for i in 0 1 2; do
  name="e$((i + 1))"
  etcd --name "$name" --data-dir "$dir/etcd/$name" \
    --listen-client-urls "http://127.0.0.1:${etcd_client[$i]}" --advertise-client-urls "http://127.0.0.1:${etcd_client[$i]}" \
    --listen-peer-urls "http://127.0.0.1:${etcd_peer[$i]}" --initial-advertise-peer-urls "http://127.0.0.1:${etcd_peer[$i]}" \
    --initial-cluster "$initial" --initial-cluster-token caresync --initial-cluster-state new \
    >"$dir/logs/etcd-$name.log" 2>&1 &
  started_pid "etcd-$name" $!
done
endpoints="127.0.0.1:${etcd_client[0]},127.0.0.1:${etcd_client[1]},127.0.0.1:${etcd_client[2]}"
for _ in $(seq 1 100); do
  ETCDCTL_API=3 etcdctl --endpoints="$endpoints" endpoint health >/dev/null 2>&1 && break
  sleep 0.2
done
ETCDCTL_API=3 etcdctl --endpoints="$endpoints" endpoint health >/dev/null 2>&1 || fail "etcd did not become healthy"
say "etcd: three members healthy ($endpoints)"

# --- Patroni: three nodes. Fast timings for a test bench (docs/deployment.md explains each setting).
for i in 0 1 2; do
  name="n$((i + 1))"
  node="$dir/$name"
  mkdir -p "$node/data" "$node/socket"
  chmod 700 "$node/data"
  cat >"$node/patroni.yml" <<YAML
scope: caresync
namespace: /service/
name: $name
log:
  level: INFO
restapi:
  listen: 127.0.0.1:${patroni_rest[$i]}
  connect_address: 127.0.0.1:${patroni_rest[$i]}
etcd3:
  hosts: $endpoints
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    primary_start_timeout: 0
    synchronous_mode: true
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        synchronous_commit: '$synchronous_commit'
        wal_log_hints: 'on'
        max_connections: 200
        wal_keep_size: 128MB
        max_wal_senders: 10
        max_replication_slots: 10
  initdb:
    - encoding: UTF8
    - no-locale
postgresql:
  listen: 127.0.0.1:${pg_port[$i]}
  connect_address: 127.0.0.1:${pg_port[$i]}
  data_dir: $node/data
  bin_dir: $pg_bin
  pgpass: $node/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: replicator
    rewind:
      username: rewinder
  parameters:
    unix_socket_directories: $node/socket
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
YAML
  [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$node"
  # setpriv execs, so $! is Patroni's own PID (PostgreSQL is its child).
  if [ "$(id -u)" = 0 ]; then
    (cd "$node" && exec setpriv --reuid=postgres --regid=postgres --init-groups patroni "$node/patroni.yml") >"$dir/logs/patroni-$name.log" 2>&1 &
  else
    (cd "$node" && exec patroni "$node/patroni.yml") >"$dir/logs/patroni-$name.log" 2>&1 &
  fi
  started_pid "patroni-$name" $!
  # The first node bootstraps alone, so it is the first leader; the others clone it.
  if [ $i = 0 ]; then
    for _ in $(seq 1 150); do
      curl -fs "http://127.0.0.1:${patroni_rest[0]}/primary" >/dev/null 2>&1 && break
      sleep 0.2
    done
    curl -fs "http://127.0.0.1:${patroni_rest[0]}/primary" >/dev/null || fail "n1 did not become the leader (logs/patroni-n1.log)"
    say "patroni: n1 bootstrapped and leads"
  fi
done

# --- HAProxy: one TCP port, to whichever node answers 200 on Patroni's /primary.
cat >"$dir/haproxy.cfg" <<CFG
global
    maxconn 1000
defaults
    mode tcp
    retries 2
    timeout connect 4s
    timeout client 30m
    timeout server 30m
    timeout check 2s
listen primary
    bind 127.0.0.1:$haproxy_port
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
    server n1 127.0.0.1:${pg_port[0]} maxconn 300 check port ${patroni_rest[0]}
    server n2 127.0.0.1:${pg_port[1]} maxconn 300 check port ${patroni_rest[1]}
    server n3 127.0.0.1:${pg_port[2]} maxconn 300 check port ${patroni_rest[2]}
listen stats
    mode http
    bind 127.0.0.1:$haproxy_stats
    stats enable
    stats uri /
CFG
haproxy -f "$dir/haproxy.cfg" -db >"$dir/logs/haproxy.log" 2>&1 &
started_pid haproxy $!

# --- Readiness of the database: the leader streams to two standbys, one of them synchronous.
replication_ok() {
  curl -fs "http://127.0.0.1:$1/primary" 2>/dev/null | "$python" -c '
import json, sys
r = json.load(sys.stdin).get("replication", [])
streaming = [x for x in r if x.get("state") == "streaming"]
sync = [x for x in r if x.get("sync_state") in ("sync", "quorum")]
sys.exit(0 if len(streaming) == 2 and len(sync) >= 1 else 1)'
}
ok=""
for _ in $(seq 1 300); do
  if replication_ok "${patroni_rest[0]}"; then ok=1; break; fi
  sleep 0.2
done
[ -n "$ok" ] || fail "the leader's /primary does not list two streaming standbys, one synchronous"
config="$(patronictl -c "$dir/n1/patroni.yml" show-config 2>/dev/null)"
grep -q '^synchronous_mode: true' <<<"$config" || fail "patronictl show-config: synchronous mode is off (an invalid bootstrap.dcs value drops it)"
say "patroni: leader n1 streams to two standbys, one synchronous; synchronous_mode: true"

database_url="postgresql://caresync@127.0.0.1:$haproxy_port/caresync"
for _ in $(seq 1 50); do
  PGCONNECT_TIMEOUT=2 "$pg_bin/psql" -qAt "postgresql://postgres@127.0.0.1:$haproxy_port/postgres" -c 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.2
done
"$pg_bin/psql" -qAt "postgresql://postgres@127.0.0.1:$haproxy_port/postgres" -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE caresync LOGIN" -c "CREATE DATABASE caresync OWNER caresync" >/dev/null || fail "could not create the caresync database through HAProxy"
actual="$("$pg_bin/psql" -qAt "postgresql://postgres@127.0.0.1:$haproxy_port/postgres" -c 'SHOW synchronous_commit')"
[ "$actual" = "$synchronous_commit" ] || fail "the leader runs synchronous_commit=$actual, not $synchronous_commit"
if [ "$synchronous_commit" = local ] || [ "$synchronous_commit" = off ]; then
  say "WARNING: synchronous_commit=$synchronous_commit: replication is asynchronous, acknowledged writes can be lost"
fi

# --- CareSync: migrate once, then two instances on the same database, both through HAProxy.
export CARESYNC_DATABASE_URL="$database_url" CARESYNC_MIGRATIONS_DIRECTORY="$repo/migrations" CARESYNC_LOG_LEVEL="${CARESYNC_LOG_LEVEL:-warning}"
export CARESYNC_DATABASE="$dir/unused.sqlite"   # never created on PostgreSQL
"$bin" migrate >"$dir/logs/migrate.log" 2>&1 || { cat "$dir/logs/migrate.log" >&2; fail "caresync migrate"; }
for i in 0 1; do
  name="caresync-$((i + 1))"
  "$bin" serve --port "${caresync_port[$i]}" >"$dir/logs/$name.log" 2>&1 &
  started_pid "$name" $!
done
for i in 0 1; do
  for _ in $(seq 1 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${caresync_port[$i]}/readyz")" = 200 ] && break
    sleep 0.2
  done
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${caresync_port[$i]}/readyz")" = 200 ] \
    || fail "caresync-$((i + 1)) /readyz is not 200 (logs/caresync-$((i + 1)).log)"
done

cat >"$dir/cluster.env" <<ENV
# Written by scripts/cluster-up.sh; source it.
CLUSTER_DIR=$dir
CLUSTER_CARESYNC_BIN=$bin
CARESYNC_DATABASE_URL=$database_url
ETCD_ENDPOINTS=$endpoints
PATRONI_REST_PORTS="${patroni_rest[*]}"
PG_PORTS="${pg_port[*]}"
HAPROXY_PORT=$haproxy_port
HAPROXY_STATS=http://127.0.0.1:$haproxy_stats/
CLUSTER_PORT_OFFSET=$offset
CLUSTER_SYNCHRONOUS_COMMIT=$synchronous_commit
PG_BIN=$pg_bin
CARESYNC_MIGRATIONS_DIRECTORY=$repo/migrations
CLUSTER_URLS="http://127.0.0.1:${caresync_port[0]} http://127.0.0.1:${caresync_port[1]}"
PATRONICTL="patronictl -c $dir/n1/patroni.yml"
ENV
trap - EXIT
say "caresync: two instances ready: http://127.0.0.1:${caresync_port[0]} http://127.0.0.1:${caresync_port[1]} (database through HAProxy 127.0.0.1:$haproxy_port)"
echo "cluster up in $((SECONDS - started)) s; directory $dir (cluster.env, logs/, pids/)"
