#pragma once
// The options of the "sysfs" source (sysfs.*), declared for the registry, the flags, the config
// file and the man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::sysfs {

std::span<const sources::OptionSpec> sysfs_options();

}  // namespace rdmadiag::sysfs
