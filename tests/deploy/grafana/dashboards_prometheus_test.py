#!/usr/bin/env python3
"""Both Grafana dashboards against a real Prometheus scraping three `rdmadiag serve` daemons:

  stale   --simulate=pkey-change-missed-event (a P_Key change whose PKEY_CHANGE is lost)
  mr      --simulate=mr-xprtrdma-stuck (an MR stuck in BIND_ERR), with a sysfs source that has
          nothing to read (a source down), exporting every series (--metrics.detail=full)
  fabric  a scenario this test writes: a subnet seen by one collector, every node named
          guid:0x... with its NodeDescription, many more ports than a panel may show, and on
          chosen ports errors, a stale cache, a divergent sm view, violations after a change, a
          saturated counter and a counter reset; judged against a partitions.conf this test
          writes too, which three partitions' ports do not match.

Every panel, annotation and template variable query of both dashboards is sent the way Grafana
sends it (variables resolved in order from their own queries, $__interval, $__rate_interval and
$__range from the time range; tests/beds/rdmadiag_bed/grafana_queries.py): the fabric overview
with All collectors and with each one, the port detail for each collector's first device and port
and for the ports the scenarios put in trouble (found through the Find box and the worst-ports
table, as an operator would). Checks:
  - no query fails;
  - no query returns more than MAX_SERIES series, although the fabric has FABRIC_PORTS ports;
  - the panels that must show each trouble show it (MUST_SHOW below), and the worst-ports table
    names exactly the ten ports the fabric scenario gave the most errors;
  - the partition panels count, per P_Key, the members partitions.conf gives and the ports hold,
    and exactly the differing members the fabric's intent leads to.

Usage: dashboards_prometheus_test.py RDMADIAG_BINARY SOURCE_DIR"""

import os
import re
import sys
import time

from rdmadiag_bed import grafana_queries as gq
import rdmadiag_bed as bed

MAX_SERIES = 50
SCRAPE_S = 1
SPINES, LEAVES, LEAF_PORTS, HOSTS = 2, 8, 36, 200
FABRIC_PORTS = SPINES * LEAF_PORTS + LEAVES * LEAF_PORTS + HOSTS
TROUBLE_AT = 12  # seconds into the scenarios: after Prometheus scraped the healthy fabric
ERROR_PORTS = 12
STORAGE, STORAGE_LIMITED = 185, 5  # hosts partitions.conf gives 0x8002, and how many as limited
OVERVIEW = "rdmadiag-fabric-overview.json"
DETAIL = "rdmadiag-port-detail.json"


