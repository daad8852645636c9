#pragma once
// The options of the "consumers" source, declared for the registry, the flags, the config file
// and the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::consumers {

std::span<const sources::OptionSpec> consumers_options();

}  // namespace rdmadiag::consumers
