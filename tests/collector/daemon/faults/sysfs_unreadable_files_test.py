#!/usr/bin/env python3
"""Files of a sysfs tree turn unreadable while the daemon runs, then readable again.

Unreadable is made two ways: a file replaced by a directory (read() fails with EISDIR, for root
too), and, when not running as root, chmod 000 (root reads through it, so that variant is skipped
as root with the reason printed). Hit: one PMA counter, one P_Key entry, one port's state.

Asserts: the daemon keeps answering and the sysfs source stays up; the failures are counted
(rdmadiag_source_errors_total rises) and the unreadable P_Key entry is exported as such
(rdmadiag_pkey_table_unreadable); the port's other counters keep being served and no counter ever
goes back; an unreadable entry is not taken for a P_Key change (rdmadiag_pkey_table_changes_total
and the findings stay as they were); once readable again every series is back.

Usage: sysfs_unreadable_files_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import shutil
import sys

import rdmadiag_bed as bed
from rdmadiag_bed import Checks, daemon_alive, findings, scrape, wait_until

TARGETS = ["ports/1/counters/port_rcv_data", "ports/1/pkeys/1", "ports/1/state"]


def make_unreadable(path, how):
    if how == "directory":
        os.rename(path, path + ".saved")
        os.mkdir(path)
    else:
        os.chmod(path, 0)


def make_readable(path, how):
    if how == "directory":
        os.rmdir(path)
        os.rename(path + ".saved", path)
    else:
        os.chmod(path, 0o444)


def run(rdmadiag, fixtures, how, checks):
    with bed.Bed(f"fault-sysfs-{how}") as b:
        root = os.path.join(b.dir, "sys")
        shutil.copytree(os.path.join(fixtures, "mlx5-ib/class"), os.path.join(root, "class"))
        dev = os.path.join(root, "class/infiniband/mlx5_0")
        proc, port, log = b.start_daemon(rdmadiag, [
            f"--path.sysfs={root}", "--interval.counters=50ms", "--interval.slow-counters=50ms",
            "--interval.pkeys=100ms"])

        def polls(s):
            return s.value("rdmadiag_source_polls_total", source="sysfs") or 0

        wait_until("port served", lambda: scrape(port).value(
            "rdmadiag_port_present", device="mlx5_0", port="1") == 1)
        wait_until("a few passes", lambda: polls(scrape(port)) >= 4)
        before = scrape(port)
        before_findings = findings(port)
        changes = before.series("rdmadiag_pkey_table_changes_total", device="mlx5_0")

        for t in TARGETS:
            make_unreadable(os.path.join(dev, t), how)
        during = wait_until("two passes over the unreadable files", lambda: (
            lambda s: polls(s) >= polls(before) + 4 and s)(scrape(port)))
        daemon_alive(proc, log)
        tag = f"[{how}] while unreadable"
        checks.monotonic(before, during, tag)
        checks.expect(during.value("rdmadiag_source_up", source="sysfs") == 1,
                      f"{tag}: sysfs source went down over single files")
        checks.expect(during.value("rdmadiag_source_errors_total", source="sysfs") >
                      (before.value("rdmadiag_source_errors_total", source="sysfs") or 0),
                      f"{tag}: unreadable files not counted as errors")
        checks.expect(during.value("rdmadiag_pkey_table_unreadable", device="mlx5_0", port="1",
                                   view="device") == 1,
                      f"{tag}: the unreadable P_Key entry is not exported as unreadable: "
                      f"{during.series('rdmadiag_pkey_table_unreadable')}")
        checks.kept(before, during, tag, lambda n: n.startswith("rdmadiag_port_") and n not in (
            "rdmadiag_port_state",))
        checks.expect(during.series("rdmadiag_pkey_table_changes_total", device="mlx5_0")
                      == changes, f"{tag}: an unreadable entry counted as a P_Key change")
        checks.expect(findings(port) == before_findings,
                      f"{tag}: findings changed: {before_findings} -> {findings(port)}")

        for t in TARGETS:
            make_readable(os.path.join(dev, t), how)
        after = wait_until("readable again", lambda: (lambda s: polls(s) >= polls(during) + 4 and
                           not s.value("rdmadiag_pkey_table_unreadable", device="mlx5_0", port="1",
                                       view="device") and s)(scrape(port)))
        daemon_alive(proc, log)
        tag = f"[{how}] after"
        checks.monotonic(during, after, tag)
        checks.monotonic(before, after, tag)
        checks.kept(before, after, tag, lambda n: n.startswith(
            ("rdmadiag_port_", "rdmadiag_pkey_", "rdmadiag_device_")))
        checks.expect(after.series("rdmadiag_pkey_table_changes_total", device="mlx5_0")
                      == changes, f"{tag}: P_Key changes counted for a table that never changed")
        checks.expect(findings(port) == before_findings,
                      f"{tag}: findings changed: {before_findings} -> {findings(port)}")


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    bed.require_exporter(rdmadiag)
    fixtures = os.path.join(src, "tests/fixtures/sysfs")
    checks = Checks()
    run(rdmadiag, fixtures, "directory", checks)
    if os.geteuid() == 0:
        print("chmod 000 variant skipped: running as root, which reads files whatever their mode "
              "(the directory variant above covers root)")
    else:
        run(rdmadiag, fixtures, "chmod", checks)
    checks.finish()


if __name__ == "__main__":
    main()
