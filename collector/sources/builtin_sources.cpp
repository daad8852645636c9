#include "collector/sources/builtin_sources.hpp"

#include "collector/sim/simulated_fabric.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"

namespace rdmadiag {

void register_builtin_sources(SourceRegistry& registry) {
    registry.add({"sysfs", "Devices, ports, P_Key tables and counters from /sys/class/infiniband",
                  true,
                  [](const SourceSettings& s) { return make_sysfs_source(s); }});
    registry.add({"sim", "The built-in simulated fabric, playing a scenario", false,
                  [](const SourceSettings& s) { return make_sim_source(s); }});
}

}  // namespace rdmadiag
