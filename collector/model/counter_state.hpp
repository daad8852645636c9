#pragma once
// A counter as the engine tracks it: the last raw reading and a total that never goes backwards.

#include <cstdint>
#include <optional>
#include <string>

#include "collector/model/counter.hpp"
#include "collector/model/time.hpp"

namespace rdmadiag {

// The first ten fields keep their original order (designated initializers elsewhere rely on it);
// the later ones fill the padding where they can, since the engine holds one per counter per port.
struct CounterState {
    std::string name;
    CounterKind kind = CounterKind::pma;
    uint8_t width = 64;
    // Events may have gone uncounted (it saturated, or was reset between two readings), so
    // `total` is a lower bound of what happened.
    bool lower_bound = false;
    uint64_t raw = 0;        // last value read
    uint64_t total = 0;      // monotonic total across resets and wraps
    bool saturated = false;  // raw sits at the width's maximum: further events are not counted
    uint64_t resets = 0;     // times the raw value went down and was taken as a reset
    uint64_t wraps = 0;      // times it went down and was taken as a wrap
    TimePoint updated;
    TimePoint last_increase;
    uint64_t saturations = 0;  // times it reached its maximum
    // Since when the counter has sat at its maximum (set while `saturated`).
    std::optional<TimePoint> saturated_since;
    std::optional<TimePoint> last_reset;  // when the last reset was seen
    bool operator==(const CounterState&) const = default;
};

}  // namespace rdmadiag