def fabric_scenario(path, intent_path):
    """Writes the fabric scenario and its partitions.conf; returns what it will do, for the
    checks: the ports (device, port) of each trouble, each device's NodeDescription, every port's
    errors, and the members of each P_Key that will differ from the file."""
    lines = ['title "One subnet collector: spines, leaves, hosts; errors on a few ports"',
             "end 60s"]
    desc, ports, errors = {}, [], {}

    def device(guid, name, node_type, nports, pkeys):
        dev = f"guid:0x{guid:016x}"
        desc[dev] = name
        lines.append(f'device {dev} node_type={node_type} guid=0x{guid:016x} desc="{name}"')
        # An HCA's port GUID is what partitions.conf names it by.
        port_guid = f" port_guid=0x{guid:016x}" if node_type == "CA" else ""
        for p in range(1, nports + 1):
            lines.append(f"port {dev}:{p} lid={len(ports) + 1} sm_lid=1 pkeys={pkeys}{port_guid}")
            for c in ("symbol_error", "port_rcv_errors", "link_downed"):
                lines.append(f"counter {dev}:{p} {c} 0")
            ports.append((dev, str(p)))
            errors[(dev, str(p))] = 0
        return dev

    for s in range(SPINES):
        device(0x0008F10400000001 + s, f"Spine{s + 1:02d}", "switch", LEAF_PORTS, 0)
    for s in range(LEAVES):
        device(0x0008F10400000101 + s, f"Leaf{s + 1:03d}", "switch", LEAF_PORTS, 0)
    hosts = [device(0x0C42A10300000001 + h, f"node{h + 1:04d} HCA-1", "CA", 1, 8)
             for h in range(HOSTS)]
    for dev in hosts:
        lines.append(f"pkeys {dev}:1 0:0xffff 1:0x8001 2:0x8002")

    # Errors: distinct amounts, spread over switch and host ports, in two bursts.
    steps = []
    for i in range(ERROR_PORTS):
        port = ports[(i * 97) % len(ports)]
        amount = 100 * (i + 1)
        errors[port] += amount
        steps.append((TROUBLE_AT, f"counter-add {port[0]}:{port[1]} symbol_error {amount // 2}"))
        steps.append((TROUBLE_AT + 6, f"counter-add {port[0]}:{port[1]} port_rcv_errors "
                                      f"{amount - amount // 2}"))
    stale, diverging, violated, saturated, reset = (hosts[10], "1"), (hosts[20], "1"), \
        (hosts[30], "1"), (hosts[40], "1"), (hosts[50], "1")
    steps.append((TROUBLE_AT, f"pkey-set {stale[0]}:1 3 0x8004 event=none"))
    steps.append((TROUBLE_AT, f"pkey-set {diverging[0]}:1 5 0x8005 views=sm"))
    lines.append(f"counter {violated[0]}:1 p_key_violations 0")
    steps.append((TROUBLE_AT, f"pkey-move {violated[0]}:1 0x8002 6"))
    for at in (TROUBLE_AT + 2, TROUBLE_AT + 5):
        steps.append((at, f"counter-add {violated[0]}:1 p_key_violations 7"))
    errors[violated] += 14
    # An 8-bit counter 250 -> 255: five counted, then it sits at its maximum.
    lines.append(f"counter {saturated[0]}:1 port_xmit_constraint_errors 250")
    steps.append((TROUBLE_AT, f"counter-add {saturated[0]}:1 port_xmit_constraint_errors 10"))
    errors[saturated] += 5
    lines.append(f"counter {reset[0]}:1 port_xmit_discards 40")
    steps.append((TROUBLE_AT + 3, f"counter-reset {reset[0]}:1 port_xmit_discards"))
    for at, step in sorted(steps, key=lambda s: s[0]):
        lines.append(f"at {at}s {step}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")

    # Every host holds 0x8001 and 0x8002 (full). The file gives 0x8002 to the first STORAGE
    # hosts only, STORAGE_LIMITED of them as limited members, and 0x8003 (nobody holds it) to
    # three: the rest hold 0x8002 unexpectedly, the limited ones hold the other membership, the
    # three miss 0x8003, and the stale port's 0x8004 is in no partition the file defines.
    guid = {dev: int(dev[len("guid:0x"):], 16) for dev in hosts}
    full, limited = hosts[:STORAGE - STORAGE_LIMITED], hosts[STORAGE - STORAGE_LIMITED:STORAGE]
    members = [f"0x{guid[d]:016x}=full" for d in full] + \
              [f"0x{guid[d]:016x}=limited" for d in limited]
    backup = ", ".join(f"0x{guid[d]:016x}=full" for d in hosts[:3])
    with open(intent_path, "w") as f:
        f.write("Default=0x7fff : ALL=full ;\n"
                "Compute=0x8001 : ALL_CAS=full ;\n"
                "Storage=0x8002 :\n    " + ",\n    ".join(members) + " ;\n"
                f"Backup=0x8003 : {backup} ;\n")
    differing = {"0x0001": 0, "0x0002": HOSTS - STORAGE + STORAGE_LIMITED, "0x0003": 3,
                 "0x0004": 1, "0x7fff": 0}
    intended = {"0x0002": (STORAGE - STORAGE_LIMITED, STORAGE_LIMITED), "0x0003": (3, 0)}
    return {"desc": desc, "errors": errors, "stale": stale, "diverging": diverging,
            "violated": violated, "saturated": saturated, "reset": reset,
            "differing": differing, "intended": intended}


def latest(series):
    """The last value of an instant or range query's series."""
    return float(series["value"][1] if "value" in series else series["values"][-1][1])


def port_of(series):
    m = series["metric"]
    return (m.get("device"), m.get("port"))


