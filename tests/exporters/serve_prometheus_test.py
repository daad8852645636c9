#!/usr/bin/env python3
"""Three `rdmadiag serve` daemons, as three hosts, each playing the serve-bed scenario, scraped
by one real Prometheus that also evaluates deploy/alerts/rdmadiag.rules.yml.

Checks:
  - every alert fires for the scenario that should fire it, on every host;
  - every expression of every alert rule returns data.
The dashboards' queries are run against a real Prometheus by
tests/deploy/grafana/dashboards_prometheus_test.py.

An expression that returns nothing only because it reads a metric family this build's engine does
not produce yet (findings before the P_Key and MR rules exist, the emulated `cache` view, MR
states) is listed as SKIPPED with the missing families, not passed: as soon as the engine exports
them, the same check becomes a hard one.

`for:` clauses are set to 0s in the copy Prometheus loads, so the test does not wait minutes:
the expressions are the shipped ones, and the `for:` timing itself is covered by the promtool
rule unit tests (deploy/alerts/rdmadiag.rules.test.yml).

Usage: serve_prometheus_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import re
import sys
import time

import rdmadiag_bed as bed

HOSTS = 3
EXPECTED_ALERTS = ["RdmadiagPKeyCacheStale", "RdmadiagGidCacheStale", "RdmadiagPKeyViolationsAfterChange",
                   "RdmadiagMrNeedsDereg", "RdmadiagMrLeakSuspected", "RdmadiagMrExhaustionNear",
                   "RdmadiagSourceDown", "RdmadiagCounterSaturated",
                   "RdmadiagPartitionMembersDiffer"]


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    prometheus = bed.require_program("prometheus", "prometheus")
    bed.require_program("promtool", "prometheus")
    bed.require_exporter(rdmadiag)
    scenario = os.path.join(src, "tests/exporters/scenarios/serve-bed.scn")
    rules_src = os.path.join(src, "deploy/alerts/rdmadiag.rules.yml")
    failures = []

    with bed.Bed("prometheus") as b:
        rules = os.path.join(b.dir, "rules.yml")
        with open(rules_src) as f:
            text = re.sub(r"(\n\s+for: )\S+", r"\g<1>0s", f.read())
        with open(rules, "w") as f:
            f.write(text)

        nosys = os.path.join(b.dir, "no-sysfs")
        # A leak window the bed can wait out: 20 s of growth by at least 20 MRs.
        config = os.path.join(b.dir, "rdmadiag.yml")
        with open(config, "w") as f:
            f.write("mr:\n  leak-window: 20s\n  leak-min-mrs: 20\n")
        targets = []
        for i in range(HOSTS):
            _, port, _ = b.start_daemon(rdmadiag, [
                f"--simulate={scenario}", "--source.sysfs", f"--path.sysfs={nosys}",
                "--interval.pkeys=1s", "--interval.counters=1s", f"--config.file={config}"],
                name=f"host{i}")
            targets.append(f"127.0.0.1:{port}")
        prom = b.start_prometheus(prometheus, targets, [rules])
        instances = set(targets)

        prom.wait_until("all targets up", lambda: len(
            [r for r in prom.query("up == 1")]) == HOSTS, timeout=60)

        # Wait past the scenario's trouble (it starts at 10 s) before judging what is exported.
        # The stale caches are judged only after their grace periods: a few seconds for the P_Key
        # cache, 30 s for the GID cache.
        prom.wait_until("the stuck MR, saturation and the stale caches", lambda: prom.query(
            "rdmadiag_port_stat_saturated == 1") and prom.query(
            'rdmadiag_findings{rule="pkey.cache_stale"} > 0') and prom.query(
            'rdmadiag_findings{rule="gid.cache_stale"} > 0') and prom.query(
            'rdmadiag_findings{rule="mr.leak_suspected"} > 0'), timeout=90)
        time.sleep(3)
        _, text = bed.http_get(f"http://{targets[0]}/metrics")
        exported = set(bed.Scrape(text).types)
        skipped = []

        def missing_families(expr):
            return sorted(set(re.findall(r"\brdmadiag_[a-z_]+", expr)) - exported)

        rules_info = bed.rule_expressions(rules_src)
        expected = []
        for rule in rules_info:
            result = prom.query(rule["expr"])
            if result:
                expected.append(rule["alert"])
                continue
            missing = missing_families(rule["expr"])
            if missing:
                skipped.append(f"alert {rule['alert']}: this build exports none of {missing}")
            else:
                failures.append(f"alert {rule['alert']}: expression returned no data")
                expected.append(rule["alert"])
        if sorted(set(EXPECTED_ALERTS) - {r["alert"] for r in rules_info}):
            failures.append("an expected alert is missing from the rules file")

        # Each alert counts once it was seen firing on a host: some troubles of the scenario are
        # moments, and on a slow build the first may be over before the last fires.
        got = {}

        def firing():
            for a in prom.alerts():
                if a["state"] == "firing":
                    got.setdefault(a["labels"]["alertname"], set()).add(a["labels"]["instance"])
            return all(got.get(n) == instances for n in expected) and got

        try:
            prom.wait_until(f"{expected} firing on every host", firing, timeout=120)
        except AssertionError as e:
            states = sorted({(a["labels"]["alertname"], a["state"]) for a in prom.alerts()})
            seen = {n: len(hosts) for n, hosts in sorted(got.items())}
            failures.append(f"{e}; firing on how many hosts so far: {seen}; alerts now: {states}")

        print(f"checked: {len(rules_info)} alert rules, alerts firing on all {HOSTS} hosts: "
              f"{sorted(expected)}")
        if failures:
            for name in ("host0.log", "prometheus.log"):
                with open(os.path.join(b.dir, name)) as f:
                    print(f"--- {name} (last lines)\n" + "".join(f.readlines()[-20:]))

    for s in skipped:
        print("SKIPPED:", s)
    for f in failures:
        print("FAIL:", f)
    print(f"{'FAILED' if failures else 'PASSED'}: {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
