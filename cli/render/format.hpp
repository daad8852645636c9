#pragma once
// Small text forms shared by the renderers.

#include <optional>
#include <string>
#include <string_view>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

// "sma" -> "SMA", for column titles.
std::string upper(std::string_view text);

// "-" for an absent value: absent is not zero.
template <class T>
std::string or_dash(const std::optional<T>& v) {
    if (!v) return "-";
    if constexpr (std::is_same_v<T, std::string>) {
        return *v;
    } else {
        return std::to_string(*v);
    }
}

// "100 Gb/sec (4X EDR)" -> "100 Gb/sec"
std::string short_rate(const std::optional<std::string>& rate);
std::string link_short(const std::optional<LinkLayer>& ll);  // "IB", "Eth", "-"
// Time of day for tables ("14:29:06"); the date is in the header line.
std::string clock_time(TimePoint t);
// How long ago `then` was at `now`: "12.5s ago"
std::string age(TimePoint then, TimePoint now);
// A byte count in binary units, one decimal: "512 B", "4.0 KiB", "1.5 GiB".
std::string bytes_text(uint64_t bytes);

struct CounterSummary {
    std::optional<uint64_t> violations;  // P_Key violations + constraint errors, when any is read
    bool violations_saturated = false;
    std::optional<uint64_t> errors;  // link and receive error counters, when any is read
};
CounterSummary summarize_counters(const PortSnapshot& port);

}  // namespace rdmadiag::cli::render
