#pragma once
// The options of the "verbs" source, declared for the registry, the flags, the config file and
// the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::verbs {

std::span<const sources::OptionSpec> verbs_options();

}  // namespace rdmadiag::verbs
