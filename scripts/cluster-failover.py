"""The failover run against a cluster from scripts/cluster-up.sh (scripts/cluster-failover.sh runs it).

Writers POST one sample each through both CareSync instances. Every write carries an `Idempotency-Key`; a write
not answered 200 (503, 500, a broken or refused connection) is sent again with the same key and body through
the other instance until it is answered 200, as docs/api.md prescribes. Half the writers give their samples a
syncIdentifier; the others give none, so only the key keeps a resend from storing a second sample. Two readers
follow the change feed by anchor the whole time, one through one instance, the other alternating instances.

Meanwhile:
 1. the PostgreSQL leader's WAL senders are stopped (SIGSTOP) for FAILOVER_HOLD_SECONDS, so no standby can
    receive or confirm WAL, and then every PostgreSQL process of the leader is SIGKILLed. With synchronous
    replication the writes of that moment wait for the standby and are never acknowledged; with asynchronous
    replication (`synchronous_commit: local`) they are acknowledged, exist only on the dead leader, and are
    gone after the failover: both the "acknowledged while held" and the "lost" checks then fail, every time,
    whatever the loopback's speed;
 2. one CareSync instance is SIGKILLed, then started again, and must acknowledge writes again;
 3. the same hold on the new leader, then its Patroni and all its PostgreSQL processes are SIGKILLed.

Afterwards: every acknowledged write must be in the feed read through each instance and in the `samples`
table, field by field (uuid, type, value, unit, start, end, syncIdentifier, syncVersion, source); no write
stored twice; the feed identical through both instances and equal to the table; every live node's copy equal;
neither reader saw a change twice (an anchor that went back) or a change that is gone (a vanished change) or
missed one; anchors the readers and the write answers got, read on from through either instance, continue
exactly where they stood; acknowledged writes sent again with their key through the other instance get their
first answer back (Idempotent-Replayed) and store nothing. Prints the figures (the write outage is measured from the last acknowledged write
before a kill to the first acknowledged write sent after it); exits 1 on any failure.
Standard library only (http.client, threads, psql): runs on Debian's /usr/bin/python3.
"""

import csv
import calendar
import http.client
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid as uuidlib

CLUSTER = os.environ["CLUSTER_DIR"]
URLS = os.environ["CLUSTER_URLS"].split()
REST = [int(p) for p in os.environ["PATRONI_REST_PORTS"].split()]
PG_PORTS = [int(p) for p in os.environ["PG_PORTS"].split()]
HAPROXY_PORT = int(os.environ["HAPROXY_PORT"])
PG_BIN = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")
CARESYNC_BIN = os.environ["CLUSTER_CARESYNC_BIN"]
TOKENS = os.environ["DEVICE_TOKENS"].split()
SOURCES = os.environ["DEVICE_SOURCES"].split()
PATIENT = os.environ.get("PATIENT", "alice")
SYNCHRONOUS_COMMIT = os.environ.get("CLUSTER_SYNCHRONOUS_COMMIT", "on")
WRITERS = int(os.environ.get("WRITERS", "6"))
PHASE = float(os.environ.get("FAILOVER_PHASE_SECONDS", "8"))  # writes between and after the failures
HOLD = float(os.environ.get("FAILOVER_HOLD_SECONDS", "1"))  # WAL senders stopped before a leader is killed
HOLD_BYTES = 512 * 1024  # … or until this much WAL waits unsent, well under maximum_lag_on_failover
RESUME_LIMIT = float(os.environ.get("FAILOVER_RESUME_LIMIT_SECONDS", "30"))
RESOLVE_LIMIT = 30.0  # seconds after the writers stop for their last writes to be acknowledged
RUN = uuidlib.uuid4().hex[:8]  # in every key and syncIdentifier, so a rerun on the same data never meets them

T0 = time.monotonic()


def now():
    return time.monotonic() - T0


def log(message):
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())} +{now():5.1f}s] {message}", flush=True)


def host_port(url):
    host, port = url.split("//", 1)[1].rsplit(":", 1)
    return host, int(port)


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def parse_ms(text):
    """Milliseconds of an RFC 3339 UTC time as the API writes it (`…T…Z`, optional fraction)."""
    if not isinstance(text, str) or not text.endswith("Z") or len(text) < 20:
        raise ValueError(f"not a UTC time: {text!r}")
    seconds = calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))
    fraction = text[19:-1]
    millis = 0
    if fraction:
        if not fraction.startswith(".") or not fraction[1:].isdigit():
            raise ValueError(f"not a UTC time: {text!r}")
        millis = int((fraction[1:] + "000")[:3])
    return seconds * 1000 + millis


# Instances that refused a connection are skipped for a second (the other one is tried).
refused_at = [-100.0] * len(URLS)


def refused_recently(index):
    return now() - refused_at[index] < 1.0


