#!/usr/bin/env bash
# Stops exactly what scripts/cluster-up.sh started (by the PID files in its directory, each checked to still be
# the program it was) and removes the directory: CareSync, HAProxy, Patroni (and any PostgreSQL a killed
# Patroni left running, found by its data directory's postmaster.pid), then etcd.
#
#   scripts/cluster-down.sh [--keep] [DIR]   # DIR defaults to $CLUSTER_DIR, else cluster-up.sh's default:
#                                            # /tmp/caresync-cluster, or /tmp/caresync-cluster-N with CLUSTER_PORT_OFFSET=N
#   --keep stops everything but keeps the directory (logs) for a look.
set -uo pipefail
keep=""
[ "${1:-}" = --keep ] && { keep=1; shift; }
offset="${CLUSTER_PORT_OFFSET:-0}"
if [ "$offset" = 0 ]; then default=/tmp/caresync-cluster; else default="/tmp/caresync-cluster-$offset"; fi
dir="${1:-${CLUSTER_DIR:-$default}}"
started=$SECONDS
[ -d "$dir/pids" ] || { echo "cluster-down: no cluster in $dir"; [ -n "$keep" ] || rm -rf "$dir"; exit 0; }

# Whether PID is alive and still runs a program whose command line contains WORD.
runs() { [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -- "$2"; }

# Sends SIGNAL to the processes named by the PID files matching GLOB, waits up to SECONDS, then SIGKILLs.
stop() {
  local glob="$1" word="$2" signal="$3" seconds="$4" pids=() file pid
  for file in "$dir"/pids/$glob.pid; do
    [ -e "$file" ] || continue
    pid="$(cat "$file")"
    if runs "$pid" "$word"; then kill "-$signal" "$pid" 2>/dev/null && pids+=("$pid"); fi
    rm -f "$file"
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  for _ in $(seq 1 $((seconds * 5))); do
    local alive=0
    for pid in "${pids[@]}"; do runs "$pid" "$word" && alive=1; done
    [ $alive = 0 ] && return 0
    sleep 0.2
  done
  for pid in "${pids[@]}"; do runs "$pid" "$word" && { echo "cluster-down: SIGKILL $word $pid" >&2; kill -KILL "$pid" 2>/dev/null; }; done
  return 0
}

stop 'caresync-*' 'caresync' TERM 10
stop haproxy haproxy TERM 5
stop 'patroni-*' patroni TERM 20
# A PostgreSQL whose Patroni was SIGKILLed keeps running: stop it by its postmaster.pid (fast shutdown).
for pidfile in "$dir"/n*/data/postmaster.pid; do
  [ -e "$pidfile" ] || continue
  pid="$(head -1 "$pidfile")"
  runs "$pid" postgres || continue
  kill -INT "$pid" 2>/dev/null
  for _ in $(seq 1 50); do runs "$pid" postgres || break; sleep 0.2; done
  runs "$pid" postgres && kill -KILL "$pid" 2>/dev/null
done
# One etcd member can linger after SIGTERM: SIGKILL after 10 s.
stop 'etcd-*' etcd TERM 10

if [ -n "$keep" ]; then echo "cluster stopped in $((SECONDS - started)) s; kept $dir"
else rm -rf "$dir"; echo "cluster stopped and removed in $((SECONDS - started)) s"; fi
