"""Test bed helpers: start `rdmadiag serve` daemons and a real Prometheus on loopback, each with
its own temporary directory and port, and tear everything down even when a test fails.

Used by the integration tests under tests/exporters/. Programs that are not installed make the
test exit with SKIP (77) and say which package provides them."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SKIP = 77


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def finish(failures):
    """Ends a test script: prints each failure and exits 1, or prints PASS and exits 0."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("PASS")
    sys.exit(0)


def require_program(name, package):
    path = shutil.which(name)
    if not path:
        skip(f"{name} is not installed (Debian package {package}, listed in scripts/deps/test.txt)")
    return path


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode("utf-8", "replace")


class Bed:
    """Owns every process and folder a test starts; close() (or the with-block) removes them."""

    def __init__(self, name):
        self.dir = tempfile.mkdtemp(prefix=f"rdmadiag-{name}-")
        self.procs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start_daemon(self, rdmadiag, args, name="daemon"):
        """Starts `rdmadiag serve` on a free loopback port; returns (process, port, log path)."""
        return self.start_daemon_as([], rdmadiag, args, name)

    def start_daemon_as(self, prefix, rdmadiag, args, name="daemon"):
        """start_daemon behind a command prefix (e.g. setpriv switching to another user)."""
        log_path = os.path.join(self.dir, f"{name}.log")
        log = open(log_path, "w")
        cmd = prefix + [rdmadiag, "serve", "--web.listen-address=127.0.0.1:0"] + args
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        self.procs.append(p)
        deadline = time.time() + 30
        while time.time() < deadline:
            with open(log_path) as f:
                m = re.search(r"msg=listening .*port=(\d+)", f.read())
            if m:
                return p, int(m.group(1)), log_path
            if p.poll() is not None:
                break
            time.sleep(0.05)
        with open(log_path) as f:
            raise RuntimeError(f"rdmadiag serve did not start: {' '.join(cmd)}\n{f.read()}")

    def start_prometheus(self, prometheus, targets, rule_files=(), interval="1s", jobs=None,
                         remote_write=None):
        """Starts Prometheus scraping `targets` (host:port) as job rdmadiag, or each job of `jobs`
        (name: [host:port, ...]), with its own data folder; `remote_write`: a URL it also sends
        every sample to."""
        port = free_port()
        jobs = jobs or {"rdmadiag": targets}
        cfg = os.path.join(self.dir, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write(f"global:\n  scrape_interval: {interval}\n  evaluation_interval: {interval}\n")
            if rule_files:
                f.write("rule_files:\n" + "".join(f"  - {r}\n" for r in rule_files))
            if remote_write:
                f.write(f"remote_write:\n  - url: {remote_write}\n"
                        "    queue_config: {batch_send_deadline: 1s}\n")
            f.write("scrape_configs:\n")
            for job, hosts in jobs.items():
                f.write(f"  - job_name: {job}\n    static_configs:\n"
                        "      - targets: [" + ", ".join(f"'{t}'" for t in hosts) + "]\n")
        log = open(os.path.join(self.dir, "prometheus.log"), "w")
        p = subprocess.Popen(
            [prometheus, f"--config.file={cfg}",
             f"--storage.tsdb.path={os.path.join(self.dir, 'data')}",
             f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        self.procs.append(p)
        prom = Prometheus(f"http://127.0.0.1:{port}")
        deadline = time.time() + 60
        while time.time() < deadline:
            if p.poll() is not None:
                break
            try:
                if http_get(prom.url + "/-/ready", timeout=2)[0] == 200:
                    return prom
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        with open(os.path.join(self.dir, "prometheus.log")) as f:
            raise RuntimeError("Prometheus did not become ready:\n" + f.read())


    def start_victoria_metrics(self, program):
        """Starts a single-node VictoriaMetrics on loopback with its own data folder; returns
        (query API, remote-write URL). Fresh samples are queryable after 1 s, not the default 30."""
        port = free_port()
        log = open(os.path.join(self.dir, "victoria-metrics.log"), "w")
        p = subprocess.Popen(
            [program, f"-httpListenAddr=127.0.0.1:{port}",
             f"-storageDataPath={os.path.join(self.dir, 'vm-data')}", "-retentionPeriod=1d",
             "-search.latencyOffset=1s", "-search.disableCache", "-loggerLevel=ERROR"],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        self.procs.append(p)
        url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while time.time() < deadline:
            if p.poll() is not None:
                break
            try:
                if http_get(url + "/health", timeout=2)[0] == 200:
                    return Prometheus(url), url + "/api/v1/write"
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        with open(os.path.join(self.dir, "victoria-metrics.log")) as f:
            raise RuntimeError("VictoriaMetrics did not become ready:\n" + f.read())


class Prometheus:
    def __init__(self, url):
        self.url = url

    def api(self, path, params):
        """GET an HTTP API path; returns its data, or raises RuntimeError with Prometheus' own
        words when the query is refused (a 400 or 422 answer)."""
        url = f"{self.url}{path}?{urllib.parse.urlencode(params)}"
        try:
            _, body = http_get(url)
        except urllib.error.HTTPError as e:
            body = e.read().decode("utf-8", "replace")
        data = json.loads(body)
        if data.get("status") != "success":
            raise RuntimeError(f"{path} {params}: {data.get('error', body)}")
        return data["data"]

    def query(self, expr):
        return self.api("/api/v1/query", {"query": expr})["result"]

    def query_range(self, expr, start, end, step="1s"):
        return self.api("/api/v1/query_range",
                        {"query": expr, "start": start, "end": end, "step": step})["result"]

    def series(self, match, start, end):
        """The label sets of the series a selector matches between start and end."""
        return self.api("/api/v1/series", {"match[]": match, "start": start, "end": end})

    def alerts(self):
        _, body = http_get(f"{self.url}/api/v1/alerts")
        return json.loads(body)["data"]["alerts"]

    def wait_until(self, what, predicate, timeout=120):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = predicate()
            if last:
                return last
            time.sleep(0.5)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def rule_expressions(path):
    """(alert name, expr, for) of every rule in a rules file, read without a YAML library: the
    file's layout is ours (expr: | blocks)."""
    rules, cur, block = [], None, None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s+- alert: (\S+)", line)
            if m:
                cur = {"alert": m.group(1), "expr": "", "for": None}
                rules.append(cur)
                block = None
                continue
            if cur is None:
                continue
            m = re.match(r"(\s+)expr: \|\s*$", line)
            if m:
                block = len(m.group(1))
                continue
            m = re.match(r"\s+expr: (.+)$", line)
            if m:
                cur["expr"] = m.group(1).strip()
                block = None
                continue
            if block is not None:
                if line.strip() and (len(line) - len(line.lstrip())) > block:
                    cur["expr"] += line.strip() + "\n"
                    continue
                block = None
            m = re.match(r"\s+for: (\S+)", line)
            if m:
                cur["for"] = m.group(1)
    return rules
