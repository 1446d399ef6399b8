#!/usr/bin/env bash
# HTTP server benchmark: wrk against our trivial endpoint and against nginx in the same run,
# then 5,000 idle keep-alive connections (server RSS, and latency on other connections meanwhile).
#   bench/http/run.sh [seconds]        (default 20; needs wrk and nginx: apt-get install wrk nginx)
# Loopback only. Figures go to stdout and bench/out/http/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/nginx.sh
seconds="${1:-20}"
connections="${CONNECTIONS:-64}"
idle="${IDLE_CONNECTIONS:-5000}"
out=bench/out/http
mkdir -p "$out"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open files limit: $(ulimit -n)"

for tool in wrk nginx; do
  command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light; break; }
done

source bench/lib/release-build.sh
server_bin="$(release_build http-bench-server)"

ours_port=18480
nginx_port=18481
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; nginx_stop; }
trap cleanup EXIT

nginx_start "$out/nginx" "$nginx_port" off 'location /hello { default_type text/plain; return 200 "Hello, world!"; }'
"$server_bin" --port "$ours_port" > "$out/server.log" &
server_pid=$!
pids+=($server_pid)
sleep 1
curl -fsS "http://127.0.0.1:$ours_port/hello" >/dev/null
curl -fsS "http://127.0.0.1:$nginx_port/hello" >/dev/null

rounds="${ROUNDS:-2}"
cpu_ticks() { # pids...: user+system clock ticks of the processes
  local total=0
  for p in "$@"; do total=$(( total + $(awk '{print $14 + $15}' "/proc/$p/stat") )); done
  echo "$total"
}
run_wrk() { # name port round pids...
  local name=$1 port=$2 round=$3; shift 3
  wrk -t2 -c"$connections" -d2s "http://127.0.0.1:$port/hello" >/dev/null  # warm-up
  local before; before=$(cpu_ticks "$@")
  wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$port/hello" | tee "$out/wrk-$name-$round.txt"
  local after; after=$(cpu_ticks "$@")
  # Server CPU per request: independent of how busy the rest of the machine is.
  python3 -c "import sys; t, n = int(sys.argv[1]), int(sys.argv[2]); print('%s cpu: %.1f us/request' % (sys.argv[3], t * 1e6 / $(getconf CLK_TCK) / n))" \
    "$(( after - before ))" "$(awk '/requests in/ {print $1}' "$out/wrk-$name-$round.txt")" "$name" | tee "$out/cpu-$name-$round.txt"
}
# Alternate the two servers so that load from elsewhere on the machine hits both alike.
for round in $(seq 1 "$rounds"); do
  echo "== round $round: nginx (worker_processes auto), wrk -t2 -c$connections -d${seconds}s"
  run_wrk nginx "$nginx_port" "$round" $(pgrep -P "$nginx_pid" | tr '\n' ' ')
  echo "== round $round: CareSyncHTTP (http-bench-server), wrk -t2 -c$connections -d${seconds}s"
  run_wrk ours "$ours_port" "$round" "$server_pid"
done

rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1=="99%" {print $2}' "$1"; }
: > "$out/summary.txt"
for round in $(seq 1 "$rounds"); do
  python3 - "$round" "$(rps "$out/wrk-ours-$round.txt")" "$(rps "$out/wrk-nginx-$round.txt")" \
    "$(p99 "$out/wrk-ours-$round.txt")" "$(p99 "$out/wrk-nginx-$round.txt")" <<'PY' | tee -a "$out/summary.txt"
import sys
def ms(v):
    return float(v[:-2]) / 1000 if v.endswith("us") else float(v[:-2]) if v.endswith("ms") else float(v[:-1]) * 1000
r, ours, nginx, op99, np99 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), ms(sys.argv[4]), ms(sys.argv[5])
print("round %s: ours %.0f req/s, nginx %.0f req/s -> %.0f%% of nginx (target >= 60%%); "
      "p99 ours %.2f ms, nginx %.2f ms -> %.2fx (target <= 1.5x)" % (r, ours, nginx, 100 * ours / nginx, op99, np99, op99 / np99))
PY
  cat "$out/cpu-nginx-$round.txt" "$out/cpu-ours-$round.txt" >> "$out/summary.txt"
done

echo "== baseline: wrk -t2 -c16 -d5s with no idle connections"
wrk -t2 -c16 -d5s --latency "http://127.0.0.1:$ours_port/hello" | tee "$out/wrk-before-idle.txt"
echo "latency without idle connections: p50 $(awk '$1=="50%" {print $2}' "$out/wrk-before-idle.txt"), p99 $(p99 "$out/wrk-before-idle.txt"), $(rps "$out/wrk-before-idle.txt") req/s" | tee -a "$out/summary.txt"

echo "== $idle idle keep-alive connections"
rss() { awk '/VmRSS/ {print $2}' "/proc/$server_pid/status"; }
echo "server RSS before: $(( $(rss) / 1024 )) MB"
python3 bench/http/idle.py "$ours_port" "$idle" "$out/idle-ready" &
idle_pid=$!
pids+=($idle_pid)
for _ in $(seq 1 120); do [ -f "$out/idle-ready" ] && break; sleep 0.5; done
[ -f "$out/idle-ready" ] || { echo "idle clients did not connect"; exit 1; }
sleep 1
echo "server connections held: $(cat "$out/idle-ready")"
echo "server RSS with $idle idle connections: $(( $(rss) / 1024 )) MB (target <= 150 MB)" | tee -a "$out/summary.txt"
echo "== wrk -t2 -c16 -d5s on other connections while $idle are idle"
wrk -t2 -c16 -d5s --latency "http://127.0.0.1:$ours_port/hello" | tee "$out/wrk-during-idle.txt"
echo "latency with $idle idle held: p50 $(awk '$1=="50%" {print $2}' "$out/wrk-during-idle.txt"), p99 $(p99 "$out/wrk-during-idle.txt"), $(rps "$out/wrk-during-idle.txt") req/s" | tee -a "$out/summary.txt"
wrk -t2 -c16 -d5s --latency "http://127.0.0.1:$ours_port/hello" > /dev/null  # keep them idle a bit longer
kill "$idle_pid" 2>/dev/null || true
rm -f "$out/idle-ready"
echo "== summary (load average: $(cut -d' ' -f1-3 /proc/loadavg))"; cat "$out/summary.txt"
