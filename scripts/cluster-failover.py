"""The failover run against a cluster from scripts/cluster-up.sh (scripts/cluster-failover.sh runs it).

Writers POST one sample each (a unique syncIdentifier) through both CareSync instances and record every write
answered 200. A feed reader follows the change feed by anchor the whole time. Meanwhile: SIGKILL the PostgreSQL
leader; then one CareSync instance (its writers move to the other); then the new leader's Patroni and
PostgreSQL together. Afterwards every acknowledged write must be in the feed read from no anchor, no change
twice, the follower must have seen exactly the same changes once each, and an anchor taken before the
failovers must still read on. Prints the figures; exits 1 on any failure.
Standard library only (http.client, threads): runs on Debian's /usr/bin/python3.
"""

import http.client
import json
import os
import signal
import sys
import threading
import time

CLUSTER = os.environ["CLUSTER_DIR"]
URLS = os.environ["CLUSTER_URLS"].split()
REST = [int(p) for p in os.environ["PATRONI_REST_PORTS"].split()]
TOKENS = os.environ["DEVICE_TOKENS"].split()
PATIENT = os.environ.get("PATIENT", "alice")
PHASE = float(os.environ.get("FAILOVER_PHASE_SECONDS", "8"))  # writes between and after the failures
RESUME_LIMIT = float(os.environ.get("FAILOVER_RESUME_LIMIT_SECONDS", "30"))

T0 = time.monotonic()


def now():
    return time.monotonic() - T0


def log(message):
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())} +{now():5.1f}s] {message}", flush=True)


def host_port(url):
    rest = url.split("//", 1)[1]
    host, port = rest.rsplit(":", 1)
    return host, int(port)


class Client:
    """One keep-alive connection to one instance at a time; `switch()` moves to the next instance."""

    def __init__(self, token, start_index):
        self.token = token
        self.index = start_index
        self.connection = None

    def switch(self):
        self.close()
        self.index = (self.index + 1) % len(URLS)

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, method, path, body=None, timeout=15):
        if self.connection is None:
            host, port = host_port(URLS[self.index])
            self.connection = http.client.HTTPConnection(host, port, timeout=timeout)
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
            return response.status, payload, response.getheader("Retry-After")
        except Exception:
            self.close()
            raise


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.acknowledged = {}  # syncIdentifier -> (token index, time)
        self.statuses = {}
        self.errors = {}
        self.successes = []  # (sent, answered) times of the 200s
        self.server_errors = []  # (time, body) of 5xx other than 503

    def status(self, code):
        with self.lock:
            self.statuses[code] = self.statuses.get(code, 0) + 1


stats = Stats()
stop_writing = threading.Event()


def writer(number, token_index):
    client = Client(TOKENS[token_index], number % len(URLS))
    sequence = 0
    while not stop_writing.is_set():
        sequence += 1
        sid = f"failover-w{number}-{sequence}"
        second = number * 10_000_000 + sequence
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_500_000_000 + second))
        sample = {"type": "stepCount", "value": 1, "unit": "count", "start": start, "end": start,
                  "syncIdentifier": sid, "syncVersion": 1}
        sent = now()
        try:
            code, payload, retry_after = client.request("POST", f"/v1/patients/{PATIENT}/samples", {"samples": [sample]})
        except (ConnectionError, OSError, http.client.HTTPException) as error:
            name = type(error).__name__
            with stats.lock:
                stats.errors[name] = stats.errors.get(name, 0) + 1
            if isinstance(error, ConnectionRefusedError):
                client.switch()  # this instance is gone: use the other
            time.sleep(0.05)
            continue
        stats.status(code)
        if code == 200:
            with stats.lock:
                stats.acknowledged[sid] = (token_index, now())
                stats.successes.append((sent, now()))
        elif code == 503:
            if retry_after is None:
                with stats.lock:
                    stats.server_errors.append((now(), "503 without Retry-After"))
            time.sleep(0.2)
        elif code >= 500:
            with stats.lock:
                stats.server_errors.append((now(), f"{code} {payload[:300]!r}"))
            time.sleep(0.2)
        else:
            with stats.lock:
                stats.server_errors.append((now(), f"{code} {payload[:300]!r}"))


def read_feed(client, anchor=None, wait=0, limit=5000):
    """Pages the feed from `anchor` until hasMore is false; returns (samples in order, last anchor)."""
    samples = []
    while True:
        query = f"limit={limit}&wait={wait}"
        if anchor:
            query += f"&anchor={anchor}"
        code, payload, _ = client.request("GET", f"/v1/patients/{PATIENT}/changes?{query}", timeout=wait + 15)
        if code != 200:
            raise RuntimeError(f"feed answered {code}: {payload[:300]!r}")
        page = json.loads(payload)
        samples.extend(page["samples"])
        anchor = page["anchor"]
        if not page["hasMore"]:
            return samples, anchor


