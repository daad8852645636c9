#pragma once
// Builds prometheus-cpp MetricFamily values by name, so each group of metrics is one short
// function over the snapshot. Families keep the order they were first declared in.

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace rdmadiag::prom {

using MetricLabels = std::vector<prometheus::ClientMetric::Label>;

class MetricWriter {
public:
    // Declares a family (idempotent) and returns it.
    prometheus::MetricFamily& family(std::string_view name, std::string_view help,
                                     prometheus::MetricType type);

    void gauge(std::string_view name, std::string_view help, MetricLabels labels, double value);
    void counter(std::string_view name, std::string_view help, MetricLabels labels, double value);

    // Families with no samples are dropped: an absent subsystem is no data, not an empty family.
    std::vector<prometheus::MetricFamily> take();

private:
    std::vector<prometheus::MetricFamily> families_;
    std::map<std::string, size_t, std::less<>> index_;
};

}  // namespace rdmadiag::prom
