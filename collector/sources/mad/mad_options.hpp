#pragma once
// The options of the "mad" source (mad.*), declared for the registry, the flags, the config file
// and the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::mad {

std::span<const sources::OptionSpec> mad_options();

}  // namespace rdmadiag::mad
