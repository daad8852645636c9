#pragma once
// Grace periods of the GID coherence rules. Each is a command-line flag; the defaults are
// documented in docs/findings.md.

#include <chrono>
#include <cstddef>

#include "collector/common/time.hpp"

namespace rdmadiag::engine::gid {

struct GidSettings {
    // How long the kernel's GID cache may differ from the port (or, on RoCE, from the netdev's
    // addresses) before it is called stale. The kernel follows a GID_CHANGE within milliseconds;
    // the cache is read with the tables (10 s) and the port at its sweep's interval.
    Duration cache_grace = std::chrono::seconds(30);
    // How long ports of one subnet may disagree on the prefix (the SM programs them one by one).
    Duration prefix_grace = std::chrono::seconds(60);
    // A view not read back for this long no longer takes part in any comparison.
    Duration view_max_age = std::chrono::minutes(10);
    // Ports named in a finding about many ports.
    size_t examples = 8;
};

}  // namespace rdmadiag::engine::gid
