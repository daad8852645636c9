#pragma once
// The P_Key scenarios as observation streams, the way a collector would deliver them: a sysfs
// poller reading the table every 10 s and counters every second, a verbs event source that
// declares what it watches and delivers PKEY_CHANGE (followed by the re-read it triggers). They
// are recorded into tests/fixtures/recordings/ and replayed by the replay tests.

#include <functional>
#include <string>
#include <vector>

#include "collector/model/observation.hpp"

namespace rdmadiag::test {

struct ScenarioStream {
    std::string name;
    std::vector<Observation> observations;  // in time order; the last one marks the end
    std::vector<std::string> fires;         // rules that must fire (active or in the history)
    std::vector<std::string> absent;        // rules that must never fire
};

class StreamBuilder {
public:
    static constexpr const char* kDevice = "mlx5_0";

    StreamBuilder& watch(double t) {
        SourceStatus s;
        s.up = true;
        s.event_coverage.push_back(EventCoverage{kDevice, {}});
        return add(t, "verbs_events", s);
    }
    StreamBuilder& table(double t, std::vector<uint16_t> keys) {
        PKeyTableSample p;
        p.port = PortRef{kDevice, 1};
        p.table.keys = std::move(keys);
        return add(t, "sysfs", p);
    }
    // Polls the table every `every` seconds in [from, to), the table at each time from `keys_at`.
    StreamBuilder& poll_tables(double from, double to, double every,
                               const std::function<std::vector<uint16_t>(double)>& keys_at) {
        for (double t = from; t < to; t += every) table(t, keys_at(t));
        return *this;
    }
    StreamBuilder& event(double t) {
        AsyncEvent e{kDevice, 1u, AsyncEventType::pkey_change, std::nullopt};
        return add(t, "verbs_events", e);
    }
    StreamBuilder& counter(double t, const char* name, uint64_t value, uint8_t width,
                           CounterKind kind = CounterKind::pma) {
        CounterSample c;
        c.port = PortRef{kDevice, 1};
        c.name = name;
        c.value = value;
        c.width = width;
        c.kind = kind;
        return add(t, "sysfs", c);
    }
    StreamBuilder& end(double t) {
        SourceStatus s;
        s.up = true;
        return add(t, "sysfs", s);
    }
    std::vector<Observation> build() {
        std::stable_sort(out_.begin(), out_.end(), [](const Observation& a, const Observation& b) {
            return a.time < b.time;
        });
        return out_;
    }

private:
    StreamBuilder& add(double t, const char* source, ObservationBody body) {
        // Recordings start at a fixed, realistic date so their times read naturally.
        const TimePoint base{std::chrono::seconds(1'764'685'000)};
        out_.push_back(
            Observation{base + Duration{static_cast<int64_t>(t * 1e9)}, source, std::move(body)});
        return *this;
    }
    std::vector<Observation> out_;
};

inline std::vector<uint16_t> keys(std::initializer_list<uint16_t> k) {
    std::vector<uint16_t> t{0xffff};
    t.insert(t.end(), k.begin(), k.end());
    t.resize(16, 0);
    return t;
}

inline std::vector<ScenarioStream> pkey_scenario_streams() {
    std::vector<ScenarioStream> all;
    const auto before = keys({0x8001, 0x8002});
    const auto after = keys({0x8001, 0x8002, 0x8003});
    auto step = [](double at, std::vector<uint16_t> a, std::vector<uint16_t> b) {
        return [=](double t) { return t < at ? a : b; };
    };

    {  // The table changes and the event arrives: the cache follows, nothing fires.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 60, 10, step(20, before, after))
            .event(20.2)
            .table(20.25, after)
            .end(60);
        all.push_back({"change_with_event", b.build(), {}, {"pkey.cache_stale"}});
    }
    {  // No event: stale after the grace period and it stays so.
        StreamBuilder b;
        b.watch(0).poll_tables(0, 60, 10, step(20, before, after)).end(60);
        all.push_back({"change_without_event", b.build(), {"pkey.cache_stale"}, {}});
    }
    {  // The event arrives late: stale, then healed.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 60, 10, step(20, before, after))
            .event(37.5)
            .table(37.6, after)
            .end(60);
        all.push_back({"late_event", b.build(), {"pkey.cache_stale"}, {}});
    }
    {  // A key moves to another index.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 40, 10, step(20, keys({0x8001, 0x8002}), keys({0, 0x8002, 0x8001})))
            .event(20.1)
            .table(20.15, keys({0, 0x8002, 0x8001}))
            .end(40);
        all.push_back({"index_move", b.build(), {"pkey.index_moved"}, {"pkey.removed"}});
    }
    {  // A key is removed.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 40, 10, step(20, before, keys({0x8001})))
            .event(20.1)
            .table(20.15, keys({0x8001}))
            .end(40);
        all.push_back({"removal", b.build(), {"pkey.removed"}, {"pkey.index_moved"}});
    }
    {  // Full -> limited.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 40, 10, step(20, before, keys({0x0001, 0x8002})))
            .event(20.1)
            .table(20.15, keys({0x0001, 0x8002}))
            .end(40);
        all.push_back(
            {"membership_flip", b.build(), {"pkey.membership_changed"}, {"pkey.removed"}});
    }
    {  // Constraint errors rise right after an index move.
        StreamBuilder b;
        b.watch(0).poll_tables(0, 60, 10,
                               step(20, keys({0x8001, 0x8002}), keys({0, 0x8002, 0x8001})));
        for (int t = 0; t < 60; ++t) b.counter(t, "port_rcv_constraint_errors", t < 25 ? 2 : 9, 8);
        b.end(60);
        all.push_back({"violations_after_change", b.build(), {"pkey.violations_after_change"}, {}});
    }
    {  // Constraint errors rise with no change: must not be tied to a change.
        StreamBuilder b;
        b.watch(0).poll_tables(0, 60, 10, step(1000, before, before));
        for (int t = 0; t < 60; ++t) b.counter(t, "port_rcv_constraint_errors", 2 + t / 5, 8);
        b.end(60);
        all.push_back(
            {"violations_without_change", b.build(), {}, {"pkey.violations_after_change"}});
    }
    {  // PKEY_CHANGE with no difference.
        StreamBuilder b;
        b.watch(0)
            .poll_tables(0, 40, 10, step(1000, before, before))
            .event(15)
            .table(15.05, before)
            .end(40);
        all.push_back({"spurious_event", b.build(), {"pkey.spurious_event"}, {"pkey.cache_stale"}});
    }
    {  // The table flips every 20 s.
        StreamBuilder b;
        b.watch(0).poll_tables(0, 120, 10, [&](double t) {
            return static_cast<int>(t / 20) % 2 ? keys({0x0001, 0x8002}) : before;
        });
        b.end(120);
        all.push_back({"flapping", b.build(), {"pkey.flapping", "pkey.membership_changed"}, {}});
    }
    {  // A counter reset: the exported total keeps going up.
        StreamBuilder b;
        b.watch(0).table(0, before);
        for (int t = 0; t < 20; ++t) b.counter(t, "symbol_error", t < 10 ? 500 + t : t - 10, 16);
        b.end(20);
        all.push_back({"counter_reset", b.build(), {}, {"pkey.violations_after_change"}});
    }
    {  // An 8-bit constraint counter saturates, then is cleared.
        StreamBuilder b;
        b.watch(0).table(0, before);
        for (int t = 0; t < 30; ++t) {
            b.counter(t, "port_xmit_constraint_errors", t < 20 ? std::min(250 + t, 255) : 0, 8);
        }
        b.end(30);
        all.push_back({"saturation_8bit", b.build(), {"pkey.counter_saturated"}, {}});
    }
    {  // A 16-bit violation counter wraps.
        StreamBuilder b;
        b.watch(0).table(0, before);
        for (int t = 0; t < 20; ++t) {
            b.counter(t, "p_key_violations", (65500 + 10 * static_cast<uint64_t>(t)) % 65536, 16,
                      CounterKind::portinfo);
        }
        b.end(20);
        all.push_back({"wrap_16bit", b.build(), {}, {"pkey.counter_saturated"}});
    }
    return all;
}

}  // namespace rdmadiag::test
