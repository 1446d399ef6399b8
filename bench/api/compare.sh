#!/usr/bin/env bash
# The API benchmark in one run: bench/api/run.sh (CareSync), then bench/api/kinto.sh (Kinto + PostgreSQL)
# doing the same work, then each figure as a ratio to Kinto's. Needs root (Kinto's PostgreSQL).
#   DURATION=15s bench/api/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${OUT_DIR:-$(mktemp -d)}"
bench/api/run.sh 2>&1 | tee "$out/caresync.txt"
bench/api/kinto.sh 2>&1 | tee "$out/kinto.txt"
python3 - "$out/caresync.txt" "$out/kinto.txt" <<'PY'
import re, sys

def figures(path):
    text = open(path).read()
    ingest = float(re.search(r"^ingest: ([\d,]+) (?:samples|records)/s", text, re.M).group(1).replace(",", ""))
    single_block = text[text.index("== single-"):]
    single = float(re.search(r"Requests/sec:\s+([\d.]+)", single_block).group(1))
    pulls = [float(x) for x in re.findall(r"pulled \d+ items in \d+ pages, \d+ bytes on the wire, ([\d.]+) s", text)]
    return ingest, single, min(pulls)

c, k = figures(sys.argv[1]), figures(sys.argv[2])
print("== CareSync vs Kinto + PostgreSQL (same work, same machine, one after the other)")
print(f"ingest, 500 new samples per request: {c[0]:,.0f} vs {k[0]:,.0f} per s -> {c[0] / k[0]:.1f}x  (target >= 50,000/s)")
print(f"single-sample POSTs, 32 connections: {c[1]:,.0f} vs {k[1]:,.0f} req/s -> {c[1] / k[1]:.1f}x  (target >= 10,000/s)")
print(f"pull 100,000 from no anchor (best of 2): {c[2]:.3f} s vs {k[2]:.3f} s -> {k[2] / c[2]:.2f}x faster  (target <= 1.5 s)")
PY
