#pragma once
// The settings of the consumer.* rules.

#include <chrono>

#include "collector/common/time.hpp"

namespace rdmadiag::engine::consumers {

struct ConsumerRuleSettings {
    // How long the kernel's IPoIB restart may take after a key moved.
    Duration restart_bound = std::chrono::seconds(60);
    // A restart up to this long before the engine saw the change counts too: without an event the
    // table is read on a period (10s by default), so the change came up to that much earlier.
    Duration change_lead = std::chrono::seconds(30);
    // How long after a change its consumer.partition_changed and consumer.index_moved stay.
    Duration change_window = std::chrono::hours(1);
};

}  // namespace rdmadiag::engine::consumers
