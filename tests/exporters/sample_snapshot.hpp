#pragma once
// A snapshot with one of everything the exporters publish: an IB port whose event-driven P_Key
// cache went stale 42 s ago, a saturated constraint counter, async events, active and cleared
// findings, MRs in several states, a source that is down.

#include "collector/model/snapshot.hpp"

namespace rdmadiag::testing {

inline TimePoint sample_time() {
    return *parse_time("2026-12-02T12:00:00Z");
}

inline Snapshot sample_snapshot() {
    using std::chrono::seconds;
    const TimePoint now = sample_time();
    Snapshot s;
    s.sequence = 17;
    s.time = now;

    DeviceSnapshot dev;
    dev.info.device = "mlx5_0";
    dev.info.node_type = "CA";
    dev.info.transport = Transport::ib;
    dev.info.fw_ver = "20.31.1014";
    dev.info.node_guid = 0x0c42a10300a1b2c3;
    dev.source = "sysfs";

    PortSnapshot port;
    port.ref = PortRef{"mlx5_0", 1};
    port.info.port = port.ref;
    port.info.state = PortState::active;
    port.info.phys_state = 5;
    port.info.lid = 7;
    port.info.sm_lid = 1;
    port.info.link_layer = LinkLayer::infiniband;
    port.info.rate = "100 Gb/sec (4X EDR)";

    PKeyViewState device;
    device.view = PKeyView::device;
    device.table.keys = {0xffff, 0x8001, 0x0000, 0x8002};
    device.generation = 3;
    device.changed = now - seconds(42);
    PKeyViewState sma = device;
    sma.view = PKeyView::sma;
    sma.generation = 2;
    PKeyViewState cache = device;
    cache.view = PKeyView::cache;
    cache.table.keys = {0xffff, 0x8001, 0x8002, 0x0000};
    cache.generation = 2;
    cache.changed = now - seconds(600);
    port.pkeys.views = {device, sma, cache};
    port.pkeys.cache = CacheJudgement::stale;
    port.pkeys.stale_since = now - seconds(42);

    CounterState rcv;
    rcv.name = "port_rcv_constraint_errors";
    rcv.kind = CounterKind::pma;
    rcv.width = 8;
    rcv.raw = 255;
    rcv.total = 300;
    rcv.saturated = true;
    rcv.resets = 1;
    CounterState data;
    data.name = "port_xmit_data";
    data.width = 64;
    data.raw = data.total = 1000;
    CounterState pkv;
    pkv.name = "p_key_violations";
    pkv.kind = CounterKind::portinfo;
    pkv.width = 16;
    pkv.raw = pkv.total = 4;
    port.counters = {rcv, data, pkv};
    dev.ports.push_back(port);

    PortSnapshot roce;
    roce.ref = PortRef{"mlx5_0", 2};
    roce.info.port = roce.ref;
    roce.info.state = PortState::down;
    roce.info.link_layer = LinkLayer::ethernet;
    dev.ports.push_back(roce);
    s.devices.push_back(dev);

    s.sources = {SourceSnapshot{"sysfs", true, "", 120, 2, now},
                 SourceSnapshot{"tracefs", false, "tracefs is not mounted", 0, 0, {}}};

    s.events = {EventRecord{now - seconds(50), "verbs",
                            AsyncEvent{"mlx5_0", 1, AsyncEventType::port_active, {}}}};
    s.event_totals = {EventTotal{"mlx5_0", 1, AsyncEventType::pkey_change, 2},
                      EventTotal{"mlx5_0", std::nullopt, AsyncEventType::device_fatal, 1}};

    Finding stale;
    stale.rule = "pkey.cache_stale";
    stale.severity = Severity::warning;
    stale.subject.device = "mlx5_0";
    stale.subject.port = 1;
    stale.since = now - seconds(12);
    stale.evidence = "cache generation 2, device generation 3";
    Finding mr;
    mr.rule = "mr.needs_dereg";
    mr.severity = Severity::critical;
    mr.subject.device = "mlx5_0";
    mr.subject.mr = 17;
    mr.since = now - seconds(3);
    Finding cleared;
    cleared.rule = "pkey.flapping";
    cleared.severity = Severity::warning;
    cleared.subject.device = "mlx5_0";
    cleared.subject.port = 1;
    cleared.since = now - seconds(900);
    cleared.cleared = now - seconds(800);
    s.findings = {mr, stale};
    s.finding_history = {cleared};

    MrRecord a;
    a.device = "mlx5_0";
    a.mr = 17;
    a.state = MrState::stuck;
    MrRecord b = a;
    b.mr = 18;
    b.state = MrState::valid;
    MrRecord c = a;
    c.mr = 19;
    c.state = MrState::valid;
    s.mrs.mrs = {a, b, c};
    return s;
}

}  // namespace rdmadiag::testing
