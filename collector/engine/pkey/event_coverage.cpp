#include "collector/engine/pkey/event_coverage.hpp"

#include <algorithm>

namespace rdmadiag::engine::pkey {

namespace {
bool covers(const std::vector<EventCoverage>& list, const PortRef& port) {
    return std::any_of(list.begin(), list.end(), [&](const EventCoverage& c) {
        return c.device == port.device &&
               (c.ports.empty() ||
                std::find(c.ports.begin(), c.ports.end(), port.port) != c.ports.end());
    });
}
}  // namespace

bool EventCoverageMap::apply(const std::string& source, const SourceStatus& status) {
    std::vector<EventCoverage> next =
        status.up ? status.event_coverage : std::vector<EventCoverage>{};
    auto it = by_source_.find(source);
    if (it == by_source_.end()) {
        if (next.empty()) return false;
        by_source_.emplace(source, std::move(next));
        return true;
    }
    if (it->second == next) return false;
    if (next.empty()) {
        by_source_.erase(it);
    } else {
        it->second = std::move(next);
    }
    return true;
}

bool EventCoverageMap::watched(const PortRef& port) const {
    return std::any_of(by_source_.begin(), by_source_.end(),
                       [&](const auto& entry) { return covers(entry.second, port); });
}

std::string EventCoverageMap::watchers(const PortRef& port) const {
    std::string s;
    for (const auto& [source, list] : by_source_) {
        if (!covers(list, port)) continue;
        if (!s.empty()) s += ", ";
        s += source;
    }
    return s;
}

}  // namespace rdmadiag::engine::pkey
