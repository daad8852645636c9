"""What the fault tests share: scraping /metrics into numbers, the checks every fault makes
(counters never go back, series the daemon had are still there, findings unchanged), and
waiting for a condition with a deadline (a deadline only bounds a hung test; nothing is timed).

Builds on tests/beds/rdmadiag_bed.py for starting and tearing down `rdmadiag serve`."""

import json
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "beds"))
import rdmadiag_bed as bed  # noqa: E402,F401  (re-exported for the tests)

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


class Scrape:
    """One /metrics answer: {(name, ((label, value), ...)): float} and each family's TYPE."""

    def __init__(self, text):
        self.samples = {}
        self.types = {}
        for line in text.splitlines():
            if line.startswith("# TYPE "):
                _, _, name, kind = line.split(" ", 3)
                self.types[name] = kind
                continue
            if not line or line.startswith("#"):
                continue
            m = SAMPLE.match(line)
            if not m:
                raise AssertionError(f"malformed exposition line: {line!r}")
            labels = tuple(sorted(LABEL.findall(m.group(3) or "")))
            self.samples[(m.group(1), labels)] = float(m.group(4))

    def value(self, name, **labels):
        want = tuple(sorted(labels.items()))
        return self.samples.get((name, want))

    def series(self, name, **labels):
        """Every sample of `name` whose labels include `labels`."""
        return {k: v for k, v in self.samples.items()
                if k[0] == name and all((a, b) in k[1] for a, b in labels.items())}

    def counters(self):
        return {k: v for k, v in self.samples.items() if self.types.get(k[0]) == "counter"
                or (k[0].endswith("_total") and self.types.get(k[0][:-6]) == "counter")}


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        if r.status != 200:
            raise AssertionError(f"/metrics answered {r.status}")
        return Scrape(r.read().decode())


def get_json(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
        return json.loads(r.read().decode())


def findings(port):
    """The active findings as comparable (rule, subject) pairs."""
    items = get_json(port, "/api/v1/findings")["active"]
    return sorted((f.get("rule"), json.dumps(f.get("subject"), sort_keys=True)) for f in items)


def wait_until(what, predicate, timeout=60, interval=0.05):
    deadline = time.time() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(interval)


class Checks:
    """Collects failures so one run reports all of them."""

    def __init__(self):
        self.failures = []

    def expect(self, ok, message):
        if not ok:
            self.failures.append(message)
        return ok

    def monotonic(self, earlier, later, when):
        """No counter the daemon exported went back; `later` may lack series that are gone."""
        for key, before in earlier.counters().items():
            after = later.counters().get(key)
            if after is not None and after < before:
                self.failures.append(f"{when}: counter {key} went back from {before} to {after}")

    def kept(self, earlier, later, when, name_filter=lambda name: True):
        """Every series `earlier` had is in `later` too."""
        missing = [k for k in earlier.samples if name_filter(k[0]) and k not in later.samples]
        if missing:
            self.failures.append(f"{when}: {len(missing)} series lost, e.g. {missing[:3]}")

    def finish(self):
        bed.finish(self.failures)


def daemon_alive(proc, log_path):
    if proc.poll() is not None:
        with open(log_path) as f:
            raise AssertionError(f"rdmadiag serve exited with {proc.returncode}:\n{f.read()}")
