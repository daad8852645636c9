#!/usr/bin/env python3
"""`rdmadiag serve` runs as an unprivileged user (nobody/nogroup, no supplementary groups, no
capabilities) for everything that needs no privilege: the sysfs fixture tree, the simulated
fabric and a probe socket in a folder that user owns. The sources that need privilege say why
they are down, and the daemon serves regardless.

Needs root to switch users (setpriv); skips otherwise.

Usage: serve_unprivileged_test.py RDMADIAG_BINARY SOURCE_DIR"""

import json
import os
import pwd
import re
import shutil
import sys

import rdmadiag_bed as bed


def proc_status(pid):
    with open(f"/proc/{pid}/status") as f:
        return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)


def wait_ready(port):
    def healthy():
        try:
            return bed.http_get(f"http://127.0.0.1:{port}/healthz")[0] == 200
        except OSError:
            return False

    return bed.wait_until("/healthz", healthy, timeout=30, interval=0.2, fail=False)


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        bed.skip("switching to an unprivileged user needs root")
    setpriv = bed.require_program("setpriv", "util-linux")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        bed.skip("there is no user 'nobody' on this host")
    bed.require_exporter(rdmadiag)
    failures = []

    with bed.Bed("unprivileged") as b:
        # Everything the daemon reads is copied where nobody can read it; nothing is writable
        # by it but the probe socket's folder.
        os.chmod(b.dir, 0o755)
        exe = os.path.join(b.dir, "rdmadiag")
        shutil.copy(rdmadiag, exe)
        os.chmod(exe, 0o755)
        sysfs = os.path.join(b.dir, "sysfs")
        shutil.copytree(os.path.join(src, "tests/fixtures/sysfs/mlx5-ib"), sysfs, symlinks=True)
        run = os.path.join(b.dir, "run")
        os.mkdir(run, 0o755)
        os.chown(run, nobody.pw_uid, nobody.pw_gid)
        drop = [setpriv, f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]

        runs = {
            "sysfs fixture": ["--source.sysfs", f"--path.sysfs={sysfs}", "--source.probe",
                              "--source.opt", f"probe.socket={run}/probe.sock"],
            "simulated fabric": ["--simulate", "--source.sysfs", f"--path.sysfs={sysfs}-none"],
            # The default sources, and the probe at its default path under /run.
            "default sources": [f"--path.sysfs={sysfs}", "--source.probe"],
        }
        for name, args in runs.items():
            proc, port, log = b.start_daemon_as(drop, exe, args, name=name.replace(" ", "-"))
            st = proc_status(proc.pid)
            uid = st["Uid"].split()
            if any(int(u) != nobody.pw_uid for u in uid):
                failures.append(f"{name}: runs with uids {uid}, not nobody")
            if int(st["CapEff"], 16) or int(st["CapPrm"], 16) or st.get("Groups", "").strip():
                failures.append(f"{name}: kept capabilities or groups: {st['CapEff']} "
                                f"{st.get('Groups')}")
            if not wait_ready(port):
                failures.append(f"{name}: /healthz never answered 200")
                continue
            _, status = bed.http_get(f"http://127.0.0.1:{port}/api/v1/status")
            sources = {s["name"]: s for s in json.loads(status).get("sources", [])}
            # /healthz answers before the first round is published; the sources' first
            # observations reach /metrics a round later (slower under a sanitizer).
            def first_round():
                page = bed.http_get(f"http://127.0.0.1:{port}/metrics")[1]
                return page if "rdmadiag_port_state" in page else None

            # Without it, the page it has is judged below, and the failures say what is missing.
            metrics = bed.wait_until("the first round on /metrics", first_round, timeout=30,
                                     interval=0.2, fail=False) or \
                bed.http_get(f"http://127.0.0.1:{port}/metrics")[1]
            print(f"{name}: sources " + ", ".join(
                f"{n}={'up' if s.get('up') else 'down (' + s.get('reason', '') + ')'}"
                for n, s in sorted(sources.items())))
            if name == "sysfs fixture":
                for want in ("sysfs", "probe"):
                    if not sources.get(want, {}).get("up"):
                        failures.append(f"{name}: source {want} is not up: {sources.get(want)}")
                if not bed.Scrape(metrics).series("rdmadiag_port_state", device="mlx5_0"):
                    failures.append(f"{name}: no port state for mlx5_0 in /metrics")
                sock = os.stat(f"{run}/probe.sock")
                if sock.st_mode & 0o777 != 0o660 or sock.st_uid != nobody.pw_uid:
                    failures.append(f"{name}: probe socket mode {oct(sock.st_mode)} uid "
                                    f"{sock.st_uid}")
            elif name == "simulated fabric":
                if not sources.get("sim", {}).get("up"):
                    failures.append(f"{name}: the simulated fabric is not up: {sources}")
                if "rdmadiag_port_state" not in metrics:
                    failures.append(f"{name}: no port metrics from the simulated fabric")
            else:
                if not sources.get("sysfs", {}).get("up"):
                    failures.append(f"{name}: sysfs is not up: {sources.get('sysfs')}")
                probe = sources.get("probe", {})
                if probe.get("up") or not probe.get("reason"):
                    failures.append(f"{name}: the probe socket under /run should be refused to "
                                    f"nobody, with a reason: {probe}")
            proc.terminate()
            proc.wait(timeout=15)
            if proc.returncode != 0:
                failures.append(f"{name}: exited {proc.returncode} on SIGTERM")
            with open(log) as f:
                text = f.read()
            # Sources that cannot run say so (verbs is live-only, not read from a fixture); a
            # permission problem in what should run unprivileged is a failure.
            denied = [line for line in text.splitlines() if "level=error" in line and
                      re.search(r"ermission denied|not permitted", line)
                      and "source=probe" not in line]
            if denied:
                failures.append(f"{name}: permission errors:\n" + "\n".join(denied))

    bed.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
