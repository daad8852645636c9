#pragma once
// The options of the "partitions" source (partitions.*), declared for the registry, the flags
// (--partitions.conf, --partitions.sm-port-guid), the config file's partitions: section and the
// man page's list.

#include <span>

#include "collector/sources/source_options.hpp"

namespace rdmadiag::partitions_conf {

std::span<const sources::OptionSpec> partitions_options();

}  // namespace rdmadiag::partitions_conf