follower_seen = []  # uuids in the order the follower received them
follower_errors = {}
stop_following = threading.Event()


def follower(anchor):
    """Follows the feed by anchor through every failure, long polling; switches instance on connection errors."""
    client = Client(TOKENS[0], 1)
    while not stop_following.is_set():
        try:
            samples, anchor = read_feed(client, anchor, wait=2)
            follower_seen.extend(s["uuid"] for s in samples)
        except (ConnectionError, OSError, http.client.HTTPException, RuntimeError) as error:
            key = str(error)[:60] if isinstance(error, RuntimeError) else type(error).__name__
            follower_errors[key] = follower_errors.get(key, 0) + 1
            if isinstance(error, ConnectionRefusedError):
                client.switch()
            time.sleep(0.2)
    return anchor


def rest(port, path, timeout=1.0):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, body
    except (OSError, http.client.HTTPException):
        return None, b""


def leader():
    """The node name answering 200 on /primary, or None."""
    for index, port in enumerate(REST):
        code, _ = rest(port, "/primary")
        if code == 200:
            return f"n{index + 1}"
    return None


leader_gaps = []  # (start, end) of times with no node answering /primary 200
monitor_stop = threading.Event()


def monitor():
    gap_start = None
    while not monitor_stop.is_set():
        current = leader()
        if current is None and gap_start is None:
            gap_start = now()
        elif current is not None and gap_start is not None:
            leader_gaps.append((gap_start, now()))
            gap_start = None
        time.sleep(0.1)
    if gap_start is not None:
        leader_gaps.append((gap_start, now()))


def pid_file(name):
    with open(os.path.join(CLUSTER, "pids", f"{name}.pid")) as file:
        return int(file.read().split()[0])


def postmaster_pid(node):
    with open(os.path.join(CLUSTER, node, "data", "postmaster.pid")) as file:
        return int(file.readline())


