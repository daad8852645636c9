#include "collector/engine/consumers/carrier_history.hpp"

#include <algorithm>

namespace rdmadiag::engine::consumers {

void CarrierHistory::record(const std::string& device, const Consumer& ipoib, TimePoint when) {
    if (ipoib.kind != ConsumerKind::ipoib || !ipoib.carrier_changes) return;
    auto& r = readings_[{device, ipoib.name}];
    if (!r.empty() && r.back().second == *ipoib.carrier_changes) return;  // nothing new
    r.emplace_back(when, *ipoib.carrier_changes);
    if (r.size() > kReadings) r.pop_front();
}

CarrierHistory::Restart CarrierHistory::restarted_after(const std::string& device,
                                                        const std::string& name, TimePoint since,
                                                        TimePoint seen) const {
    auto it = readings_.find({device, name});
    if (it == readings_.end() || it->second.empty()) return Restart::unknown;
    const auto& r = it->second;
    // Readings after the first are kept only when the count moved: one after `since` is a restart.
    for (size_t i = 1; i < r.size(); ++i) {
        if (r[i].first > since) return Restart::seen;
    }
    return r.front().first <= seen ? Restart::not_seen : Restart::unknown;
}

void CarrierHistory::keep_only(const std::string& device, const std::vector<std::string>& names) {
    std::erase_if(readings_, [&](const auto& entry) {
        return entry.first.first == device &&
               std::find(names.begin(), names.end(), entry.first.second) == names.end();
    });
}

}  // namespace rdmadiag::engine::consumers
