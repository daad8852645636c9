#pragma once
// Writes the Prometheus text exposition format (0.0.4) straight to a TextSink, one family at a
// time: begin() a family, then its samples. Nothing is held per sample, so the cost of a scrape
// is the text itself. The HELP and TYPE lines are written with the first sample, so a family
// without samples leaves no trace (an absent subsystem is no data, not an empty family).

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "exporters/prometheus/metrics_detail.hpp"
#include "exporters/prometheus/text_sink.hpp"

namespace rdmadiag::prom {

enum class MetricType { gauge, counter };

struct Label {
    std::string_view name;
    std::string_view value;
};

// A label value for a number, held on the stack: Label{"port", LabelNumber(p).view()}.
class LabelNumber {
public:
    explicit LabelNumber(uint64_t value);
    std::string_view view() const { return {buf_, len_}; }

private:
    char buf_[24];
    size_t len_ = 0;
};

class MetricWriter {
public:
    explicit MetricWriter(TextSink& out, MetricsDetail detail = MetricsDetail::standard)
        : out_(out), detail_(detail) {}

    MetricsDetail detail() const { return detail_; }
    bool full() const { return detail_ == MetricsDetail::full; }

    // Starts a family; every family is begun once per scrape, and its samples follow it.
    void begin(std::string_view name, std::string_view help, MetricType type);
    void sample(std::span<const Label> labels, double value);
    void sample(std::initializer_list<Label> labels, double value) {
        sample(std::span<const Label>(labels.begin(), labels.size()), value);
    }
    // A family of one sample.
    void single(std::string_view name, std::string_view help, MetricType type,
                std::initializer_list<Label> labels, double value) {
        begin(name, help, type);
        sample(labels, value);
    }

    uint64_t samples() const { return samples_; }

private:
    TextSink& out_;
    MetricsDetail detail_;
    std::string name_;
    std::string header_;  // HELP and TYPE, written with the family's first sample
    std::string line_;    // reused for every sample line
    uint64_t samples_ = 0;
};

// Escapes a label value (backslash, double quote, line feed) onto `out`.
void append_label_value(std::string& out, std::string_view value);
// A sample value as Prometheus reads it: integers exactly, others in the shortest form that
// reads back the same, NaN and +Inf/-Inf spelled as the format wants.
void append_value(std::string& out, double value);

}  // namespace rdmadiag::prom
