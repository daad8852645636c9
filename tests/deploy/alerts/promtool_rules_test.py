#!/usr/bin/env python3
"""promtool check rules and promtool test rules on deploy/alerts/.

Usage: promtool_rules_test.py SOURCE_DIR"""

import os
import subprocess
import sys

import rdmadiag_bed as bed


def main():
    promtool = bed.require_program("promtool", "prometheus")
    alerts = os.path.join(sys.argv[1], "deploy/alerts")
    status = 0
    for args in (["check", "rules", "rdmadiag.rules.yml"],
                 ["test", "rules", "rdmadiag.rules.test.yml"]):
        r = subprocess.run([promtool] + args, cwd=alerts, capture_output=True)
        print((r.stdout + r.stderr).decode())
        status |= r.returncode
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
