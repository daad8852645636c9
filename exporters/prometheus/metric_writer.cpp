#include "exporters/prometheus/metric_writer.hpp"

#include <charconv>
#include <cmath>

namespace rdmadiag::prom {

LabelNumber::LabelNumber(uint64_t value) {
    auto r = std::to_chars(buf_, buf_ + sizeof buf_, value);
    len_ = static_cast<size_t>(r.ptr - buf_);
}

namespace {

// Label values escape backslash, double quote and line feed; HELP text the same but the quote.
void append_escaped(std::string& out, std::string_view text, bool quote) {
    for (char c : text) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"' && quote) {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
}

// Below 2^53 every integer is a double exactly, so it is printed as one.
constexpr double kExactIntegers = 9007199254740992.0;

}  // namespace

void append_label_value(std::string& out, std::string_view value) {
    append_escaped(out, value, true);
}

void append_value(std::string& out, double value) {
    if (std::isnan(value)) {
        out += "NaN";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "+Inf" : "-Inf";
        return;
    }
    char buf[32];
    std::to_chars_result r;
    if (std::fabs(value) < kExactIntegers && value == std::trunc(value)) {
        r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(value));
    } else {
        r = std::to_chars(buf, buf + sizeof buf, value);
    }
    out.append(buf, r.ptr);
}

void MetricWriter::begin(std::string_view name, std::string_view help, MetricType type) {
    name_.assign(name);
    header_.clear();
    header_ += "# HELP ";
    header_ += name;
    header_ += ' ';
    append_escaped(header_, help, false);
    header_ += "\n# TYPE ";
    header_ += name;
    header_ += type == MetricType::counter ? " counter\n" : " gauge\n";
}

void MetricWriter::sample(std::span<const Label> labels, double value) {
    line_.clear();
    if (!header_.empty()) {
        line_.swap(header_);
    }
    line_ += name_;
    if (!labels.empty()) {
        line_ += '{';
        bool first = true;
        for (const auto& l : labels) {
            if (!first) line_ += ',';
            first = false;
            line_ += l.name;
            line_ += "=\"";
            append_label_value(line_, l.value);
            line_ += '"';
        }
        line_ += '}';
    }
    line_ += ' ';
    append_value(line_, value);
    line_ += '\n';
    out_.write(line_);
    ++samples_;
}

}  // namespace rdmadiag::prom
