"""The checks every fault test makes of a daemon through a fault: counters never go back, the
series it had are still there, its findings are unchanged, it is still running."""

import json

from .net import get_json
from .outcome import finish


def findings(port):
    """The active findings as comparable (rule, subject) pairs."""
    items = get_json(port, "/api/v1/findings")["active"]
    return sorted((f.get("rule"), json.dumps(f.get("subject"), sort_keys=True)) for f in items)


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
        finish(self.failures)


def daemon_alive(proc, log_path):
    if proc.poll() is not None:
        with open(log_path) as f:
            raise AssertionError(f"rdmadiag serve exited with {proc.returncode}:\n{f.read()}")
