#include "collector/sources/builtin_sources.hpp"

namespace rdmadiag {

void register_builtin_sources(SourceRegistry& registry) {
    (void)registry;
}

}  // namespace rdmadiag
