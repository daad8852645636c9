"""The Prometheus text format, read back: the one parser every test of /metrics uses (rdmadiag's
own pages and node_exporter's alike)."""

import re
import urllib.request

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


class Scrape:
    """One /metrics answer: samples {(name, ((label, value), ...)): float}, labels sorted and
    their values as written (escapes kept), and types {family: TYPE}. A line that is neither a
    comment nor a sample fails the test: a page Prometheus would refuse is a finding."""

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
        """The sample with exactly these labels, or None."""
        want = tuple(sorted(labels.items()))
        return self.samples.get((name, want))

    def series(self, name, **labels):
        """Every sample of `name` whose labels include `labels`."""
        return {k: v for k, v in self.samples.items()
                if k[0] == name and all((a, b) in k[1] for a, b in labels.items())}

    def one(self, name, **labels):
        """The value of the one sample of `name` whose labels include `labels`."""
        s = self.series(name, **labels)
        if len(s) != 1:
            raise AssertionError(f"expected one {name}{labels}, found {len(s)}")
        return next(iter(s.values()))

    def names(self):
        return {k[0] for k in self.samples}

    def counters(self):
        return {k: v for k, v in self.samples.items() if self.types.get(k[0]) == "counter"
                or (k[0].endswith("_total") and self.types.get(k[0][:-6]) == "counter")}


def scrape(port):
    """The /metrics page of a daemon on a loopback port, parsed."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        if r.status != 200:
            raise AssertionError(f"/metrics answered {r.status}")
        return Scrape(r.read().decode())