class Run:
    """Sends dashboards' queries for one time range and collects failures and results."""

    def __init__(self, prom, src, start, end):
        self.prom, self.start, self.end = prom, start, end
        self.builtins, self.step = gq.built_ins(start, end, SCRAPE_S)
        self.dashboards = {n: gq.load(os.path.join(src, "deploy/grafana/dashboards", n))
                           for n in (OVERVIEW, DETAIL)}
        self.failures, self.queries, self.largest = [], 0, (0, "")

    def count(self, what, n):
        self.queries += 1
        if n > self.largest[0]:
            self.largest = (n, what)
        if n > MAX_SERIES:
            self.failures.append(f"{what}: {n} series (at most {MAX_SERIES})")

    def variables(self, name, fixed, choose):
        d = self.dashboards[name]
        try:
            values, report = gq.resolve_all(self.prom, d, choose, self.start, self.end,
                                            dict(self.builtins, **fixed))
        except RuntimeError as e:
            self.failures.append(f"{name} variables with {fixed}: {e}")
            return None, {}
        for var, query, n, options in report:
            self.count(f"{name} variable {var} ({query})", n)
        return values, {var: options for var, _, _, options in report}

    def panels(self, name, values, label):
        """Every query of the dashboard with these values: {panel title: [results of its
        targets]}."""
        d = self.dashboards[name]
        out = {}
        for q in gq.panel_queries(d):
            expr = gq.interpolate(q["expr"], d, values)
            what = f"{name} {label} {q['where']}"
            if "$" in re.sub(r"\$\d", "", expr):
                self.failures.append(f"{what}: a variable is left in {expr}")
                continue
            try:
                if q["instant"]:
                    result = self.prom.query(expr)
                else:
                    result = self.prom.query_range(expr, self.start, self.end, f"{self.step}s")
            except RuntimeError as e:
                self.failures.append(f"{what}: {e}")
                continue
            self.count(what, len(result))
            for r in result:
                r["refId"] = q["refId"]
            out.setdefault(q["panel"], []).extend(result)
        return out


def first(var, options):
    if var.get("includeAll"):
        return "$__all"
    return options[0][0] if options else ""


