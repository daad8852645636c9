#!/usr/bin/env python3
"""scripts/check-dependencies: the real tree keeps the dependency rule, and trees that break it
are refused with the file and the include named.

    check_dependencies_test.py SOURCE_DIR

Asserts: the source tree passes; a small tree in the layers passes; the engine including a
source, a sink including the engine, and two folders including each other (directly or through a
third) each fail, naming the file and the include; a program's main.cpp may include the folder
whose files its folder's commands include."""

import os
import subprocess
import sys
import tempfile


def run(source, tree):
    script = os.path.join(source, "scripts/check-dependencies")
    return subprocess.run([sys.executable, script, tree], capture_output=True, text=True,
                          timeout=120)


def write_tree(root, files):
    for path, includes in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            for inc in includes:
                f.write(f'#include "{inc}"\n')


GOOD = {
    "collector/common/time.hpp": [],
    "collector/model/snapshot.hpp": ["collector/common/time.hpp"],
    "collector/engine/engine.hpp": ["collector/model/snapshot.hpp"],
    "collector/engine/pkey/pkey_views.hpp": ["collector/engine/engine.hpp"],
    "collector/sources/source.hpp": ["collector/model/snapshot.hpp"],
    "exporters/prometheus/exporter.cpp": ["collector/model/snapshot.hpp"],
    "cli/cli_context.hpp": ["collector/engine/engine.hpp"],
    "cli/commands/commands.hpp": ["cli/cli_context.hpp"],
    "cli/main.cpp": ["cli/commands/commands.hpp"],
}


def main(argv):
    source = argv[1]
    failures = []

    def expect(ok, what):
        if not ok:
            failures.append(what)

    p = run(source, source)
    expect(p.returncode == 0, f"the source tree: exit {p.returncode}:\n{p.stdout}{p.stderr}")

    broken = {
        "the engine including a source": (
            {"collector/engine/engine.cpp": ["collector/sources/source.hpp"]},
            "collector/engine/engine.cpp:1: includes collector/sources/source.hpp"),
        "a sink including the engine": (
            {"exporters/prometheus/metrics.cpp": ["collector/engine/engine.hpp"]},
            "exporters/prometheus/metrics.cpp:1: includes collector/engine/engine.hpp"),
        "a folder including its subfolder back": (
            {"collector/engine/default_engine.cpp": ["collector/engine/pkey/pkey_views.hpp"]},
            "collector/engine/default_engine.cpp:1: includes collector/engine/pkey/pkey_views.hpp"),
        "a cycle through a third folder": (
            {"collector/model/a/a.hpp": ["collector/model/b/b.hpp"],
             "collector/model/b/b.hpp": ["collector/model/c/c.hpp"],
             "collector/model/c/c.hpp": ["collector/model/a/a.hpp"]},
            "collector/model/c/c.hpp:1: includes collector/model/a/a.hpp"),
        "commands included back by their folder's library": (
            {"cli/cli_context.cpp": ["cli/commands/commands.hpp"]},
            "cli/cli_context.cpp:1: includes cli/commands/commands.hpp"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "good")
        write_tree(good, GOOD)
        p = run(source, good)
        expect(p.returncode == 0, f"a tree in the layers: exit {p.returncode}:\n{p.stdout}")
        for i, (what, (extra, named)) in enumerate(broken.items()):
            tree = os.path.join(tmp, f"broken{i}")
            write_tree(tree, {**GOOD, **extra})
            p = run(source, tree)
            expect(p.returncode == 1, f"{what}: exit {p.returncode}, expected 1:\n{p.stdout}")
            expect(named in p.stdout, f"{what}: '{named}' not named in:\n{p.stdout}")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
