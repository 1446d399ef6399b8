#!/usr/bin/env python3
"""Differential check of CareSync's HTTP/1.1 request parser against llhttp (Python httptools).

The same raw requests go to our server (http-bench-server, over loopback) and to llhttp.
Fails if we accept framing llhttp rejects: a request we answer (not with a parse error) that
llhttp errors on before completing it, or a request both accept whose body or message count differs.

usage: http-differential.py SERVER_BINARY [--mutants N] [--seed S]
"""
import argparse, os, random, socket, subprocess, sys, time

import httptools

PARSE_ERRORS = {400, 408, 413, 414, 417, 431, 501, 505}
POST = "POST /echo HTTP/1.1\r\nHost: a\r\n"
GET = "GET /hello HTTP/1.1\r\nHost: a\r\n"

BASE = [
    GET + "\r\n",
    GET + "Accept: */*\r\nX-Empty:\r\n\r\n",
    POST + "Content-Length: 5\r\n\r\nhello",
    POST + "Content-Length: 00005\r\n\r\nhello",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: Chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: x\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5;a=\"q\\\"x\"\r\nhello\r\n0\r\n\r\n",
    "GET /hello HTTP/1.0\r\n\r\n",
    "GET http://a/hello HTTP/1.1\r\nHost: a\r\n\r\n",
    GET + "\r\n" + POST + "Content-Length: 2\r\n\r\nok" + GET + "\r\n",
    "\r\n" + GET + "\r\n",
]

SMUGGLING = [
    POST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
    POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    POST + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: identity\r\n\r\n",
    POST + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding:  chunked \r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: \tchunked\r\n\r\n0\r\n\r\n",
    POST + "Transfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n",
    POST + " Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "X: y\r\n Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    POST + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
    POST + "Content-Length: 5, 10\r\n\r\nhello",
    POST + "Content-Length: 5,5\r\n\r\nhello",
    POST + "Content-Length: +5\r\n\r\nhello",
    POST + "Content-Length: -1\r\n\r\nhello",
    POST + "Content-Length: 0x5\r\n\r\nhello",
    POST + "Content-Length: 5 5\r\n\r\nhello",
    POST + "Content-Length: 1234567890123456789012345\r\n\r\nhello",
    POST + "Content-Length : 5\r\n\r\nhello",
    POST + "Content-Length:\x0b5\r\n\r\nhello",
    GET + "X-Folded: a\r\n b\r\n\r\n",
    GET + "X-Nul: a\x00b\r\n\r\n",
    GET + "X-Del: a\x7fb\r\n\r\n",
    GET + "X-Cr: a\rb\r\n\r\n",
    GET + "X-Obs: caf\xe9\r\n\r\n",
    "GET /hello HTTP/1.1\r\n\r\n",
    GET + "Host: b\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff1\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n-1\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5;\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5;a b\r\nhello\r\n0\r\n\r\n",
    POST + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nBad Trailer\r\n\r\n",
    "GET /" + "a" * 9000 + " HTTP/1.1\r\nHost: a\r\n\r\n",
    GET + "".join("X-H%d: v\r\n" % i for i in range(200)) + "\r\n",
    POST + "Content-Length: 1000000000000\r\n\r\n",
    "GET /hello HTTP/1.1\nHost: a\n\n",
    "GET /hello HTTP/1.1\r\nHost: a\n\r\n",
    "GET /hello HTTP/1.1\r\nHost: a\r\n\n",
    "GET /hello HTTP/2.0\r\nHost: a\r\n\r\n",
    "GET /hello HTTP/1.2\r\nHost: a\r\n\r\n",
    "GET /hello http/1.1\r\nHost: a\r\n\r\n",
    "GET  /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /hello  HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /hello HTTP/1.1 \r\nHost: a\r\n\r\n",
    "GET\t/hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /he llo HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /he\x01llo HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /hello#frag HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://a\"/hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://u@a/hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://a:8080/hello?x=1 HTTP/1.1\r\nHost: a\r\n\r\n",
    "G@T /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "FOO /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    "get /hello HTTP/1.1\r\nHost: a\r\n\r\n",
    POST + "Expect: 200-ok\r\nContent-Length: 1\r\n\r\nx",
    POST + "Transfer-Encoding: ,chunked\r\n\r\n0\r\n\r\n",
    POST + ": empty-name\r\nContent-Length: 0\r\n\r\n",
    POST + "X@Y: z\r\nContent-Length: 0\r\n\r\n",
]

