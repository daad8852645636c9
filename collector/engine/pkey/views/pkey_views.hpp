#pragma once
// P_Key coherence: keeps the device, sma, sm and cache views of every port's table, each with a
// generation that rises on every real change; describes each change index by index; and runs the
// pkey.* rules. The cache view emulates an event-driven consumer: loaded from the device view at
// first sight, reloaded only when a PKEY_CHANGE for the port is delivered (from the table read
// right after the event, which the module asks the sources for).

#include <deque>
#include <map>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/pkey/event_coverage.hpp"
#include "collector/engine/pkey/pkey_settings.hpp"
#include "collector/engine/pkey/port_pkey_track.hpp"
#include "collector/engine/pkey/vacated_indexes.hpp"
#include "collector/engine/source_names.hpp"
#include "collector/model/pkey_state.hpp"

namespace rdmadiag::engine::pkey {

namespace rules {
struct PKeyRuleContext;
}

class PKeyViews final : public EngineModule {
public:
    explicit PKeyViews(PKeySettings settings = {}) : settings_(settings) {}

    void observe(const Observation& obs, EngineContext& ctx) override;
    void tick(EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;
    void take_changed_devices(std::set<std::string, std::less<>>& devices) override;
    void contribute_port(PortSnapshot& port) const override;
    uint64_t revision() const override { return revision_; }

    // The view as the snapshot shows it (nullptr when not seen).
    std::optional<PKeyViewState> view(const PortRef& port, PKeyView v) const;
    // The port's state as the snapshot shows it.
    PortPKeyState port_state(const PortRef& port) const;
    const PKeySettings& settings() const { return settings_; }

private:
    void on_table(const Observation& obs, const PKeyTableSample& sample, EngineContext& ctx);
    void on_event(const AsyncEvent& event, EngineContext& ctx);
    void on_counter(const CounterSample& sample, EngineContext& ctx);
    void on_status(const Observation& obs, const SourceStatus& status, EngineContext& ctx);

    void record_change(rules::PKeyRuleContext& rc, PKeyView view, const PKeyTable& before,
                       const PKeyTable& after, uint64_t old_generation, TimePoint old_confirmed);
    void reload_cache(rules::PKeyRuleContext& rc, bool after_event);
    // Runs the time-driven rules for one port and schedules its next look.
    void evaluate(rules::PKeyRuleContext& rc);
    PortPKeyTrack& track(const PortRef& port);
    PKeyViewState materialize(PKeyView v, const TrackedView& t) const;

    PKeySettings settings_;
    std::map<PortRef, PortPKeyTrack> ports_;
    // Who last held each empty index, per port and view: kept apart from the tracks so that ports
    // whose tables never change carry nothing for it.
    std::map<std::pair<PortRef, PKeyView>, VacatedIndexes> vacated_;
    EventCoverageMap coverage_;
    std::deque<PKeyDiff> history_;
    SourceNames source_names_;
    TimePoint next_check_ = TimePoint::max();
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine::pkey
