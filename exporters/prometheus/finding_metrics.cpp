// Active findings counted by rule, severity and the port (or device) they concern. A rule seen
// before keeps its series at 0 after it clears, so alerts resolve instead of going absent.
#include <map>
#include <tuple>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_finding_metrics(const Snapshot& snap, MetricWriter& out) {
    using Key = std::tuple<std::string, std::string, std::string, std::string>;
    std::map<Key, uint64_t> counts;
    auto key = [](const Finding& f) {
        return Key{f.rule, std::string(to_string(f.severity)), f.subject.device,
                   f.subject.port ? std::to_string(*f.subject.port) : ""};
    };
    for (const auto& f : snap.finding_history) counts.emplace(key(f), 0);
    for (const auto& f : snap.findings) ++counts[key(f)];
    out.begin("rdmadiag_findings",
              "Active findings by rule, severity and subject (port empty for device-wide).",
              MetricType::gauge);
    for (const auto& [k, n] : counts) {
        const auto& [rule, severity, device, port] = k;
        out.sample({{"rule", rule}, {"severity", severity}, {"device", device}, {"port", port}},
                   static_cast<double>(n));
    }
}

}  // namespace rdmadiag::prom
