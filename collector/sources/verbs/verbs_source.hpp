#pragma once
// Builds the "verbs" source on libibverbs.

#include <memory>

#include "collector/common/result.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::verbs {

// Settings read: include_devices / exclude_devices, extra["verbs.rescan_interval"].
// A machine without devices still gets a source; it reports why it has nothing. With a sysfs
// root other than /sys (a fixture or a copied tree) it is an error: libibverbs reads the live
// system only.
Result<std::unique_ptr<sources::Source>> make_verbs_source(const sources::SourceSettings& settings);

}  // namespace rdmadiag::verbs
