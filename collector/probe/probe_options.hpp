#pragma once
// The options of the "probe" source (probe.*), declared for the registry, the flags, the config
// file and the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::probe {

std::span<const sources::OptionSpec> probe_options();

}  // namespace rdmadiag::probe
