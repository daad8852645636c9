#include "collector/sources/builtin_sources.hpp"

#include "collector/sim/simulated_fabric.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#if RDMADIAG_HAVE_VERBS_SOURCE
#include "collector/sources/verbs/verbs_source.hpp"
#endif
#ifdef RDMADIAG_HAVE_MAD_SOURCE
#include "collector/sources/mad/mad_source.hpp"
#endif

namespace rdmadiag {

void register_builtin_sources(SourceRegistry& registry) {
    registry.add({"sysfs", "Devices, ports, P_Key tables and counters from /sys/class/infiniband",
                  true,
                  [](const SourceSettings& s) { return make_sysfs_source(s); }});
#if RDMADIAG_HAVE_VERBS_SOURCE
    registry.add({"verbs", "Async events of every verbs device (PKEY_CHANGE, PORT_ERR, ...)", true,
                  [](const SourceSettings& s) { return make_verbs_source(s); }});
#endif
    registry.add({"sim", "The built-in simulated fabric, playing a scenario", false,
                  [](const SourceSettings& s) { return make_sim_source(s); }});
#ifdef RDMADIAG_HAVE_MAD_SOURCE
    registry.add({"mad", "P_Key tables, PortInfo and PMA counters over MADs (libibumad), local or subnet",
                  false, [](const SourceSettings& s) { return make_mad_source(s); }});
#endif
}

}  // namespace rdmadiag
