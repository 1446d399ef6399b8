#!/usr/bin/env bash
# The floor of waking parked long polls: the bare HTTP core (http-bench-server, no store, token, audit or anchor)
# parks WAITERS requests and answers them all when one POST comes, measured by the same C client as
# `CLIENT=c bench/api/live.sh` (bench/api/longpoll.c) on the same paths. Run it beside live.sh in one sitting: the
# difference is what CareSync's own answer to a woken poll costs. Prints figures; asserts nothing.
#   bench/http/wake.sh [WAITERS]                    # default 10000
#   LONGPOLL_KEEPALIVE=1 bench/http/wake.sh 10000   # each poll keeps its connection after its answer
#   BENCH_SERVER=/path/http-bench-server bench/http/wake.sh   # a build made earlier
set -euo pipefail
cd "$(dirname "$0")/../.."
waiters="${1:-10000}"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
work="$(mktemp -d)"
if [ -n "${BENCH_SERVER:-}" ]; then server_bin="$BENCH_SERVER"; else
  source bench/lib/release-build.sh
  server_bin="$(release_build http-bench-server)"
fi
port=18490
"$server_bin" --port "$port" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
until grep -q listening "$work/server.log"; do sleep 0.1; done
cc -O2 -o "$work/longpoll" bench/api/longpoll.c
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# As in live.sh: "done" on a FIFO once the figures are out; the CPU is read then, before the connections' teardown.
mkfifo "$work/done"; exec 3<>"$work/done"
LONGPOLL_PAUSE=1 LONGPOLL_LINGER=1 LONGPOLL_DONE="$work/done" \
  "$work/longpoll" 127.0.0.1 "$port" none floor none none "$waiters" >"$work/longpoll.out" &
client=$!
until grep -q parked "$work/longpoll.out" 2>/dev/null; do sleep 0.1; done
before=$(ticks)
read -r -t 150 _ <&3 || true
after=$(ticks)
wait "$client"
echo "== $waiters long polls on the bare HTTP core (http-bench-server)"
cat "$work/longpoll.out"
python3 -c "import sys; ms = (int(sys.argv[1]) * 1000 / $(getconf CLK_TCK)); print(f'server CPU over the commit and the wake: {ms:.0f} ms ({ms * 1000 / $waiters:.0f} us a poll)')" "$((after - before))"
