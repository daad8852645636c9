#pragma once
// The scenarios built into the binary (collector/sim/scenarios/*.scn, embedded at build time so an
// installed rdmadiag plays them anywhere), and loading a scenario by shipped name or file path.

#include <span>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/sim/scenario.hpp"

namespace rdmadiag::sim {

struct ShippedScenario {
    std::string_view name;  // file stem: "pkey-late-event"
    std::string_view text;
};

// In name order.
std::span<const ShippedScenario> shipped_scenarios();
const ShippedScenario* find_shipped_scenario(std::string_view name);

constexpr std::string_view kDefaultScenario = "default";

// Parses a shipped scenario; errors name it ("pkey-late-event:12:3: ...").
Result<Scenario> load_shipped_scenario(std::string_view name);

// `spec` is a shipped name, a path to a .scn file, or empty for the default. A name that is
// neither gets an error listing the shipped names.
Result<Scenario> load_scenario(std::string_view spec);

}  // namespace rdmadiag::sim