class Connection:
    """One keep-alive HTTP connection to one instance."""

    def __init__(self, index):
        self.index = index
        self.connection = None

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, method, path, token, body=None, headers=None, timeout=15):
        if self.connection is None:
            host, port = host_port(URLS[self.index])
            self.connection = http.client.HTTPConnection(host, port, timeout=timeout)
        elif self.connection.sock is not None:
            self.connection.sock.settimeout(timeout)
        all_headers = {"Authorization": f"Bearer {token}"}
        all_headers.update(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=all_headers)
            response = self.connection.getresponse()
            payload = response.read()
        except Exception as error:
            self.close()
            if isinstance(error, ConnectionRefusedError):
                refused_at[self.index] = now()
            raise
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload


NETWORK_ERRORS = (OSError, http.client.HTTPException)


class Write:
    """One logical write: one sample, its key and body fixed for every resend."""

    def __init__(self, writer, sequence):
        self.writer, self.sequence = writer, sequence
        self.token_index = writer % len(TOKENS)
        self.token = TOKENS[self.token_index]
        self.source = SOURCES[self.token_index]
        self.key = f"failover-{RUN}-w{writer}-{sequence}"
        self.start_ms = 1_500_000_000_000 + (writer * 100_000 + sequence) * 1001  # unique, with milliseconds
        self.end_ms = self.start_ms + 30_000
        self.value = writer * 100_000 + sequence
        sample = {"type": "stepCount", "value": self.value, "unit": "count",
                  "start": iso(self.start_ms), "end": iso(self.end_ms)}
        if writer % 2 == 0:  # half the writers: a syncIdentifier; the others rely on the key alone
            self.sync_id, self.sync_version = f"failover-{RUN}-w{writer}-{sequence}", 1 + sequence % 3
            sample["syncIdentifier"], sample["syncVersion"] = self.sync_id, self.sync_version
        else:
            self.sync_id, self.sync_version = None, None
        self.body = {"samples": [sample]}

    def identity(self):
        return (self.source, self.start_ms)

    def expected(self, uuid):
        return {"uuid": uuid.upper(), "type": "stepCount", "value": float(self.value), "unit": "count",
                "start": self.start_ms, "end": self.end_ms, "syncIdentifier": self.sync_id,
                "syncVersion": self.sync_version, "source": self.source}


class Ack:
    def __init__(self, write, answer, sent, answered, instance, replayed, attempts):
        result = answer["results"][0]
        self.write, self.answer, self.uuid, self.outcome = write, answer, result["uuid"].upper(), result["outcome"]
        self.anchor = answer["anchor"]
        self.sent, self.answered, self.instance = sent, answered, instance
        self.replayed, self.attempts = replayed, attempts


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.acks = []
        self.statuses = {}
        self.errors = {}
        self.server_errors = []  # (time, text) of 5xx other than 503 with Retry-After
        self.refusals = []  # (time, text) of 4xx: the write is given up
        self.unresolved = []  # writes never answered 200

    def count(self, table, key):
        with self.lock:
            table[key] = table.get(key, 0) + 1


stats = Stats()
stop_writing = threading.Event()
stop_time = [None]


def writer(number):
    connections = [Connection(i) for i in range(len(URLS))]
    sequence = 0
    path = f"/v1/patients/{PATIENT}/samples"
    while not stop_writing.is_set():
        sequence += 1
        write = Write(number, sequence)
        target = (number + sequence) % len(URLS)
        attempts = 0
        while True:
            if attempts > 0:
                target = (target + 1) % len(URLS)  # every resend through the other instance
            if refused_recently(target):
                target = (target + 1) % len(URLS)
            attempts += 1
            sent = now()
            try:
                code, headers, payload = connections[target].request(
                    "POST", path, write.token, write.body, {"Idempotency-Key": write.key})
            except NETWORK_ERRORS as error:
                stats.count(stats.errors, type(error).__name__)
                time.sleep(0.05)
            else:
                answered = now()
                stats.count(stats.statuses, code)
                if code == 200:
                    ack = Ack(write, json.loads(payload), sent, answered, target,
                              headers.get("idempotent-replayed") == "true", attempts)
                    with stats.lock:
                        stats.acks.append(ack)
                    break
                if code == 503 and "retry-after" not in headers:
                    with stats.lock:
                        stats.server_errors.append((answered, "503 without Retry-After"))
                elif code >= 500 and code != 503:
                    with stats.lock:
                        stats.server_errors.append((answered, f"{code} {payload[:300]!r}"))
                elif code not in (503, 429, 408):
                    with stats.lock:
                        stats.refusals.append((answered, f"{code} {payload[:300]!r}"))
                        stats.unresolved.append(write)
                    break
                time.sleep(0.2)
            if stop_writing.is_set() and now() > stop_time[0] + RESOLVE_LIMIT:
                with stats.lock:
                    stats.unresolved.append(write)
                break


