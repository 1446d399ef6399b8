#!/usr/bin/env python3
"""The table of bench/postgres/run.sh: table.py SQLITE.txt PG1.txt PG2.txt [KINTO.txt], each the output of
bench/api/phases.sh (Kinto's of bench/api/kinto.sh). Ratios are PostgreSQL's figure over SQLite's (over Kinto's),
with the pull as a speed (the inverse of its time), so above 1 is always faster."""
import re, sys

def figures(path):
    """Per second: ingest samples, repost samples (None for Kinto), single requests; the pull's best time in s."""
    text = open(path).read()
    def per_second(pattern):
        found = re.search(pattern, text, re.M)
        return float(found.group(1).replace(",", "")) if found else None
    ingest = per_second(r"^ingest: ([\d,]+) (?:samples|records)/s")
    repost = per_second(r"^ingest \(same body\): ([\d,]+) samples/s")
    single = per_second(r"^single: ([\d,]+) requests/s")
    if single is None:  # kinto.sh: the first wrk figure after its single-record header
        single = float(re.search(r"Requests/sec:\s+([\d.]+)", text[text.index("== single-"):]).group(1))
    pulls = [float(x) for x in re.findall(r"pulled \d+ items in \d+ pages, \d+ bytes on the wire, ([\d.]+) s", text)]
    return {"ingest": ingest, "repost": repost, "single": single, "pull": min(pulls)}

sqlite, pg1, pg2 = (figures(p) for p in sys.argv[1:4])
kinto = figures(sys.argv[4]) if len(sys.argv) > 4 else None
rows = [("ingest, 500 new samples/request (samples/s)", "ingest"), ("same 500 again (samples/s)", "repost"),
        ("single-sample POSTs, 32 conns (req/s)", "single"), ("pull 100,000, best of 2 (s)", "pull")]

def show(value, key):
    return "-" if value is None else (f"{value:.3f}" if key == "pull" else f"{value:,.0f}")

def ratio(a, b, key):
    if a is None or b is None:
        return "-"
    return f"{(b / a if key == 'pull' else a / b):.2f}"

head = ["", "SQLite", "PG x1", "PG x2", "PG x1÷SQLite", "PG x2÷SQLite"] + (["Kinto", "PG x1÷Kinto"] if kinto else [])
table = [head]
for label, key in rows:
    row = [label, show(sqlite[key], key), show(pg1[key], key), show(pg2[key], key),
           ratio(pg1[key], sqlite[key], key), ratio(pg2[key], sqlite[key], key)]
    if kinto:
        row += [show(kinto[key], key), ratio(pg1[key], kinto[key], key)]
    table.append(row)
widths = [max(len(r[i]) for r in table) for i in range(len(head))]
print("== CareSync on PostgreSQL (1 and 2 instances) beside SQLite" + (" and Kinto + PostgreSQL" if kinto else ""))
for r in table:
    print("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
best = max(pg1["ingest"], pg2["ingest"])
print("(ratios of the pull are speeds: the other's time over PostgreSQL's)")
print(f"issue 17: PostgreSQL ingest (the better of x1 and x2) / SQLite's = {best / sqlite['ingest']:.2f} (target >= 0.50)"
      + (f"; / Kinto's = {best / kinto['ingest']:.0f}x (target >= 100x)" if kinto else ""))
