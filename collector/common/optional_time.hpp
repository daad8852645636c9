#pragma once
// A moment that may not have happened, in the 8 bytes of the moment itself. std::optional of a
// time point pads to 16 bytes; a snapshot holds several per counter and a few dozen counters per
// port, so at fabric scale the padding alone is hundreds of bytes per port. The earliest
// representable time stands for "never": no reading carries it.

#include <optional>

#include "collector/common/time.hpp"

namespace rdmadiag::common {

class OptionalTime {
public:
    constexpr OptionalTime() = default;
    constexpr OptionalTime(std::nullopt_t) {}           // NOLINT: as optional's
    constexpr OptionalTime(TimePoint t) : t_(t) {}      // NOLINT: as optional's
    constexpr OptionalTime(std::optional<TimePoint> t)  // NOLINT: same meaning
        : t_(t.value_or(kNever)) {}

    constexpr bool has_value() const { return t_ != kNever; }
    constexpr explicit operator bool() const { return has_value(); }
    // Like std::optional, only meaningful when has_value().
    constexpr TimePoint operator*() const { return t_; }
    constexpr TimePoint value_or(TimePoint fallback) const { return has_value() ? t_ : fallback; }
    constexpr operator std::optional<TimePoint>() const {  // NOLINT: as the optional it stands for
        return has_value() ? std::optional<TimePoint>(t_) : std::nullopt;
    }
    constexpr void reset() { t_ = kNever; }

    constexpr bool operator==(const OptionalTime&) const = default;
    friend constexpr bool operator==(OptionalTime a, TimePoint b) {
        return a.has_value() && a.t_ == b;
    }

private:
    static constexpr TimePoint kNever = TimePoint::min();
    TimePoint t_ = kNever;
};

}  // namespace rdmadiag::common

namespace rdmadiag {
using common::OptionalTime;
}  // namespace rdmadiag
