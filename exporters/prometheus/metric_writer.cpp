#include "exporters/prometheus/metric_writer.hpp"

#include <algorithm>

namespace rdmadiag::prom {

prometheus::MetricFamily& MetricWriter::family(std::string_view name, std::string_view help,
                                               prometheus::MetricType type) {
    auto it = index_.find(name);
    if (it != index_.end()) return families_[it->second];
    prometheus::MetricFamily f;
    f.name = std::string(name);
    f.help = std::string(help);
    f.type = type;
    families_.push_back(std::move(f));
    index_.emplace(std::string(name), families_.size() - 1);
    return families_.back();
}

void MetricWriter::gauge(std::string_view name, std::string_view help, MetricLabels labels,
                         double value) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.gauge.value = value;
    family(name, help, prometheus::MetricType::Gauge).metric.push_back(std::move(m));
}

void MetricWriter::counter(std::string_view name, std::string_view help, MetricLabels labels,
                           double value) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.counter.value = value;
    family(name, help, prometheus::MetricType::Counter).metric.push_back(std::move(m));
}

std::vector<prometheus::MetricFamily> MetricWriter::take() {
    std::vector<prometheus::MetricFamily> out;
    for (auto& f : families_) {
        if (!f.metric.empty()) out.push_back(std::move(f));
    }
    families_.clear();
    index_.clear();
    return out;
}

}  // namespace rdmadiag::prom
