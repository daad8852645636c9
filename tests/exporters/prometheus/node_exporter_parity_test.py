#!/usr/bin/env python3
"""rdmadiag serve and node_exporter's infiniband collector read the same sysfs trees; every counter
file must be reported with the same value by both (node_exporter reports the 4-octet data
counters in bytes, as does rdmadiag_port_{transmitted,received}_bytes_total, the only form of them
at rdmadiag's default detail), and the port state and physical state too.

The trees: one generated (scripts/gen-sysfs-fixture, with mlx4 devices), and the real dumps under
tests/fixtures/sysfs that have counter files (node_exporter's own, procfs', and the ones written
from the kernel's code).

mlx4 ports may have counters_ext/ beside counters/: node_exporter exports both
(node_infiniband_legacy_* for counters_ext/), rdmadiag one counter per quantity under the standard
name. A quantity in both folders is the larger of the two files on a tree that does not change
(docs/sources/sysfs.md, "Two files for one counter"); a file that reads "N/A (no PMA)" has no
series in either exporter. Where node_exporter reads nothing from a tree (it drops all InfiniBand
data when one file it expects is missing), rdmadiag is compared with the files alone.

Usage: node_exporter_parity_test.py RDMADIAG_BINARY GEN_SYSFS_FIXTURE_BINARY"""

import os
import subprocess
import sys

import rdmadiag_bed as bed

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "sysfs")
# The fixture trees compared, besides the generated one.
DUMPS = ["node-exporter-mlx4-i40iw", "procfs-hfi1-mlx4-mlx5", "mlx4-i40iw", "mlx5-ib", "no-pma",
         "rxe-debian-6.1",
         "mlx5-telegraf-counters"]

# sysfs counters/ file -> node_exporter 1.5 metric (without the node_infiniband_ prefix).
NODE_EXPORTER_NAMES = {
    "symbol_error": "symbol_error_total",
    "link_error_recovery": "link_error_recovery_total",
    "link_downed": "link_downed_total",
    "port_rcv_errors": "port_errors_received_total",
    "port_rcv_remote_physical_errors": "port_receive_remote_physical_errors_total",
    "port_rcv_switch_relay_errors": "port_receive_switch_relay_errors_total",
    "port_xmit_discards": "port_discards_transmitted_total",
    "port_xmit_constraint_errors": "port_constraint_errors_transmitted_total",
    "port_rcv_constraint_errors": "port_constraint_errors_received_total",
    "local_link_integrity_errors": "local_link_integrity_errors_total",
    "excessive_buffer_overrun_errors": "excessive_buffer_overrun_errors_total",
    "VL15_dropped": "vl15_dropped_total",
    "port_xmit_wait": "port_transmit_wait_total",
    "port_xmit_packets": "port_packets_transmitted_total",
    "port_rcv_packets": "port_packets_received_total",
    "unicast_rcv_packets": "unicast_packets_received_total",
    "unicast_xmit_packets": "unicast_packets_transmitted_total",
    "multicast_rcv_packets": "multicast_packets_received_total",
    "multicast_xmit_packets": "multicast_packets_transmitted_total",
}
DATA = {"port_xmit_data": ("port_data_transmitted_bytes_total", "rdmadiag_port_transmitted_bytes_total"),
        "port_rcv_data": ("port_data_received_bytes_total", "rdmadiag_port_received_bytes_total")}

# counters_ext/ file -> (rdmadiag's counter, node_exporter 1.5 legacy metric).
LEGACY = {
    "port_xmit_data_64": ("port_xmit_data", "legacy_data_transmitted_bytes_total"),
    "port_rcv_data_64": ("port_rcv_data", "legacy_data_received_bytes_total"),
    "port_xmit_packets_64": ("port_xmit_packets", "legacy_packets_transmitted_total"),
    "port_rcv_packets_64": ("port_rcv_packets", "legacy_packets_received_total"),
    "port_unicast_xmit_packets": ("unicast_xmit_packets", "legacy_unicast_packets_transmitted_total"),
    "port_unicast_rcv_packets": ("unicast_rcv_packets", "legacy_unicast_packets_received_total"),
    "port_multicast_xmit_packets": ("multicast_xmit_packets",
                                    "legacy_multicast_packets_transmitted_total"),
    "port_multicast_rcv_packets": ("multicast_rcv_packets",
                                   "legacy_multicast_packets_received_total"),
}

