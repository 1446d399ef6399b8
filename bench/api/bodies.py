#!/usr/bin/env python3
"""Writes the request bodies of the API benchmark: bodies.py caresync|kinto DIR."""
import json, sys

kind, out = sys.argv[1], sys.argv[2]

def sample(i, minute_offset=0):
    m = i + minute_offset
    day, minute = divmod(m, 1440)
    start = f"2020-{1 + day // 28:02d}-{1 + day % 28:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"
    end = f"2020-{1 + day // 28:02d}-{1 + day % 28:02d}T{minute // 60:02d}:{minute % 60:02d}:30Z"
    return {"type": "stepCount", "value": 40 + i % 60, "unit": "count", "start": start, "end": end,
            "metadata": {"wasUserEntered": False}}

if kind == "caresync":
    json.dump({"samples": [sample(i) for i in range(500)]}, open(f"{out}/batch500.json", "w"))
    json.dump({"samples": [sample(7)]}, open(f"{out}/one.json", "w"))
    for b in range(1, 21):
        json.dump({"samples": [sample(i, (b - 1) * 5000) for i in range(5000)]}, open(f"{out}/batch5000-{b}.json", "w"))
else:
    coll = "/buckets/bench/collections"
    def batch(name, n, offset=0):
        return {"defaults": {"method": "POST", "path": f"{coll}/{name}/records"},
                "requests": [{"body": {"data": sample(i, offset)}} for i in range(n)]}
    json.dump({"data": sample(7)}, open(f"{out}/one.json", "w"))
    for b in range(1, 201):
        json.dump(batch("pull", 500, (b - 1) * 500), open(f"{out}/pull500-{b}.json", "w"))
