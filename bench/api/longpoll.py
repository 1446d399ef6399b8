#!/usr/bin/env python3
"""1,000 device agents long-polling one server: are they all parked, and how soon after a commit do they wake?

Usage: bench/api/longpoll.py BASE_URL DEVICE_TOKEN PATIENT WRITER_TOKEN [WAITERS]
Each waiter holds GET /v1/patients/PATIENT/changes?anchor=HEAD&wait=60 on its own keep-alive
connection. Once all are parked (per /metrics), one sample is posted; the script prints the
distribution of (answer received - commit acknowledged) over all waiters. With SERVER_PID set it also
prints the server's resident memory before the waiters connect and once they are parked.
"""
import asyncio, json, os, time

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

def resident_kb():
    """The server's VmRSS in kB (SERVER_PID), or None."""
    pid = os.environ.get("SERVER_PID")
    if not pid:
        return None
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0])

async def main():
    host, port, device, patient, writer_token, waiters = arguments()
    head = await head_anchor(host, port, patient, device)
    idle = resident_kb()
    woke, refused = [], []
    async def wait_one():
        status, body = await request(host, port, "GET", f"/v1/patients/{patient}/changes?anchor={head}&wait=60", device)
        answer = json.loads(body or b"{}")
        if status != 200:
            refused.append((status, answer.get("code"), answer.get("detail")))
        woke.append((time.monotonic(), status, len(answer.get("samples", []))))
    tasks = [asyncio.create_task(wait_one()) for _ in range(waiters)]
    deadline = time.monotonic() + 45
    parked = 0.0
    while time.monotonic() < deadline:
        parked = await metric(host, port, "caresync_feed_parked_long_polls")
        if parked >= waiters:
            break
        await asyncio.sleep(0.1)
    print(f"parked long polls: {int(parked)} of {waiters}")
    busy = resident_kb()
    if idle is not None and parked:
        print(f"server memory: {idle / 1024:.1f} MB before, {busy / 1024:.1f} MB with {int(parked)} parked "
              f"({(busy - idle) / parked:.1f} kB per parked poll)")
    sample = {"type": "stepCount", "value": 12, "unit": "count", "start": "2020-06-18T10:00:00Z", "end": "2020-06-18T10:01:00Z"}
    sent = time.monotonic()
    status, _ = await request(host, port, "POST", f"/v1/patients/{patient}/samples", writer_token, {"samples": [sample]})
    committed = time.monotonic()
    await asyncio.gather(*tasks)
    lat = sorted((t - committed) * 1000 for t, _, _ in woke)
    ok = sum(1 for _, s, n in woke if s == 200 and n == 1)
    print(f"commit POST: {status} in {(committed - sent) * 1000:.1f} ms")
    print(f"waiters answered 200 with the new sample: {ok} of {waiters}")
    if refused:
        kinds = {}
        for r in refused: kinds[r] = kinds.get(r, 0) + 1
        print("refused:", "; ".join(f"{n} x {status} {code}: {detail}" for (status, code, detail), n in kinds.items()))
    print(f"wake latency after the commit was acknowledged (ms): first {lat[0]:.1f}, p50 {lat[len(lat)//2]:.1f}, "
          f"p99 {lat[int(len(lat)*0.99)-1]:.1f}, max {lat[-1]:.1f}")

asyncio.run(main())
