#include "exporters/prometheus/metrics_detail.hpp"

namespace rdmadiag::prom {

std::string_view to_string(MetricsDetail detail) {
    return detail == MetricsDetail::full ? "full" : "standard";
}

std::optional<MetricsDetail> parse_metrics_detail(std::string_view text) {
    if (text == "standard") return MetricsDetail::standard;
    if (text == "full") return MetricsDetail::full;
    return std::nullopt;
}

}  // namespace rdmadiag::prom
