#!/usr/bin/env bash
# The server's door: wrk against `caresync serve` itself (release build, default configuration: log.level info,
# one `http.request` line per request, written to a file) and against nginx writing an access log to a file, in
# the same run, alternating. Prints requests/s and server CPU per request (user+system ticks of the server's
# processes in /proc/PID/stat, divided by the requests wrk counted) for each, and the ratios to nginx.
#   bench/api/door.sh [seconds]         (default 20; needs wrk and nginx: apt-get install wrk nginx-light)
#   ROUNDS=3 PATH_UNDER_TEST=/healthz CONNECTIONS=64
#   BENCH_BINS="main=/tmp/caresync-main door=.build/release/caresync" compares builds in the same run (their order
#   flips every round: use an even ROUNDS)
#   READ=feed: the authorized read instead: an empty feed page (GET /v1/patients/reader/changes?anchor=<head>) with
#   a device token, against nginx answering the same path with a 40-byte body
#   PERF_OUT=FILE: also records each caresync build with `perf record -g` during its first round (FILE.NAME; the
#   CPU figures of that round include perf's own cost)
# Loopback only. Figures go to stdout and bench/out/door/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/nginx.sh
seconds="${1:-20}"
rounds="${ROUNDS:-2}"
connections="${CONNECTIONS:-64}"
target="${PATH_UNDER_TEST:-/healthz}"
read_kind="${READ:-door}"
nginx_body='{"status":"ok"}'
if [ "$read_kind" = feed ]; then
  target=/v1/patients/reader/changes
  nginx_body='{"samples":[],"deletedObjects":[],"anchor":"x"}'
fi
out=bench/out/door
rm -rf "$out"; mkdir -p "$out"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

for tool in wrk nginx; do
  command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light; break; }
done
if [ -z "${BENCH_BINS:-}" ]; then
  source bench/lib/release-build.sh
  BENCH_BINS="caresync=$(release_build caresync)"
fi

nginx_port=18491
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; nginx_stop; wait 2>/dev/null || true; }
trap cleanup EXIT
nginx_start "$out/nginx" "$nginx_port" on "location $target { default_type application/json; return 200 '$nginx_body'; }"

# One `caresync serve` per build, each on a fresh database, with the default configuration.
names=(); declare -A server_pid server_port query header
for entry in $BENCH_BINS; do
  name="${entry%%=*}"; bin="${entry#*=}"
  mkdir -p "$out/$name"
  if [ "$read_kind" = feed ]; then
    CARESYNC_DATABASE="$PWD/$out/$name/caresync.sqlite" "$bin" patient create reader >/dev/null
    CARESYNC_DATABASE="$PWD/$out/$name/caresync.sqlite" "$bin" token create --role device --patient reader \
      2>/dev/null > "$out/$name/token"
  fi
  CARESYNC_DATABASE="$PWD/$out/$name/caresync.sqlite" "$bin" serve --port 0 >"$out/$name/stdout" 2>"$out/$name/log" &
  server_pid[$name]=$!
  pids+=("${server_pid[$name]}")
  for _ in $(seq 1 100); do grep -q listening "$out/$name/stdout" && break; sleep 0.1; done
  server_port[$name]="$(sed -n 's/^listening on http:\/\/127.0.0.1://p' "$out/$name/stdout")"
  [ -n "${server_port[$name]}" ] || { echo "$name: caresync serve did not start"; cat "$out/$name/log"; exit 1; }
  names+=("$name")
  if [ "$read_kind" = feed ]; then
    base="http://127.0.0.1:${server_port[$name]}/v1/patients/reader"
    auth="Authorization: Bearer $(cat "$out/$name/token")"
    curl -fsS -o /dev/null -X POST -H "$auth" -H 'Content-Type: application/json' \
      -d '{"samples":[{"type":"stepCount","value":5,"unit":"count","start":"2020-06-18T09:00:00Z","end":"2020-06-18T09:30:00Z"}]}' \
      "$base/samples"
    head_anchor="$(curl -fsS -H "$auth" "$base/changes?limit=10" | python3 -c 'import json,sys; print(json.load(sys.stdin)["anchor"])')"
    query[$name]="?anchor=$head_anchor"
    header[$name]="$auth"
  fi
done
sleep 1
curl -fsS "http://127.0.0.1:$nginx_port$target" >/dev/null

