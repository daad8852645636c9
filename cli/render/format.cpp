#include "cli/render/format.hpp"

#include <cctype>

#include <cstdio>
#include <iterator>

namespace rdmadiag::cli::render {

std::string short_rate(const std::optional<std::string>& rate) {
    if (!rate) return "-";
    auto s = *rate;
    const auto paren = s.find(" (");
    if (paren != std::string::npos) s.resize(paren);
    return s;
}

std::string link_short(const std::optional<LinkLayer>& ll) {
    if (!ll) return "-";
    switch (*ll) {
        case LinkLayer::infiniband:
            return "IB";
        case LinkLayer::ethernet:
            return "Eth";
        case LinkLayer::unknown:
            return "?";
    }
    return "?";
}

std::string clock_time(TimePoint t) {
    const auto full = format_time(t);  // 2026-12-02T14:29:06.123Z
    return full.size() >= 19 ? full.substr(11, 8) : full;
}

std::string age(TimePoint then, TimePoint now) {
    if (then.time_since_epoch().count() == 0) return "-";
    if (now < then) return "just now";
    return format_duration(now - then) + " ago";
}

CounterSummary summarize_counters(const PortSnapshot& port) {
    CounterSummary s;
    for (const auto& c : port.counters) {
        if (c.kind == CounterKind::hw) continue;
        if (is_pkey_violation_counter(c.name)) {
            s.violations = s.violations.value_or(0) + c.total;
            s.violations_saturated = s.violations_saturated || c.saturated;
            continue;
        }
        if (is_link_error_counter(c.name)) s.errors = s.errors.value_or(0) + c.total;
    }
    return s;
}

std::string upper(std::string_view text) {
    std::string t(text);
    for (auto& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return t;
}

}  // namespace rdmadiag::cli::render

namespace rdmadiag::cli::render {

std::string bytes_text(uint64_t bytes) {
    constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) return std::to_string(bytes) + " B";
    double v = static_cast<double>(bytes);
    size_t unit = 0;
    v /= 1024.0;
    while (v >= 1024.0 && unit + 1 < std::size(kUnits)) {
        v /= 1024.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
    return buf;
}

}  // namespace rdmadiag::cli::render
