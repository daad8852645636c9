"""The programs a test starts: `rdmadiag serve` daemons, a real Prometheus and VictoriaMetrics on
loopback, each with its own folder and port, all stopped and removed even when the test fails."""

import os
import re
import signal
import subprocess
import urllib.error

from .net import free_port, http_get
from .prometheus import Prometheus
from .trees import make_tree, remove_tree
from .wait import wait_until


class Bed:
    """Owns every process and folder a test starts; close() (or the with-block) removes them."""

    def __init__(self, name):
        self.dir = make_tree(name)
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
        remove_tree(self.dir)

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

        def listening():
            with open(log_path) as f:
                m = re.search(r"msg=listening .*port=(\d+)", f.read())
            if m:
                return int(m.group(1))
            # An exited daemon will not start listening: stop waiting for it.
            return "exited" if p.poll() is not None else None

        port = wait_until("rdmadiag serve to listen", listening, timeout=30, fail=False)
        if isinstance(port, int):
            return p, port, log_path
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
        if self._ready(p, prom.url + "/-/ready"):
            return prom
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
        if self._ready(p, url + "/health"):
            return Prometheus(url), url + "/api/v1/write"
        with open(os.path.join(self.dir, "victoria-metrics.log")) as f:
            raise RuntimeError("VictoriaMetrics did not become ready:\n" + f.read())

    @staticmethod
    def _ready(proc, url):
        """Whether `url` answers 200 before `proc` exits or a minute passes."""
        def answered():
            if proc.poll() is not None:
                return "exited"
            try:
                return "ready" if http_get(url, timeout=2)[0] == 200 else None
            except (urllib.error.URLError, ConnectionError, OSError):
                return None

        return wait_until(url, answered, timeout=60, interval=0.1, fail=False) == "ready"
