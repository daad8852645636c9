#!/usr/bin/env python3
"""rdmadiag serve and node_exporter's infiniband collector read the same generated sysfs tree;
every counter file must be reported with the same value by both (node_exporter reports the
4-octet data counters in bytes, as does rdmadiag_port_{transmitted,received}_bytes_total, the
only form of them at rdmadiag's default detail), and
the port state and physical state too.

The tree has mlx4 devices too, whose counters_ext/ holds the 64-bit forms of the 32-bit
counters/ data and packet files: node_exporter exports both (node_infiniband_legacy_* for
counters_ext/), rdmadiag one counter per quantity under the standard name, read from
counters_ext/. Those must equal node_exporter's legacy values and the files.

Usage: node_exporter_parity_test.py RDMADIAG_BINARY GEN_SYSFS_FIXTURE_BINARY"""

import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "beds"))
import rdmadiag_bed as bed  # noqa: E402

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

# counters_ext/ file -> (rdmadiag's counter, node_exporter 1.5 legacy metric, rdmadiag bytes metric).
LEGACY = {
    "port_xmit_data_64": ("port_xmit_data", "legacy_data_transmitted_bytes_total",
                          "rdmadiag_port_transmitted_bytes_total"),
    "port_rcv_data_64": ("port_rcv_data", "legacy_data_received_bytes_total",
                         "rdmadiag_port_received_bytes_total"),
    "port_xmit_packets_64": ("port_xmit_packets", "legacy_packets_transmitted_total", None),
    "port_rcv_packets_64": ("port_rcv_packets", "legacy_packets_received_total", None),
    "port_unicast_xmit_packets": ("unicast_xmit_packets", "legacy_unicast_packets_transmitted_total",
                                  None),
    "port_unicast_rcv_packets": ("unicast_rcv_packets", "legacy_unicast_packets_received_total",
                                 None),
    "port_multicast_xmit_packets": ("multicast_xmit_packets",
                                    "legacy_multicast_packets_transmitted_total", None),
    "port_multicast_rcv_packets": ("multicast_rcv_packets",
                                   "legacy_multicast_packets_received_total", None),
}

SAMPLE = re.compile(r'^([a-zA-Z0-9_:]+)\{([^}]*)\} (\S+)$')


def parse(text):
    out = {}
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m:
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            out[(m.group(1), tuple(sorted(labels.items())))] = float(m.group(3))
    return out


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


