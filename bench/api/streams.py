#!/usr/bin/env python3
"""1,000 event streams on one server: how soon after a commit does the last one get the change?

Usage: bench/api/streams.py BASE_URL DEVICE_TOKEN PATIENT WRITER_TOKEN [STREAMS]
Each stream holds GET /v1/patients/PATIENT/changes with Accept: text/event-stream from the head anchor, on its own
connection. Once every stream answered its head, one sample is posted; the script prints the distribution of
(event with the sample received - commit acknowledged) over all streams. Prints figures; asserts nothing.
"""
import asyncio, time

from rawhttp import arguments, head_anchor, request

async def main():
    host, port, device, patient, writer_token, count = arguments()
    head = await head_anchor(host, port, patient, device)
    ready, received = asyncio.Event(), []
    opened = 0

    async def stream_one():
        nonlocal opened
        reader, writer = await asyncio.open_connection(host, port)
        writer.write((f"GET /v1/patients/{patient}/changes?anchor={head} HTTP/1.1\r\nHost: {host}\r\n"
                      f"Authorization: Bearer {device}\r\nAccept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        first = True
        while True:
            line = await reader.readline()
            if not line:
                break
            if b'"samples":[{' in line:
                received.append(time.monotonic())
                break
            if first and line.startswith(b"data:"):
                first = False
                opened += 1
                if opened == count:
                    ready.set()
        writer.close()

    tasks = [asyncio.create_task(stream_one()) for _ in range(count)]
    try:
        await asyncio.wait_for(ready.wait(), 60)
    except asyncio.TimeoutError:
        pass
    print(f"streams open with their first event: {opened} of {count}")
    sample = {"type": "stepCount", "value": 12, "unit": "count", "start": "2020-06-18T10:00:00Z", "end": "2020-06-18T10:01:00Z"}
    sent = time.monotonic()
    status, _ = await request(host, port, "POST", f"/v1/patients/{patient}/samples", writer_token, {"samples": [sample]})
    committed = time.monotonic()
    await asyncio.wait(tasks, timeout=30)
    lat = sorted((t - committed) * 1000 for t in received)
    print(f"commit POST: {status} in {(committed - sent) * 1000:.1f} ms")
    print(f"streams that got the sample: {len(lat)} of {count}")
    if lat:
        since_sent = sorted((t - sent) * 1000 for t in received)
        print(f"delivery after the POST was sent (ms): first {since_sent[0]:.1f}, p50 {since_sent[len(lat)//2]:.1f}, "
              f"last {since_sent[-1]:.1f}")
        print(f"delivery after its 200 arrived (ms; negative: before it): first {lat[0]:.1f}, p50 {lat[len(lat)//2]:.1f}, "
              f"p99 {lat[max(0, int(len(lat)*0.99)-1)]:.1f}, last {lat[-1]:.1f}")
    for task in tasks:
        task.cancel()

asyncio.run(main())
