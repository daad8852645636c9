#pragma once
// Snapshots for the GUI tests: the recorded API answers under tests/fixtures/api/, and one built
// by hand with a stale cache and a stuck MR (every field the dashboard shows, set on purpose, the
// engine's judgements included) for the models' edge cases. Played scenarios and recordings are
// what the widget tests show.

#include <gtest/gtest.h>

#include <QString>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

#include "collector/json/snapshot_json.hpp"
#include "collector/model/snapshot.hpp"
#include "tests/support/test_paths.hpp"

// Readable QStrings in GoogleTest failure messages.
inline void PrintTo(const QString& s, std::ostream* os) {
    *os << '"' << s.toStdString() << '"';
}

namespace rdmadiag::gui::testing {

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string api_fixture_path(const std::string& name) {
    return ::rdmadiag::test::fixtures_dir() + "/api/" + name;
}

// Fails the calling test (and returns an empty snapshot) when the fixture does not parse.
inline Snapshot load_api_fixture(const std::string& name) {
    const std::string text = read_text(api_fixture_path(name));
    EXPECT_FALSE(text.empty()) << "missing fixture " << name;
    auto parsed = codec::parse_snapshot_json(text);
    EXPECT_TRUE(parsed.ok()) << name << ": " << (parsed.ok() ? "" : parsed.error().message);
    return parsed.ok() ? std::move(*parsed) : Snapshot{};
}

inline TimePoint at_seconds(int s) {
    return *parse_time("2026-12-02T10:00:00Z") + std::chrono::seconds(s);
}

inline PKeyViewState view(PKeyView v, std::vector<uint16_t> keys, uint64_t generation,
                          int changed_s) {
    PKeyViewState s;
    s.view = v;
    s.table.keys = std::move(keys);
    s.generation = generation;
    s.changed = at_seconds(changed_s);
    s.confirmed = at_seconds(60);
    s.source = v == PKeyView::cache ? "engine" : "sysfs";
    return s;
}

// mlx5_0:1 whose device table gained 0x8004 at index 4 and lost 0x8005 at index 5 (generation 2)
// while the cache still has generation 1; MR 17 of xprtrdma is stuck after MW_BIND_ERR; MR 5 of
// fio is valid.
inline Snapshot trouble_snapshot() {
    Snapshot s;
    s.sequence = 42;
    s.time = at_seconds(60);
    DeviceSnapshot d;
    d.info.device = "mlx5_0";
    d.info.transport = Transport::ib;
    d.source = "sysfs";
    PortSnapshot p;
    p.ref = {"mlx5_0", 1};
    p.info.port = p.ref;
    p.info.state = PortState::active;
    p.info.rate = "100 Gb/sec (4X EDR)";
    p.pkeys.views.push_back(
        view(PKeyView::device, {0xffff, 0x8001, 0x8002, 0x0003, 0x8004, 0}, 2, 10));
    p.pkeys.views.push_back(view(PKeyView::sm, {0xffff, 0x8001, 0x8002, 0x0003, 0x8004, 0}, 2, 9));
    p.pkeys.views.push_back(view(PKeyView::cache, {0xffff, 0x8001, 0x8002, 0x0003, 0, 0}, 1, 0));
    // The engine's judgement and diff, as the snapshot carries them.
    p.pkeys.cache = CacheJudgement::stale;
    p.pkeys.cache_note = "differs from device with no PKEY_CHANGE delivered";
    p.pkeys.stale_since = at_seconds(10);
    p.pkeys.last_diff = PKeyDiff{p.ref,
                                 PKeyView::device,
                                 1,
                                 2,
                                 at_seconds(10),
                                 {{PKeyChangeKind::added, 4, std::nullopt, 0, 0x8004},
                                  {PKeyChangeKind::removed, 5, std::nullopt, 0x8005, 0}}};
    CounterState c;
    c.name = "p_key_violations";
    c.kind = CounterKind::portinfo;
    c.width = 16;
    c.raw = 7;
    c.total = 7;
    p.counters.push_back(c);
    d.ports.push_back(p);
    DeviceSnapshot d2;
    d2.info.device = "cxgb4_0";
    d2.info.transport = Transport::iwarp;
    PortSnapshot p2;
    p2.ref = {"cxgb4_0", 1};
    p2.info.port = p2.ref;
    p2.info.state = PortState::active;
    d2.ports.push_back(p2);
    s.devices = {d2, d};  // by name

    Finding stale;
    stale.rule = "pkey.cache_stale";
    stale.severity = Severity::warning;
    stale.subject.device = "mlx5_0";
    stale.subject.port = 1;
    stale.since = at_seconds(25);
    stale.evidence = "cache generation 1, device generation 2 since 10s; no PKEY_CHANGE";
    stale.advice = "Reload the P_Key cache: restart IPoIB or re-bind the port";
    Finding dereg;
    dereg.rule = "mr.needs_dereg";
    dereg.severity = Severity::critical;
    dereg.subject.device = "mlx5_0";
    dereg.subject.mr = 17;
    dereg.since = at_seconds(15);
    dereg.evidence = "FASTREG completed with MW_BIND_ERR";
    dereg.advice =
        "On InfiniBand only deregistration brings the MR back: deregister and re-allocate";
    Finding other;
    other.rule = "pkey.view_divergence";
    other.severity = Severity::critical;
    other.subject.device = "cxgb4_0";
    other.subject.port = 1;
    other.since = at_seconds(5);
    other.evidence = "sm differs";
    other.advice = "check the SM";
    s.findings = {other, dereg, stale};  // deliberately not in display order

    MrRecord stuck;
    stuck.device = "mlx5_0";
    stuck.mr = 17;
    stuck.key = 0x00011a03;
    stuck.owner.name = "xprtrdma";
    stuck.transport = Transport::ib;
    stuck.state = MrState::stuck;
    stuck.state_since = at_seconds(15);
    stuck.last_op = MrOp::fastreg;
    stuck.last_status = WcStatus::mw_bind_err;
    stuck.advice = "kernel ULP xprtrdma must deregister this MR and allocate a new one";
    MrRecord fine;
    fine.device = "cxgb4_0";
    fine.mr = 5;
    fine.owner.name = "fio";
    fine.owner.pid = 4242;
    fine.transport = Transport::iwarp;
    fine.state = MrState::valid;
    fine.state_since = at_seconds(1);
    s.mrs.mrs = {fine, stuck};

    EventRecord e;
    e.time = at_seconds(3);
    e.source = "sim";
    e.event.device = "mlx5_0";
    e.event.type = AsyncEventType::qp_fatal;
    e.event.element = 0x1c5;
    EventRecord e2 = e;
    e2.time = at_seconds(8);
    e2.event.type = AsyncEventType::pkey_change;
    e2.event.port = 1;
    e2.event.element.reset();
    s.events = {e, e2};
    return s;
}

}  // namespace rdmadiag::gui::testing
