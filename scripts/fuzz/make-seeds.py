#!/usr/bin/env python3
"""Writes the fuzz seed corpus: valid requests and every smuggling case of the tests.
The first byte of each seed is the fuzzer's mode byte (split step and limits)."""
import os, sys

POST = "POST /echo HTTP/1.1\r\nHost: a\r\n"
SEEDS = [
    "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /v1/patients/p1/changes?anchor=abc&wait=5 HTTP/1.1\r\nHost: example.org\r\nAccept: */*\r\n\r\n",
    POST + "Content-Length: 5\r\n\r\nhello",
    POST + "Transfer-Encoding: chunked\r\n\r\n5;name=value;q=\"a\\\"b\"\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
    "\r\nGET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "GET http://example.org/p?q=1 HTTP/1.1\r\nHost: example.org\r\n\r\n",
    "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
    POST + "Expect: 100-continue\r\nContent-Length: 1\r\n\r\nx",
    "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n",
    POST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    POST + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: identity\r\n\r\n",
    "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
    POST + "Content-Length: 5, 10\r\n\r\nhello",
    POST + "Content-Length: +5\r\n\r\nhello",
    POST + "Content-Length: -1\r\n\r\nhello",
    POST + "Content-Length: 0x5\r\n\r\nhello",
    POST + "Content-Length: 1234567890123456789012345\r\n\r\nhello",
    POST + "Content-Length : 5\r\n\r\nhello",
    "GET /hello HTTP/1.1\r\nHost: a\r\nX-Folded: a\r\n b\r\n\r\n",
    "GET /hello HTTP/1.1\r\nHost: a\r\nX-Nul: a\x00b\r\n\r\n",
    "GET /hello HTTP/1.1\r\n\r\n",
    "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff1\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n-1\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
    "GET /" + "a" * 9000 + " HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /hello HTTP/1.1\r\nHost: a\r\n" + "".join("X-H%d: v\r\n" % i for i in range(200)) + "\r\n",
    POST + "Content-Length: 1000000000000\r\n\r\n",
    "GET /hello HTTP/1.1\nHost: a\n\n",
]

def main(directory):
    os.makedirs(directory, exist_ok=True)
    for n, seed in enumerate(SEEDS):
        data = seed.encode("latin-1")
        for mode in (0x7F, 0x00, 0x83):
            with open(os.path.join(directory, "seed-%02d-%02x" % (n, mode)), "wb") as f:
                f.write(bytes([mode]) + data)

if __name__ == "__main__":
    main(sys.argv[1])
