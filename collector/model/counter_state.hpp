#pragma once
// A counter as the engine tracks it: the last raw reading and a total that never goes backwards.

#include <cstdint>
#include <optional>
#include <string>

#include "collector/common/optional_time.hpp"
#include "collector/common/time.hpp"
#include "collector/model/counter.hpp"
#include "collector/model/counter_name.hpp"

namespace rdmadiag {

// A snapshot holds one per counter per port (72 bytes): the flags share a word with the reset
// count, the event counts are 32 bits (they stop there: one reset or wrap per reading is 136
// years of 1 s reads), and the two optional moments take 8 bytes each.
struct CounterState {
    CounterName name;
    CounterKind kind = CounterKind::pma;
    uint8_t width = 64;
    // Events may have gone uncounted (it saturated, or was reset between two readings), so
    // `total` is a lower bound of what happened.
    bool lower_bound = false;
    bool saturated = false;    // raw sits at the width's maximum: further events are not counted
    uint32_t resets = 0;       // times the raw value went down and was taken as a reset
    uint64_t raw = 0;          // last value read
    uint64_t total = 0;        // monotonic total across resets and wraps
    uint32_t wraps = 0;        // times it went down and was taken as a wrap
    uint32_t saturations = 0;  // times it reached its maximum
    TimePoint updated;
    TimePoint last_increase;
    // Since when the counter has sat at its maximum (set while `saturated`).
    OptionalTime saturated_since;
    OptionalTime last_reset;  // when the last reset was seen
    bool operator==(const CounterState&) const = default;
};

// The same reading as the engine holds it, one per counter per port (72 bytes): numbers only, the
// name kept once in a shared name table and referred to by `name_id`, the two optional moments
// held as time points with a flag each rather than std::optional's padded 16 bytes, and the event
// counts in 32 bits, which they stop at (one reset or wrap per reading: 136 years of 1 s reads).
struct CounterTrack {
    uint64_t raw = 0;
    uint64_t total = 0;
    uint32_t resets = 0;
    uint32_t wraps = 0;
    uint32_t saturations = 0;
    uint32_t name_id = 0;
    TimePoint updated;
    TimePoint last_increase;
    TimePoint saturated_at;  // meaningful while has_saturated_since
    TimePoint reset_at;      // meaningful while has_last_reset
    CounterKind kind = CounterKind::pma;
    uint8_t width = 64;
    bool lower_bound = false;
    bool saturated = false;
    bool has_saturated_since = false;
    bool has_last_reset = false;

    std::optional<TimePoint> saturated_since() const {
        return has_saturated_since ? std::optional<TimePoint>(saturated_at) : std::nullopt;
    }
    std::optional<TimePoint> last_reset() const {
        return has_last_reset ? std::optional<TimePoint>(reset_at) : std::nullopt;
    }
    void set_saturated_since(std::optional<TimePoint> t) {
        has_saturated_since = t.has_value();
        saturated_at = t.value_or(TimePoint{});
    }
    void set_last_reset(std::optional<TimePoint> t) {
        has_last_reset = t.has_value();
        reset_at = t.value_or(TimePoint{});
    }
};

static_assert(sizeof(CounterState) <= 72, "a snapshot holds one per counter per port");
static_assert(sizeof(CounterTrack) <= 72, "the engine holds one per counter per port");

// The snapshot's form of a tracked counter, under its name.
CounterState to_counter_state(const CounterTrack& track, CounterName name);
// The tracked form of a counter state (its name is left to the caller's name table).
CounterTrack to_counter_track(const CounterState& state, uint32_t name_id = 0);

}  // namespace rdmadiag
