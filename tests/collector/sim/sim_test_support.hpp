#pragma once
// Helpers for the simulated fabric tests: play a scenario the way the collector would (polls on a
// fixed step, a refresh of the port after each PKEY_CHANGE or PORT_ACTIVE) and pick observations.

#include <optional>
#include <vector>

#include "collector/sim/scenario_player.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::sim::testing {

inline TimePoint t0() {
    return TimePoint{} + std::chrono::hours(24 * 20000);
}

// Polls every `step` from t0() to t0() + until, refreshing ports the way the daemon does.
inline std::vector<Observation> play(ScenarioPlayer& player, Duration until, Duration step,
                                     bool route_refresh = true) {
    sources::VectorSink sink;
    for (TimePoint now = t0();; now += step) {
        if (now > t0() + until) now = t0() + until;
        const size_t before = sink.observations.size();
        player.play_until(now, sink);
        if (route_refresh) {
            std::vector<PortRef> refresh;
            for (size_t i = before; i < sink.observations.size(); ++i) {
                const auto* ev = std::get_if<AsyncEvent>(&sink.observations[i].body);
                if (ev && ev->port &&
                    (ev->type == AsyncEventType::pkey_change ||
                     ev->type == AsyncEventType::port_active)) {
                    refresh.push_back(PortRef{ev->device, *ev->port});
                }
            }
            for (const auto& p : refresh) player.refresh(p, now, sink);
        }
        if (now == t0() + until) break;
    }
    return std::move(sink.observations);
}

template <class T>
struct Timed {
    TimePoint time;
    T body;
};

template <class T>
std::vector<Timed<T>> all_of(const std::vector<Observation>& obs) {
    std::vector<Timed<T>> out;
    for (const auto& o : obs) {
        if (const auto* b = std::get_if<T>(&o.body)) out.push_back({o.time, *b});
    }
    return out;
}

inline std::vector<Timed<AsyncEvent>> events(const std::vector<Observation>& obs,
                                             AsyncEventType type) {
    std::vector<Timed<AsyncEvent>> out;
    for (auto& e : all_of<AsyncEvent>(obs)) {
        if (e.body.type == type) out.push_back(e);
    }
    return out;
}

inline std::vector<Timed<PKeyTableSample>> tables(const std::vector<Observation>& obs,
                                                  const PortRef& port, PKeyView view) {
    std::vector<Timed<PKeyTableSample>> out;
    for (auto& t : all_of<PKeyTableSample>(obs)) {
        if (t.body.port == port && t.body.view == view) out.push_back(t);
    }
    return out;
}

// The last table of that view read at or before `when`.
inline std::optional<PKeyTable> table_at(const std::vector<Observation>& obs, const PortRef& port,
                                         PKeyView view, TimePoint when) {
    std::optional<PKeyTable> out;
    for (auto& t : tables(obs, port, view)) {
        if (t.time <= when) out = t.body.table;
    }
    return out;
}

inline std::vector<Timed<CounterSample>> counters(const std::vector<Observation>& obs,
                                                  const PortRef& port, std::string_view name) {
    std::vector<Timed<CounterSample>> out;
    for (auto& c : all_of<CounterSample>(obs)) {
        if (c.body.port == port && c.body.name == name) out.push_back(c);
    }
    return out;
}

inline std::optional<uint64_t> counter_at(const std::vector<Observation>& obs, const PortRef& port,
                                          std::string_view name, TimePoint when) {
    std::optional<uint64_t> out;
    for (auto& c : counters(obs, port, name)) {
        if (c.time <= when) out = c.body.value;
    }
    return out;
}

inline std::vector<Timed<MrEvent>> mr_events(const std::vector<Observation>& obs,
                                             const std::string& device, uint64_t mr) {
    std::vector<Timed<MrEvent>> out;
    for (auto& m : all_of<MrEvent>(obs)) {
        if (m.body.device == device && m.body.mr == mr) out.push_back(m);
    }
    return out;
}

}  // namespace rdmadiag::sim::testing
