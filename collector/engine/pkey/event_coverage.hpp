#pragma once
// Which ports have their async events watched, from the EventCoverage lists that sources declare
// in their SourceStatus. Only there can a cache that missed a PKEY_CHANGE be told from one that
// simply never heard of it.

#include <map>
#include <string>
#include <vector>

#include "collector/model/observation.hpp"

namespace rdmadiag::engine::pkey {

class EventCoverageMap {
public:
    // Applies one source's status: its list replaces what it declared before; a source that is
    // down watches nothing. Returns true when the coverage changed.
    bool apply(const std::string& source, const SourceStatus& status);

    bool watched(const PortRef& port) const;
    // The sources that watch this port, comma separated (for evidence).
    std::string watchers(const PortRef& port) const;

private:
    std::map<std::string, std::vector<EventCoverage>, std::less<>> by_source_;
};

}  // namespace rdmadiag::engine::pkey
