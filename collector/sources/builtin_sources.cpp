#include "collector/sources/builtin_sources.hpp"

#include "collector/probe/probe_source.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "collector/sources/netlink/netlink_source.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#if RDMADIAG_HAVE_VERBS_SOURCE
#include "collector/sources/verbs/verbs_source.hpp"
#endif
#ifdef RDMADIAG_HAVE_MAD_SOURCE
#include "collector/sources/mad/mad_source.hpp"
#endif
#include "collector/sources/tracefs/tracefs_source.hpp"

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
    registry.add(tracefs_source_entry());
    registry.add(netlink_source_entry());
    registry.add(probe_source_entry());
}

}  // namespace rdmadiag
