#!/usr/bin/env python3
"""The tracefs source's trace_pipe ends under `rdmadiag serve` (tracefs.mode=follow on a fixture
tracefs whose trace_pipe is a FIFO): a writer feeds MR trace lines, then goes away, leaving the
pipe at end of file, and for a while the pipe cannot be reopened; then it is back and a new writer
feeds the rest.

Asserts: the daemon keeps answering; while the pipe is gone rdmadiag_source_up{source="tracefs"}
is 0 and /api/v1/status gives the reason; the collector does not spin on the ended pipe (its loop
rounds (snapshots) stay a small multiple of its polls); once the pipe is back the source is up again and
the new writer's events arrive; the MRs it knew stay known while it is down; no counter ever
goes back.

Usage: trace_pipe_closes_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import shutil
import sys

import rdmadiag_bed as bed
from rdmadiag_bed import Checks, daemon_alive, get_json, scrape, wait_until

# Rounds of the collector per tracefs poll while the pipe is gone: the other sources poll a few
# times a second; a loop woken by an ended pipe would make thousands.
ROUNDS_PER_POLL = 50


def mr_keys(port):
    body = get_json(port, "/api/v1/mrs")
    items = body.get("mrs", []) if isinstance(body, dict) else body
    return {(m.get("device"), m.get("mr")) for m in items}


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    bed.require_exporter(rdmadiag)
    with open(os.path.join(src, "tests/fixtures/tracefs/xprtrdma-current.trace")) as f:
        lines = [ln for ln in f.read().splitlines(True) if not ln.startswith("#")]
    half = len(lines) // 2
    checks = Checks()
    with bed.Bed("fault-tracefs") as b:
        tracing = os.path.join(b.dir, "tracing")
        for system in ("rpcrdma", "rdma_core"):
            os.makedirs(os.path.join(tracing, "events", system))
        open(os.path.join(tracing, "trace"), "w").close()
        pipe = os.path.join(tracing, "trace_pipe")
        away = pipe + ".away"
        os.mkfifo(pipe)
        sysfs = os.path.join(b.dir, "sys")
        shutil.copytree(os.path.join(src, "tests/fixtures/sysfs/mlx5-ib/class"),
                        os.path.join(sysfs, "class"))
        config = os.path.join(b.dir, "rdmadiag.yml")
        with open(config, "w") as f:
            f.write("sources:\n  tracefs: true\nsource-options:\n  tracefs.mode: follow\n")
        proc, port, log = b.start_daemon(rdmadiag, [
            f"--config.file={config}", f"--path.tracefs={tracing}", f"--path.sysfs={sysfs}"])

        def up(s):
            return s.value("rdmadiag_source_up", source="tracefs")

        def mr_obs(s):
            return s.value("rdmadiag_source_observations_total", source="tracefs") or 0

        start = wait_until("tracefs up", lambda: (lambda s: up(s) == 1 and s)(scrape(port)))
        with open(pipe, "w") as w:
            w.writelines(lines[:half])
            w.flush()
            first = wait_until("the first writer's events", lambda: (
                lambda s: mr_obs(s) > mr_obs(start) and s)(scrape(port)))
            known = wait_until("its MRs", lambda: mr_keys(port))
            os.rename(pipe, away)  # the writer's end closes below, with nothing to reopen
        down = wait_until("tracefs down", lambda: (lambda s: up(s) == 0 and s)(scrape(port)))
        daemon_alive(proc, log)
        status = get_json(port, "/api/v1/status")
        text = str(status)
        checks.expect("trace_pipe" in text, f"/api/v1/status does not say why: {text[:500]}")
        checks.monotonic(first, down, "pipe ended")
        # Stay down a while: the source must not be woken over and over by the ended pipe. The
        # collector's rounds (one snapshot each) are compared with the source's polls in the gap.
        def polls(s):
            return s.value("rdmadiag_source_polls_total", source="tracefs") or 0

        gap = wait_until("a few polls while down", lambda: (
            lambda s: polls(s) >= polls(down) + 3 and s)(scrape(port)), timeout=60)
        checks.expect(up(gap) == 0, "tracefs said up while its pipe could not be opened")
        checks.monotonic(down, gap, "while down")
        checks.expect(known <= mr_keys(port), f"MRs lost while down: had {known}, "
                                              f"now {mr_keys(port)}")
        rounds = gap.value("rdmadiag_snapshot_sequence") - down.value("rdmadiag_snapshot_sequence")
        checks.expect(rounds <= ROUNDS_PER_POLL * (polls(gap) - polls(down) + 1),
                      f"collector spun on the ended pipe: {rounds} rounds for "
                      f"{polls(gap) - polls(down)} tracefs polls")

        os.rename(away, pipe)
        wait_until("tracefs up again", lambda: up(scrape(port)) == 1)
        before_rest = scrape(port)
        with open(pipe, "w") as w:  # held open: this writer's leaving would end the pipe again
            w.writelines(lines[half:])
            w.flush()
            after = wait_until("the second writer's events", lambda: (
                lambda s: mr_obs(s) > mr_obs(before_rest) and s)(scrape(port)))
            daemon_alive(proc, log)
            checks.expect(up(after) == 1, "tracefs not up after the pipe came back")
        checks.monotonic(gap, after, "after the pipe came back")
        checks.monotonic(start, after, "start vs end")
    checks.finish()


if __name__ == "__main__":
    main()
