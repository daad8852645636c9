#!/usr/bin/env python3
"""Installs the Debian packages (built by package_build.py) with dpkg into a scratch root
(scratch_root.py), and uses what was installed.

Asserts: every package installs and is configured; the postinst created the rdma group (removed
from the scratch root first); the unit is enabled and the configuration is a conffile; the
installed `rdmadiag status --simulate` works; the installed daemon, started from the installed
configuration file, serves /metrics; probe_example.c, built in the scratch root against the
installed header and library with `pkg-config --cflags --libs rdmadiag-probe`, reports to that
daemon and its reports arrive (the probe's observations and the MR finding it raises); purging
removes the program, the library, the conffile and the unit's enablement.

Usage: package_install_test.py DEBS_DIR"""

import os
import re
import sys

from scratch_root import (bed, drop_group, enter_namespace, has_group, in_namespace,
                          make_root, packages, query, run, unmount)

PACKAGES = ["rdmadiag", "rdmadiag-gui", "librdmadiag-probe0", "librdmadiag-probe-dev"]


def healthy(port):
    try:
        return bed.http_get(f"http://127.0.0.1:{port}/healthz")[0] == 200
    except OSError:  # urllib's HTTPError (the 503 before the first snapshot) is an OSError
        return False


def main():
    if not in_namespace():
        sys.exit(enter_namespace(__file__))
    files = packages(sys.argv[1], PACKAGES)
    for program, package in (("cc", "build-essential"), ("pkg-config", "pkg-config")):
        bed.require_program(program, package)
    multiarch = run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"]).stdout.strip()
    failures = []

    def expect(ok, what):
        if not ok:
            failures.append(what)
        return ok

    with bed.Bed("package") as b:
        scratch = os.path.join(b.dir, "ns")
        try:
            root = make_root(scratch)
            drop_group(root, "rdma")
            p = run(["dpkg", f"--root={root}", "--install"] + [files[pkg] for pkg in PACKAGES],
                    check=False)
            print(p.stdout, p.stderr)
            if not expect(p.returncode == 0, f"dpkg --install exited {p.returncode}"):
                bed.finish(failures)
            for pkg in PACKAGES:
                status = query(root, pkg, "Status")
                expect(status == "install ok installed", f"{pkg}: dpkg status {status!r}")
            expect(has_group(root, "rdma"), "the postinst did not create the rdma group")
            expect("/etc/rdmadiag/rdmadiag.yml" in query(root, "rdmadiag", "Conffiles"),
                   "/etc/rdmadiag/rdmadiag.yml is not a conffile")
            wants = os.path.join(root, "etc/systemd/system/multi-user.target.wants/rdmadiag.service")
            expect(os.path.islink(wants) and
                   os.readlink(wants).endswith("/systemd/system/rdmadiag.service"),
                   "the postinst did not enable rdmadiag.service")

            status = run(["chroot", root, "/usr/bin/rdmadiag", "status", "--simulate"], check=False)
            expect(status.returncode == 0 and "mlx5" in status.stdout,
                   f"installed rdmadiag status --simulate: exit {status.returncode}\n"
                   f"{status.stdout[-2000:]}{status.stderr[-2000:]}")

            # The daemon as the unit runs it (its configuration file), on the simulated fabric, on a
            # loopback port of its own, with the probe source on the default socket.
            os.makedirs(os.path.join(root, "run/rdmadiag"))
            proc, port, log = b.start_daemon_as(
                ["chroot", root], "/usr/bin/rdmadiag",
                ["--config.file=/etc/rdmadiag/rdmadiag.yml", "--simulate", "--source.probe",
                 "--interval.counters=1s", "--interval.slow-counters=1s"], name="installed")
            # /healthz answers 200 once the first snapshot is published (503 before); the
            # deadline only bounds a hung daemon.
            bed.wait_until("/healthz", lambda: healthy(port), timeout=60, interval=0.1,
                           fail=False)
            expect(bed.scrape(port).value("rdmadiag_source_up", source="probe") == 1,
                   "the installed daemon's /metrics has no probe source that is up")

            def probe_observations():
                return bed.scrape(port).value("rdmadiag_source_observations_total",
                                              source="probe") or 0.0

            before = probe_observations()
            built = run(["chroot", root, "sh", "-c",
                         "cc -Wall -Werror -o /tmp/probe_example "
                         "/usr/share/doc/librdmadiag-probe-dev/examples/probe_example.c "
                         "$(pkg-config --cflags --libs rdmadiag-probe)"], check=False)
            if expect(built.returncode == 0, f"probe_example did not build against the installed "
                                             f"library:\n{built.stdout}{built.stderr}"):
                ldd = run(["chroot", root, "ldd", "/tmp/probe_example"], check=False).stdout
                m = re.search(r"librdmadiag_probe\.so\.0 => (/\S+)", ldd)
                installed = os.path.join(root, "usr/lib", multiarch, "librdmadiag_probe.so.0")
                expect(m and os.path.realpath(root + m.group(1)) == os.path.realpath(installed),
                       f"probe_example is not linked with the installed library:\n{ldd}")
                ran = run(["chroot", root, "/tmp/probe_example"], check=False)
                print(ran.stdout, ran.stderr)
                expect(ran.returncode == 0 and "reported; dropped 0" in ran.stdout
                       and "no collector" not in ran.stderr,
                       f"probe_example: exit {ran.returncode}: {ran.stdout}{ran.stderr}")
                # Registration, two posts, two failed completions, deregistration: six records.
                bed.wait_until("the probe's six records",
                               lambda: probe_observations() >= before + 6, timeout=60,
                               interval=0.2, fail=False)
                expect(probe_observations() >= before + 6,
                       f"the probe's reports did not reach the daemon ({probe_observations()} "
                       f"observations, {before} before)")
                findings = bed.http_get(f"http://127.0.0.1:{port}/api/v1/findings")[1]
                expect("mr.needs_dereg" in findings and "rxe0" in findings,
                       f"no mr.needs_dereg finding for the example's MR on rxe0: {findings[:2000]}")
            proc.terminate()
            proc.wait(timeout=30)

            p = run(["dpkg", f"--root={root}", "--purge"] + PACKAGES, check=False)
            print(p.stdout, p.stderr)
            expect(p.returncode == 0, f"dpkg --purge exited {p.returncode}")
            for path in ("usr/bin/rdmadiag", "etc/rdmadiag/rdmadiag.yml",
                         "etc/systemd/system/multi-user.target.wants/rdmadiag.service",
                         f"usr/lib/{multiarch}/librdmadiag_probe.so.0"):
                expect(not os.path.lexists(os.path.join(root, path)), f"{path} is left after purge")
        finally:
            # Before the bed removes its folder: nothing of the scratch root stays mounted.
            unmount(scratch)
    bed.finish(failures)


if __name__ == "__main__":
    main()
