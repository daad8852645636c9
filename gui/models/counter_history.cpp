#include "gui/models/counter_history.hpp"

namespace rdmadiag::gui::models {

void CounterHistory::add(const Snapshot& snapshot) {
    if (any_ && snapshot.time <= last_) return;
    any_ = true;
    last_ = snapshot.time;
    for (const auto& d : snapshot.devices) {
        for (const auto& p : d.ports) {
            for (const auto& c : p.counters) push(p.ref, c, snapshot.time);
        }
    }
}

void CounterHistory::add_port(const PortRef& port, const std::vector<CounterState>& counters,
                              TimePoint time) {
    for (const auto& c : counters) {
        const auto it = series_.find({port, c.name});
        if (it != series_.end() && !it->second.empty() && it->second.back().time >= time) continue;
        push(port, c, time);
    }
}

void CounterHistory::push(const PortRef& port, const CounterState& c, TimePoint time) {
    auto& s = series_[{port, c.name}];
    s.push_back({time, c.total, c.raw});
    while (s.size() > capacity_) s.pop_front();
}

void CounterHistory::clear() {
    series_.clear();
    any_ = false;
    last_ = {};
}

const std::deque<CounterPoint>* CounterHistory::series(const PortRef& port,
                                                       const std::string& counter) const {
    const auto it = series_.find({port, counter});
    return it == series_.end() ? nullptr : &it->second;
}

std::vector<std::string> CounterHistory::counters(const PortRef& port) const {
    std::vector<std::string> out;
    for (auto it = series_.lower_bound({port, std::string()});
         it != series_.end() && it->first.first == port; ++it) {
        out.push_back(it->first.second);
    }
    return out;
}

}  // namespace rdmadiag::gui::models