def feed_page(connection, anchor, limit, wait=0):
    query = f"limit={limit}&wait={wait}"
    if anchor:
        query += f"&anchor={anchor}"
    return connection.request("GET", f"/v1/patients/{PATIENT}/changes?{query}", TOKENS[0], timeout=wait + 15)


def read_feed(connection, anchor=None, limit=5000):
    """Pages the feed from `anchor` until hasMore is false; returns (samples in order, deletions, last anchor)."""
    samples, deleted = [], []
    while True:
        code, _, payload = feed_page(connection, anchor, limit)
        if code != 200:
            raise RuntimeError(f"feed answered {code}: {payload[:300]!r}")
        page = json.loads(payload)
        samples.extend(page["samples"])
        deleted.extend(page["deletedObjects"])
        anchor = page["anchor"]
        if not page["hasMore"]:
            return samples, deleted, anchor


stop_following = threading.Event()


class Follower:
    """Follows the feed by anchor through every failure, long polling. `alternate`: every page through the
    other instance; else one instance (the other only while it refuses connections)."""

    def __init__(self, name, instance, alternate, anchor):
        self.name, self.instance, self.alternate, self.anchor = name, instance, alternate, anchor
        self.seen = []  # uuids in the order received
        self.deleted = []
        self.checkpoints = []  # (anchor, number of changes seen before it)
        self.errors = {}
        self.refused = None  # (code, body) of an answer that refused the follower's anchor
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        connections = [Connection(i) for i in range(len(URLS))]
        index = self.instance
        last_checkpoint = now()
        while not stop_following.is_set():
            if self.alternate:
                index = (index + 1) % len(URLS)
            if refused_recently(index):
                index = (index + 1) % len(URLS)
            try:
                code, _, payload = feed_page(connections[index], self.anchor, 1000, wait=2)
            except NETWORK_ERRORS as error:
                self.errors[type(error).__name__] = self.errors.get(type(error).__name__, 0) + 1
                time.sleep(0.2)
                continue
            if code != 200:
                self.errors[code] = self.errors.get(code, 0) + 1
                if code in (400, 410):  # the anchor itself was refused: it cannot read on
                    self.refused = (code, payload[:300])
                    return
                time.sleep(0.2)
                continue
            page = json.loads(payload)
            self.seen.extend(s["uuid"].upper() for s in page["samples"])
            self.deleted.extend(d["uuid"].upper() for d in page["deletedObjects"])
            self.anchor = page["anchor"]
            if now() - last_checkpoint >= 1.0:
                self.checkpoints.append((self.anchor, len(self.seen)))
                last_checkpoint = now()
        self.checkpoints.append((self.anchor, len(self.seen)))


def rest(port, path, timeout=1.0):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, body
    except NETWORK_ERRORS:
        return None, b""


def leader():
    """The index of the node answering 200 on Patroni's /primary, or None."""
    for index, port in enumerate(REST):
        code, _ = rest(port, "/primary")
        if code == 200:
            return index
    return None


def node(index):
    return f"n{index + 1}"


def psql(port, sql, database="caresync", timeout=15):
    """Rows (lists of strings) of `sql` run as postgres on 127.0.0.1:port; raises on any error."""
    result = subprocess.run(
        [f"{PG_BIN}/psql", "-X", "--csv", "-t", "-v", "ON_ERROR_STOP=1",
         "-d", f"postgresql://postgres@127.0.0.1:{port}/{database}?connect_timeout=3", "-c", sql],
        capture_output=True, text=True, timeout=timeout,
        env=dict(os.environ, PGOPTIONS="-c statement_timeout=10000"))
    if result.returncode != 0:
        raise RuntimeError(f"psql on port {port}: {result.stderr.strip()[:300]}")
    return list(csv.reader(io.StringIO(result.stdout)))


def pid_file(name):
    with open(os.path.join(CLUSTER, "pids", f"{name}.pid")) as file:
        return int(file.read().split()[0])


def postmaster_pid(index):
    with open(os.path.join(CLUSTER, node(index), "data", "postmaster.pid")) as file:
        return int(file.readline())


