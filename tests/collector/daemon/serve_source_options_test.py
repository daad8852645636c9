#!/usr/bin/env python3
"""A wrong source option stops a command (without leaving a recording behind) and `rdmadiag serve`
at start-up, in its source's words; a SIGHUP whose config file brings one is refused: the reason
is logged, the running configuration stays (the daemon keeps serving its sources), and a later
good file is taken.

Usage: serve_source_options_test.py RDMADIAG_BINARY"""

import os
import signal
import subprocess
import sys

import rdmadiag_bed as bed
from rdmadiag_bed import daemon_alive, scrape, wait_until

GUID_ZERO = ("partitions source: partitions.sm_port_guid must be a GUID other than 0, not '0'")


def run(rdmadiag, *args):
    return subprocess.run([rdmadiag, *args], capture_output=True, text=True, timeout=60)


def main():
    rdmadiag = sys.argv[1]
    bed.require_exporter(rdmadiag)
    failures = []

    def expect(ok, message):
        if not ok:
            failures.append(message)

    # A value its source refuses, read with the command line.
    r = run(rdmadiag, "status", "--simulate", "--source.opt", "netdev.confirm=0s")
    expect(r.returncode != 0 and r.stdout == "", f"status ran with netdev.confirm=0s: {r}")
    expect("netdev source: netdev.confirm must be a positive duration, not '0s'" in r.stderr,
           f"status: {r.stderr!r}")
    # Two options that disagree, known once both are read: before any source runs.
    r = run(rdmadiag, "status", "--simulate", "--interval.pkeys", "30s",
            "--sysfs.pkey_full_interval", "20s")
    expect(r.returncode == 3 and r.stdout == "", f"status ran with disagreeing options: {r}")
    expect("sysfs source: sysfs.pkey_full_interval must be a duration no shorter than the P_Key "
           "interval" in r.stderr, f"status: {r.stderr!r}")

    with bed.Bed("serve-options") as b:
        recording = os.path.join(b.dir, "capture.jsonl")
        r = run(rdmadiag, "record", recording, "--simulate", "--interval.pkeys", "30s",
                "--sysfs.pkey_full_interval", "20s")
        expect(r.returncode == 3 and not os.path.exists(recording),
               f"record started with disagreeing options: {r}")

        cfg = os.path.join(b.dir, "rdmadiag.yml")
        conf = os.path.join(b.dir, "partitions.conf")
        with open(conf, "w") as f:
            f.write("Storage=0x8011 : ALL ;\n")

        def config(text):
            with open(cfg, "w") as f:
                f.write(text)

        config(f"partitions:\n  conf: {conf}\n  sm-port-guid: 0\n")
        r = run(rdmadiag, "serve", "--web.listen-address=127.0.0.1:0", "--config.file", cfg,
                "--simulate")
        expect(r.returncode == 2, f"serve started with a wrong option: {r.returncode}")
        expect(f"{cfg}: line 3: {GUID_ZERO}" in r.stderr, f"serve: {r.stderr!r}")

        config(f"partitions:\n  conf: {conf}\n")
        proc, port, log = b.start_daemon(rdmadiag, ["--config.file", cfg, "--simulate"])

        def partitions_up():
            return scrape(port).value("rdmadiag_source_up", source="partitions") == 1

        wait_until("the partitions source up", partitions_up)

        def log_text():
            with open(log) as f:
                return f.read()

        config(f"partitions:\n  conf: {conf}\n  sm-port-guid: 0\n")
        proc.send_signal(signal.SIGHUP)
        refused = wait_until("the reload refused", lambda: (
            "reload failed, keeping the running configuration" in log_text() and GUID_ZERO in
            log_text()), timeout=30, fail=False)
        expect(refused, f"no refusal logged:\n{log_text()}")
        daemon_alive(proc, log)
        expect("reloaded collector" not in log_text(), "the wrong file was taken")
        expect(partitions_up(), "the running partitions source went away")

        config(f"partitions:\n  conf: {conf}\n  sm-port-guid: 0x0002c90300001234\n")
        proc.send_signal(signal.SIGHUP)
        taken = wait_until("the good reload", lambda: "reloaded collector" in log_text(),
                           timeout=30, fail=False)
        expect(taken, f"a good file was not taken after a refused one:\n{log_text()}")
        daemon_alive(proc, log)
    bed.finish(failures)


if __name__ == "__main__":
    main()