def main():
    rdmadiag, generator = sys.argv[1], sys.argv[2]
    node_exporter = bed.require_program("prometheus-node-exporter", "prometheus-node-exporter")
    if not os.access(rdmadiag, os.X_OK) or not os.access(generator, os.X_OK):
        bed.skip("rdmadiag or gen_sysfs_fixture was not built")
    problems, compared = [], 0
    with bed.Bed("parity") as b:
        sysfs = os.path.join(b.dir, "sys")
        subprocess.run([generator, sysfs, "--devices", "3", "--mlx4", "1", "--ports", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        port = bed.free_port()
        log = open(os.path.join(b.dir, "node_exporter.log"), "w")
        ne = subprocess.Popen([node_exporter, "--collector.disable-defaults",
                               "--collector.infiniband", f"--path.sysfs={sysfs}",
                               f"--web.listen-address=127.0.0.1:{port}"],
                              stdout=log, stderr=subprocess.STDOUT)
        b.procs.append(ne)
        _, rport, _ = b.start_daemon(rdmadiag, [f"--path.sysfs={sysfs}"])
        deadline = time.time() + 30
        theirs = ours = None
        while time.time() < deadline:
            try:
                theirs = parse(bed.http_get(f"http://127.0.0.1:{port}/metrics")[1])
                ours = parse(bed.http_get(f"http://127.0.0.1:{rport}/metrics")[1])
                if any(k[0] == "rdmadiag_port_stat_total" for k in ours) and theirs:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        ports = sorted({(dict(k[1])["device"], dict(k[1])["port"]) for k in ours
                        if k[0] == "rdmadiag_port_info"})
        if len(ports) != 8:
            problems.append(f"expected 4 devices x 2 ports, rdmadiag shows {ports}")

        def read_value(path):
            with open(path) as fh:
                return float(fh.read().strip())

        for device, p in ports:
            port_dir = os.path.join(sysfs, "class/infiniband", device, "ports", p)
            counters = os.path.join(port_dir, "counters")
            ext = os.path.join(port_dir, "counters_ext")
            extended = ({LEGACY[f][0] for f in os.listdir(ext) if f in LEGACY}
                        if os.path.isdir(ext) else set())
            for f in sorted(os.listdir(counters)):
                raw = read_value(os.path.join(counters, f))
                mine = value(ours, "rdmadiag_port_stat_total", device=device, port=p,
                             counter=f, kind="pma")
                if f in extended:
                    # Read from counters_ext/ instead (compared below); node_exporter still
                    # shows the 32-bit file.
                    ne_name = DATA[f][0] if f in DATA else NODE_EXPORTER_NAMES[f]
                    theirs_v = value(theirs, "node_infiniband_" + ne_name, device=device, port=p)
                    compared += 1
                    if theirs_v != (raw * 4 if f in DATA else raw):
                        problems.append(f"{device}:{p} counters/{f}: file {raw}, "
                                        f"node_exporter {ne_name} {theirs_v}")
                    continue
                if f in DATA:
                    # At the default detail the data counters are exported in bytes only.
                    ne_name, bytes_name = DATA[f]
                    pairs = [(None, mine, f"rdmadiag stat {f} (standard detail: bytes only)"),
                             (raw * 4, value(ours, bytes_name, device=device, port=p), bytes_name),
                             (raw * 4, value(theirs, "node_infiniband_" + ne_name, device=device,
                                             port=p), "node_exporter " + ne_name)]
                elif f in NODE_EXPORTER_NAMES:
                    ne_name = NODE_EXPORTER_NAMES[f]
                    pairs = [(raw, mine, f"rdmadiag stat {f}"),
                             (raw, value(theirs, "node_infiniband_" + ne_name, device=device,
                                         port=p), "node_exporter " + ne_name)]
                else:
                    problems.append(f"{device}:{p} counters/{f}: not in the comparison table")
                    continue
                for want, got, what in pairs:
                    compared += 1
                    if got != want:
                        problems.append(f"{device}:{p} counters/{f}: file {want}, {what} {got}")
            for f in sorted(os.listdir(ext)) if os.path.isdir(ext) else []:
                if f not in LEGACY:
                    problems.append(f"{device}:{p} counters_ext/{f}: not in the comparison table")
                    continue
                raw = read_value(os.path.join(ext, f))
                counter, ne_name, bytes_name = LEGACY[f]
                scale = 4 if bytes_name else 1
                pairs = [(raw * scale, value(theirs, "node_infiniband_" + ne_name, device=device,
                                             port=p), "node_exporter " + ne_name)]
                if bytes_name:
                    pairs.append((raw * 4, value(ours, bytes_name, device=device, port=p),
                                  bytes_name))
                else:
                    pairs.append((raw, value(ours, "rdmadiag_port_stat_total", device=device,
                                             port=p, counter=counter, kind="pma"),
                                  f"rdmadiag stat {counter}"))
                for want, got, what in pairs:
                    compared += 1
                    if got != want:
                        problems.append(f"{device}:{p} counters_ext/{f}: file {want}, {what} {got}")
            for mine_name, ne_name in (("rdmadiag_port_state", "state_id"),
                                       ("rdmadiag_port_physical_state", "physical_state_id")):
                a = value(ours, mine_name, device=device, port=p)
                c = value(theirs, "node_infiniband_" + ne_name, device=device, port=p)
                compared += 1
                if a is None or a != c:
                    problems.append(f"{device}:{p} {mine_name} {a} != node_exporter {ne_name} {c}")
    for p in problems:
        print("FAIL:", p)
    print(f"{compared} values compared; {'FAILED' if problems else 'PASSED'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
