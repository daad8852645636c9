#include "collector/runtime/poll_schedule.hpp"

#include <algorithm>

namespace rdmadiag::runtime {

size_t PollSchedule::add(Duration interval, TimePoint start) {
    if (interval <= Duration::zero()) interval = std::chrono::seconds(1);
    if (entries_.empty()) origin_ = start;
    tick_ = entries_.empty() ? interval : std::min(tick_, interval);
    entries_.push_back(Entry{interval, start, start, std::nullopt});
    return entries_.size() - 1;
}

TimePoint PollSchedule::next_tick(TimePoint t) const {
    if (t <= origin_) return t;
    const auto ticks = (t - origin_ + tick_ - Duration(1)) / tick_;
    return origin_ + ticks * tick_;
}

TimePoint PollSchedule::runs_at(const Entry& e) const {
    const TimePoint on_grid = next_tick(e.due);
    return e.forced ? std::min(*e.forced, on_grid) : on_grid;
}

std::optional<TimePoint> PollSchedule::next_due() const {
    std::optional<TimePoint> best;
    for (const auto& e : entries_) {
        const TimePoint at = runs_at(e);
        if (!best || at < *best) best = at;
    }
    return best;
}

std::vector<size_t> PollSchedule::take_due(TimePoint now) {
    std::vector<size_t> due;
    for (size_t i = 0; i < entries_.size(); ++i) {
        auto& e = entries_[i];
        if (runs_at(e) > now) continue;
        due.push_back(i);
        e.forced.reset();
        // Next point of the entry's own grid strictly after now.
        auto elapsed = now - e.anchor;
        auto ticks = elapsed >= Duration::zero() ? elapsed / e.interval + 1 : 1;
        e.due = e.anchor + ticks * e.interval;
    }
    return due;
}

void PollSchedule::run_at(size_t index, TimePoint when) {
    auto& e = entries_.at(index);
    if (when < runs_at(e)) e.forced = when;
}

}  // namespace rdmadiag::runtime
