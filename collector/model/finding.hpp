#pragma once
// A finding: something an operator should act on, with when it started, the evidence that shows
// it, and what to do. Findings are raised and cleared by engine rules; cleared ones move to the
// history.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collector/common/time.hpp"

namespace rdmadiag {

enum class Severity : uint8_t { info, warning, critical };
std::string_view to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view text);

// What a finding is about. Unset parts do not apply; a finding about a partition has only its
// P_Key (the 15-bit base).
struct FindingSubject {
    std::string device;
    std::optional<uint32_t> port;
    std::optional<uint16_t> index;  // P_Key table index
    std::optional<uint16_t> pkey;   // raw P_Key value
    std::optional<uint64_t> mr;
    std::optional<uint32_t> pid;  // a process (MR leaks)
    bool operator==(const FindingSubject&) const = default;

    std::string to_string()
        const;  // "mlx5_0:1 index 3 pkey 0x8001", "mlx5_0 mr 17", "pkey 0x0011", "pid 4242"
};

struct Finding {
    std::string rule;  // stable id, "pkey.cache_stale"
    Severity severity = Severity::warning;
    FindingSubject subject;
    TimePoint since;
    std::optional<TimePoint> cleared;  // set once the condition ended
    std::string evidence;
    std::string advice;

    // Stable identity: one active finding per rule and subject.
    std::string id() const;
    bool operator==(const Finding&) const = default;
};

}  // namespace rdmadiag
