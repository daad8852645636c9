#pragma once
// What each IPoIB interface's carrier-change count was at each inventory, so the engine can tell
// whether the kernel restarted the interface (a carrier bounce) around a P_Key change, even when
// the bounce came and went between two readings.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>

#include "collector/common/time.hpp"
#include "collector/model/consumer.hpp"

namespace rdmadiag::engine::consumers {

class CarrierHistory {
public:
    enum class Restart { seen, not_seen, unknown };

    // Keeps the reading of an IPoIB interface that reports its count.
    void record(const std::string& device, const Consumer& ipoib, TimePoint when);
    // Whether the count rose after `since`: seen; not_seen when it did not, judged from a reading
    // at or before `since`, or failing that one before `seen` (the moment the change was seen: a
    // restart it causes comes after); unknown when the interface was first read after `seen`, or
    // reports no count.
    Restart restarted_after(const std::string& device, const std::string& name, TimePoint since,
                            TimePoint seen) const;
    // Forgets interfaces of `device` not in `names` (deleted children).
    void keep_only(const std::string& device, const std::vector<std::string>& names);

private:
    static constexpr size_t kReadings = 32;
    std::map<std::pair<std::string, std::string>, std::deque<std::pair<TimePoint, uint32_t>>>
        readings_;
};

}  // namespace rdmadiag::engine::consumers
