#!/usr/bin/env python3
"""A device disappears from the sysfs tree while the daemon samples it, many times over, then for
good, then comes back (`rdmadiag serve --path.sysfs` on a copy of two fixture devices).

Asserts: the daemon keeps answering; the sysfs source stays up (it can still list devices) and
the other device keeps being served while one is gone; the gone device is reported absent
(rdmadiag_device_present 0 or its series dropped) while away; no exported counter ever goes back;
once the device is back every series the daemon had before is there again and the findings are
the ones it had before.

Usage: sysfs_device_vanishes_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import random
import shutil
import sys
import time

import rdmadiag_bed as bed
from rdmadiag_bed import Checks, daemon_alive, findings, scrape, wait_until

FLIPS = 150


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    bed.require_exporter(rdmadiag)
    fixtures = os.path.join(src, "tests/fixtures/sysfs")
    checks = Checks()
    with bed.Bed("fault-sysfs-vanish") as b:
        root = os.path.join(b.dir, "sys")
        cls = os.path.join(root, "class/infiniband")
        shutil.copytree(os.path.join(fixtures, "mlx5-ib/class"), os.path.join(root, "class"))
        shutil.copytree(os.path.join(fixtures, "no-pma/class/infiniband/mlx5_1"),
                        os.path.join(cls, "mlx5_1"))
        here, away = os.path.join(cls, "mlx5_0"), os.path.join(root, "mlx5_0.away")
        proc, port, log = b.start_daemon(rdmadiag, [
            f"--path.sysfs={root}", "--interval.counters=50ms", "--interval.slow-counters=50ms",
            "--interval.pkeys=100ms"])

        def both_present(s):
            return all(s.value("rdmadiag_port_present", device=d, port="1") == 1
                       for d in ("mlx5_0", "mlx5_1"))

        first = wait_until("both devices served", lambda: (lambda s: both_present(s) and s)(
            scrape(port)))
        wait_until("a second P_Key pass", lambda: scrape(port).value(
            "rdmadiag_source_polls_total", source="sysfs") >= 4)
        before = scrape(port)
        before_findings = findings(port)
        checks.expect(before.value("rdmadiag_source_up", source="sysfs") == 1, "sysfs up at start")

        # The device flips in and out while the daemon samples: some samples start with it and
        # lose it half way through, some the other way round.
        rng = random.Random(7)
        previous = before
        for i in range(FLIPS):
            os.rename(here, away)
            time.sleep(rng.uniform(0, 0.03))
            os.rename(away, here)
            time.sleep(rng.uniform(0, 0.03))
            if i % 10 == 0:
                daemon_alive(proc, log)
                now = scrape(port)
                checks.monotonic(previous, now, f"flip {i}")
                checks.expect(now.value("rdmadiag_source_up", source="sysfs") == 1,
                              f"flip {i}: sysfs source down while listing still works")
                checks.expect(now.value("rdmadiag_port_present", device="mlx5_1", port="1") == 1,
                              f"flip {i}: mlx5_1 not served while mlx5_0 flips")
                previous = now

        # Gone for good: said so, the other device still served.
        os.rename(here, away)
        gone = wait_until("mlx5_0 reported gone", lambda: (lambda s: (
            s.value("rdmadiag_device_present", device="mlx5_0") in (0, None)
            and s.value("rdmadiag_port_present", device="mlx5_0", port="1") in (0, None)) and s)(
            scrape(port)))
        checks.monotonic(previous, gone, "while gone")
        checks.expect(gone.value("rdmadiag_source_up", source="sysfs") == 1,
                      "sysfs source down while one device is gone")
        checks.expect(gone.value("rdmadiag_port_present", device="mlx5_1", port="1") == 1,
                      "mlx5_1 not served while mlx5_0 is gone")

        # Back: everything it had is there again, findings as before.
        os.rename(away, here)
        polls = gone.value("rdmadiag_source_polls_total", source="sysfs")
        back = wait_until("mlx5_0 back", lambda: (lambda s: both_present(s) and s.value(
            "rdmadiag_source_polls_total", source="sysfs") >= polls + 4 and s)(scrape(port)))
        daemon_alive(proc, log)
        checks.monotonic(gone, back, "after the device came back")
        checks.monotonic(before, back, "before vs after")
        checks.kept(before, back, "after the device came back",
                    lambda n: n.startswith(("rdmadiag_port_", "rdmadiag_pkey_", "rdmadiag_device_")))
        checks.expect(findings(port) == before_findings,
                      f"findings changed: {before_findings} -> {findings(port)}")
        checks.expect(first is not None, "never served")
    checks.finish()


if __name__ == "__main__":
    main()