SPECIAL = [b" ", b"\t", b"\r", b"\n", b"\x00", b",", b";", b"\"", b"\x7f", b"\x80", b":", b"0", b"f", b"-", b"+", b"\r\n"]


def mutants(rng, count):
    valid = [s.encode("latin-1") for s in BASE]
    invalid = [s.encode("latin-1") for s in SMUGGLING if len(s) < 2000]
    out = []
    for _ in range(count):
        data = bytearray(rng.choice(valid if rng.random() < 0.7 else invalid))
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(data) + 1)
            op = rng.random()
            if op < 0.4:
                data[pos:pos] = rng.choice(SPECIAL)
            elif op < 0.7 and pos < len(data):
                del data[pos]
            elif pos < len(data):
                data[pos:pos + 1] = rng.choice(SPECIAL)
        out.append(bytes(data))
    return out


class Collector:
    def __init__(self):
        self.messages = []
        self.body = b""
        self.url = b""

    def on_url(self, url):
        self.url += url

    def on_message_begin(self):
        self.body = b""
        self.url = b""

    def on_body(self, body):
        self.body += body

    def on_message_complete(self):
        self.messages.append((self.url, self.body))


def llhttp(raw):
    """(messages completed, error or None)."""
    collector = Collector()
    parser = httptools.HttpRequestParser(collector)
    try:
        parser.feed_data(raw)
    except httptools.HttpParserUpgrade:
        return collector.messages, "upgrade"
    except httptools.HttpParserError as error:
        return collector.messages, str(error) or type(error).__name__
    return collector.messages, None


def read_responses(sock):
    data = b""
    sock.settimeout(5)
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
    responses = []
    while data.startswith(b"HTTP/1.1 "):
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            break
        head = data[:head_end].decode("latin-1").split("\r\n")
        status = int(head[0].split(" ")[1])
        fields = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        rest = data[head_end + 4:]
        if status == 100:
            data = rest
            continue
        length = int(fields.get("content-length", "0"))
        responses.append((status, rest[:length]))
        data = rest[length:]
    return responses


def ours(port, raw):
    sock = socket.create_connection(("127.0.0.1", port))
    try:
        sock.sendall(raw)
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    try:
        return read_responses(sock)
    finally:
        sock.close()


def main():
    args = argparse.ArgumentParser()
    args.add_argument("server")
    args.add_argument("--mutants", type=int, default=3000)
    args.add_argument("--seed", type=int, default=int(time.time()))
    args.add_argument("--verbose", action="store_true")
    options = args.parse_args()
    print("differential seed %d" % options.seed, flush=True)
    rng = random.Random(options.seed)

    server = subprocess.Popen([options.server, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.strip().rsplit(":", 1)[1])
        cases = [s.encode("latin-1") for s in BASE + SMUGGLING] + mutants(rng, options.mutants)
        failures = 0
        stats = {"both accept": 0, "both reject": 0, "only llhttp accepts": 0, "llhttp incomplete": 0}
        for raw in cases:
            messages, error = llhttp(raw)
            responses = ours(port, raw)
            accepted = [r for r in responses if r[0] not in PARSE_ERRORS]
            problem = None
            if len(accepted) > len(messages):
                problem = "we answered %d request(s), llhttp completed %d (error: %s)" % (len(accepted), len(messages), error)
            else:
                for (status, body), (url, llbody) in zip(accepted, messages):
                    if url.endswith(b"/echo") and status == 200 and body != llbody:
                        problem = "body differs: ours %r, llhttp %r" % (body[:60], llbody[:60])
            ll_ok = error is None and len(messages) > 0
            our_ok = len(accepted) > 0 and len(accepted) == len(responses)
            if problem:
                failures += 1
                print("FAIL %r\n     %s" % (raw[:300], problem))
            elif ll_ok and our_ok:
                stats["both accept"] += 1
            elif ll_ok:
                stats["only llhttp accepts"] += 1
                if options.verbose:
                    print("only llhttp accepts %r -> ours %r" % (raw[:200], [r[0] for r in responses]))
            elif error is None:
                stats["llhttp incomplete"] += 1
            else:
                stats["both reject"] += 1
        print("cases %d, failures %d, %s" % (len(cases), failures, stats))
        return 1 if failures else 0
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
