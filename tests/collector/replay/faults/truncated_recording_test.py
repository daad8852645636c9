#!/usr/bin/env python3
"""A recording cut off in the middle of a line (a recorder killed mid-write, a copy that stopped
short) is replayed with `rdmadiag replay --json`.

For several cut points inside observation lines of a simulated recording, asserts: the replay
exits 0; it reports the cut line by its number as skipped; and it reaches exactly the snapshot the
same recording cut at the end of the previous whole line reaches (nothing before the cut is lost,
nothing is made up from the partial line).

Usage: truncated_recording_test.py RDMADIAG_BINARY SOURCE_DIR"""

import json
import os
import subprocess
import sys

import rdmadiag_bed as bed

RECORDINGS = ["sim-pkey-violations-after-change.jsonl", "sim-counter-wrap-16bit.jsonl"]


def replay(rdmadiag, path):
    p = subprocess.run([rdmadiag, "replay", "--json", path], capture_output=True, text=True,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def comparable(snapshot_text):
    return json.loads(snapshot_text)


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    if not os.access(rdmadiag, os.X_OK):
        bed.skip(f"{rdmadiag} was not built")
    failures = []
    with bed.temp_tree("truncated") as tmp:
        for name in RECORDINGS:
            with open(os.path.join(src, "tests/fixtures/recordings", name), "rb") as f:
                data = f.read()
            lines = data.split(b"\n")
            whole = [ln for ln in lines if ln]
            # Cut points: a third, two thirds and the last observation line, each half way in.
            for index in sorted({len(whole) // 3, 2 * len(whole) // 3, len(whole) - 1}):
                if index < 1:
                    continue
                kept = b"".join(ln + b"\n" for ln in whole[:index])
                line = whole[index]
                cut = kept + line[:len(line) // 2]
                at_line = os.path.join(tmp, f"{name}.{index}.whole")
                mid_line = os.path.join(tmp, f"{name}.{index}.cut")
                with open(at_line, "wb") as f:
                    f.write(kept)
                with open(mid_line, "wb") as f:
                    f.write(cut)
                rc_whole, out_whole, err_whole = replay(rdmadiag, at_line)
                rc_cut, out_cut, err_cut = replay(rdmadiag, mid_line)
                tag = f"{name} cut in line {index + 1}"
                if rc_whole != 0:
                    failures.append(f"{tag}: replay of the whole lines exited {rc_whole}: "
                                    f"{err_whole}")
                    continue
                if rc_cut != 0:
                    failures.append(f"{tag}: replay exited {rc_cut}: {err_cut}")
                    continue
                if f"line {index + 1} skipped" not in err_cut:
                    failures.append(f"{tag}: the cut line is not reported: {err_cut!r}")
                if comparable(out_cut) != comparable(out_whole):
                    failures.append(f"{tag}: the replay differs from the recording up to the "
                                    f"last whole line")
                print(f"{tag}: reported and the rest replayed")
    bed.finish(failures)


if __name__ == "__main__":
    main()
