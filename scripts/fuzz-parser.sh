#!/usr/bin/env bash
# libFuzzer over the HTTP request parser (not in CI).
#   scripts/fuzz-parser.sh [seconds]   (default 600)
# swift build cannot link -sanitize=fuzzer here, so the parser sources are compiled directly with swiftc.
# Seeds: the valid and smuggling requests of the tests, written to .build/fuzz/seeds by scripts/fuzz/make-seeds.py.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
out=.build/fuzz
mkdir -p "$out/corpus" "$out/artifacts"
src=Sources/CareSyncHTTP
swiftc -parse-as-library -sanitize=fuzzer,address -O -g \
  "$src/ParserLimits.swift" "$src/RequestParser.swift" "$src/RequestParser+Syntax.swift" "$src/RequestParser+Framing.swift" \
  scripts/fuzz/FuzzParser.swift -o "$out/fuzz-parser"
python3 scripts/fuzz/make-seeds.py "$out/seeds"
echo "fuzzing for ${seconds}s; corpus in $out/corpus, crashes in $out/artifacts"
"$out/fuzz-parser" -max_total_time="$seconds" -max_len=16384 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$out/corpus" "$out/seeds"
