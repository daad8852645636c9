#pragma once
// Time as the engine sees it: every observation carries a TimePoint, and the engine never reads
// the wall clock itself, so a scenario or a recording plays the same way every time.

#include <chrono>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag::common {

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::sys_time<Duration>;

class Clock {
public:
    virtual ~Clock() = default;
    virtual TimePoint now() const = 0;
};

class SystemClock final : public Clock {
public:
    TimePoint now() const override {
        return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
    }
};

class ManualClock final : public Clock {
public:
    explicit ManualClock(TimePoint start = TimePoint{}) : now_(start) {}
    TimePoint now() const override { return now_; }
    void set(TimePoint t) { now_ = t; }
    void advance(Duration d) { now_ += d; }

private:
    TimePoint now_;
};

// RFC 3339 in UTC with millisecond precision: 2026-12-02T14:29:06.123Z
std::string format_time(TimePoint t);
Result<TimePoint> parse_time(std::string_view text);

// Human form of a duration: "850ms", "12.5s", "3m20s", "2h05m".
std::string format_duration(Duration d);
// Parses "250ms", "5s", "2m", "1h", "1.5s" and plain seconds ("30").
Result<Duration> parse_duration(std::string_view text);

double to_seconds(Duration d);

}  // namespace rdmadiag::common

// Time is the vocabulary of every observation: the root namespace uses it unqualified.
namespace rdmadiag {
using common::Clock;
using common::Duration;
using common::format_duration;
using common::format_time;
using common::ManualClock;
using common::parse_duration;
using common::parse_time;
using common::SystemClock;
using common::TimePoint;
using common::to_seconds;
}  // namespace rdmadiag
