#!/usr/bin/env bash
# Release builds of the working tree that differ only in where the code lies: variant 0 is the tree as it is, variant
# k adds one function nobody calls, of k times 37 elements, to CareSyncHTTP (then removed again). A build with one
# unused function moved the wake of 10,000 polls by 5 % (docs/benchmarks.md, twenty-eighth session), as much as the
# changes it was meant to judge: compare two trees by two or more variants of each, never by one binary each.
# The builds are deterministic, so a variant of the same tree is the same binary every time.
#   VARIANTS=2 bench/api/layout-variants.sh NAME    # /tmp/caresync-NAME-l0, /tmp/caresync-NAME-l1
# Prints the BENCH_BINS entries for bench/api/wake-compare.sh and bench/api/door.sh. Do not run it while benchmarks run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib/release-build.sh
name="${1:?usage: bench/api/layout-variants.sh NAME}"
variants="${VARIANTS:-2}"
pad=Sources/CareSyncHTTP/LayoutVariantPad.swift
trap 'rm -f "$pad"' EXIT
entries=()
for ((k = 0; k < variants; k++)); do
  rm -f "$pad"
  if ((k > 0)); then
    {
      echo "/// A layout variant's pad (bench/api/layout-variants.sh); never committed, never called."
      echo "@inline(never) public func layoutVariantPad(_ x: [Int]) -> Int {"
      echo "    let table: [Int] = [$(seq -s ', ' 1 $((k * 37)))]"
      echo "    return zip(x, table).reduce(0) { \$0 &* 31 &+ \$1.0 &* \$1.1 }"
      echo "}"
    } > "$pad"
  fi
  cp "$(release_build caresync)" "/tmp/caresync-$name-l$k"
  entries+=("$name$k=/tmp/caresync-$name-l$k")
done
rm -f "$pad"
release_build caresync >/dev/null  # the tree's own build again, where the next build expects it
echo "${entries[*]}"
