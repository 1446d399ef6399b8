# Sourced by the API benchmarks: the phases of bench/api/run.sh, against one CareSync instance or several on one database.
#   bench_setup             caresync_prepare, bench_accounts, caresync_serve and the bodies (bench/api/bodies.py)
#   bench_accounts          creates the patients and device tokens with "$bin" (the environment names the database)
#   bench_phases URL [URL…] ingest, repost, single POSTs and the 100,000-sample pull; with several URLs each wrk phase
#                           runs one wrk per instance with its share of the connections, at once, and sums them;
#                           the pull posts through the first instance and pulls once from the first and once from the last
# Needs $bin, $work, and the bodies of bench/api/bodies.py in $work. Prints the lines bench/postgres/table.py reads.
# bench_setup: the release build on a fresh database, the bench's accounts, one instance serving ($url, $pid), the bodies.
bench_setup() {
  caresync_prepare
  bench_accounts
  caresync_serve
  python3 bench/api/bodies.py caresync "$work"
}

bench_accounts() {
  local p
  # Patients of a care team, as a clinic's are: alert evaluation runs after their writes as in production.
  "$bin" care-team create bench >/dev/null
  for p in ingest repost single pull; do "$bin" patient create "$p" >/dev/null; "$bin" care-team add-patient bench "$p" >/dev/null; done
  t_ingest="$("$bin" token create --role device --patient ingest 2>/dev/null)"
  t_repost="$("$bin" token create --role device --patient repost 2>/dev/null)"
  t_single="$("$bin" token create --role device --patient single 2>/dev/null)"
  t_pull="$("$bin" token create --role device --patient pull 2>/dev/null)"
}

# bench_wrk NAME CONNECTIONS WRK_ARGS…: one wrk per URL of $urls with CONNECTIONS split between them, at once;
# prints their output and sets $rps to the sum of their requests per second.
bench_wrk() {
  local name="$1" connections="$2"; shift 2
  local share=$((connections / ${#urls[@]})) i=0 u wrk_pids=()
  for u in "${urls[@]}"; do
    STRETCH=$((i * 2)) wrk -t2 -c"$share" "$@" "$u" >"$work/$name-$i.txt" &
    wrk_pids+=($!)
    i=$((i + 1))
  done
  wait "${wrk_pids[@]}"
  cat "$work/$name"-*.txt
  rps=$(awk '/Requests\/sec/ {sum += $2} END {printf "%.2f", sum}' "$work/$name"-*.txt)
}

bench_phases() {
  urls=("$@")
  local here=bench/api duration="${DURATION:-20s}" i
  echo "== ingest, 500 new samples per POST, 4 connections over ${#urls[@]} instance(s), $duration"
  TARGET_PATH=/v1/patients/ingest/samples AUTH="Bearer $t_ingest" bench_wrk ingest 4 -d"$duration" -s "$here/ingest.lua"
  echo "ingest: $(python3 -c "print(f'{$rps * 500:,.0f}')") samples/s"

  echo "== ingest, the same 500 samples posted again and again, 4 connections over ${#urls[@]} instance(s), $duration"
  BODY_FILE="$work/batch500.json" TARGET_PATH=/v1/patients/repost/samples AUTH="Bearer $t_repost" \
    bench_wrk repost 4 -d"$duration" -s "$here/post.lua"
  echo "ingest (same body): $(python3 -c "print(f'{$rps * 500:,.0f}')") samples/s"

  echo "== single-sample POSTs, 32 connections over ${#urls[@]} instance(s), $duration"
  BODY_FILE="$work/one.json" TARGET_PATH=/v1/patients/single/samples AUTH="Bearer $t_single" \
    bench_wrk single 32 -d"$duration" --latency -s "$here/post.lua"
  echo "single: $(python3 -c "print(f'{$rps:,.0f}')") requests/s"

  echo "== pull 100,000 samples from no anchor, limit 5,000, gzip"
  for i in $(seq 1 20); do
    curl -sf -o /dev/null -X POST "${urls[0]}/v1/patients/pull/samples" -H "Authorization: Bearer $t_pull" \
      -H 'Content-Type: application/json' --data-binary @"$work/batch5000-$i.json"
  done
  python3 "$here/pull.py" caresync "${urls[0]}" pull "$t_pull" 5000
  python3 "$here/pull.py" caresync "${urls[${#urls[@]} - 1]}" pull "$t_pull" 5000
}
