#!/usr/bin/env python3
"""A clinic system's webhook endpoint, for scripts/ci-webhooks.sh and bench/webhooks/run.sh.

Every POST is verified with the Standard Webhooks reference library (`standardwebhooks`) against the secret of its
path (a JSON file {"/hook/a": "whsec_…"} read at each request), logged as one JSON line, and answered by the mode
named in the mode file (read at each request):
  ok     200 at once (400 when the signature does not verify)
  slow   answers after --slow seconds (longer than CareSync's timeout: the attempt fails and is retried)
  hang   touches <mode file>.hanging, then answers after --hang seconds (CareSync is killed meanwhile)
With --no-verify (the benchmark) nothing is verified or logged; requests are only counted.
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secrets", help="JSON file: path -> whsec_ secret")
    parser.add_argument("--mode", help="file holding ok, slow or hang (absent: ok)")
    parser.add_argument("--log", help="JSON lines, one per request")
    parser.add_argument("--slow", type=float, default=3.0)
    parser.add_argument("--hang", type=float, default=1.5)
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    if not args.no_verify:
        from standardwebhooks.webhooks import Webhook, WebhookVerificationError
    lock = threading.Lock()
    counter = {"requests": 0}
    log = open(args.log, "a", buffering=1) if args.log else None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if args.no_verify:
                with lock:
                    counter["requests"] += 1
                self.answer(200)
                return
            mode = "ok"
            if args.mode and os.path.exists(args.mode):
                mode = open(args.mode).read().strip() or "ok"
            secrets = json.load(open(args.secrets))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                payload = Webhook(secrets[self.path]).verify(body, headers)
                verified = True
            except (WebhookVerificationError, KeyError, ValueError) as error:
                payload, verified = None, False
                print(f"receiver: {self.path} did not verify: {error!r}", file=sys.stderr)
            status = 200 if verified else 400
            entry = {"path": self.path, "id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"),
                     "verified": verified, "mode": mode, "received": time.time(), "status": status,
                     "body": body.decode("utf-8", "replace"),
                     "sequence": (payload or {}).get("data", {}).get("sequence")}
            with lock:
                log.write(json.dumps(entry) + "\n")
            if mode == "hang":
                open(args.mode + ".hanging", "w").close()
                time.sleep(args.hang)
            elif mode == "slow":
                time.sleep(args.slow)
            self.answer(status)

        def answer(self, status):
            try:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the sender gave up (a timeout) or died

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.no_verify:
        def report():
            while True:
                time.sleep(1)
                with lock:
                    print(counter["requests"], flush=True)
        threading.Thread(target=report, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
