#!/usr/bin/env bash
# Live sync at scale (issue 13), on a release build and a fresh database: 1,000 long polls (longpoll.py) and then
# 1,000 event streams (streams.py) parked on one server, each woken by one commit; prints how soon after the commit
# the last of them had the change, and the server's memory per parked poll. Prints figures; asserts nothing. Do not run
# it while builds run.
#   bench/api/live.sh [CLIENTS]        # default 1000; 10000 for issue 30's target
#   CLIENT=c bench/api/live.sh 10000   # the long polls from one epoll loop in C (longpoll.c) instead of Python's asyncio,
#                                      # whose own cost per connection can be what the figure measures; streams skipped
#   LONGPOLL_KEEPALIVE=1 CLIENT=c bench/api/live.sh 10000  # each poll keeps its connection after its answer (a device agent)
#   PERF_OUT=FILE CLIENT=c bench/api/live.sh 10000   # also records the server with `perf record -g` over the wake
#                                      # (PERF_FREQ samples a second, default 999; PERF_CALLGRAPH=dwarf unwinds Swift frames
#                                      # frame pointers miss); CLIENT=c also prints the server's
#                                      # CPU over the commit and the wake
set -euo pipefail
cd "$(dirname "$0")/../.."
here=bench/api
clients="${1:-1000}"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
source "$here/caresync-server.sh"
caresync_prepare
# One stream or poll per connection, all of one token from one address: more than the default rate budget
# of one token, its share of waits and one address's share of connections; and more authentications at once than
# one address's failed-authentication burst (each attempt holds one of its 100 until it succeeds).
export CARESYNC_RATE_LIMIT_TOKEN_REQUESTS_PER_SECOND=0 CARESYNC_RATE_LIMIT_WAITS_PER_TOKEN=0 CARESYNC_MAX_CONNECTIONS_PER_ADDRESS=0
export CARESYNC_RATE_LIMIT_FAILED_AUTH_PER_MINUTE=0
# Room for every client, the writer and /metrics: connections and parked polls follow CLIENTS.
export CARESYNC_MAX_CONNECTIONS=$((clients + 100)) CARESYNC_MAX_PARKED_POLLS="$clients"
"$bin" patient create live >/dev/null
device="$("$bin" token create --role device --patient live 2>/dev/null)"
writer="$("$bin" token create --role device --patient live --source org.example.writer 2>/dev/null)"
caresync_serve
echo "== $clients long polls"
if [ "${CLIENT:-python}" = c ]; then
  cc -O2 -o "$work/longpoll" "$here/longpoll.c"
  anchor="$(curl -sf "$url/v1/patients/live/changes?anchor=now&limit=1" -H "Authorization: Bearer $device" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["anchor"])')"
  port="${url##*:}"
  # The client pauses 1 s once every poll is parked (2 s when profiled, so perf starts on the wake alone); the server's
  # CPU (user+system ticks in /proc/PID/stat) is read in that pause and when the client prints its figures.
  ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
  # The client says "done" on a FIFO once its figures are out (waited on without polling, which would take CPU from
  # the wake) and keeps its connections 1 s more: the CPU is read, and perf stopped, before their teardown.
  mkfifo "$work/done"; exec 3<>"$work/done"
  LONGPOLL_PAUSE=$([ -n "${PERF_OUT:-}" ] && echo 2 || echo 1) LONGPOLL_LINGER=1 LONGPOLL_DONE="$work/done" \
    "$work/longpoll" 127.0.0.1 "$port" "$device" live "$writer" "$anchor" "$clients" >"$work/longpoll.out" &
  client=$!
  until grep -q parked "$work/longpoll.out" 2>/dev/null; do sleep 0.1; done
  before=$(ticks)
  if [ -n "${PERF_OUT:-}" ]; then perf record -F "${PERF_FREQ:-999}" --call-graph "${PERF_CALLGRAPH:-fp}" -o "$PERF_OUT" $([ -n "${PERF_ALL:-}" ] && echo -a || echo -p "$pid") >/dev/null 2>&1 & perf_pid=$!; fi
  read -r -t 150 _ <&3 || true
  after=$(ticks)
  if [ -n "${PERF_OUT:-}" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  wait "$client"
  cat "$work/longpoll.out"
  python3 -c "import sys; ms = (int(sys.argv[1]) * 1000 / $(getconf CLK_TCK)); print(f'server CPU over the commit and the wake: {ms:.0f} ms ({ms * 1000 / $clients:.0f} us a poll)')" "$((after - before))"
  exit 0
fi
SERVER_PID="$pid" python3 "$here/longpoll.py" "$url" "$device" live "$writer" "$clients"
echo "== $clients event streams"
python3 "$here/streams.py" "$url" "$device" live "$writer" "$clients"
