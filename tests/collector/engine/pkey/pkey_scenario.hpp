#pragma once
// A small driver for P_Key scenarios: an engine with the P_Key module on a clock the test moves,
// and builders for the observations a real collector would deliver.

#include <algorithm>
#include <memory>
#include <string>

#include "collector/engine/engine.hpp"
#include "collector/engine/pkey/views/pkey_views.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::test {

class PKeyScenario {
public:
    explicit PKeyScenario(engine::pkey::PKeySettings settings = {}) {
        auto module = std::make_unique<engine::pkey::PKeyViews>(settings);
        views_ = module.get();
        engine_.add_module(std::move(module));
    }

    // The async-event source declares it watches every port of `device`.
    void watch(double t, const std::string& device = "mlx5_0") {
        SourceStatus s;
        s.up = true;
        s.event_coverage.push_back(EventCoverage{device, {}});
        engine_.consume(obs(t, s, "verbs_events"));
    }
    void unwatch(double t) {
        SourceStatus s;
        s.up = false;
        s.reason = "device closed";
        engine_.consume(obs(t, s, "verbs_events"));
    }
    void table(double t, std::vector<uint16_t> keys, PKeyView view = PKeyView::device,
               uint32_t port = 1) {
        engine_.consume(obs(t, pkeys("mlx5_0", port, std::move(keys), view), "sysfs"));
    }
    void event(double t, uint32_t port = 1) {
        AsyncEvent e;
        e.device = "mlx5_0";
        e.port = port;
        e.type = AsyncEventType::pkey_change;
        engine_.consume(obs(t, e, "verbs_events"));
    }
    void counter_value(double t, const char* name, uint64_t value, uint8_t width,
                       CounterKind kind = CounterKind::pma) {
        auto c = counter("mlx5_0", 1, name, value, width);
        c.kind = kind;
        engine_.consume(obs(t, c, "sysfs"));
    }
    void advance(double t) { engine_.advance(at(t)); }

    const Finding* active(const std::string& rule) const {
        const auto& all = engine_.findings();
        for (const auto& f : all.active()) {
            if (f.rule == rule) return remember(f);
        }
        return nullptr;
    }
    size_t active_count(const std::string& rule) const {
        auto all = engine_.findings().active();
        return static_cast<size_t>(std::count_if(all.begin(), all.end(),
                                                 [&](const Finding& f) { return f.rule == rule; }));
    }
    const Finding* cleared(const std::string& rule) const {
        for (const auto& f : engine_.findings().history()) {
            if (f.rule == rule) return &f;
        }
        return nullptr;
    }
    PortPKeyState port(uint32_t p = 1) const { return views_->port_state(PortRef{"mlx5_0", p}); }
    engine::Engine& engine() { return engine_; }
    engine::pkey::PKeyViews& views() { return *views_; }

private:
    const Finding* remember(const Finding& f) const {
        last_ = f;
        return &last_;
    }
    engine::Engine engine_;
    engine::pkey::PKeyViews* views_ = nullptr;
    mutable Finding last_;
};

// A 128-entry table with the default key at 0 and `keys` from index 1 on.
inline std::vector<uint16_t> table_of(std::initializer_list<uint16_t> keys, size_t size = 8) {
    std::vector<uint16_t> t{kDefaultPKey};
    t.insert(t.end(), keys.begin(), keys.end());
    if (t.size() < size) t.resize(size, 0);
    return t;
}

}  // namespace rdmadiag::test