cpu_ticks() { # pids...: user+system clock ticks of the processes
  local total=0
  for p in "$@"; do total=$(( total + $(awk '{print $14 + $15}' "/proc/$p/stat") )); done
  echo "$total"
}
declare -A served
run_wrk() { # name port round pids...
  local name=$1 port=$2 round=$3; shift 3
  local address="http://127.0.0.1:$port$target${query[$name]:-}" auth=(-H "${header[$name]:-X-Bench: 1}")
  wrk -t2 -c"$connections" -d2s "${auth[@]}" "$address" > "$out/warmup-$name-$round.txt"  # warm-up
  local perf_pid=""
  if [ -n "${PERF_OUT:-}" ] && [ "$name" != nginx ] && [ "$round" = 1 ]; then
    perf record -F 999 -g -o "$PERF_OUT.$name" -p "$1" >/dev/null 2>&1 & perf_pid=$!
  fi
  local before; before=$(cpu_ticks "$@")
  wrk -t2 -c"$connections" -d"${seconds}s" --latency "${auth[@]}" "$address" > "$out/wrk-$name-$round.txt"
  local after; after=$(cpu_ticks "$@")
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
  local count; count=$(awk '/requests in/ {print $1}' "$out/wrk-$name-$round.txt")
  if grep -q 'Non-2xx' "$out/wrk-$name-$round.txt"; then echo "$name: answers other than 2xx"; cat "$out/wrk-$name-$round.txt"; exit 1; fi
  served[$name]=$(( ${served[$name]:-0} + count + $(awk '/requests in/ {print $1}' "$out/warmup-$name-$round.txt") ))
  python3 -c "import sys; print('%.2f' % (int(sys.argv[1]) * 1e6 / $(getconf CLK_TCK) / int(sys.argv[2])))" \
    "$(( after - before ))" "$count" > "$out/cpu-$name-$round.txt"
  awk '/Requests\/sec/ {print $2}' "$out/wrk-$name-$round.txt" > "$out/rps-$name-$round.txt"
  echo "round $round $name: $(cat "$out/rps-$name-$round.txt") req/s, $(cat "$out/cpu-$name-$round.txt") us CPU/request"
}

echo "== wrk -t2 -c$connections -d${seconds}s GET $target, $rounds rounds, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  run_wrk nginx "$nginx_port" "$round" $(pgrep -P "$nginx_pid" | tr '\n' ' ')
  # The builds' order flips every round: the one run second in a round tends to do better.
  order=("${names[@]}")
  if (( round % 2 == 0 )); then order=(); for (( i = ${#names[@]} - 1; i >= 0; i-- )); do order+=("${names[$i]}"); done; fi
  for name in "${order[@]}"; do run_wrk "$name" "${server_port[$name]}" "$round" "${server_pid[$name]}"; done
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Stop the servers (SIGTERM: caresync writes out its buffered log lines), then count the lines each wrote.
for name in "${names[@]}"; do kill -TERM "${server_pid[$name]}"; wait "${server_pid[$name]}" || true; done
echo "== summary (targets: CPU per request <= 1.5x nginx's, requests/s >= 60% of nginx's)"
for round in $(seq 1 "$rounds"); do
  for name in "${names[@]}"; do
    python3 - "$round" "$name" "$(cat "$out/rps-$name-$round.txt")" "$(cat "$out/cpu-$name-$round.txt")" \
      "$(cat "$out/rps-nginx-$round.txt")" "$(cat "$out/cpu-nginx-$round.txt")" <<'PY'
import sys
r, name, rps, cpu, nrps, ncpu = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print("round %s %-8s %8.0f req/s (%3.0f%% of nginx's %.0f)  %6.2f us CPU/request (%.2fx nginx's %.2f)"
      % (r, name, rps, 100 * rps / nrps, nrps, cpu, cpu / ncpu, ncpu))
PY
  done
done
# Per build over the rounds: one sitting's rounds differ by a tenth or more, so judge builds by these, not one round.
echo "== per build over $rounds rounds (CPU per request as a ratio to nginx's in the same round)"
for name in "${names[@]}"; do
  python3 - "$name" "$rounds" "$out" <<'PY'
import statistics, sys
name, rounds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
read = lambda what, r: float(open(f"{out}/{what}-{r}.txt").read())
ratios = [read(f"cpu-{name}", r) / read("cpu-nginx", r) for r in range(1, rounds + 1)]
shares = [read(f"rps-{name}", r) / read("rps-nginx", r) for r in range(1, rounds + 1)]
print("%-8s median %.2fx nginx's CPU (%.2f-%.2f), <= 1.5x in %d of %d rounds; median %.0f%% of its requests/s"
      % (name, statistics.median(ratios), min(ratios), max(ratios), sum(x <= 1.5 for x in ratios), rounds,
         100 * statistics.median(shares)))
PY
done
for name in "${names[@]}"; do
  echo "$name: $(grep -c 'http.request' "$out/$name/log") http.request lines in its log for ${served[$name]} requests wrk counted (plus those in flight when wrk stopped)"
done
echo "nginx: $(wc -l < "$out/nginx/access.log") access log lines"
