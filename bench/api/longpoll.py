#!/usr/bin/env python3
"""1,000 device agents long-polling one server: are they all parked, and how soon after a commit do they wake?

Usage: bench/api/longpoll.py BASE_URL DEVICE_TOKEN PATIENT WRITER_TOKEN [WAITERS]
Each waiter holds GET /v1/patients/PATIENT/changes?anchor=HEAD&wait=30 on its own keep-alive
connection. Once all are parked (per /metrics), one sample is posted; the script prints the
distribution of (answer received - commit acknowledged) over all waiters.
"""
import asyncio, json, time

from rawhttp import arguments, head_anchor, request

async def metric(host, port, name):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /metrics HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    raw = (await reader.read()).decode()
    writer.close()
    for line in raw.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    return 0.0

async def main():
    host, port, device, patient, writer_token, waiters = arguments()
    head = await head_anchor(host, port, patient, device)
    woke = []
    async def wait_one():
        status, body = await request(host, port, "GET", f"/v1/patients/{patient}/changes?anchor={head}&wait=30", device)
        woke.append((time.monotonic(), status, len(json.loads(body)["samples"])))
    tasks = [asyncio.create_task(wait_one()) for _ in range(waiters)]
    deadline = time.monotonic() + 20
    parked = 0.0
    while time.monotonic() < deadline:
        parked = await metric(host, port, "caresync_feed_parked_long_polls")
        if parked >= waiters:
            break
        await asyncio.sleep(0.1)
    print(f"parked long polls: {int(parked)} of {waiters}")
    sample = {"type": "stepCount", "value": 12, "unit": "count", "start": "2020-06-18T10:00:00Z", "end": "2020-06-18T10:01:00Z"}
    sent = time.monotonic()
    status, _ = await request(host, port, "POST", f"/v1/patients/{patient}/samples", writer_token, {"samples": [sample]})
    committed = time.monotonic()
    await asyncio.gather(*tasks)
    lat = sorted((t - committed) * 1000 for t, _, _ in woke)
    ok = sum(1 for _, s, n in woke if s == 200 and n == 1)
    print(f"commit POST: {status} in {(committed - sent) * 1000:.1f} ms")
    print(f"waiters answered 200 with the new sample: {ok} of {waiters}")
    print(f"wake latency after the commit was acknowledged (ms): first {lat[0]:.1f}, p50 {lat[len(lat)//2]:.1f}, "
          f"p99 {lat[int(len(lat)*0.99)-1]:.1f}, max {lat[-1]:.1f}")

asyncio.run(main())
