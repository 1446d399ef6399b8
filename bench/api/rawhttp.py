"""One HTTP/1.1 request per connection over asyncio, for the API benchmarks that hold many connections."""
import asyncio, json, sys, urllib.parse


async def request(host, port, method, path, token, body=None):
    """Sends one request (JSON body if given) and returns (status, body bytes)."""
    reader, writer = await asyncio.open_connection(host, port)
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return int(raw.split(b" ", 2)[1]), raw.split(b"\r\n\r\n", 1)[1]


async def head_anchor(host, port, patient, token):
    """Pages the patient's feed to its end and returns the anchor there, so waiters start with nothing new."""
    anchor = None
    while True:
        path = f"/v1/patients/{patient}/changes?limit=5000" + (f"&anchor={anchor}" if anchor else "")
        status, body = await request(host, port, "GET", path, token)
        page = json.loads(body)
        anchor = page["anchor"]
        if not page["hasMore"]:
            return anchor


def arguments():
    """BASE_URL DEVICE_TOKEN PATIENT WRITER_TOKEN [COUNT] from the command line: (host, port, device, patient, writer, count)."""
    base, device, patient, writer = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    url = urllib.parse.urlparse(base)
    return url.hostname, url.port, device, patient, writer, count
