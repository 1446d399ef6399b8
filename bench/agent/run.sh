#!/usr/bin/env bash
# caresync-agent benchmarks (release builds, a fresh server on a temporary database). Prints figures, never
# asserts; see docs/benchmarks.md "## caresync-agent".
#   bench/agent/run.sh import 1G          # import a generated 1 GiB export.xml: records/s and the agent's peak RSS
#   bench/agent/run.sh mirror 1000000     # load that many samples (an import, not timed), then time mirror catch-up
#   bench/agent/run.sh import 20M         # a quick check of the script
# Settings: SERVER_BIN and AGENT_BIN use those binaries instead of building release ones;
# WORK=DIR keeps the export, database and replica there (an export of the right size already there is reused);
# PAGE_SIZE (mirror, default 5000) and BATCH_SIZE (import, default 5000).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$(pwd)"
what="${1:-}"; amount="${2:-}"
case "$what" in import|mirror) ;; *) sed -n '2,10p' "$0"; exit 2 ;; esac
[ -n "$amount" ] || { sed -n '2,10p' "$0"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, Debian package time)"; exit 2; }

if [ -z "${SERVER_BIN:-}" ]; then
  source bench/lib/release-build.sh
  SERVER_BIN="$(release_build caresync)"
fi
if [ -z "${AGENT_BIN:-}" ]; then
  swift build -c release --package-path Clients/Swift --product caresync-agent >/dev/null
  AGENT_BIN="$(swift build -c release --package-path Clients/Swift --show-bin-path)/caresync-agent"
fi
# caresync refuses CARESYNC_* settings it does not know.
for name in $(compgen -e | grep '^CARESYNC_' || true); do unset "$name"; done

work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
pid=""
cleanup() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; wait 2>/dev/null || true; [ -z "${WORK:-}" ] && rm -rf "$work"; }
trap cleanup EXIT
rm -f "$work"/caresync.sqlite* "$work"/replica.sqlite* "$work"/*.caresync-import

# The server: a fresh database, patient alice, a device token.
caresync() {
  CARESYNC_DATABASE="$work/caresync.sqlite" CARESYNC_MIGRATIONS_DIRECTORY="$repo/migrations" CARESYNC_LOG_LEVEL=warning \
    "$SERVER_BIN" "$@"
}
caresync patient create alice --time-zone UTC >/dev/null
token="$(caresync token create --role device --patient alice --source org.example.phone 2>/dev/null | head -1)"
caresync serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
for _ in $(seq 1 100); do grep -q '^listening on' "$work/serve.out" && break; sleep 0.1; done
export CARESYNC_URL="$(sed -n 's/^listening on //p' "$work/serve.out")" CARESYNC_TOKEN="$token"

# The export: generated once per size (generating 1 GiB takes a minute or two).
export_for() {
  local file="$work/export-$1.xml"
  [ -s "$file" ] || python3 "$repo/bench/agent/gen-export.py" "$1" "$file" >/dev/null
  echo "$file"
}

# Runs the agent under GNU time; prints the elapsed seconds and the peak RSS (MiB) from its report.
timed() {
  /usr/bin/time -v -o "$work/time.txt" "$AGENT_BIN" "$@" >"$work/agent.out"
  elapsed="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt" \
             | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')"
  rss_mib="$(awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$work/time.txt")"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); server $SERVER_BIN; agent $AGENT_BIN"
case "$what" in
import)
  file="$(export_for "$amount")"
  bytes="$(stat -c %s "$file")"
  timed import "$file" --patient alice --batch-size "${BATCH_SIZE:-5000}" --quiet
  records="$(sed -n 's/^records: \([0-9]*\).*/\1/p' "$work/agent.out")"
  sed 's/^/  /' "$work/agent.out"
  awk -v r="$records" -v s="$elapsed" -v b="$bytes" -v m="$rss_mib" 'BEGIN {
    printf "import: %d records (%.0f MiB) in %.1f s: %.0f records/s, %.1f MiB/s; agent peak RSS %s MiB\n", r, b / 1048576, s, r / s, b / 1048576 / s, m }'
  ;;
mirror)
  # Step counts make up 70 % of a generated export and one record is about 390 bytes: size the export so
  # that it holds about $amount importable records, import it (not timed), then time the catch-up.
  file="$(export_for "$(( amount * 98 / 100 * 400 / 1024 + 64 ))K")"
  "$AGENT_BIN" import "$file" --patient alice --quiet >"$work/load.out"
  timed mirror --patient alice --into "$work/replica.sqlite" --page-size "${PAGE_SIZE:-5000}" --quiet
  sed 's/^/  /' "$work/agent.out"
  samples="$(sed -n 's/.*: \([0-9]*\) samples, \([0-9]*\) changes applied.*/\2/p' "$work/agent.out")"
  awk -v n="$samples" -v s="$elapsed" -v m="$rss_mib" 'BEGIN {
    printf "mirror catch-up: %d changes in %.1f s: %.0f records/s, verification included; agent peak RSS %s MiB\n", n, s, n / s, m }'
  ;;
esac
