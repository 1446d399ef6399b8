#!/usr/bin/env python3
"""Opens N keep-alive connections, makes one request on each, then holds them idle.
usage: idle.py PORT N READY_FILE   (writes the count of live connections to READY_FILE when ready)"""
import socket, sys, time

port, count, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
socks = []
for i in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
    socks.append(s)
live = 0
for s in socks:
    s.settimeout(10)
    data = b""
    while b"Hello, world!" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    live += data.startswith(b"HTTP/1.1 200")
with open(ready, "w") as f:
    f.write(str(live))
time.sleep(3600)
