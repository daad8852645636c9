#!/usr/bin/env python3
"""Probe clients misbehave against `rdmadiag serve --source.probe`: a real producer process is
SIGKILLed while it writes records into its rings, and another floods as fast as it can.

Asserts: the daemon keeps answering all along; the probe source stays up; the MR a well-behaved
client registered before is still there afterwards (/api/v1/mrs); no exported counter ever goes
back; the flooder is bounded: its records beyond what its rings hold are dropped in the producer
(it says how many), not queued in the collector, whose resident memory grows by less than what
the probe's limits allow one client to hand over (64 rings x 1 MiB); and a new client is served
after both.

Usage: probe_client_killed_test.py RDMADIAG_BINARY PROBE_PRODUCER"""

import os
import signal
import subprocess
import sys

import rdmadiag_bed as bed
from rdmadiag_bed import Checks, daemon_alive, get_json, scrape, wait_until

RING_LIMIT_BYTES = 64 * (1 << 20)


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def mr_keys(port):
    body = get_json(port, "/api/v1/mrs")
    items = body.get("mrs", []) if isinstance(body, dict) else body
    return {(m.get("device"), m.get("mr")) for m in items}


def main():
    rdmadiag, producer = sys.argv[1], sys.argv[2]
    for program in (rdmadiag, producer):
        if not os.access(program, os.X_OK):
            bed.skip(f"{program} was not built")
    checks = Checks()
    with bed.Bed("fault-probe") as b:
        sock = os.path.join(b.dir, "probe.sock")
        config = os.path.join(b.dir, "rdmadiag.yml")
        nosys = os.path.join(b.dir, "no-sysfs")
        with open(config, "w") as f:
            f.write(f"sources:\n  probe: true\nsource-options:\n  probe.socket: {sock}\n")
        proc, port, log = b.start_daemon(rdmadiag, [f"--config.file={config}",
                                                    f"--path.sysfs={nosys}"])
        wait_until("probe up", lambda: scrape(port).value("rdmadiag_source_up",
                                                          source="probe") == 1)

        def observations(s):
            return s.value("rdmadiag_source_observations_total", source="probe") or 0

        # A well-behaved client registers an MR and stays.
        good = subprocess.Popen([producer, "normal", sock, "hold"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        b.procs.append(good)
        checks.expect(good.stdout.readline().strip() == "ready", "normal producer not ready")
        had = wait_until("the good client's MR", lambda: mr_keys(port))
        before = scrape(port)
        rss_before = rss_bytes(proc.pid)

        # One producer killed while it writes.
        victim = subprocess.Popen([producer, "flood", sock, "1000000000"],
                                  stdout=subprocess.PIPE, text=True)
        b.procs.append(victim)
        wait_until("the victim's records arrive", lambda: observations(scrape(port)) >
                   observations(before) + 1000)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        # Another floods to the end.
        flood = subprocess.run([producer, "flood", sock, "3000000"], capture_output=True,
                               text=True, timeout=600)
        checks.expect(flood.returncode == 0, f"flooder exited {flood.returncode}")
        dropped = int(flood.stdout.split("dropped ")[1].split()[0]) \
            if "dropped " in flood.stdout else -1
        checks.expect(dropped >= 0, f"flooder said nothing about drops: {flood.stdout!r}")
        print(f"flooder dropped {dropped} of 6000000 records in its own rings")

        daemon_alive(proc, log)
        during = scrape(port)
        checks.monotonic(before, during, "after the kill and the flood")
        checks.expect(during.value("rdmadiag_source_up", source="probe") == 1,
                      "probe source down after a client was killed")
        grown = rss_bytes(proc.pid) - rss_before
        print(f"collector resident memory grew by {grown / (1 << 20):.1f} MiB")
        checks.expect(grown < RING_LIMIT_BYTES,
                      f"collector grew by {grown} bytes, more than one client's ring limit")

        # The good client's MR is still known; a new client is served.
        checks.expect(had <= mr_keys(port), f"MRs lost: had {had}, now {mr_keys(port)}")
        after_obs = observations(during)
        fresh = subprocess.run([producer, "normal", sock], capture_output=True, timeout=120)
        checks.expect(fresh.returncode == 0, f"a new client after the faults exited "
                                             f"{fresh.returncode}")
        after = wait_until("the new client's records", lambda: (
            lambda s: observations(s) > after_obs and s)(scrape(port)))
        checks.monotonic(during, after, "after a new client")
        checks.kept(before, after, "after a new client",
                    lambda n: n.startswith(("rdmadiag_mr_", "rdmadiag_source_")))
        good.stdin.write("\n")
        good.stdin.flush()
        good.wait(timeout=60)
        daemon_alive(proc, log)
    checks.finish()


if __name__ == "__main__":
    main()
