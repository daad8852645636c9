#include "collector/runtime/poll_schedule.hpp"

#include <algorithm>

namespace rdmadiag::runtime {

size_t PollSchedule::add(Duration interval, TimePoint start) {
    if (interval <= Duration::zero()) interval = std::chrono::seconds(1);
    entries_.push_back(Entry{interval, start, start});
    return entries_.size() - 1;
}

std::optional<TimePoint> PollSchedule::next_due() const {
    std::optional<TimePoint> best;
    for (const auto& e : entries_) {
        if (!best || e.due < *best) best = e.due;
    }
    return best;
}

std::vector<size_t> PollSchedule::take_due(TimePoint now) {
    std::vector<size_t> due;
    for (size_t i = 0; i < entries_.size(); ++i) {
        auto& e = entries_[i];
        if (e.due > now) continue;
        due.push_back(i);
        // Next grid point strictly after now.
        auto elapsed = now - e.anchor;
        auto ticks = elapsed >= Duration::zero() ? elapsed / e.interval + 1 : 1;
        e.due = e.anchor + ticks * e.interval;
    }
    return due;
}

void PollSchedule::run_at(size_t index, TimePoint when) {
    auto& e = entries_.at(index);
    e.due = std::min(e.due, when);
}

}  // namespace rdmadiag::runtime