def read_counter(path):
    """A counter file's value (exact: beyond 2^53 a float would round it), or None for
    "N/A (no PMA)"."""
    with open(path) as fh:
        text = fh.read().strip()
    return None if text == "N/A (no PMA)" else int(text)


def files_of(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def scrape_both(b, rdmadiag, node_exporter, sysfs, tag):
    port = bed.free_port()
    log = open(os.path.join(b.dir, f"node_exporter-{tag}.log"), "w")
    ne = subprocess.Popen([node_exporter, "--collector.disable-defaults",
                           "--collector.infiniband", f"--path.sysfs={sysfs}",
                           f"--web.listen-address=127.0.0.1:{port}"],
                          stdout=log, stderr=subprocess.STDOUT)
    b.procs.append(ne)
    _, rport, _ = b.start_daemon(rdmadiag, [f"--path.sysfs={sysfs}"], name=f"daemon-{tag}")
    # What each answered last: a tree the daemon never finishes is still compared, and reported.
    last = {"theirs": bed.Scrape(""), "ours": bed.Scrape("")}

    def both_read():
        try:
            last["theirs"] = bed.Scrape(bed.http_get(f"http://127.0.0.1:{port}/metrics")[1])
            last["ours"] = bed.Scrape(bed.http_get(f"http://127.0.0.1:{rport}/metrics")[1])
        except OSError:
            return False
        # A slow counter round has run once the data counters are there (or the tree has
        # none); the state of every port comes with the first round.
        return "rdmadiag_port_info" in last["ours"].names() and bool(last["theirs"].samples)

    bed.wait_until("both exporters to read the tree", both_read, timeout=30, interval=0.2,
                   fail=False)
    theirs, ours = last["theirs"], last["ours"]
    ne.terminate()
    return theirs, ours


def node_exporter_wants(raw, scale):
    """What node_exporter 1.5 exports for a file: it multiplies a data counter by 4 in uint64, so a
    value beyond 2^62 words wraps there (rdmadiag's bytes total does not)."""
    if raw is None:
        return None
    return float((raw * scale) % 2**64)


def compare_tree(sysfs, theirs, ours, tag, problems):
    compared = 0
    # node_exporter 1.5 drops every InfiniBand series when one file it expects is missing (a port
    # without counters/, as iWARP ports have on current kernels; the partial public dumps): then
    # only rdmadiag is compared with the files.
    ne_read = any(k[0].startswith("node_infiniband_") for k in theirs.samples)
    if not ne_read:
        print(f"note: {tag}: node_exporter read nothing from this tree "
              f"(node_scrape_collector_success "
              f"{theirs.value('node_scrape_collector_success', collector='infiniband')})")
    root = os.path.join(sysfs, "class", "infiniband")
    want_ports = sorted((d, p) for d in os.listdir(root)
                        for p in files_of(os.path.join(root, d, "ports")))
    ports = sorted({(dict(k[1])["device"], dict(k[1])["port"]) for k in ours.samples
                    if k[0] == "rdmadiag_port_info"})
    if ports != want_ports:
        problems.append(f"{tag}: rdmadiag shows ports {ports}, the tree has {want_ports}")

    def check(want, got, what):
        nonlocal compared
        compared += 1
        if got != want:
            problems.append(f"{tag} {what}: want {want}, got {got}")

    for device, p in want_ports:
        port_dir = os.path.join(root, device, "ports", p)
        counters, ext = os.path.join(port_dir, "counters"), os.path.join(port_dir, "counters_ext")
        base = {f: read_counter(os.path.join(counters, f)) for f in files_of(counters)}
        legacy = {LEGACY[f][0]: read_counter(os.path.join(ext, f))
                  for f in files_of(ext) if f in LEGACY}
        labels = dict(device=device, port=p)
        # What rdmadiag must report for each quantity: the file, or the larger of the two.
        mine_want = dict(base)
        for name, v in legacy.items():
            if name in mine_want and mine_want[name] is not None and v is not None:
                mine_want[name] = max(mine_want[name], v)
            elif v is not None or name not in mine_want:
                mine_want[name] = v
        for name, want in sorted(mine_want.items()):
            where = f"{device}:{p} {name}"
            if name in DATA:
                got = ours.value(DATA[name][1], **labels)
                check(None if want is None else float(want * 4), got, where + " (bytes)")
            else:
                got = ours.value("rdmadiag_port_stat_total", counter=name, kind="pma", **labels)
                check(None if want is None else float(want), got, where)
        # node_exporter shows each file as it is.
        for f, raw in base.items() if ne_read else []:
            if f in DATA:
                ne_name, scale = DATA[f][0], 4
            elif f in NODE_EXPORTER_NAMES:
                ne_name, scale = NODE_EXPORTER_NAMES[f], 1
            else:
                continue  # a file node_exporter does not know
            got = theirs.value("node_infiniband_" + ne_name, **labels)
            # node_exporter 1.5 reads "N/A (no PMA)" as absent too.
            check(node_exporter_wants(raw, scale), got, f"{device}:{p} node_exporter {ne_name}")
        for f in files_of(ext) if ne_read else []:
            if f not in LEGACY:
                continue
            raw = read_counter(os.path.join(ext, f))
            counter, ne_name = LEGACY[f]
            scale = 4 if counter in DATA else 1
            got = theirs.value("node_infiniband_" + ne_name, **labels)
            check(node_exporter_wants(raw, scale), got, f"{device}:{p} node_exporter {ne_name}")
        for mine_name, ne_name, f in (("rdmadiag_port_state", "state_id", "state"),
                                      ("rdmadiag_port_physical_state", "physical_state_id",
                                       "phys_state")):
            a = ours.value(mine_name, **labels)
            if not os.path.exists(os.path.join(port_dir, f)):
                check(None, a, f"{device}:{p} {mine_name} (no {f} file)")
                continue
            with open(os.path.join(port_dir, f)) as fh:
                check(float(fh.read().split(":")[0]), a, f"{device}:{p} {mine_name}")
            if ne_read:
                c = theirs.value("node_infiniband_" + ne_name, **labels)
                check(a, c, f"{device}:{p} node_exporter {ne_name}")
    errors = ours.value("rdmadiag_source_errors_total", source="sysfs")
    return compared, errors


def main():
    rdmadiag, generator = sys.argv[1], sys.argv[2]
    node_exporter = bed.require_program("prometheus-node-exporter", "prometheus-node-exporter")
    if not os.access(rdmadiag, os.X_OK) or not os.access(generator, os.X_OK):
        bed.skip("rdmadiag or gen_sysfs_fixture was not built")
    problems, compared = [], 0
    with bed.Bed("parity") as b:
        generated = os.path.join(b.dir, "sys")
        subprocess.run([generator, generated, "--devices", "3", "--mlx4", "1", "--ports", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        trees = [("generated", generated)] + [(d, os.path.join(FIXTURES, d)) for d in DUMPS]
        for tag, sysfs in trees:
            theirs, ours = scrape_both(b, rdmadiag, node_exporter, sysfs, tag)
            n, errors = compare_tree(sysfs, theirs, ours, tag, problems)
            compared += n
            print(f"{tag}: {n} values compared; rdmadiag_source_errors_total{{source=\"sysfs\"}} "
                  f"{errors}")
    for p in problems:
        print("FAIL:", p)
    print(f"{compared} values compared; {'FAILED' if problems else 'PASSED'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
