#!/usr/bin/env python3
"""`rdmadiag record` when the disk for the recording is full.

Two ways to be full without privileges: /dev/full (every write fails with ENOSPC), and a regular
file under a file size limit (RLIMIT_FSIZE set in the child: writes past it fail with EFBIG,
record ignores SIGXFSZ so the limit is an error, not a kill). Asserts, for each: record exits
non-zero with a clear message naming the file and the reason, and no crash (no signal, no
sanitizer report); with the size limit, the file holds only whole lines and every one of them is
valid JSON (a header and observations), so what was written before the disk filled replays.

Usage: record_disk_full_test.py RDMADIAG_BINARY"""

import json
import os
import resource
import subprocess
import sys

import rdmadiag_bed as bed

LIMIT = 24 * 1024  # bytes: the header and a few dozen observations
SANITIZER_MARKS = ("AddressSanitizer", "ThreadSanitizer", "LeakSanitizer", "runtime error:")


def record(rdmadiag, path, limit=None):
    def child():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([rdmadiag, "record", "--simulate=pkey-violations-after-change", path],
                          capture_output=True, text=True, timeout=300, preexec_fn=child)


def main():
    rdmadiag = sys.argv[1]
    if not os.access(rdmadiag, os.X_OK):
        bed.skip(f"{rdmadiag} was not built")
    failures = []

    def judge(tag, p, path, reason_words):
        if p.returncode < 0:
            failures.append(f"{tag}: killed by signal {-p.returncode}: {p.stderr[-2000:]}")
        elif p.returncode == 0:
            failures.append(f"{tag}: exited 0 although nothing could be written")
        if any(m in p.stderr for m in SANITIZER_MARKS):
            failures.append(f"{tag}: sanitizer report: {p.stderr[-4000:]}")
        if path not in p.stderr or not any(w in p.stderr for w in reason_words):
            failures.append(f"{tag}: unclear error: {p.stderr[-1000:]!r}")
        print(f"{tag}: exit {p.returncode}: {p.stderr.strip().splitlines()[-1:]}")

    if os.access("/dev/full", os.W_OK):
        p = record(rdmadiag, "/dev/full")
        judge("/dev/full", p, "/dev/full", ["No space left on device"])
    else:
        print("/dev/full variant skipped: /dev/full is not writable here")

    with bed.temp_tree("disk-full") as tmp:
        path = os.path.join(tmp, "rec.jsonl")
        p = record(rdmadiag, path, LIMIT)
        judge("RLIMIT_FSIZE", p, path, ["File too large"])
        with open(path, "rb") as f:
            data = f.read()
        if not data:
            failures.append("RLIMIT_FSIZE: nothing was kept of what fit")
        if len(data) > LIMIT:
            failures.append(f"RLIMIT_FSIZE: {len(data)} bytes past the {LIMIT} byte limit")
        if data and not data.endswith(b"\n"):
            failures.append("RLIMIT_FSIZE: the recording ends in a cut line")
        lines = data.decode("utf-8", "replace").splitlines()
        for i, line in enumerate(lines, 1):
            try:
                json.loads(line)
            except ValueError as e:
                failures.append(f"RLIMIT_FSIZE: line {i} is not JSON ({e}): {line[:120]!r}")
                break
        if len(lines) < 2:
            failures.append(f"RLIMIT_FSIZE: only {len(lines)} lines kept")
        # What was kept replays without a skipped line.
        r = subprocess.run([rdmadiag, "replay", path], capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or "skipped:" in r.stderr:
            failures.append(f"RLIMIT_FSIZE: the kept recording does not replay cleanly: "
                            f"{r.returncode} {r.stderr[-1000:]}")
        print(f"RLIMIT_FSIZE: kept {len(lines)} whole lines ({len(data)} bytes)")
    bed.finish(failures)


if __name__ == "__main__":
    main()
