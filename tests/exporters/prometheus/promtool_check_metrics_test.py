#!/usr/bin/env python3
"""`promtool check metrics` on the /metrics of `rdmadiag serve` playing the default simulated
fabric for a few seconds: names, types, units and help text follow the conventions.

Usage: promtool_check_metrics_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "beds"))
import rdmadiag_bed as bed  # noqa: E402


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    promtool = bed.require_program("promtool", "prometheus")
    if not os.access(rdmadiag, os.X_OK):
        bed.skip(f"{rdmadiag} was not built")
    scenario = os.path.join(src, "tests/exporters/scenarios/serve-bed.scn")
    with bed.Bed("promtool") as b:
        _, port, _ = b.start_daemon(rdmadiag, [f"--simulate={scenario}", "--interval.pkeys=1s"])
        # Wait for the scenario's trouble (saturation, stuck MR) so every family is present.
        deadline = time.time() + 30
        while time.time() < deadline:
            _, text = bed.http_get(f"http://127.0.0.1:{port}/metrics")
            if "rdmadiag_port_stat_saturated" in text and 'p_key_violations' in text and \
                    "rdmadiag_async_events_total" in text:
                break
            time.sleep(0.2)
        r = subprocess.run([promtool, "check", "metrics"], input=text.encode(),
                           capture_output=True)
        out = (r.stdout + r.stderr).decode()
        families = sorted({l.split()[2] for l in text.splitlines() if l.startswith("# TYPE")})
        print(f"{len(families)} metric families checked")
        if r.returncode != 0 or out.strip():
            print("promtool check metrics complained:\n" + out)
            return 1
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
