#pragma once
// Whether a snapshot can say anything about MR health, and the one line status and check print
// about it. MR states move on completions, which only tracefs (kernel ULPs), the probe
// (applications) or a simulated/replayed story deliver; netlink alone lists live MRs but sees no
// completion, so it cannot tell a stuck MR from a healthy one.

#include <string>
#include <vector>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

struct MrHealthCoverage {
    bool judged = false;                  // some source that sees MR completions is up
    std::vector<std::string> from;        // the MR sources that are up
    std::vector<std::string> not_judged;  // "tracefs: reason", "probe: ..." when not judged
    bool netlink_up = false;
};

MrHealthCoverage mr_health_coverage(const Snapshot& snap);

// "MR health: 2 MRs: 1 valid, 1 stuck (from tracefs, netlink)", or "MR health: not judged, no
// source sees MR completions:" and one indented "source: reason" line each.
std::string render_mr_health_line(const Snapshot& snap);

}  // namespace rdmadiag::cli::render
