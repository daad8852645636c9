#pragma once
// How much per-counter and redundant detail /metrics carries. `standard` keeps a subnet-wide
// collector within about 32 series per port: series that are almost always 0 appear only where
// they are not (counter resets and saturation, unreadable P_Key entries), and series that repeat
// another one (the port's ACTIVE flag, its LID gauges, a table's generation, the data counters
// also exported in bytes) are left out. `full` exports everything. docs/metrics.md lists which.

#include <optional>
#include <string_view>

namespace rdmadiag::prom {

enum class MetricsDetail { standard, full };

std::string_view to_string(MetricsDetail detail);
std::optional<MetricsDetail> parse_metrics_detail(std::string_view text);

}  // namespace rdmadiag::prom
