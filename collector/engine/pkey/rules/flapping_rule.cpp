// pkey.flapping: a table that keeps changing keeps every consumer reloading and re-resolving
// indexes; usually two SMs or two configurations fighting over the port.

#include <algorithm>

#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

TimePoint judge_flapping(PKeyRuleContext& rc) {
    auto& changes = rc.track.recent_changes;
    const TimePoint horizon = rc.now() - rc.settings.flap_window;
    changes.erase(
        std::remove_if(changes.begin(), changes.end(), [&](TimePoint t) { return t <= horizon; }),
        changes.end());
    if (changes.size() < rc.settings.flap_threshold || changes.empty()) {
        rc.clear_port(kRuleFlapping);
        if (changes.empty()) changes.shrink_to_fit();
        return changes.empty() ? TimePoint::max() : changes.front() + rc.settings.flap_window;
    }
    const auto* diff = rc.track.last_diff.get();
    std::string evidence = std::to_string(changes.size()) + " changes of the " +
                           std::string(to_string(rc.track.primary())) + " table within " +
                           format_duration(rc.settings.flap_window) + " (first at " +
                           format_time(changes.front()) + ")";
    if (diff) evidence += "; now at generation " + std::to_string(diff->new_generation);
    rc.raise_port(rc.make(
        kRuleFlapping, Severity::warning, rc.port_subject(), changes.front(), std::move(evidence),
        "Something keeps re-programming this port's P_Key table. Look for two subnet managers "
        "with different partition configurations, a configuration management tool rewriting "
        "partitions.conf, or a port bouncing between SMs."));
    return changes.front() + rc.settings.flap_window;
}

}  // namespace rdmadiag::engine::pkey::rules