def proc_status(pid):
    """(state letter, parent pid) of a process, or (None, None) when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as file:
            fields = dict(line.split(":", 1) for line in file if ":" in line)
        return fields["State"].split()[0], int(fields["PPid"])
    except (OSError, KeyError, ValueError):
        return None, None


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and proc_status(int(entry))[1] == pid:
            found.append(int(entry))
    return found


def lsn(text):
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16)


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


def hold_wal_senders(index, failures):
    """SIGSTOPs every WAL sender of the leader `index`: from then on no standby receives or confirms WAL.
    Returns what the figures need: the moment the hold was complete, the pids, the WAL position sent."""
    postmaster = postmaster_pid(index)
    rows = psql(PG_PORTS[index], "SELECT pid, application_name, sync_state, sent_lsn FROM pg_stat_replication",
                database="postgres")
    senders = [(int(pid), name, sync_state, sent) for pid, name, sync_state, sent in rows]
    held = []
    for pid, name, sync_state, _ in senders:
        state, parent = proc_status(pid)
        if parent != postmaster:
            failures.append(f"WAL sender {pid} ({name}) is not a child of {node(index)}'s postmaster {postmaster}")
            continue
        os.kill(pid, signal.SIGSTOP)
        held.append(pid)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(proc_status(pid)[0] not in ("T", "t") for pid in held):
        time.sleep(0.01)
    stopped = [pid for pid in held if proc_status(pid)[0] in ("T", "t")]
    start = now()
    if len(stopped) < 2:
        failures.append(f"could hold only {len(stopped)} of {node(index)}'s WAL senders (want 2): {senders}")
    # What the standbys had been sent when the hold began (the senders are stopped: this cannot move).
    rows = psql(PG_PORTS[index], "SELECT max(sent_lsn) FROM pg_stat_replication", database="postgres")
    sent = lsn(rows[0][0]) if rows and rows[0][0] else None
    names = ", ".join(f"{name} ({sync_state}, pid {pid})" for pid, name, sync_state, _ in senders)
    log(f"   WAL senders of {node(index)} stopped: {names}")
    return {"start": start, "pids": stopped, "sent": sent}


def kill_postgres(index, with_patroni):
    """SIGKILLs the node's Patroni (when asked) and its postmaster with every child. Returns the moment."""
    postmaster = postmaster_pid(index)
    family = children(postmaster)
    moment = now()
    if with_patroni:
        os.kill(pid_file(f"patroni-{node(index)}"), signal.SIGKILL)
    os.kill(postmaster, signal.SIGKILL)
    for pid in family:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return moment, postmaster, len(family)


def wait_new_leader(old, moment, timeout=60):
    """Seconds from `moment` until a node other than `old` answers /primary 200 (None if none within `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        current = leader()
        if current is not None and current != old:
            return now() - moment, current
        time.sleep(0.1)
    return None, None


def fresh_acks():
    with stats.lock:
        return [a for a in stats.acks if not a.replayed]


def first_ack_after(moment, timeout, instance=None):
    """Seconds from `moment` to the answer of the first write sent after it and acknowledged by a commit
    (not a replay), through `instance` when given (None if none within `timeout`)."""
    deadline = time.monotonic() + timeout
    while True:
        later = [a.answered for a in fresh_acks() if a.sent >= moment and (instance is None or a.instance == instance)]
        if later:
            return min(later) - moment
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def start_instance(index):
    """Starts `caresync serve` again on instance `index`'s port (its PID file updated for cluster-down.sh);
    returns the moment its /readyz answered 200, or None."""
    name = f"caresync-{index + 1}"
    port = host_port(URLS[index])[1]
    with open(os.path.join(CLUSTER, "logs", f"{name}.log"), "ab") as output:
        process = subprocess.Popen([CARESYNC_BIN, "serve", "--port", str(port)], stdin=subprocess.DEVNULL,
                                   stdout=output, stderr=output, start_new_session=True)
    with open(os.path.join(CLUSTER, "pids", f"{name}.pid"), "w") as file:
        file.write(f"{process.pid}\n")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None
        code, _ = rest(port, "/readyz")
        if code == 200:
            return now()
        time.sleep(0.1)
    return None


def feed_fields(sample):
    return {"uuid": sample["uuid"].upper(), "type": sample["type"], "value": float(sample["value"]),
            "unit": sample.get("unit"), "start": parse_ms(sample["start"]), "end": parse_ms(sample["end"]),
            "syncIdentifier": sample.get("syncIdentifier"), "syncVersion": sample.get("syncVersion"),
            "source": sample.get("source")}


TABLE_QUERY = (f"SELECT uuid, type, value, start_ms, end_ms, coalesce(sync_id, ''), coalesce(sync_version::text, ''), "
               f"source FROM samples WHERE patient = '{PATIENT}' ORDER BY seq")


def table_fields(row):
    uuid, type_, value, start, end, sync_id, sync_version, source = row
    return {"uuid": uuid.upper(), "type": type_, "value": float(value), "start": int(start), "end": int(end),
            "syncIdentifier": sync_id or None, "syncVersion": int(sync_version) if sync_version else None,
            "source": source}


def differences(expected, actual):
    return [f"{key} {expected[key]!r} != {actual.get(key)!r}" for key in expected if key in actual and expected[key] != actual[key]]


def node_digests():
    """(node, in recovery, rows, digest) of the patient's samples on every node that answers."""
    query = (f"SELECT pg_is_in_recovery(), count(*), coalesce(md5(string_agg(concat_ws('|', seq, uuid, type, value, "
             f"start_ms, end_ms, sync_id, sync_version, source), ',' ORDER BY seq)), '') FROM samples WHERE patient = '{PATIENT}'")
    answers = []
    for index, port in enumerate(PG_PORTS):
        try:
            rows = psql(port, query, timeout=5)
            answers.append((node(index), rows[0][0] == "t", int(rows[0][1]), rows[0][2]))
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
    return answers


