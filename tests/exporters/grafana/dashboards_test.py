#!/usr/bin/env python3
"""Static checks of the shipped Grafana dashboards and provisioning files: valid JSON, unique
panel ids, no overlapping panels, every query on the ${datasource} variable, only rdmadiag_
metrics, and provisioning files that point at the dashboards' folder. (That every expression
returns data is checked against a real Prometheus by serve_prometheus_test.py.)

Usage: dashboards_test.py SOURCE_DIR"""

import json
import os
import re
import sys


def main():
    root = os.path.join(sys.argv[1], "exporters/grafana")
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
            if not p["targets"]:
                problems.append(f"{name}: panel '{p['title']}' has no query")
            for t in p["targets"]:
                if t["datasource"]["uid"] != "${datasource}":
                    problems.append(f"{name}: '{p['title']}' does not use ${{datasource}}")
                for m in re.findall(r"\b(rdmadiag_[a-z_]+|[a-z]+_[a-z_]+)(?=\{|\)|\[)", t["expr"]):
                    if not m.startswith("rdmadiag_"):
                        problems.append(f"{name}: '{p['title']}' queries {m}")
        names = [v["name"] for v in d["templating"]["list"]]
        if "datasource" not in names:
            problems.append(f"{name}: no datasource variable")
    with open(os.path.join(root, "provisioning/dashboards/rdmadiag.yml")) as f:
        prov = f.read()
    if "path: /var/lib/grafana/dashboards/rdmadiag" not in prov or "apiVersion: 1" not in prov:
        problems.append("dashboard provisioning does not point at the dashboards folder")
    with open(os.path.join(root, "provisioning/datasources/prometheus.yml")) as f:
        if "type: prometheus" not in f.read():
            problems.append("data source provisioning is not a Prometheus data source")
    for p in problems:
        print("FAIL:", p)
    print("PASSED" if not problems else "FAILED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
