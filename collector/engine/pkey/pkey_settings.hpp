#pragma once
// Grace periods and windows of the P_Key coherence rules. Every one is a command-line flag; the
// defaults are documented in docs/findings.md.

#include <chrono>
#include <cstddef>

#include "collector/common/time.hpp"

namespace rdmadiag::engine::pkey {

struct PKeySettings {
    // How long the cache may differ from the device before it is called stale. The kernel reloads
    // its cache within milliseconds of PKEY_CHANGE; polling adds up to one P_Key interval.
    Duration cache_grace = std::chrono::seconds(5);
    // After a PKEY_CHANGE, how long to wait for the re-read of the table before reloading the cache
    // from the last table read.
    Duration reload_wait = std::chrono::seconds(2);
    // How long device, SMA and SM views may disagree (the SM programs ports one MAD at a time).
    Duration divergence_grace = std::chrono::seconds(30);
    // A view not read back for this long no longer takes part in the divergence check.
    Duration view_max_age = std::chrono::minutes(10);
    // A violation counter that rises within this window after a change is tied to the change; the
    // finding clears after the counter stays flat for as long.
    Duration violation_window = std::chrono::seconds(60);
    // How long the change findings (index moved, removed, membership changed, spurious event)
    // stay active after the change.
    Duration change_hold = std::chrono::minutes(10);
    // pkey.flapping: at least this many changes of one port's table within the window.
    Duration flap_window = std::chrono::minutes(5);
    size_t flap_threshold = 4;
    // Table changes the snapshot keeps (all ports together).
    size_t change_history = 256;
};

}  // namespace rdmadiag::engine::pkey
