#!/usr/bin/env python3
"""Three `rdmadiag serve` daemons split one subnet between them (mad.shard=1/3, 2/3, 3/3) and a
fourth sweeps it whole, on a generated fat tree of 792 ports on the ibsim + opensm bed.
One real Prometheus scrapes the shards as job "shards" and the whole sweep as job "whole" and
remote-writes everything to a VictoriaMetrics, as a site would keep a fabric's history; through
both query APIs the test shows that

  - the shards' ports, together, are exactly the whole sweep's ports, which are every port of the
    generated fabric;
  - no port is reported by two shards (count by device and port is never above 1);
  - the same holds for the P_Key tables (the sma view), port states and PMA byte counters;
  - every node is reachable, and each shard swept only its part (sweep figures).

Usage: mad_shards_prometheus_test.py RDMADIAG SOURCE_DIR
Run it as is: it writes the topology, then runs itself again under tests/beds/ibsim/with-bed."""

import os
import re
import subprocess
import sys

import rdmadiag_bed as bed

UMAD2SIM = os.environ.get("UMAD2SIM", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")
SHARDS = 3
# 792 ports: big enough that a shard split has every kind of node on each side, small enough for
# four sanitizer-built daemons on two cores (mad_fabric_scale_test covers 2,348 ports).
SHAPE = ["--leaves", "16", "--spines", "8", "--hosts-per-leaf", "8", "--hca-ports", "2"]


def outside(rdmadiag, src):
    """Writes the topology and runs this script again inside a fresh bed."""
    beds = os.path.join(src, "tests", "beds", "ibsim")
    with bed.temp_tree("shards") as work:
        topology = os.path.join(work, "topology")
        gen = subprocess.run([os.path.join(beds, "gen-fat-tree"), *SHAPE, "-o", topology],
                             capture_output=True, text=True, check=True)
        summary = gen.stderr.strip()
        print(summary)
        ports = int(re.search(r"\bports=(\d+)", summary).group(1))
        nodes = int(re.search(r"\bnodes=(\d+)", summary).group(1))
        opts = re.search(r"ibsim_opts='([^']*)'", summary).group(1)
        env = dict(os.environ, BED_IBSIM_OPTS=opts, BED_START_TIMEOUT="120",
                   SHARDS_TEST_PORTS=str(ports), SHARDS_TEST_NODES=str(nodes))
        r = subprocess.run([os.path.join(beds, "with-bed"), "--topology", topology,
                            sys.executable, os.path.abspath(__file__), rdmadiag, src, "--inside"],
                           env=env)
        return r.returncode


def start(b, rdmadiag, name, extra):
    help_text = subprocess.run([rdmadiag, "serve", "--help"], capture_output=True,
                               text=True).stdout
    others = sorted(set(re.findall(r"--no-source\.(\w+)", help_text)) - {"mad"})
    args = ["--source.mad"] + [f"--no-source.{s}" for s in others] + [
        "--interval.pkeys=2s", "--source.opt", "mad.scope=subnet",
        "--source.opt", "mad.counter_interval=2s"] + extra
    os.environ["LD_PRELOAD"] = UMAD2SIM
    try:
        _, port, _ = b.start_daemon(rdmadiag, args, name=name)
    finally:
        del os.environ["LD_PRELOAD"]
    return f"127.0.0.1:{port}"


def scalar(prom, expr):
    r = prom.query(expr)
    return float(r[0]["value"][1]) if r else None


def recent(selector):
    """A selector's series as last seen in the past 30 s: a scrape that a loaded machine answers
    late (the target is stale for one interval) does not hide a shard's ports from a check."""
    return f"last_over_time({selector}[30s])"


def check(name, prom, ports, nodes, failures):
    """The union checks against one query API (Prometheus or VictoriaMetrics)."""
    def present(job):
        selector = recent('rdmadiag_port_present{job="%s"}' % job)
        return scalar(prom, f"count({selector} == 1)")

    prom.wait_until(f"{name}: every port in both jobs",
                    lambda: present("shards") == ports and present("whole") == ports,
                    timeout=180)
    print(f"{name}: ports: shards {present('shards'):.0f}, whole {present('whole'):.0f}, "
          f"fabric {ports}")
    for family, match in [("rdmadiag_port_present", ""),
                          ("rdmadiag_pkey_table_changes_total", ',view="sma"'),
                          ("rdmadiag_port_state", ""),
                          ("rdmadiag_port_received_bytes_total", "")]:
        shards = recent(f'{family}{{job="shards"{match}}}')
        whole = recent(f'{family}{{job="whole"{match}}}')
        # Series of a family appear when their part of the sweep first runs, and a remote-write
        # store lags a little: wait (bounded) until both jobs have it before comparing them.
        try:
            prom.wait_until(f"{name}: {family} in both jobs",
                            lambda: scalar(prom, f"count({shards})") is not None and
                            scalar(prom, f"count({shards})") == scalar(prom, f"count({whole})"),
                            timeout=60)
        except AssertionError:
            pass  # the checks below say how they differ
        twice = prom.query(f"count by (device, port) ({shards}) > 1")
        if twice:
            failures.append(f"{name}: {family}: {len(twice)} ports reported by two shards, e.g. "
                            f"{twice[0]['metric']}")
        only = prom.query(f"count by (device, port) ({whole}) unless on (device, port) "
                          f"count by (device, port) ({shards})")
        extra = prom.query(f"count by (device, port) ({shards}) unless on (device, port) "
                           f"count by (device, port) ({whole})")
        if only or extra:
            failures.append(f"{name}: {family}: {len(only)} ports only in the whole sweep, "
                            f"{len(extra)} only in the shards")
        n = scalar(prom, f"count({shards})")
        print(f"{name}: {family}{{{match.lstrip(',')}}}: {n:.0f} series across the shards, "
              f"{len(twice)} twice")
    reachable_shards = recent('rdmadiag_device_reachable{job="shards"}')
    reachable = scalar(prom, f"count({reachable_shards} == 1)")
    if reachable != nodes:
        failures.append(f"{name}: {reachable} nodes reachable across the shards, want {nodes}")
    per_shard = prom.query(recent('rdmadiag_mad_sweep_last_nodes{job="shards"}'))
    counts = sorted(float(r["value"][1]) for r in per_shard)
    print(f"{name}: nodes per shard: {counts}")
    if len(counts) != SHARDS or sum(counts) != nodes or min(counts) == 0:
        failures.append(f"{name}: shard node counts {counts} do not split {nodes} nodes")


def inside(rdmadiag):
    prometheus = bed.require_program("prometheus", "prometheus")
    victoria = bed.require_program("victoria-metrics", "victoria-metrics")
    ports = int(os.environ["SHARDS_TEST_PORTS"])
    nodes = int(os.environ["SHARDS_TEST_NODES"])
    failures = []
    with bed.Bed("shards") as b:
        vm, write_url = b.start_victoria_metrics(victoria)
        shards = [start(b, rdmadiag, f"shard{k}", ["--source.opt", f"mad.shard={k}/{SHARDS}"])
                  for k in range(1, SHARDS + 1)]
        whole = start(b, rdmadiag, "whole", [])
        prom = b.start_prometheus(prometheus, [], jobs={"shards": shards, "whole": [whole]},
                                  remote_write=write_url, interval="3s")
        check("prometheus", prom, ports, nodes, failures)
        check("victoria-metrics", vm, ports, nodes, failures)
    bed.finish(failures)


def main():
    if len(sys.argv) < 3:
        print("usage: mad_shards_prometheus_test.py RDMADIAG SOURCE_DIR")
        return 2
    rdmadiag, src = sys.argv[1], sys.argv[2]
    if "--inside" in sys.argv:
        return inside(rdmadiag)
    return outside(rdmadiag, src)


if __name__ == "__main__":
    sys.exit(main())
