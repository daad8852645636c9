#!/usr/bin/env python3
"""`promtool check metrics` on the /metrics of `rdmadiag serve` playing the default simulated
fabric for a few seconds: names, types, units and help text follow the conventions.

Usage: promtool_check_metrics_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import subprocess
import sys

import rdmadiag_bed as bed


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    promtool = bed.require_program("promtool", "prometheus")
    if not os.access(rdmadiag, os.X_OK):
        bed.skip(f"{rdmadiag} was not built")
    scenario = os.path.join(src, "tests/exporters/scenarios/serve-bed.scn")
    with bed.Bed("promtool") as b:
        _, port, _ = b.start_daemon(rdmadiag, [f"--simulate={scenario}", "--interval.pkeys=1s"])
        # Wait for the scenario's trouble (saturation, stuck MR) so every family is present.
        # Checked whatever it holds then: promtool judges the page as it is.
        page = {}

        def troubled():
            _, page["text"] = bed.http_get(f"http://127.0.0.1:{port}/metrics")
            return all(s in page["text"] for s in ("rdmadiag_port_stat_saturated",
                                                   "p_key_violations",
                                                   "rdmadiag_async_events_total"))

        bed.wait_until("the scenario's trouble", troubled, timeout=30, interval=0.2, fail=False)
        text = page["text"]
        r = subprocess.run([promtool, "check", "metrics"], input=text.encode(),
                           capture_output=True)
        out = (r.stdout + r.stderr).decode()
        families = bed.Scrape(text).types
        print(f"{len(families)} metric families checked")
        if r.returncode != 0 or out.strip():
            print("promtool check metrics complained:\n" + out)
            return 1
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
