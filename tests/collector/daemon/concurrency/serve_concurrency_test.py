#!/usr/bin/env python3
"""`rdmadiag serve` on a fabric that changes several times a second (churn.scn: P_Key changes with
and without events, port and MR events, counters reset, a device leaving and coming back), with
probe clients connecting, flooding and leaving, while several client threads scrape /metrics and
query every /api/v1 route at once for a bounded number of requests.

Asserts: every response is well-formed (status 200, or the documented 404/405 for the wrong
path and method; JSON that parses, exposition text whose every line parses); what each client sees
never goes back (snapshot sequence, counters); the daemon exits 0 on SIGTERM and its output holds
no sanitizer report. Built with RDMADIAG_SANITIZE=thread it is the test that the collector thread,
the snapshot store and the HTTP server threads share nothing unguarded (label tsan).

Usage: serve_concurrency_test.py RDMADIAG_BINARY PROBE_PRODUCER SOURCE_DIR [REQUESTS_PER_CLIENT]"""

import http.client
import json
import os
import signal
import subprocess
import sys
import threading

import rdmadiag_bed as bed
from rdmadiag_bed import Scrape

CLIENTS = 6
ROUTES = ["/metrics", "/healthz", "/api/v1/snapshot", "/api/v1/status", "/api/v1/ports",
          "/api/v1/pkeys", "/api/v1/counters", "/api/v1/findings", "/api/v1/events",
          "/api/v1/mrs", "/api/v1/ports?device=mlx5_0&port=1", "/api/v1/pkeys?device=mlx5_1",
          "/api/v1/counters?device=mlx5_0&port=1", "/api/v1/events?device=mlx5_0",
          "/api/v1/mrs?state=stuck"]
SANITIZER_MARKS = ("ThreadSanitizer", "AddressSanitizer", "LeakSanitizer", "runtime error:")


class Client(threading.Thread):
    def __init__(self, index, port, requests):
        super().__init__(name=f"client{index}")
        self.index, self.port, self.requests = index, port, requests
        self.failures = []
        self.done = 0

    def fail(self, what):
        if len(self.failures) < 20:
            self.failures.append(f"client {self.index}: {what}")

    def run(self):
        conn = None
        last_sequence = 0
        last_counters = {}
        for i in range(self.requests):
            path = ROUTES[(i + self.index) % len(ROUTES)]
            method = "HEAD" if i % 17 == 5 else "GET"
            if i % 23 == 7:
                path, method = "/api/v1/nothing-here", "GET"
            if i % 29 == 11:
                path, method = "/api/v1/status", "POST"
            try:
                if conn is None or i % 5 == 0:  # both kept-alive and fresh connections
                    if conn is not None:
                        conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                conn.request(method, path)
                r = conn.getresponse()
                body = r.read().decode("utf-8")
            except (OSError, http.client.HTTPException, UnicodeDecodeError) as e:
                self.fail(f"{method} {path}: {type(e).__name__}: {e}")
                conn = None
                continue
            self.done += 1
            if path == "/api/v1/nothing-here":
                if r.status != 404:
                    self.fail(f"{path}: {r.status}, wanted 404")
                continue
            if method == "POST":
                if r.status != 405:
                    self.fail(f"POST {path}: {r.status}, wanted 405")
                continue
            if r.status != 200:
                self.fail(f"{method} {path}: status {r.status}: {body[:200]}")
                continue
            if method == "HEAD":
                if body:
                    self.fail(f"HEAD {path} has a body")
                continue
            if path == "/metrics":
                try:
                    s = Scrape(body)
                except AssertionError as e:
                    self.fail(f"/metrics: {e}")
                    continue
                seq = s.value("rdmadiag_snapshot_sequence")
                if seq is None or seq < last_sequence:
                    self.fail(f"/metrics: sequence {seq} after {last_sequence}")
                last_sequence = max(last_sequence, seq or 0)
                for key, v in s.counters().items():
                    if key in last_counters and v < last_counters[key]:
                        self.fail(f"/metrics: counter {key} went back {last_counters[key]} -> {v}")
                    last_counters[key] = v
                continue
            try:
                doc = json.loads(body)
            except ValueError as e:
                self.fail(f"{path}: not JSON ({e}): {body[:200]}")
                continue
            if path in ("/healthz", "/api/v1/snapshot"):
                seq = doc.get("sequence")
                if not isinstance(seq, int) or seq < last_sequence:
                    self.fail(f"{path}: sequence {seq} after {last_sequence}")
                elif isinstance(seq, int):
                    last_sequence = seq
        if conn is not None:
            conn.close()


def run_probe_clients(producer, socket_path, stop, failures):
    """Probe clients come and go: a well-behaved one, a flooder, one that crashes mid-stream."""
    modes = [["normal"], ["flood", "20000"], ["crash", "500"], ["garbage"]]
    i = 0
    while not stop.is_set():
        mode = modes[i % len(modes)]
        i += 1
        try:
            p = subprocess.run([producer, mode[0], socket_path] + mode[1:], timeout=120,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            failures.append(f"probe producer {mode} hung")
            return
        if mode[0] == "normal" and p.returncode not in (0, 5):
            failures.append(f"probe producer {mode} exited {p.returncode}")


def main():
    rdmadiag, producer, src = sys.argv[1], sys.argv[2], sys.argv[3]
    requests = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    for program in (rdmadiag, producer):
        if not os.access(program, os.X_OK):
            bed.skip(f"{program} was not built")
    scenario = os.path.join(os.path.dirname(os.path.abspath(__file__)), "churn.scn")
    failures = []
    with bed.Bed("concurrency") as b:
        sock = os.path.join(b.dir, "probe.sock")
        config = os.path.join(b.dir, "rdmadiag.yml")
        with open(config, "w") as f:
            f.write(f"sources:\n  probe: true\nsource-options:\n  probe.socket: {sock}\n")
        proc, port, log = b.start_daemon(rdmadiag, [
            f"--config.file={config}", f"--simulate={scenario}", "--web.max-connections=8",
            "--interval.counters=50ms", "--interval.pkeys=100ms"])

        stop = threading.Event()
        probes = threading.Thread(target=run_probe_clients, args=(producer, sock, stop, failures))
        probes.start()
        clients = [Client(i, port, requests) for i in range(CLIENTS)]
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        stop.set()
        probes.join()
        for c in clients:
            failures.extend(c.failures)
        print(f"{sum(c.done for c in clients)} requests answered by {CLIENTS} clients")

        proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            rc = None
            failures.append("the daemon did not stop on SIGTERM")
        with open(log) as f:
            text = f.read()
        if rc != 0:
            failures.append(f"the daemon exited {rc}")
        if any(m in text for m in SANITIZER_MARKS) or rc != 0:
            failures.append("daemon output:\n" + text[-20000:])
    bed.finish(failures)


if __name__ == "__main__":
    main()
