#!/usr/bin/env bash
# The wake of 10,000 parked long polls (bench/api/live.sh, CLIENT=c, LONGPOLL_KEEPALIVE=1) for several builds in one
# sitting. A sitting's runs drift with their place in it (docs/benchmarks.md, twenty-seventh session), so each round
# rotates the builds' order, and PAUSE seconds pass between runs (the 10,000 sockets a run leaves in TIME_WAIT are
# then mostly gone). Prints every run, then per build the median last answer and CPU a poll. Asserts nothing; run it
# with nothing else running.
#   BENCH_BINS="base=/tmp/caresync-base new=.build/release/caresync" ROUNDS=4 bench/api/wake-compare.sh [CLIENTS]
#   PAUSE=30 (seconds between runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
clients="${1:-10000}"
rounds="${ROUNDS:-4}"
pause="${PAUSE:-30}"
read -r -a entries <<< "${BENCH_BINS:?set BENCH_BINS=\"name=binary ...\"}"
declare -A lasts cpus
count=${#entries[@]}
for ((round = 0; round < rounds; round++)); do
  for ((place = 0; place < count; place++)); do
    entry=${entries[$(( (place + round) % count ))]}
    name=${entry%%=*}
    out=$(LONGPOLL_KEEPALIVE=1 CLIENT=c BENCH_BIN="${entry#*=}" bench/api/live.sh "$clients" 2>&1)
    last=$(sed -n 's/^wake latency.* max \([0-9.]*\).*/\1/p' <<< "$out")
    cpu=$(sed -n 's/^server CPU over the commit and the wake:.*(\([0-9]*\) us a poll).*/\1/p' <<< "$out")
    [ -n "$last" ] && [ -n "$cpu" ] || { echo "$name: no figures in live.sh's output:"; echo "$out" | tail -5; exit 1; }
    echo "round $((round + 1)), place $((place + 1)): $name: last answer $last ms, $cpu us a poll"
    lasts[$name]+="$last "
    cpus[$name]+="$cpu "
    sleep "$pause"
  done
done
echo "== per build (target: last answer <= 250 ms)"
for entry in "${entries[@]}"; do
  name=${entry%%=*}
  python3 - "$name" "${lasts[$name]}" "${cpus[$name]}" <<'PY'
import statistics, sys
name, lasts, cpus = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
print(f"{name}: last answer median {statistics.median(lasts):.1f} ms ({min(lasts):.1f}-{max(lasts):.1f}), "
      f"median {statistics.median(cpus):.0f} us a poll, <= 250 ms in {sum(x <= 250 for x in lasts)} of {len(lasts)}")
PY
done
