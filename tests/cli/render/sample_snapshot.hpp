#pragma once
// A small, fixed snapshot for renderer tests: one IB port with a P_Key table seen by two views
// that disagree at one index, counters incl. a saturated constraint counter, a finding, an event.

#include "collector/model/snapshot.hpp"

namespace rdmadiag::test {

inline TimePoint at_s(int64_t s) {
    return TimePoint{std::chrono::seconds(1'764'685'700 + s)};
}

inline Snapshot sample_snapshot() {
    Snapshot s;
    s.sequence = 7;
    s.time = at_s(100);
    DeviceSnapshot d;
    d.info = DeviceInfo{.device = "mlx5_0",
                        .node_type = "CA",
                        .node_guid = 0x0002c90300001234ULL,
                        .fw_ver = "20.31.1014",
                        .transport = Transport::ib};
    d.source = "sysfs";
    PortSnapshot p;
    p.ref = PortRef{"mlx5_0", 1};
    p.info.port = p.ref;
    p.info.state = PortState::active;
    p.info.lid = 3;
    p.info.link_layer = LinkLayer::infiniband;
    p.info.rate = "100 Gb/sec (4X EDR)";
    PKeyViewState dev;
    dev.view = PKeyView::device;
    dev.table.keys = {0xffff, 0x0000, 0x8001, 0x0002};
    dev.generation = 2;
    dev.changed = at_s(50);
    PKeyViewState cache = dev;
    cache.view = PKeyView::cache;
    cache.table.keys = {0xffff, 0x8001, 0x0000, 0x0002};
    cache.generation = 1;
    cache.changed = at_s(10);
    p.pkeys.views = {dev, cache};
    CounterState sym{.name = "symbol_error", .width = 16, .raw = 4, .total = 4};
    CounterState rcv{.name = "port_rcv_constraint_errors",
                     .width = 8,
                     .saturated = true,
                     .resets = 1,
                     .raw = 255,
                     .total = 300};
    CounterState hw{.name = "rx_write_requests", .kind = CounterKind::hw, .raw = 9, .total = 9};
    p.counters = {rcv, sym, hw};
    d.ports.push_back(p);
    s.devices.push_back(d);
    s.sources.push_back(SourceSnapshot{"sysfs", true, "", 20, 1, at_s(100)});
    s.sources.push_back(SourceSnapshot{"verbs", false, "no RDMA devices", 0, 0, {}});
    Finding f;
    f.rule = "pkey.cache_stale";
    f.severity = Severity::critical;
    f.subject = FindingSubject{"mlx5_0", 1, {}, {}, {}};
    f.since = at_s(80);
    s.findings.push_back(f);
    s.events.push_back(
        EventRecord{at_s(60), "verbs", AsyncEvent{"mlx5_0", 1, AsyncEventType::port_active, {}}});
    return s;
}

}  // namespace rdmadiag::test
