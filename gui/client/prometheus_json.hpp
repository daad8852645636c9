#pragma once
// Reading Prometheus' instant-query answers (GET /api/v1/query, the same in VictoriaMetrics) and
// putting the three the fleet view asks for together into one FleetState.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "gui/models/fleet_state.hpp"

namespace rdmadiag::gui::client {

struct PromSample {
    std::map<std::string, std::string> labels;
    double value = 0;
};

// The samples of a `resultType: vector` answer, or why the answer is not one (Prometheus' own
// error text when it says status "error").
Result<std::vector<PromSample>> parse_prom_vector(std::string_view text);

// Hosts from rdmadiag_findings, rdmadiag_source_up and up. A host is an instance of a job that
// exports rdmadiag metrics, so that a daemon whose scrape fails (up 0, nothing else) stays listed
// while other jobs' targets do not appear.
models::FleetState make_fleet_state(const std::vector<PromSample>& findings,
                                    const std::vector<PromSample>& sources_up,
                                    const std::vector<PromSample>& up);

}  // namespace rdmadiag::gui::client
