#pragma once
// A bounded history of every counter's monotonic total, one point per snapshot, so charts can
// show counters over time from successive snapshots (the daemon serves only the latest).

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

struct CounterPoint {
    TimePoint time;
    uint64_t total = 0;
    uint64_t raw = 0;
    bool operator==(const CounterPoint&) const = default;
};

class CounterHistory {
public:
    explicit CounterHistory(size_t points_per_counter = 720) : capacity_(points_per_counter) {}

    // Adds one point per counter of every port; a snapshot not newer than the last one added is
    // ignored (a poll that returned the same snapshot again).
    void add(const Snapshot& snapshot);
    // Adds one point per counter of one port, read at `time` (a daemon's per-port counters
    // answer); a reading not newer than the series' last point is ignored.
    void add_port(const PortRef& port, const std::vector<CounterState>& counters, TimePoint time);
    void clear();

    const std::deque<CounterPoint>* series(const PortRef& port, const std::string& counter) const;
    std::vector<std::string> counters(const PortRef& port) const;
    size_t capacity() const { return capacity_; }

private:
    void push(const PortRef& port, const CounterState& counter, TimePoint time);

    size_t capacity_;
    TimePoint last_{};
    bool any_ = false;
    std::map<std::pair<PortRef, std::string>, std::deque<CounterPoint>> series_;
};

}  // namespace rdmadiag::gui::models
