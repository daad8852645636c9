#!/usr/bin/env python3
"""Builds the Debian packages of this build tree into OUT with scripts/package --build-dir
(lintian included: a lintian error or warning fails it), for the package tests that install
them. Debug symbol packages are left out: nothing installs them. No compile: the programs and
the library are the build tree's own (docs/packaging.md).

Usage: package_build.py SOURCE_DIR BUILD_DIR OUT_DIR"""

import os
import subprocess
import sys
import time

import rdmadiag_bed as bed


def main():
    source, build, out = sys.argv[1:4]
    for program, package in (("dpkg-buildpackage", "dpkg-dev"), ("dh", "debhelper"),
                             ("lintian", "lintian")):
        bed.require_program(program, package)
    start = time.monotonic()
    env = dict(os.environ, DEB_BUILD_OPTIONS="noddebs")
    p = subprocess.run([os.path.join(source, "scripts/package"), "--build-dir", build,
                        "--out", out], env=env, text=True, capture_output=True)
    print(p.stdout[-8000:])
    if p.returncode != 0:
        print(p.stderr[-8000:])
        bed.finish([f"scripts/package exited {p.returncode}"])
    print(f"packages built and checked by lintian in {time.monotonic() - start:.0f} s")
    bed.finish([])


if __name__ == "__main__":
    main()
