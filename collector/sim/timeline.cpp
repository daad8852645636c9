#include "collector/sim/timeline.hpp"

#include <algorithm>

namespace rdmadiag::sim {

namespace {

ViewMask port_views(const Scenario& scenario, const PortRef& port) {
    for (const auto& p : scenario.ports) {
        if (p.state.port == port) return p.views;
    }
    return kDeviceView;
}

void expand_pkey_edit(const Step& step, const PKeyEdit& edit, const Scenario& scenario,
                      std::vector<Effect>& out) {
    ViewMask views = edit.views != 0 ? edit.views : port_views(scenario, edit.port);
    // A port without any table (iWARP) still gets the edit, which then fails on its device view.
    if (views == 0) views = kDeviceView;
    const ViewMask programmed = views & (kDeviceView | kSmaView);
    Duration programmed_at = step.at;
    if ((views & kSmView) != 0) {
        out.push_back(Effect{step.at, step.line, step.column, TableEffect{edit, kSmView}});
        // The port only follows the SM's intent once the SM has swept and sent its Set().
        programmed_at += edit.delay;
    }
    if (programmed != 0) {
        out.push_back(Effect{programmed_at, step.line, step.column, TableEffect{edit, programmed}});
    }
    if ((views & kDeviceView) != 0 && edit.event_delay) {
        AsyncEvent ev{edit.port.device, edit.port.port, AsyncEventType::pkey_change, std::nullopt};
        out.push_back(
            Effect{programmed_at + *edit.event_delay, step.line, step.column, EventStep{ev}});
    }
}

}  // namespace

std::vector<Effect> compile_timeline(const Scenario& scenario) {
    std::vector<Effect> out;
    out.reserve(scenario.steps.size() * 2);
    for (const auto& step : scenario.steps) {
        std::visit(
            [&](const auto& a) {
                using T = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<T, PKeyEdit>) {
                    expand_pkey_edit(step, a, scenario, out);
                } else if constexpr (std::is_same_v<T, PortStep>) {
                    out.push_back(Effect{step.at, step.line, step.column, a});
                    if (a.event) {
                        AsyncEvent ev{a.port.device, a.port.port, *a.event, std::nullopt};
                        out.push_back(Effect{step.at, step.line, step.column, EventStep{ev}});
                    }
                } else {
                    out.push_back(Effect{step.at, step.line, step.column, a});
                }
            },
            step.action);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Effect& a, const Effect& b) { return a.at < b.at; });
    return out;
}

Duration last_effect_time(const std::vector<Effect>& effects) {
    return effects.empty() ? Duration::zero() : effects.back().at;
}

}  // namespace rdmadiag::sim
