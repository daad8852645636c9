#!/usr/bin/env python3
"""The rdmadiag package's unit under a real systemd: the package is installed with dpkg into a
scratch root (scratch_root.py), which then boots with systemd as PID 1 in a container
(systemd-nspawn, with a private network: only its own loopback). The unit is started by the boot
itself, from the enablement the postinst made, with the installed configuration file. A oneshot
unit of the test's runs inside once rdmadiag.service is started and writes what it saw to a
folder shared with the host, then powers the container off.

Asserts: rdmadiag.service is active and runs as a dynamic user (not root) with no capabilities;
/metrics answers on the configured port (:9857, inside the container); `systemctl reload`
makes the daemon re-read its configuration (the log says "reloaded collector") without a new
process, and /metrics still answers; `systemd-analyze security rdmadiag.service` rates the
running unit, and its exposure score is printed.

Usage: package_systemd_test.py DEBS_DIR"""

import os
import re
import subprocess
import sys

from scratch_root import (bed, enter_namespace, in_namespace, make_root, packages,
                          run, unmount)

CHECK_UNIT = """[Unit]
Description=rdmadiag package test: checks rdmadiag.service, then powers off
After=rdmadiag.service
Wants=rdmadiag.service

[Service]
Type=oneshot
ExecStart=/bin/sh /usr/local/sbin/rdmadiag-package-check
StandardOutput=file:/out/check.log
StandardError=inherit
"""

# Polls only to wait for the daemon: the deadlines bound a hung boot, nothing is timed.
CHECK_SCRIPT = r"""#!/bin/sh
out=/out
metrics() { curl -sf --max-time 10 http://127.0.0.1:9857/metrics; }
n=0
until [ "$(systemctl is-active rdmadiag.service)" != activating ] && metrics >/dev/null; do
    n=$((n + 1)); [ $n -lt 300 ] || break; sleep 0.2
done
systemctl is-active rdmadiag.service > $out/active
pid=$(systemctl show -p MainPID --value rdmadiag.service)
echo "$pid" > $out/pid_before
grep -E '^(Uid|CapEff|CapBnd):' /proc/$pid/status > $out/proc_status
metrics > $out/metrics_before
systemctl reload rdmadiag.service; echo $? > $out/reload_rc
n=0
until journalctl -u rdmadiag.service -o cat | grep -q 'reloaded collector'; do
    n=$((n + 1)); [ $n -lt 300 ] || break; sleep 0.2
done
systemctl show -p MainPID --value rdmadiag.service > $out/pid_after
metrics > $out/metrics_after
journalctl -u rdmadiag.service -o cat > $out/journal
systemd-analyze security rdmadiag.service > $out/security 2>&1
systemctl --failed --no-legend > $out/failed
systemctl poweroff
"""


def main():
    if not in_namespace():
        sys.exit(enter_namespace(__file__))
    files = packages(sys.argv[1], ["rdmadiag"])
    nspawn = bed.require_program("systemd-nspawn", "systemd-container")
    for path, package in (("/lib/systemd/systemd", "systemd"), ("/usr/bin/curl", "curl")):
        if not os.path.exists(path):
            bed.skip(f"{path} is not installed (Debian package {package})")
    failures = []

    def expect(ok, what):
        if not ok:
            failures.append(what)
        return ok

    with bed.Bed("package-systemd") as b:
        scratch = os.path.join(b.dir, "ns")
        out = os.path.join(b.dir, "out")
        os.makedirs(out)
        try:
            root = make_root(scratch)
            p = run(["dpkg", f"--root={root}", "--install", files["rdmadiag"]], check=False)
            print(p.stdout, p.stderr)
            if not expect(p.returncode == 0, f"dpkg --install exited {p.returncode}"):
                bed.finish(failures)
            # nspawn mounts /proc, /dev, /run and /tmp of its own; the container gets a machine
            # id of its own (an empty file: systemd makes one at boot), so journals are apart.
            run(["umount", os.path.join(root, "proc")])
            with open(os.path.join(root, "etc/machine-id"), "w"):
                pass
            os.makedirs(os.path.join(root, "usr/local/sbin"), exist_ok=True)
            with open(os.path.join(root, "usr/local/sbin/rdmadiag-package-check"), "w") as f:
                f.write(CHECK_SCRIPT)
            units = os.path.join(root, "etc/systemd/system")
            with open(os.path.join(units, "rdmadiag-package-check.service"), "w") as f:
                f.write(CHECK_UNIT)
            os.symlink("/etc/systemd/system/rdmadiag-package-check.service",
                       os.path.join(units, "multi-user.target.wants/rdmadiag-package-check.service"))
            # nspawn keeps state under /run/systemd/nspawn: a tmpfs of this namespace, so none
            # of it lands in the host's /run.
            run(["mount", "-t", "tmpfs", "-o", "mode=0755", "nspawn-run", "/run"])
            console = os.path.join(b.dir, "console.log")
            with open(console, "w") as log:
                boot = subprocess.run(
                    [nspawn, "--quiet", "--directory", root, "--boot", "--register=no",
                     "--keep-unit", "--link-journal=no", "--private-network",
                     "--console=pipe", f"--bind={out}:/out"],
                    stdout=log, stderr=subprocess.STDOUT, timeout=600)
            with open(console) as f:
                console_text = f.read()
            expect(boot.returncode == 0,
                   f"systemd-nspawn exited {boot.returncode}:\n{console_text[-4000:]}")

            def read(name):
                path = os.path.join(out, name)
                return open(path).read() if os.path.exists(path) else ""

            if not read("active"):
                bed.finish(failures + [f"the check unit did not run:\n{console_text[-4000:]}"])
            journal = read("journal")
            expect(read("active").strip() == "active",
                   f"rdmadiag.service is {read('active').strip()!r}:\n{journal[-3000:]}")
            status = read("proc_status")
            uid = re.search(r"^Uid:\s+(\d+)", status, re.M)
            expect(uid and uid.group(1) != "0", f"the daemon runs as root: {status}")
            expect(re.search(r"^CapEff:\s+0+$", status, re.M) and
                   re.search(r"^CapBnd:\s+0+$", status, re.M),
                   f"the daemon has capabilities: {status}")
            for name in ("metrics_before", "metrics_after"):
                expect('rdmadiag_source_up{source="sysfs"}' in read(name),
                       f"{name}: /metrics did not answer with the sources")
            expect(read("reload_rc").strip() == "0", "systemctl reload failed")
            expect("reloaded collector" in journal, f"no reload in the log:\n{journal[-3000:]}")
            before, after = read("pid_before").strip(), read("pid_after").strip()
            expect(before and before == after, f"reload started a new process: {before} -> {after}")
            security = read("security")
            score = re.search(r"Overall exposure level for rdmadiag\.service: (\S+ \S+)",
                              security)
            expect(score, f"systemd-analyze security gave no score:\n{security[-3000:]}")
            if score:
                print(f"systemd-analyze security rdmadiag.service: {score.group(1)}")
            print(security)
            expect(not read("failed").strip(), f"failed units in the container: {read('failed')}")
        finally:
            unmount(scratch)
    bed.finish(failures)


if __name__ == "__main__":
    main()
