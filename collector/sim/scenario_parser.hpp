#pragma once
// Reads the scenario text format (docs/scenarios.md) into a Scenario. Pure: text in, value out.
// Every problem is an error that names its place, "LINE:COLUMN: what is wrong"; the timeline is
// also played once against the declared fabric, so an edit of a key that is not in the table at
// that moment is reported with the line of its step.

#include <string_view>

#include "collector/common/result.hpp"
#include "collector/sim/scenario.hpp"

namespace rdmadiag::sim {

// How long a scenario without an `end` line runs after its last effect.
constexpr Duration kDefaultTail = std::chrono::seconds(30);

Result<Scenario> parse_scenario(std::string_view text);

}  // namespace rdmadiag::sim
