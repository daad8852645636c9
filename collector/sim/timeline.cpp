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

void expand_gid_prefix(const Step& step, const GidPrefixStep& change, std::vector<Effect>& out) {
    auto effect = [&](Duration at, GidTarget target) {
        out.push_back(Effect{at, step.line, step.column,
                             GidPrefixEffect{change.port, change.prefix, target}});
    };
    effect(step.at, GidTarget::sm);
    const Duration programmed = step.at + change.delay;
    effect(programmed, GidTarget::port);
    if (change.event_delay) {
        // The kernel reloads its GID cache on the event, before it tells its clients.
        const Duration at = programmed + *change.event_delay;
        effect(at, GidTarget::cache);
        AsyncEvent ev{change.port.device, change.port.port, AsyncEventType::gid_change,
                      std::nullopt};
        out.push_back(Effect{at, step.line, step.column, EventStep{ev}});
    }
}

void expand_address(const Step& step, const AddressStep& change, std::vector<Effect>& out) {
    out.push_back(Effect{step.at, step.line, step.column,
                         AddressEffect{change.port, change.address, change.add, false}});
    if (!change.event_delay) return;
    const Duration at = step.at + *change.event_delay;
    out.push_back(Effect{at, step.line, step.column,
                         AddressEffect{change.port, change.address, change.add, true}});
    AsyncEvent ev{change.port.device, change.port.port, AsyncEventType::gid_change, std::nullopt};
    out.push_back(Effect{at, step.line, step.column, EventStep{ev}});
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
                } else if constexpr (std::is_same_v<T, GidPrefixStep>) {
                    expand_gid_prefix(step, a, out);
                } else if constexpr (std::is_same_v<T, AddressStep>) {
                    expand_address(step, a, out);
                } else if constexpr (std::is_same_v<T, HolderExitStep>) {
                    if (!a.linger || *a.linger > Duration::zero())
                        out.push_back(Effect{step.at, step.line, step.column,
                                             HolderExitEffect{a.pid, false}});
                    if (a.linger)
                        out.push_back(Effect{step.at + *a.linger, step.line, step.column,
                                             HolderExitEffect{a.pid, true}});
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
