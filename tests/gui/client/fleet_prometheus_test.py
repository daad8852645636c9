#!/usr/bin/env python3
"""The fleet view against a real Prometheus: three `rdmadiag serve --simulate` daemons on
loopback, each playing a different scenario, and a fourth target where nothing listens, all
scraped as one job. fleet_check (FleetFeed into FleetModel, as rdmadiag-gui --prometheus does)
must list the four hosts by instance, the silent one as down, and for each daemon exactly the
active findings the daemon itself reports on /api/v1/findings (rule, severity, subject, count).

Usage: fleet_prometheus_test.py RDMADIAG_BINARY FLEET_CHECK_BINARY"""

import collections
import json
import os
import subprocess
import sys
import time

import rdmadiag_bed as bed

# Each settles into its story within about 25 s and keeps it (see each file's comment).
SCENARIOS = ["pkey-change-missed-event", "sm-divergence", "pkey-change-with-event"]


def daemon_findings(port):
    """(rule, severity, subject) -> count, as the daemon reports its active findings."""
    _, body = bed.http_get(f"http://127.0.0.1:{port}/api/v1/findings")
    counts = collections.Counter()
    for f in json.loads(body)["active"]:
        s = f["subject"]
        subject = s["device"] + (f":{s['port']}" if "port" in s else "")
        counts[(f["rule"], f["severity"], subject)] += 1
    return counts


def model_findings(host):
    return collections.Counter(
        {(f["rule"], f["severity"], f["subject"]): f["count"] for f in host["findings"]})


def main():
    rdmadiag, fleet_check = sys.argv[1], sys.argv[2]
    prometheus = bed.require_program("prometheus", "prometheus")
    bed.require_exporter(rdmadiag)
    failures = []
    with bed.Bed("fleet") as b:
        ports = {}
        for s in SCENARIOS:
            _, port, _ = b.start_daemon(rdmadiag, [f"--simulate={s}", "--interval.pkeys=1s"],
                                        name=s)
            ports[s] = port
        silent = f"127.0.0.1:{bed.free_port()}"
        targets = [f"127.0.0.1:{p}" for p in ports.values()] + [silent]
        prom = b.start_prometheus(prometheus, None, jobs={"rdmadiag": targets})

        def settled():
            # Every story told (the stale cache and the divergence are active) and scraped.
            stale = prom.query('rdmadiag_findings{rule="pkey.cache_stale"} > 0')
            diverged = prom.query('rdmadiag_findings{rule="pkey.view_divergence"} > 0')
            up = prom.query("up")
            return stale and diverged and len(up) == len(targets)
        prom.wait_until("the scenarios' findings in Prometheus", settled, timeout=120)
        time.sleep(3)  # one more scrape of each, so Prometheus holds what the daemons hold now

        expected = {s: daemon_findings(p) for s, p in ports.items()}
        out = subprocess.run([fleet_check, prom.url], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            bed.finish([f"fleet_check failed ({out.returncode}): {out.stderr}"])
        hosts = {h["instance"]: h for h in json.loads(out.stdout)}
        print(json.dumps(hosts, indent=1))
        if sorted(hosts) != sorted(targets):
            failures.append(f"hosts {sorted(hosts)}, expected {sorted(targets)}")
        for s, port in ports.items():
            h = hosts.get(f"127.0.0.1:{port}")
            if not h:
                continue
            if h["health"] != "up":
                failures.append(f"{s}: health {h['health']}, expected up")
            if model_findings(h) != expected[s]:
                failures.append(f"{s}: model findings {dict(model_findings(h))}, "
                                f"the daemon says {dict(expected[s])}")
            if h["active"] != sum(expected[s].values()):
                failures.append(f"{s}: {h['active']} active, the daemon has "
                                f"{sum(expected[s].values())}")
        if not expected["pkey-change-missed-event"]:
            failures.append("pkey-change-missed-event: the daemon reports no finding at all")
        if hosts.get(silent, {}).get("health") != "down":
            failures.append(f"{silent} (nothing listening): {hosts.get(silent)}, expected down")
    bed.finish(failures)


if __name__ == "__main__":
    main()
