#!/usr/bin/env bash
# The failover run: starts a cluster (scripts/cluster-up.sh), writes continuously from several clients through
# both CareSync instances (each write with an Idempotency-Key, resent through either instance until answered
# 200) while two readers follow the feed by anchor, and (scripts/cluster-failover.py):
#   1. holds the PostgreSQL leader's WAL senders (SIGSTOP) for a moment, then SIGKILLs the leader's PostgreSQL:
#      with synchronous replication the writes of that moment wait and are never acknowledged; with
#      asynchronous replication they are acknowledged and then lost, and the run fails;
#   2. SIGKILLs one CareSync instance, then starts it again and sees it acknowledge writes;
#   3. holds the new leader's WAL senders, then SIGKILLs its Patroni and PostgreSQL together.
# Then it checks every acknowledged write field by field in both instances' feeds and in the table (and each
# node's copy), that no write was applied twice, that neither reader saw a change vanish or come twice, that
# anchors read on to the same changes through either instance, and prints the real write outage of each
# failure. It stops the cluster (scripts/cluster-down.sh; CLUSTER_KEEP=1 keeps it and its logs). Exits
# non-zero on any failure. About 1.5 minutes; .ci/run runs it. docs/deployment.md has the figures of a run.
#
#   scripts/cluster-failover.sh
#   WRITERS=8 FAILOVER_PHASE_SECONDS=15 FAILOVER_HOLD_SECONDS=2 scripts/cluster-failover.sh  # defaults 6, 8, 1
#   CLUSTER_PORT_OFFSET=10000 scripts/cluster-failover.sh        # beside another run (other ports and directory)
#   CLUSTER_SYNCHRONOUS_COMMIT=local scripts/cluster-failover.sh # asynchronous replication: must fail (lost writes)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
offset="${CLUSTER_PORT_OFFSET:-0}"
if [ "$offset" = 0 ]; then dir="${CLUSTER_DIR:-/tmp/caresync-cluster}"; else dir="${CLUSTER_DIR:-/tmp/caresync-cluster-$offset}"; fi
export CLUSTER_DIR="$dir"

scripts/cluster-up.sh
finish() {
  status=$?
  if [ -n "${CLUSTER_KEEP:-}" ]; then echo "cluster kept in $dir (CLUSTER_DIR=$dir scripts/cluster-down.sh stops it)"
  elif [ $status != 0 ]; then scripts/cluster-down.sh --keep "$dir"; echo "logs kept in $dir/logs"
  else scripts/cluster-down.sh "$dir"; fi
  echo "failover run: $((SECONDS - started)) s in all"
  exit $status
}
trap finish EXIT
set -a; source "$dir/cluster.env"; set +a

# One patient, three devices (three sources): each writer uses one device's token.
export CARESYNC_LOG_LEVEL=warning CARESYNC_DATABASE="$dir/unused.sqlite"
"$CLUSTER_CARESYNC_BIN" patient create alice --time-zone UTC >/dev/null
tokens="" sources=""
for device in phone watch cuff; do
  tokens+=" $("$CLUSTER_CARESYNC_BIN" token create --role device --patient alice --source "org.example.$device" 2>/dev/null)"
  sources+=" org.example.$device"
done
export DEVICE_TOKENS="$tokens" DEVICE_SOURCES="$sources" PATIENT=alice

/usr/bin/python3 scripts/cluster-failover.py
