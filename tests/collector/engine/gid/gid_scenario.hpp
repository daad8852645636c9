#pragma once
// A small driver for GID scenarios: an engine with the GID module on a clock the test moves, and
// builders for the views a real collector would deliver.

#include <memory>
#include <string>

#include "collector/engine/engine.hpp"
#include "collector/engine/gid/gid_views.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::test {

inline Gid gid_of(const char* text) {
    return *parse_gid(text);
}

inline GidEntry ib_entry(uint16_t index, const char* gid) {
    return GidEntry{index, gid_of(gid), GidType::ib, {}};
}

inline GidEntry roce_entry(uint16_t index, const char* gid, const char* ndev,
                           GidType type = GidType::roce_v2) {
    return GidEntry{index, gid_of(gid), type, ndev};
}

class GidScenario {
public:
    explicit GidScenario(engine::gid::GidSettings settings = {}) {
        auto module = std::make_unique<engine::gid::GidViews>(settings);
        views_ = module.get();
        engine_.add_module(std::move(module));
    }

    void view(double t, const PortRef& port, GidView v, std::vector<GidEntry> entries,
              const std::string& source = "") {
        GidTableSample s;
        s.port = port;
        s.view = v;
        s.table.entries = std::move(entries);
        const std::string from = !source.empty()        ? source
                                 : v == GidView::cache  ? "sysfs"
                                 : v == GidView::netdev ? "netdev"
                                                        : "mad";
        engine_.consume(obs(t, s, from));
    }
    void watch(double t, const std::string& device) {
        SourceStatus s;
        s.up = true;
        s.event_coverage.push_back(EventCoverage{device, {}});
        engine_.consume(obs(t, s, "verbs_events"));
    }
    void event(double t, const PortRef& port, AsyncEventType type) {
        AsyncEvent e;
        e.device = port.device;
        e.port = port.port;
        e.type = type;
        engine_.consume(obs(t, e, "verbs_events"));
    }
    void link_layer(double t, const PortRef& port, LinkLayer ll) {
        PortStateSample s;
        s.port = port;
        s.link_layer = ll;
        engine_.consume(obs(t, s, "sysfs"));
    }
    void advance(double t) { engine_.advance(at(t)); }
    SnapshotPtr snapshot() { return engine_.snapshot(); }

    std::optional<Finding> active(const std::string& rule, const std::string& device = {}) const {
        for (const auto& f : engine_.findings().active()) {
            if (f.rule == rule && (device.empty() || f.subject.device == device)) return f;
        }
        return std::nullopt;
    }
    size_t count(const std::string& rule) const {
        size_t n = 0;
        for (const auto& f : engine_.findings().active()) n += f.rule == rule;
        return n;
    }
    PortGidState port(const PortRef& p) const { return views_->port_state(p); }

private:
    engine::Engine engine_;
    engine::gid::GidViews* views_ = nullptr;
};

}  // namespace rdmadiag::test
