"""How a test script ends: PASS (0), FAIL (1) or SKIP (77, the code CTest's SKIP_RETURN_CODE
names) with the reason, e.g. the Debian package of a program that is not installed."""

import os
import shutil
import sys

SKIP = 77


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(SKIP)


def finish(failures):
    """Ends a test script: prints each failure and exits 1, or prints PASS and exits 0."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("PASS")
    sys.exit(0)


def require_program(name, package):
    path = shutil.which(name)
    if not path:
        skip(f"{name} is not installed (Debian package {package}, listed in scripts/deps/test.txt)")
    return path


def require_exporter(rdmadiag):
    """Skips unless `rdmadiag` was built with its HTTP exporter (the program is built only then)."""
    if not os.access(rdmadiag, os.X_OK):
        skip(f"{rdmadiag} was not built (the HTTP exporter needs prometheus-cpp, Boost, OpenSSL "
             "and zlib)")
