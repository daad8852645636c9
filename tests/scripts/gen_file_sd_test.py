#!/usr/bin/env python3
"""scripts/gen-file-sd: the file_sd list it writes from host lists, and the errors it gives.

    gen_file_sd_test.py SOURCE_DIR                 the list and its errors (no other program)
    gen_file_sd_test.py SOURCE_DIR --prometheus    a real Prometheus reads the list it wrote and
                                                   scrapes the rdmadiag daemon it names

Asserts: hosts get the default or their own port, common and per-host labels, groups by label
set in input order; comments and blank lines are ignored; bad hosts, labels, ports, duplicates
and an empty list are refused with the line named and nothing written; -o replaces the file
whole. With --prometheus: Prometheus' file_sd takes the list and its target is scraped, up."""

import json
import os
import subprocess
import sys

import rdmadiag_bed as bed


def gen(source, args, stdin=""):
    return subprocess.run([sys.executable, os.path.join(source, "scripts/gen-file-sd")] + args,
                          input=stdin, capture_output=True, text=True, timeout=60)


def check_lists(source, failures):
    def expect(ok, what):
        if not ok:
            failures.append(what)

    hosts = ("node01\n  node02   # rack 1\n\n# spare: node09\nnode03:9900\n"
             "[fd00::7]\nsm01 role=subnet-sweep\nsm02 role=subnet-sweep cluster=hpc2\n")
    p = gen(source, ["--label", "cluster=hpc1"], hosts)
    expect(p.returncode == 0, f"valid list: exit {p.returncode}: {p.stderr}")
    if p.returncode == 0:
        got = json.loads(p.stdout)
        want = [
            {"targets": ["node01:9857", "node02:9857", "node03:9900", "[fd00::7]:9857"],
             "labels": {"cluster": "hpc1"}},
            {"targets": ["sm01:9857"], "labels": {"cluster": "hpc1", "role": "subnet-sweep"}},
            {"targets": ["sm02:9857"], "labels": {"cluster": "hpc2", "role": "subnet-sweep"}},
        ]
        expect(got == want, f"valid list: got {got}")
    p = gen(source, ["--port", "9100"], "a\nb:1\n")
    expect(p.returncode == 0 and json.loads(p.stdout) ==
           [{"targets": ["a:9100", "b:1"], "labels": {}}], f"--port: {p.stdout}{p.stderr}")

    for args, stdin, words in (
            ([], "node01\nnode 02\n", "line 2"),
            ([], "node01\nhttp://node02\n", "line 2"),
            ([], "node01:0\n", "1..65535"),
            ([], "node01:70000\n", "1..65535"),
            ([], "node01\nnode01:9857\n", "listed twice"),
            ([], "node01 __name__=x\n", "line 1"),
            ([], "node01 role\n", "line 1"),
            ([], "# nothing\n\n", "no hosts"),
            (["--label", "1x=y"], "node01\n", "--label"),
            (["--port", "http"], "node01\n", "--port"),
            (["/nonexistent/hosts.txt"], "", "cannot read")):
        p = gen(source, args, stdin)
        expect(p.returncode == 2 and words in p.stderr and not p.stdout,
               f"{args} {stdin!r}: exit {p.returncode}, stderr {p.stderr!r}, stdout {p.stdout!r}")

    with bed.temp_tree("file-sd") as d:
        out, hosts_file = os.path.join(d, "rdmadiag.json"), os.path.join(d, "hosts.txt")
        with open(out, "w") as f:
            f.write("previous list\n")
        p = gen(source, ["-o", out], "node01\nnode 02\n")
        with open(out) as f:
            expect(p.returncode == 2 and f.read() == "previous list\n",
                   "a refused list replaced the file")
        with open(hosts_file, "w") as f:
            f.write("node01\nnode02\n")
        p = gen(source, ["-o", out, hosts_file])
        with open(out) as f:
            expect(p.returncode == 0 and json.load(f) ==
                   [{"targets": ["node01:9857", "node02:9857"], "labels": {}}],
                   f"-o FILE HOSTS: exit {p.returncode} {p.stderr}")
        expect(sorted(os.listdir(d)) == ["hosts.txt", "rdmadiag.json"],
               f"files left beside the list: {os.listdir(d)}")


def check_prometheus(source, rdmadiag, failures):
    prometheus = bed.require_program("prometheus", "prometheus")
    with bed.Bed("file-sd") as b:
        _, port, _ = b.start_daemon(rdmadiag, ["--simulate"])
        sd = os.path.join(b.dir, "rdmadiag.json")
        p = gen(source, ["--label", "cluster=test", "-o", sd], f"127.0.0.1:{port}\n")
        if p.returncode != 0:
            failures.append(f"gen-file-sd: {p.stderr}")
            return
        web = bed.free_port()
        cfg = os.path.join(b.dir, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: rdmadiag\n"
                    f"    file_sd_configs:\n      - files: ['{sd}']\n")
        log = open(os.path.join(b.dir, "prometheus.log"), "w")
        b.procs.append(subprocess.Popen(
            [prometheus, f"--config.file={cfg}", f"--storage.tsdb.path={b.dir}/data",
             f"--web.listen-address=127.0.0.1:{web}", "--log.level=warn"],
            stdout=log, stderr=subprocess.STDOUT))
        prom = bed.Prometheus(f"http://127.0.0.1:{web}")

        def up():
            try:
                r = prom.query('up{job="rdmadiag",cluster="test"}')
            except OSError:
                return None
            return r if r and r[0]["value"][1] == "1" else None

        try:
            result = prom.wait_until("the file_sd target to be scraped", up)
        except AssertionError as e:
            failures.append(str(e))
            return
        instance = result[0]["metric"]["instance"]
        if instance != f"127.0.0.1:{port}":
            failures.append(f"scraped {instance}, not the listed daemon")


def main():
    source = sys.argv[1]
    failures = []
    if "--prometheus" in sys.argv:
        check_prometheus(source, sys.argv[sys.argv.index("--prometheus") + 1], failures)
    else:
        check_lists(source, failures)
    bed.finish(failures)


if __name__ == "__main__":
    main()