def main():
    rdmadiag, src = sys.argv[1], sys.argv[2]
    prometheus = bed.require_program("prometheus", "prometheus")
    bed.require_exporter(rdmadiag)
    failures = []

    def must(cond, what):
        if not cond:
            failures.append(f"must show: {what}")

    with bed.Bed("grafana") as b:
        fabric_file = os.path.join(b.dir, "fabric.scn")
        intent_file = os.path.join(b.dir, "partitions.conf")
        fabric = fabric_scenario(fabric_file, intent_file)
        fast = ["--interval.pkeys=1s", "--interval.counters=1s"]
        targets = {}
        for name, args in (("stale", ["--simulate=pkey-change-missed-event"]),
                           ("mr", ["--simulate=mr-xprtrdma-stuck", "--source.sysfs",
                                   f"--path.sysfs={os.path.join(b.dir, 'no-sysfs')}",
                                   "--metrics.detail=full"]),
                           ("fabric", [f"--simulate={fabric_file}",
                                       f"--partitions.conf={intent_file}"])):
            _, port, _ = b.start_daemon(rdmadiag, args + fast, name=name)
            targets[name] = f"127.0.0.1:{port}"
        instance = {v: k for k, v in targets.items()}
        prom = b.start_prometheus(prometheus, list(targets.values()), interval=f"{SCRAPE_S}s")
        start = time.time()
        prom.wait_until("every target up", lambda: len(prom.query("up == 1")) == len(targets),
                        timeout=60)
        # Past every trouble of the three scenarios (the stale caches are judged after a grace
        # period), then a few more scrapes.
        troubles = {
            "two stale caches": lambda: len(prom.query("rdmadiag_pkey_cache_stale == 1")) == 2,
            "a stuck MR": lambda: prom.query('rdmadiag_mrs{state="stuck"} > 0'),
            "a counter reset": lambda: prom.query("rdmadiag_port_stat_resets_total > 0"),
            "a saturated counter": lambda: prom.query("rdmadiag_port_stat_saturated == 1"),
            "pkey.view_divergence": lambda: prom.query(
                'rdmadiag_findings{rule="pkey.view_divergence"} > 0'),
            "pkey.violations_after_change": lambda: prom.query(
                'rdmadiag_findings{rule="pkey.violations_after_change"} > 0'),
            "0x8004 outside partitions.conf": lambda: prom.query(
                'rdmadiag_partition_differing_members{pkey="0x0004"} == 1'),
        }
        missing = list(troubles)

        # Each trouble counts once seen: some are moments (a finding held for a while after a
        # change, an MR stuck until the scenario deregisters it), and on a slow machine the last
        # to come may come after the first has passed.
        def every_trouble_seen():
            missing[:] = [what for what in missing if not troubles[what]()]
            return not missing

        try:
            # The scenarios play in real time; a sanitized build on a busy 2-core machine needs
            # more than twice the usual 50 s.
            prom.wait_until("stale caches, a stuck MR, a counter reset and saturation",
                            every_trouble_seen, timeout=200)
        except AssertionError as e:
            raise AssertionError(f"{e}; not seen: {', '.join(missing)}") from None
        time.sleep(5 * SCRAPE_S)
        page = bed.Scrape(bed.http_get(f"http://{targets['fabric']}/metrics")[1])
        named = any(dict(k[1]).get("node_desc") is not None
                    for k in page.series("rdmadiag_device_info"))
        exported_ports = len(page.series("rdmadiag_port_info"))
        if exported_ports != FABRIC_PORTS:
            failures.append(f"the fabric collector exports {exported_ports} ports, "
                            f"not {FABRIC_PORTS}")

        run = Run(prom, src, start, time.time())

        # The fabric overview: All collectors, then each one.
        values, options = run.variables(OVERVIEW, {}, first)
        listed = {o[0] for o in options.get("instance", [])}
        must(listed == set(targets.values()),
             f"overview Collector lists {sorted(listed)}, not the three collectors")
        overview = run.panels(OVERVIEW, values, "(All)") if values else {}
        for target in targets.values():
            v, _ = run.variables(OVERVIEW, {"instance": [target]}, first)
            if v:
                run.panels(OVERVIEW, v, f"({instance[target]})")

        worst = overview.get("Worst ports: errors in the time range", [])
        want = sorted(fabric["errors"], key=lambda p: -fabric["errors"][p])[:10]
        got = [port_of(r) for r in sorted(worst, key=lambda r: -float(r["value"][1]))]
        must(got == want, f"worst ports {got}, expected {want}")
        must(all(r["metric"]["instance"] == targets["fabric"] for r in worst),
             "worst ports all on the fabric collector")
        if named:
            names = [r["metric"].get("node_desc") for r in worst]
            must(names == [fabric["desc"][d] for d, _ in want], f"worst ports named {names}")

        def ports_in(panel, rows=None):
            return {(r["metric"].get("instance"),) + port_of(r)
                    for r in (rows if rows is not None else overview.get(panel, []))}

        stale_ports = {(targets["stale"], "mlx5_0", "1"),
                       (targets["fabric"],) + fabric["stale"]}
        must(ports_in("Stale P_Key caches (10 longest)") == stale_ports,
             f"stale caches {ports_in('Stale P_Key caches (10 longest)')}")
        must([latest(r) for r in overview.get("Stale P_Key caches", [])] == [len(stale_ports)],
             "the stat counts both stale caches")
        findings = ports_in("Active findings (first 50)")
        # A partition's findings name no device or port: those labels are absent.
        must(stale_ports <= findings,
             f"active findings {sorted(findings, key=str)} lack a stale cache")
        rules = {r["metric"].get("rule") for r in overview.get("Findings by rule and severity", [])
                 if max(float(v) for _, v in r["values"]) > 0}
        for rule in ("pkey.cache_stale", "pkey.view_divergence", "pkey.violations_after_change",
                     "mr.needs_dereg"):
            must(rule in rules, f"findings by rule has {rule} (got {sorted(rules)})")
        must((targets["fabric"],) + fabric["violated"] in ports_in(
            "P_Key violations and constraint errors (10 ports with most)"),
             "violations on the fabric's port after its change")
        must(overview.get("P_Key table changes by view"), "P_Key table changes")
        must(any((r["metric"].get("instance"),) + port_of(r) + (r["metric"].get("view"),)
                 == (targets["fabric"],) + fabric["diverging"] + ("sm",)
                 for r in overview.get("Views diverging from the device table", [])),
             "the fabric's sm view diverging")
        must(any(r["metric"].get("state") == "stuck" and max(float(v) for _, v in r["values"]) > 0
                 for r in overview.get("MRs by state", [])), "a stuck MR")
        must((targets["fabric"],) + fabric["saturated"] in ports_in("Saturated counters (first 10)"),
             "the saturated counter")
        must((targets["fabric"],) + fabric["reset"] in ports_in("Counter resets (10 most)"),
             "the counter reset")
        must({(r["metric"].get("instance"), r["metric"].get("source"))
              for r in overview.get("Sources down (first 20)", [])}
             == {(targets["mr"], "sysfs")}, "sysfs down on the mr collector")

        # Partitions: only the fabric collector has a partitions.conf; its P_Keys differ as the
        # intent was written to make them, the total is their sum, and the members table counts
        # what the file gives and what the ports hold.
        fab = targets["fabric"]
        differing_rows = overview.get("Partition members differing from partitions.conf", [])
        differing = {r["metric"].get("pkey"): latest(r) for r in differing_rows
                     if r["refId"] == "B" and r["metric"].get("instance") == fab}
        want_differing = {k: float(v) for k, v in fabric["differing"].items() if v}
        must(differing == want_differing,
             f"differing members per P_Key {differing}, expected {want_differing}")
        totals = [latest(r) for r in differing_rows if r["refId"] == "A"]
        must(totals == [float(sum(fabric["differing"].values()))],
             f"all partitions' differing members {totals}")
        members = {}
        for r in overview.get("Partition members by view (10 P_Keys, most differing first)", []):
            m = r["metric"]
            if m.get("instance") == fab:
                members[(m.get("pkey"), m.get("view"), r["refId"])] = latest(r)
        for pkey, (full, limited) in fabric["intended"].items():
            got = (members.get((pkey, "intent", "A")), members.get((pkey, "intent", "B")))
            must(got == (float(full), float(limited)),
                 f"{pkey} intended full/limited {got}, expected {(full, limited)}")
        got = (members.get(("0x0002", "sma", "A")), members.get(("0x0002", "sma", "B")),
               members.get(("0x0002", "sma", "C")))
        must(got == (float(HOSTS), 0.0, 0.0), f"0x0002 held full/limited/both {got}")

        # The port detail: each collector's first device and port, as Grafana opens it.
        for target in targets.values():
            v, opts = run.variables(DETAIL, {"instance": target}, first)
            if v:
                must(opts.get("port"), f"port detail lists ports of {target}")
                run.panels(DETAIL, v, f"({instance[target]} first port)")

        def detail(target, device, port, find):
            """The port detail as the worst-ports link opens it: Find set to the device."""
            v, opts = run.variables(DETAIL, {"find": find, "instance": target, "port": port},
                                    lambda var, o: device if var["name"] == "device" else first(var, o))
            if not v:
                return {}
            must((target in [o[0] for o in opts["instance"]]),
                 f"Find {find!r} lists collector {target}")
            must(device in [o[0] for o in opts["device"]], f"Find {find!r} lists device {device}")
            return run.panels(DETAIL, v, f"({instance[target]} {device}:{port})")

        top = detail(targets["fabric"], want[0][0], want[0][1], want[0][0])
        must(any(float(v) > 0 for r in top.get("Error and violation counters (per second)", [])
                 for _, v in r["values"]), "the worst port's errors")
        must(top.get("Port state"), "the worst port's state")
        must(top.get("Node"), "the worst port's node")
        stale = detail(targets["stale"], "mlx5_0", "1", "mlx5_0")
        must(any(float(v) > 0 for r in stale.get("P_Key cache staleness", [])
                 for _, v in r["values"]), "the stale cache's staleness")
        must({r["metric"].get("rule") for r in stale.get("Findings on this port and its device",
                                                          [])} >= {"pkey.cache_stale"},
             "the stale cache's finding")
        must(stale.get("P_Key table changes"), "the stale port's table change annotation")
        mr = detail(targets["mr"], "mlx5_0", "1", "mlx5_0")
        must(any(r["metric"].get("state") == "stuck" for r in mr.get("MRs by state", [])),
             "the stuck MR on its device")
        must(mr.get("Async events"), "the MR device's QP_FATAL")
        reset = detail(targets["fabric"], fabric["reset"][0], "1", fabric["reset"][0])
        must({r["metric"].get("counter") for r in reset.get("Counter resets", [])}
             == {"port_xmit_discards"}, "the reset counter")
        saturated = detail(targets["fabric"], fabric["saturated"][0], "1", fabric["saturated"][0])
        must({r["metric"].get("counter") for r in saturated.get("Saturated counters", [])}
             == {"port_xmit_constraint_errors"}, "the saturated counter")
        diverging = detail(targets["fabric"], fabric["diverging"][0], "1", fabric["diverging"][0])
        must(any(r["metric"].get("view") == "sm" and max(float(v) for _, v in r["values"]) > 0
                 for r in diverging.get("Views diverging from the device table", [])),
             "the divergent sm view")
        if named:
            must(any(r["metric"].get("lid") for r in top.get("LID", [])), "the worst port's LID")
            # The Find box by a node's name: the one device, shown by its name.
            leaf = next(d for d, n in fabric["desc"].items() if n == "Leaf003")
            v, opts = run.variables(DETAIL, {"find": "leaf003", "instance": targets["fabric"]},
                                    first)
            must(opts.get("device") == [(leaf, f"Leaf003 {leaf}")],
                 f"Find 'leaf003' lists {opts.get('device')}")

        failures = run.failures + failures
        print(f"checked {run.queries} queries on a fabric of {FABRIC_PORTS + 2} ports "
              f"(node names {'exported' if named else 'not exported by this build'}); "
              f"largest answer: {run.largest[0]} series ({run.largest[1]})")
        if failures:
            for name in ("fabric.log", "prometheus.log"):
                with open(os.path.join(b.dir, name)) as f:
                    print(f"--- {name} (last lines)\n" + "".join(f.readlines()[-20:]))
    bed.finish(failures)


if __name__ == "__main__":
    main()
