#pragma once
// A snapshot of a two-level fat tree as a subnet sweep publishes it (nodes named guid:0x...,
// switches and HCAs with their NodeDescription, a LID per port, a P_Key table in the SMA view),
// built directly so that model tests can run at 12,000 ports without a daemon or a simulator.
// The shape is scripts/gen-fat-tree-scenario's.

#include <cstdio>
#include <string>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::testing {

struct FatTreeShape {
    int leaves = 96;
    int spines = 32;
    int hosts_per_leaf = 16;
    int hca_ports = 2;
};

inline std::string guid_name(uint64_t guid) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "guid:0x%016llx", static_cast<unsigned long long>(guid));
    return buf;
}

inline TimePoint fat_tree_time() {
    return *parse_time("2026-12-02T10:00:00Z");
}

inline DeviceSnapshot fat_tree_node(uint64_t guid, const std::string& type, const std::string& desc,
                                    int ports, uint32_t& lid, bool lid_per_port) {
    DeviceSnapshot d;
    d.info.device = guid_name(guid);
    d.info.node_type = type;
    d.info.node_guid = guid;
    d.info.node_desc = desc;
    d.info.transport = Transport::ib;
    d.source = "mad";
    d.updated = fat_tree_time();
    if (!lid_per_port) ++lid;
    for (int p = 1; p <= ports; ++p) {
        PortSnapshot ps;
        ps.ref = PortRef{d.info.device, static_cast<uint32_t>(p)};
        ps.info.port = ps.ref;
        ps.info.state = PortState::active;
        ps.info.rate = "200 Gb/sec (4X HDR)";
        ps.info.lid = lid_per_port ? ++lid : lid;
        PKeyViewState sma;
        sma.view = PKeyView::sma;
        sma.table.keys = {0xffff, 0x8001, 0x8002};
        sma.generation = 1;
        sma.changed = fat_tree_time();
        sma.source = "mad";
        ps.pkeys.views.push_back(sma);
        ps.updated = fat_tree_time();
        d.ports.push_back(std::move(ps));
    }
    return d;
}

// Leaves "Leaf001".., spines "Spine01".., hosts "node0001 HCA-1"..; devices sorted by name.
inline Snapshot fat_tree_snapshot(const FatTreeShape& shape = {}) {
    Snapshot s;
    s.sequence = 1;
    s.time = fat_tree_time();
    uint32_t lid = 0;
    char desc[64];
    for (int l = 1; l <= shape.leaves; ++l) {
        std::snprintf(desc, sizeof desc, "Leaf%03d", l);
        s.devices.push_back(
            fat_tree_node(0x0002c90300100000ULL + static_cast<uint64_t>(l), "switch", desc,
                          shape.hosts_per_leaf * shape.hca_ports + shape.spines, lid, false));
    }
    for (int sp = 1; sp <= shape.spines; ++sp) {
        std::snprintf(desc, sizeof desc, "Spine%02d", sp);
        s.devices.push_back(fat_tree_node(0x0002c90300200000ULL + static_cast<uint64_t>(sp),
                                          "switch", desc, shape.leaves, lid, false));
    }
    const int hosts = shape.leaves * shape.hosts_per_leaf;
    for (int h = 1; h <= hosts; ++h) {
        std::snprintf(desc, sizeof desc, "node%04d HCA-1", h);
        s.devices.push_back(fat_tree_node(0x0c42a10300000000ULL + static_cast<uint64_t>(h), "CA",
                                          desc, shape.hca_ports, lid, true));
    }
    std::sort(s.devices.begin(), s.devices.end(),
              [](const auto& a, const auto& b) { return a.info.device < b.info.device; });
    return s;
}

}  // namespace rdmadiag::gui::testing
