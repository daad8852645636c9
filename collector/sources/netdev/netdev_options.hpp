#pragma once
// The options of the "netdev" source, declared for the registry, the flags, the config file and
// the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::netdev {

std::span<const sources::OptionSpec> netdev_options();

}  // namespace rdmadiag::netdev
