#!/usr/bin/env bash
# The failover run: starts a cluster (scripts/cluster-up.sh), writes continuously from several clients through
# both CareSync instances while it SIGKILLs the PostgreSQL leader, one CareSync instance, then the new
# leader's Patroni and PostgreSQL (scripts/cluster-failover.py), checks that every write acknowledged with 200
# is in the feed exactly once and that an anchor from before still reads on, prints the figures, and stops the
# cluster (scripts/cluster-down.sh; CLUSTER_KEEP=1 keeps it and its logs). Exits non-zero on any failure.
# About 1.5 minutes; .ci/run runs it. docs/deployment.md has the figures of a run.
#
#   scripts/cluster-failover.sh
#   WRITERS=8 FAILOVER_PHASE_SECONDS=15 scripts/cluster-failover.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
dir="${CLUSTER_DIR:-/tmp/caresync-cluster}"
export CLUSTER_DIR="$dir"

scripts/cluster-up.sh
finish() {
  status=$?
  if [ -n "${CLUSTER_KEEP:-}" ]; then echo "cluster kept in $dir (scripts/cluster-down.sh stops it)"
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
tokens=""
for device in phone watch cuff; do
  tokens+=" $("$CLUSTER_CARESYNC_BIN" token create --role device --patient alice --source "org.example.$device" 2>/dev/null)"
done
export DEVICE_TOKENS="$tokens" PATIENT=alice

/usr/bin/python3 scripts/cluster-failover.py
