#pragma once
// What a Prometheus (or VictoriaMetrics) that scrapes several rdmadiag daemons says about them:
// per host (the scrape's instance label) whether the scrape is up, which of the daemon's sources
// are up, and its active findings by rule, severity and subject (rdmadiag_findings).

#include <optional>
#include <string>
#include <vector>

#include "collector/model/finding.hpp"

namespace rdmadiag::gui::models {

struct FleetFinding {
    std::string rule;
    Severity severity = Severity::warning;
    std::string device;
    std::optional<uint32_t> port;
    int count = 0;  // active findings of this rule on this subject
    bool operator==(const FleetFinding&) const = default;
};

struct FleetSource {
    std::string name;
    bool up = false;
    bool operator==(const FleetSource&) const = default;
};

struct FleetHost {
    std::string instance;  // "10.0.0.5:9857": also where its daemon answers
    std::string job;
    std::optional<bool> up;  // the scrape's own `up`; unknown when Prometheus has no such target
    std::vector<FleetSource> sources;
    std::vector<FleetFinding> findings;  // active ones (count > 0), most severe first
    bool operator==(const FleetHost&) const = default;
};

struct FleetState {
    std::vector<FleetHost> hosts;  // by instance
    bool operator==(const FleetState&) const = default;
};

}  // namespace rdmadiag::gui::models
