#!/usr/bin/env python3
"""Static checks of the shipped Grafana dashboards and provisioning files: valid JSON, unique
panel ids, no overlapping panels, every panel with a data source and a query, every query on the
${datasource} variable, only rdmadiag_ metrics that docs/metrics.md lists and that the default
metric set exports, the variables each dashboard needs, no panel repeated over ports, and every
selector of a per-port metric bounded: by the $device variable, inside an aggregation that keeps
neither device nor port, inside topk/bottomk, as the right side of a group_left join (naming
devices), or on the left of `and on (...) topk(...)`. So no panel grows with the fabric.
Provisioning files must point at the dashboards' folder. (That every query runs, returns data
and stays small is checked against a real Prometheus by dashboards_prometheus_test.py.)

Usage: dashboards_test.py SOURCE_DIR"""

import json
import os
import re
import sys

import rdmadiag_bed as bed


# Families about a port or a device: a bare selector of one returns a series per port.
PER_PORT = re.compile(r"rdmadiag_(port_|pkey_|device_|findings|async_events|mrs)")
# Only exported with --metrics.detail=full: the dashboards must not need them.
DETAIL_ONLY = {"rdmadiag_port_active", "rdmadiag_port_lid", "rdmadiag_port_sm_lid",
               "rdmadiag_pkey_table_generation"}
VARIABLES = {"rdmadiag-fabric-overview.json": {"datasource", "instance"},
             "rdmadiag-port-detail.json": {"datasource", "find", "instance", "device", "port"}}
AGGREGATION = re.compile(r"\b(sum|count|max|min|avg|group)\s*(by\s*\(([^)]*)\))?\s*$")