def wait_healthy(timeout=60):
    """Waits until the leader streams to two standbys, one synchronous (the cluster is whole again)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for port in REST:
            code, body = rest(port, "/primary")
            if code == 200:
                replication = json.loads(body).get("replication", [])
                streaming = [r for r in replication if r.get("state") == "streaming"]
                sync = [r for r in replication if r.get("sync_state") in ("sync", "quorum")]
                if len(streaming) == 2 and sync:
                    return True
        time.sleep(0.3)
    return False


def first_success_after(moment, timeout):
    """Seconds from `moment` to the first 200 of a write sent after it (None if none within `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        with stats.lock:
            later = [answered for sent, answered in stats.successes if sent > moment]
        if later:
            return min(later) - moment
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def wait_new_leader(old, moment, timeout=60):
    """Seconds from `moment` until a node other than `old` answers /primary 200 (None if none within `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = leader()
        if current is not None and current != old:
            return now() - moment, current
        time.sleep(0.1)
    return None, None


def main():
    failures = []
    setup = Client(TOKENS[0], 0)
    # An anchor taken before any failover, and the changes up to it.
    early_samples, early_anchor = read_feed(setup)
    log(f"anchor before the failovers taken ({len(early_samples)} changes before it)")

    threads = [threading.Thread(target=monitor, daemon=True)]
    follow_result = {}
    threads.append(threading.Thread(target=lambda: follow_result.setdefault("anchor", follower(early_anchor)), daemon=True))
    writers = [threading.Thread(target=writer, args=(n, n % len(TOKENS)), daemon=True) for n in range(int(os.environ.get("WRITERS", "6")))]
    for thread in threads + writers:
        thread.start()
    time.sleep(PHASE)

    events = []  # (what, when, seconds to a new leader or None)

    def after_failure(name, moment, old_leader=None):
        took, new = wait_new_leader(old_leader, moment) if old_leader else (None, None)
        resumed = first_success_after(moment, RESUME_LIMIT + 5)
        events.append((name, moment, took))
        text = "never" if resumed is None else f"{resumed:.1f} s"
        if old_leader:
            log(f"   new leader {new} after {took if took is None else round(took, 1)} s; first acknowledged write sent after the kill: {text}")
        else:
            log(f"   first acknowledged write sent after the kill: {text}")
        time.sleep(PHASE)

    # 1. SIGKILL the PostgreSQL leader (its postmaster); Patroni promotes the synchronous standby.
    first = leader()
    pid = postmaster_pid(first)
    log(f"1. SIGKILL the PostgreSQL leader: {first}'s postmaster (pid {pid})")
    moment = now()
    os.kill(pid, signal.SIGKILL)
    after_failure(f"SIGKILL PostgreSQL leader {first}", moment, first)

    # 2. SIGKILL one CareSync instance; its clients move to the other.
    pid = pid_file("caresync-1")
    log(f"2. SIGKILL caresync-1 (pid {pid})")
    moment = now()
    os.kill(pid, signal.SIGKILL)
    after_failure("SIGKILL caresync-1", moment)

    # 3. The new leader's host processes: its Patroni and its PostgreSQL, once the cluster is whole again.
    if not wait_healthy():
        failures.append("the killed node did not rejoin as a streaming standby within 60 s")
    second = leader()
    patroni_pid, pg_pid = pid_file(f"patroni-{second}"), postmaster_pid(second)
    log(f"3. SIGKILL the new leader {second}: Patroni (pid {patroni_pid}) and PostgreSQL (pid {pg_pid})")
    moment = now()
    os.kill(patroni_pid, signal.SIGKILL)
    os.kill(pg_pid, signal.SIGKILL)
    after_failure(f"SIGKILL leader {second}'s Patroni + PostgreSQL", moment, second)

    stop_writing.set()
    for thread in writers:
        thread.join(30)
    time.sleep(3)  # let the follower's long poll deliver the last commits
    stop_following.set()
    threads[1].join(30)
    monitor_stop.set()
    threads[0].join(5)

    # Checks: every acknowledged write in the feed from no anchor, nothing twice, the follower saw the same.
    reader = Client(TOKENS[0], 1)
    everything, _ = read_feed(reader)
    uuids = [s["uuid"] for s in everything]
    sids = [s["syncIdentifier"] for s in everything if s["syncIdentifier"]]
    present = set(sids)
    lost = sorted(sid for sid in stats.acknowledged if sid not in present)
    twice = len(uuids) - len(set(uuids))
    later, _ = read_feed(reader, early_anchor)
    later_uuids = [s["uuid"] for s in later]
    expected_later = uuids[len(early_samples):]
    follower_duplicates = len(follower_seen) - len(set(follower_seen))
    follower_missing = set(expected_later) - set(follower_seen)
    follower_extra = set(follower_seen) - set(expected_later)

    if lost:
        failures.append(f"{len(lost)} acknowledged writes missing from the feed, e.g. {lost[:5]}")
    if twice:
        failures.append(f"{twice} changes appear twice in the feed from no anchor")
    if later_uuids != expected_later:
        failures.append(f"the anchor from before the failovers read {len(later_uuids)} changes, expected {len(expected_later)} in the same order")
    if follower_duplicates or follower_missing or follower_extra:
        failures.append(f"the feed follower saw {follower_duplicates} twice, missed {len(follower_missing)}, saw {len(follower_extra)} unknown")
    if stats.server_errors:
        failures.append(f"{len(stats.server_errors)} answers other than 200/503-with-Retry-After, e.g. {stats.server_errors[:3]}")

    print()
    print("figures")
    print(f"  writers: {len(writers)}; acknowledged writes (200): {len(stats.acknowledged)}; lost: {len(lost)}")
    print(f"  answers: {dict(sorted(stats.statuses.items()))}; connection errors: {stats.errors}")
    print(f"  feed from no anchor: {len(uuids)} changes, {twice} twice; from the early anchor: {len(later_uuids)} "
          f"(expected {len(expected_later)}); follower: {len(follower_seen)} seen, {follower_duplicates} twice, "
          f"{len(follower_missing)} missed; follower errors: {follower_errors}")
    for start, end in leader_gaps:
        print(f"  no node answered /primary 200 from +{start:.1f}s to +{end:.1f}s: {end - start:.1f} s")
    for name, moment, took in events:
        resumed = first_success_after(moment, 0)
        text = "never" if resumed is None else f"{resumed:.1f} s"
        leader_text = "" if took is None else f"new leader after {took:.1f} s; "
        print(f"  {name} at +{moment:.1f}s: {leader_text}first acknowledged write sent after it: {text}")
        if resumed is None or resumed > RESUME_LIMIT:
            failures.append(f"writes did not resume within {RESUME_LIMIT:.0f} s after: {name}")
    print()
    if failures:
        for failure in failures:
            print("FAIL:", failure)
        sys.exit(1)
    print("failover run passed")


if __name__ == "__main__":
    main()
