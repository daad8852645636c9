// Memory regions counted by device and state; individual MRs live in /api/v1/mrs.
#include <map>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_mr_metrics(const Snapshot& snap, MetricWriter& out) {
    constexpr MrState kStates[] = {MrState::valid, MrState::invalid, MrState::unknown,
                                   MrState::stuck, MrState::deregistered};
    std::map<std::string_view, std::map<MrState, uint64_t>> by_device;
    for (const auto& mr : snap.mrs.mrs) ++by_device[mr.device][mr.state];
    out.begin("rdmadiag_mrs", "Memory regions tracked, by device and state.", MetricType::gauge);
    for (auto& [device, states] : by_device) {
        for (MrState s : kStates) {
            out.sample({{"device", device}, {"state", to_string(s)}},
                       static_cast<double>(states[s]));
        }
    }
}

}  // namespace rdmadiag::prom
