#pragma once

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::builtin {

// Registers every source this build has. Sources whose dependencies were left out at configure
// time are not registered.
void register_builtin_sources(sources::SourceRegistry& registry);

}  // namespace rdmadiag::builtin