def main():
    failures = []
    log(f"synchronous_commit={SYNCHRONOUS_COMMIT}; {WRITERS} writers, phases of {PHASE:.0f} s, WAL senders held {HOLD:.1f} s before each leader kill")
    setup = Connection(0)
    early_samples, _, early_anchor = read_feed(setup)
    log(f"anchor before the failovers taken ({len(early_samples)} changes before it)")

    followers = [Follower("reader A (caresync-1, the other while refused)", 0, False, early_anchor),
                 Follower("reader B (alternating instances)", 1, True, early_anchor)]
    writers = [threading.Thread(target=writer, args=(n,), daemon=True) for n in range(WRITERS)]
    for thread in [f.thread for f in followers] + writers:
        thread.start()
    time.sleep(PHASE)

    events = []  # dicts: name, moment, hold, took (new leader), resumed

    def leader_failure(step, with_patroni):
        if not wait_healthy():
            failures.append(f"before step {step}: the leader does not stream to two standbys, one synchronous, within 60 s")
        old = leader()
        hold = hold_wal_senders(old, failures)
        # Hold HOLD seconds, or less once HOLD_BYTES of WAL wait unsent: Patroni promotes no standby further
        # behind than maximum_lag_on_failover (1 MB); past it, it would restart the old leader and keep its writes.
        while True:
            lsn_rows = psql(PG_PORTS[old], "SELECT pg_current_wal_lsn()", database="postgres")
            hold["held_bytes"] = (lsn(lsn_rows[0][0]) - hold["sent"]) if hold["sent"] is not None else None
            if now() - hold["start"] >= HOLD or (hold["held_bytes"] or 0) >= HOLD_BYTES:
                break
            time.sleep(0.1)
        what = "Patroni and PostgreSQL" if with_patroni else "PostgreSQL (postmaster and every child)"
        moment, postmaster, family = kill_postgres(old, with_patroni)
        name = f"SIGKILL leader {node(old)}'s {'Patroni + PostgreSQL' if with_patroni else 'PostgreSQL'}"
        log(f"{step}. SIGKILL the leader {node(old)}'s {what} (postmaster {postmaster} and {family} children), "
            f"its WAL senders held {moment - hold['start']:.1f} s")
        took, new = wait_new_leader(old, moment)
        resumed = first_ack_after(moment, RESUME_LIMIT + 5)
        log(f"   another node answers /primary 200 ({'none' if new is None else node(new)}) after "
            f"{'-' if took is None else f'{took:.1f} s'}; first acknowledged write sent after the kill: "
            f"{'never' if resumed is None else f'{resumed:.1f} s'}")
        events.append({"name": name, "moment": moment, "hold": hold, "took": took, "resumed": resumed})
        time.sleep(PHASE)

    # 1. Hold the leader's WAL senders, then SIGKILL its PostgreSQL; Patroni promotes the synchronous standby.
    leader_failure(1, with_patroni=False)

    # 2. SIGKILL one CareSync instance; its clients move to the other; then start it again.
    pid = pid_file("caresync-1")
    log(f"2. SIGKILL caresync-1 (pid {pid})")
    moment = now()
    os.kill(pid, signal.SIGKILL)
    resumed = first_ack_after(moment, RESUME_LIMIT + 5)
    log(f"   first acknowledged write sent after the kill: {'never' if resumed is None else f'{resumed:.1f} s'}")
    events.append({"name": "SIGKILL caresync-1", "moment": moment, "hold": None, "took": None, "resumed": resumed})
    time.sleep(PHASE / 2)
    restart = now()
    ready = start_instance(0)
    restarted = {"start": restart, "ready": ready, "first": None}
    if ready is None:
        failures.append("caresync-1 did not answer /readyz 200 within 30 s of its restart")
        log("   caresync-1 restarted: /readyz never 200")
    else:
        first = restarted["first"] = first_ack_after(ready, 15, instance=0)
        log(f"   caresync-1 started again: /readyz 200 after {ready - restart:.1f} s; its first acknowledged write "
            f"{'never' if first is None else f'{first:.1f} s'} after")
    time.sleep(PHASE / 2)

    # 3. The same hold on the new leader, then its Patroni and PostgreSQL together.
    leader_failure(3, with_patroni=True)

    stop_time[0] = now()
    stop_writing.set()
    for thread in writers:
        thread.join(RESOLVE_LIMIT + 20)
    log("writers stopped; every write is answered 200 or given up")

    # The final feed, through each instance (caresync-1 runs again).
    feeds = []
    for index in range(len(URLS)):
        samples, deleted, _ = read_feed(Connection(index))
        feeds.append((samples, deleted))
    everything, deleted_everywhere = feeds[0]
    uuids = [s["uuid"].upper() for s in everything]
    position = {u: i for i, u in enumerate(uuids)}
    after_early = uuids[len(early_samples):]
    # Let the readers reach the end, then stop them.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(f.refused is None and len(f.seen) < len(after_early) for f in followers):
        time.sleep(0.2)
    stop_following.set()
    for follower in followers:
        follower.thread.join(30)

    acks = list(stats.acks)
    fresh = [a for a in acks if not a.replayed]
    replayed = [a for a in acks if a.replayed]
    resent = [a for a in acks if a.attempts > 1]

    # --- Every acknowledged write, field by field, in each instance's feed and in the table.
    lost, mismatched = [], []
    by_instance = []
    for index, (samples, _) in enumerate(feeds):
        fields = {}
        for s in samples:
            try:
                fields[s["uuid"].upper()] = feed_fields(s)
            except (KeyError, ValueError, TypeError) as error:
                mismatched.append(f"caresync-{index + 1}'s feed: {s.get('uuid')}: {error}")
        by_instance.append(fields)
    table = [table_fields(r) for r in psql(HAPROXY_PORT, TABLE_QUERY)]
    table_by_uuid = {r["uuid"]: r for r in table}
    for ack in acks:
        expected = ack.write.expected(ack.uuid)
        missing = [f"caresync-{i + 1}'s feed" for i, f in enumerate(by_instance) if ack.uuid not in f]
        if ack.uuid not in table_by_uuid:
            missing.append("the table")
        if missing:
            lost.append((ack, missing))
            continue
        for index, fields in enumerate(by_instance):
            wrong = differences(expected, fields[ack.uuid])
            if wrong:
                mismatched.append(f"caresync-{index + 1}'s feed, {ack.uuid}: {'; '.join(wrong)}")
        wrong = differences(expected, table_by_uuid[ack.uuid])
        if wrong:
            mismatched.append(f"the table, {ack.uuid}: {'; '.join(wrong)}")
        if ack.outcome != "inserted":
            mismatched.append(f"write {ack.write.key} answered outcome {ack.outcome!r} (a resend with its key must replay 'inserted')")
    if lost:
        examples = [f"{a.write.key} ({a.uuid}, acknowledged at +{a.answered:.1f}s through caresync-{a.instance + 1}, "
                    f"missing from {', '.join(m)})" for a, m in lost[:4]]
        failures.append(f"{len(lost)} acknowledged writes lost, e.g. {examples}")
    if mismatched:
        failures.append(f"{len(mismatched)} differences from what was acknowledged, e.g. {mismatched[:4]}")

    # --- Nothing twice, nothing unknown, both instances and the table agree.
    twice = len(uuids) - len(set(uuids))
    identities = {}
    for s in everything:
        try:
            key = (s.get("source"), parse_ms(s["start"]))
        except (KeyError, ValueError):
            continue
        identities[key] = identities.get(key, 0) + 1
    stored_twice = sum(count - 1 for count in identities.values() if count > 1)
    known = {a.write.identity() for a in acks} | {w.identity() for w in stats.unresolved}
    early_uuids = {s["uuid"].upper() for s in early_samples}
    unknown = [s["uuid"] for s in everything
               if s["uuid"].upper() not in early_uuids and (s.get("source"), parse_ms(s["start"])) not in known]
    if twice:
        failures.append(f"{twice} uuids appear twice in the feed from no anchor")
    if stored_twice:
        failures.append(f"{stored_twice} writes stored twice (same source and start: a resend with its Idempotency-Key applied again)")
    if unknown:
        failures.append(f"{len(unknown)} changes in the feed that no write made, e.g. {unknown[:3]}")
    if deleted_everywhere:
        failures.append(f"{len(deleted_everywhere)} deletions in the feed; the run deletes nothing")
    other = [s["uuid"].upper() for s in feeds[1][0]]
    if other != uuids:
        failures.append(f"the feed through caresync-2 ({len(other)} changes) differs from caresync-1's ({len(uuids)})")
    elif by_instance[0] != by_instance[1]:
        failures.append("the feeds through the two instances hold the same changes with different fields")
    table_uuids = [r["uuid"] for r in table]
    if table_uuids != uuids:
        failures.append(f"the samples table ({len(table_uuids)} rows) and the feed ({len(uuids)} changes) differ in content or order")

    # --- Every live node holds the same rows (the standbys replay everything the leader has).
    deadline = time.monotonic() + 15
    while True:
        digests = node_digests()
        leaders = [d for d in digests if not d[1]]
        agree = len(leaders) == 1 and len(digests) >= 2 and all(d[2:] == leaders[0][2:] for d in digests)
        if agree or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    if not agree:
        failures.append(f"the nodes' copies differ (node, in recovery, rows, digest): {digests}")
    elif leaders[0][2] != len(table):
        failures.append(f"the leader's table has {leaders[0][2]} rows, HAProxy's answer {len(table)}")

    # --- The readers: never a change twice (an anchor gone back), never one that is gone (vanished), none missed.
    present = set(uuids)
    for follower in followers:
        twice_seen = len(follower.seen) - len(set(follower.seen))
        vanished = [u for u in follower.seen if u not in present]
        missed = [u for u in after_early if u not in set(follower.seen)]
        problems = []
        if follower.refused:
            problems.append(f"its anchor was refused ({follower.refused[0]} {follower.refused[1][:120]!r})")
        if twice_seen:
            problems.append(f"{twice_seen} changes seen twice (its anchor went back)")
        if vanished:
            problems.append(f"{len(vanished)} changes it saw are gone from the feed, e.g. {vanished[:3]}")
        if missed:
            problems.append(f"{len(missed)} changes missed")
        if not problems and follower.seen != after_early:
            problems.append("saw the changes in another order than the feed")
        if follower.deleted:
            problems.append(f"{len(follower.deleted)} deletions seen")
        if problems:
            failures.append(f"{follower.name}: {'; '.join(problems)}")

    # --- Anchors read on from, through either instance: they continue exactly where they stood.
    PAGE = 50
    anchor_checks = []  # (what, anchor, expected uuids after it)
    for follower in followers:
        points = follower.checkpoints
        step = max(1, len(points) // 12)
        for anchor, seen_before in points[::step] + points[-1:]:
            if follower.seen[:seen_before] == after_early[:seen_before]:
                anchor_checks.append((f"{follower.name} after {seen_before} changes", anchor,
                                      after_early[seen_before:], seen_before))
    chosen = {}
    for event in events:  # the last writes acknowledged before each kill, and before each hold
        for limit in (event["moment"], event["hold"]["start"] if event["hold"] else None):
            if limit is None:
                continue
            before = [a for a in fresh if a.answered <= limit]
            for a in sorted(before, key=lambda a: a.answered)[-3:]:
                chosen[a.write.key] = a
    for a in fresh[:: max(1, len(fresh) // 16)]:
        chosen[a.write.key] = a
    for a in chosen.values():
        if a.uuid in position:
            anchor_checks.append((f"the answer to write {a.write.key}", a.anchor, uuids[position[a.uuid] + 1:], None))
    anchor_failures = []
    for number, (what, anchor, expected, _) in enumerate(anchor_checks):
        index = number % len(URLS)
        try:
            code, _, payload = feed_page(Connection(index), anchor, PAGE)
        except NETWORK_ERRORS as error:
            anchor_failures.append(f"{what}: {type(error).__name__}")
            continue
        if code != 200:
            anchor_failures.append(f"{what}: caresync-{index + 1} answered {code} {payload[:120]!r}")
            continue
        page = json.loads(payload)
        got = [s["uuid"].upper() for s in page["samples"]]
        if got != expected[:PAGE] or page["hasMore"] != (len(expected) > PAGE):
            anchor_failures.append(f"{what}: read on through caresync-{index + 1} to {len(got)} changes, "
                                   f"not the {min(PAGE, len(expected))} that follow it")
    if anchor_failures:
        failures.append(f"{len(anchor_failures)} of {len(anchor_checks)} anchors did not read on from where they stood, e.g. {anchor_failures[:3]}")

    # --- Resending an acknowledged write with its key, through the other instance, after the failovers:
    # the recorded answer comes back (same body, same anchor) with Idempotent-Replayed, and nothing is stored.
    replay_failures = []
    targets = dict(chosen)
    targets.update((a.write.key, a) for a in acks if a.attempts > 1)  # those that needed resends, too
    replay_targets = [a for a in targets.values() if a.uuid in position][:60]
    for a in replay_targets:
        index = (a.instance + 1) % len(URLS)
        try:
            code, headers, payload = Connection(index).request(
                "POST", f"/v1/patients/{PATIENT}/samples", a.write.token, a.write.body, {"Idempotency-Key": a.write.key})
        except NETWORK_ERRORS as error:
            replay_failures.append(f"{a.write.key}: {type(error).__name__}")
            continue
        if code != 200 or headers.get("idempotent-replayed") != "true" or json.loads(payload) != a.answer:
            replay_failures.append(f"{a.write.key} through caresync-{index + 1}: {code}, Idempotent-Replayed "
                                   f"{headers.get('idempotent-replayed')!r}, {payload[:160]!r} (was {a.answer})")
    rows_after = int(psql(HAPROXY_PORT, f"SELECT count(*) FROM samples WHERE patient = '{PATIENT}'")[0][0])
    if rows_after != len(table):
        replay_failures.append(f"the table went from {len(table)} rows to {rows_after} after the resends")
    if replay_failures:
        failures.append(f"{len(replay_failures)} of {len(replay_targets)} resends of acknowledged writes with their key "
                        f"were not replays of the first answer, e.g. {replay_failures[:3]}")

    # --- Answers, resends, the restarted instance.
    with stats.lock:
        server_errors, refusals, unresolved = list(stats.server_errors), list(stats.refusals), list(stats.unresolved)
    if server_errors:
        failures.append(f"{len(server_errors)} answers other than 200 or 503 with Retry-After, e.g. {server_errors[:3]}")
    if refusals:
        failures.append(f"{len(refusals)} writes refused (4xx), e.g. {refusals[:3]}")
    if unresolved:
        failures.append(f"{len(unresolved)} writes never answered 200 within {RESOLVE_LIMIT:.0f} s of the end")
    after_restart = [a for a in fresh if ready is not None and a.instance == 0 and a.sent >= ready]
    if ready is not None and not after_restart:
        failures.append("the restarted caresync-1 acknowledged no write")

    # --- Writes acknowledged while no standby could receive WAL: only asynchronous replication does that.
    for event in events:
        hold = event["hold"]
        if hold is None:
            continue
        during = [a for a in fresh if a.sent >= hold["start"] and a.answered <= event["moment"]]
        event["held_acks"] = during
        if during:
            gone = sum(1 for a in during if a.uuid not in present)
            failures.append(f"{event['name']}: {len(during)} writes acknowledged while its WAL senders were stopped "
                            f"(no standby had them: replication is asynchronous); {gone} of them lost")

    # --- Figures.
    print()
    print("figures")
    print(f"  synchronous_commit: {SYNCHRONOUS_COMMIT}; writers: {WRITERS} (half with a syncIdentifier, half relying on the key)")
    print(f"  acknowledged writes (200): {len(acks)}; lost: {len(lost)}; field differences: {len(mismatched)}; "
          f"stored twice: {stored_twice}; never acknowledged: {len(unresolved)}")
    print(f"  resent with their Idempotency-Key: {len(resent)} writes (up to {max([a.attempts for a in acks] or [0])} attempts); "
          f"answered by a replay (Idempotent-Replayed: committed before, answer lost): {len(replayed)}")
    print(f"  answers: {dict(sorted(stats.statuses.items()))}; connection errors: {stats.errors}")
    nodes = ", ".join(f"{n}{'' if r else ' (leader)'} {c} rows" for n, r, c, _ in digests)
    print(f"  feed: {len(uuids)} changes through each instance, table {len(table)} rows; nodes: {nodes}")
    for follower in followers:
        print(f"  {follower.name}: {len(follower.seen)} changes seen, errors {follower.errors}")
    print(f"  anchors read on from: {len(anchor_checks)} ({len(anchor_failures)} wrong); acknowledged writes sent "
          f"again with their key afterwards: {len(replay_targets)} ({len(replay_failures)} not replayed as first answered)")
    for event in events:
        moment = event["moment"]
        before = [a.answered for a in fresh if a.answered <= moment]
        last_before = max(before) if before else None
        first_after = event["resumed"]
        text = f"  {event['name']} at +{moment:.1f}s:"
        if event["hold"]:
            hold = event["hold"]
            held = hold.get("held_bytes")
            text += (f" WAL senders held {moment - hold['start']:.1f} s before"
                     f"{'' if held is None else f' ({held / 1024:.0f} kB of WAL not sent)'},"
                     f" {len(event.get('held_acks', []))} writes acknowledged meanwhile;")
        if event["took"] is not None:
            text += f" another node answered /primary 200 after {event['took']:.1f} s;"
        if last_before is not None and first_after is not None:
            text += (f" write outage {moment + first_after - last_before:.1f} s (last acknowledged write "
                     f"{moment - last_before:.1f} s before the kill, first sent after it acknowledged {first_after:.1f} s after)")
        else:
            text += f" first write sent after it acknowledged: {'never' if first_after is None else f'{first_after:.1f} s'}"
        print(text)
        if first_after is None or first_after > RESUME_LIMIT:
            failures.append(f"writes did not resume within {RESUME_LIMIT:.0f} s after: {event['name']}")
    if ready is not None:
        first = restarted["first"]
        print(f"  caresync-1 started again at +{restart:.1f}s: ready after {ready - restart:.1f} s, first write through it "
              f"acknowledged {'never' if first is None else f'{first:.1f} s'} later, {len(after_restart)} acknowledged through it since")
    print()
    if failures:
        for failure in failures:
            print("FAIL:", failure)
        sys.exit(1)
    print("failover run passed")


if __name__ == "__main__":
    main()
