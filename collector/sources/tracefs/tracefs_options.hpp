#pragma once
// The options of the "tracefs" source (tracefs.*), declared for the registry, the flags, the
// config file and the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::tracefs {

std::span<const sources::OptionSpec> tracefs_options();

}  // namespace rdmadiag::tracefs