def enclosing(expr, pos):
    """Opening parentheses around pos, innermost last (quotes skipped)."""
    stack, quoted = [], False
    for i, c in enumerate(expr[:pos]):
        if c == '"' and (i == 0 or expr[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and c == "(":
            stack.append(i)
        elif not quoted and c == ")" and stack:
            stack.pop()
    return stack


def bounded(expr, m):
    """Whether the selector matched by m is bounded (see the module's docstring)."""
    if 'device="$device"' in (m.group(2) or ""):
        return True
    if re.search(r"group_left\s*\([^)]*\)\s*$", expr[:m.start()]):
        return True
    groups = enclosing(expr, m.start())
    for g in groups:
        before = expr[:g]
        if re.search(r"\b(topk|bottomk)\s*$", before):
            return True
        a = AGGREGATION.search(before)
        if a and not (a.group(3) and {"device", "port"} & {
                x.strip() for x in a.group(3).split(",")}):
            return True
    # The left side of `and on (...) topk(...)`: the `and` at the selector's depth or outside.
    depth, quoted = 0, False
    for i in range(m.end(), len(expr)):
        c = expr[i]
        if c == '"' and expr[i - 1] != "\\":
            quoted = not quoted
        elif not quoted and c in "()":
            depth += 1 if c == "(" else -1
        elif not quoted and depth <= 0 and not expr[i - 1].isalnum() and re.match(
                r"and\s+on\s*\([^)]*\)\s*(topk|bottomk)\s*\(", expr[i:]):
            return True
    return False


def check_query(where, expr, documented, problems):
    for m in re.finditer(r"\b(rdmadiag_[a-z_]+)(\{[^}]*\})?", expr):
        name = m.group(1)
        if name not in documented:
            problems.append(f"{where}: {name} is not in docs/metrics.md")
        if name in DETAIL_ONLY:
            problems.append(f"{where}: {name} is only exported with --metrics.detail=full")
        if PER_PORT.match(name) and not bounded(expr, m):
            problems.append(f"{where}: {name} is neither aggregated, bound to $device nor "
                            f"limited by topk: {expr}")
    if re.search(r'counter=~?"[^"]*port_(xmit|rcv)_data', expr):
        problems.append(f"{where}: byte counters are rdmadiag_port_(transmitted|received)_"
                        "bytes_total, not rdmadiag_port_stat_total")


def main():
    root = os.path.join(sys.argv[1], "deploy/grafana")
    with open(os.path.join(sys.argv[1], "docs/metrics.md")) as f:
        documented = set(re.findall(r"`(rdmadiag_[a-z_]+)`", f.read()))
    problems = []
    dashboards = sorted(os.listdir(os.path.join(root, "dashboards")))
    if dashboards != ["rdmadiag-fabric-overview.json", "rdmadiag-port-detail.json"]:
        problems.append(f"unexpected dashboards: {dashboards}")
    uids = set()
    for name in dashboards:
        with open(os.path.join(root, "dashboards", name)) as f:
            d = json.load(f)
        if d["uid"] in uids:
            problems.append(f"{name}: duplicate uid")
        uids.add(d["uid"])
        ids, cells = set(), set()
        for p in d["panels"]:
            if p["id"] in ids:
                problems.append(f"{name}: duplicate panel id {p['id']}")
            ids.add(p["id"])
            g = p["gridPos"]
            for x in range(g["x"], g["x"] + g["w"]):
                for y in range(g["y"], g["y"] + g["h"]):
                    if (x, y) in cells:
                        problems.append(f"{name}: panel '{p['title']}' overlaps another")
                        break
                    cells.add((x, y))
            if g["x"] + g["w"] > 24:
                problems.append(f"{name}: panel '{p['title']}' is wider than the grid")
            if p.get("datasource", {}).get("uid") != "${datasource}":
                problems.append(f"{name}: panel '{p['title']}' has no ${{datasource}}")
            if "repeat" in p:
                problems.append(f"{name}: panel '{p['title']}' is repeated")
            if not p.get("targets") or not all(t.get("expr", "").strip() for t in p["targets"]):
                problems.append(f"{name}: panel '{p['title']}' has no query")
            for t in p.get("targets", []):
                if t["datasource"]["uid"] != "${datasource}":
                    problems.append(f"{name}: '{p['title']}' does not use ${{datasource}}")
                check_query(f"{name}: '{p['title']}' {t['refId']}", t["expr"], documented,
                            problems)
                # Label lists and strings are not metric names.
                bare = re.sub(r'"[^"]*"|\b(by|on|group_left|group_right|without|ignoring)\s*'
                              r'\([^)]*\)', "", t["expr"])
                for m in re.findall(r"\b(rdmadiag_[a-z_]+|[a-z]+_[a-z_]+)(?=\{|\)|\[)", bare):
                    if not m.startswith("rdmadiag_"):
                        problems.append(f"{name}: '{p['title']}' queries {m}")
        for a in d["annotations"]["list"]:
            if "expr" in a:
                check_query(f"{name}: annotation '{a['name']}'", a["expr"], documented, problems)
        names = {v["name"] for v in d["templating"]["list"]}
        if VARIABLES.get(name, set()) - names:
            problems.append(f"{name}: variables {sorted(VARIABLES[name] - names)} missing")
        for v in d["templating"]["list"]:
            if v["type"] != "query":
                continue
            q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
            if v["datasource"]["uid"] != "${datasource}":
                problems.append(f"{name}: variable {v['name']} does not use ${{datasource}}")
            if not v.get("sort"):
                problems.append(f"{name}: variable {v['name']} is not sorted")
            if q.startswith("query_result(") and not v.get("regex"):
                problems.append(f"{name}: variable {v['name']} takes whole query_result lines")
            check_query(f"{name}: variable {v['name']}", q, documented, problems)
    with open(os.path.join(root, "provisioning/dashboards/rdmadiag.yml")) as f:
        prov = f.read()
    if "path: /var/lib/grafana/dashboards/rdmadiag" not in prov or "apiVersion: 1" not in prov:
        problems.append("dashboard provisioning does not point at the dashboards folder")
    with open(os.path.join(root, "provisioning/datasources/prometheus.yml")) as f:
        if "type: prometheus" not in f.read():
            problems.append("data source provisioning is not a Prometheus data source")
    bed.finish(problems)


if __name__ == "__main__":
    main()
