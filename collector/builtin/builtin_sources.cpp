#include "collector/builtin/builtin_sources.hpp"

#include "collector/probe/probe_source.hpp"
#include "collector/sim/simulated_fabric.hpp"
#include "collector/sources/consumers/consumers_source.hpp"
#include "collector/sources/netdev/netdev_source.hpp"
#include "collector/sources/netlink/hw_counter_reader.hpp"
#include "collector/sources/netlink/netlink_source.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"
#include "collector/sources/sysfs/sysfs_options.hpp"
#include "collector/sources/sysfs/sysfs_reader.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#if RDMADIAG_HAVE_VERBS_SOURCE
#include "collector/sources/verbs/verbs_options.hpp"
#include "collector/sources/verbs/verbs_source.hpp"
#endif
#ifdef RDMADIAG_HAVE_MAD_SOURCE
#include "collector/sources/mad/local_pma_reader.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"
#endif
#include "collector/sources/tracefs/tracefs_source.hpp"

namespace rdmadiag::builtin {

namespace {

// The sysfs source, reading hw_counters/ through RDMA netlink and counters/ through the local
// PMA where its root is the kernel's sysfs (sysfs.counters=auto).
Result<std::unique_ptr<sources::Source>> make_sysfs(const sources::SourceSettings& s) {
    sysfs::CounterReaders readers;
    if (sysfs::counter_methods_wanted(s)) {
        readers.hw = std::make_unique<netlink::NetlinkHwCounterReader>();
#ifdef RDMADIAG_HAVE_MAD_SOURCE
        readers.pma = std::make_unique<mad::LocalPmaReader>(
            [](const std::string& device,
               uint32_t port) -> Result<std::unique_ptr<mad::MadTransport>> {
                auto t = RDMADIAG_TRY(
                    mad::UmadTransport::open_one(device, static_cast<int>(port), mad::Agent::pma));
                return std::unique_ptr<mad::MadTransport>(std::move(t));
            });
#endif
    }
    return sysfs::make_sysfs_source(s, std::move(readers));
}

// A source that reads this machine's rtnetlink and RDMA netlink (netdev, consumers) where the
// sysfs source reads a tree: what it reads describes this machine's ports, which a fixture tree
// or a copy does not hold.
sources::SourceEntry machine_only(sources::SourceEntry entry, std::string what) {
    entry.factory =
        [make = entry.factory, what = std::move(what)](
            const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        if (!sysfs::is_mounted_sysfs(s.sysfs_root))
            return make_error("not used with --path.sysfs: " + what);
        return make(s);
    };
    return entry;
}

}  // namespace

void register_builtin_sources(sources::SourceRegistry& registry) {
    registry.add({"sysfs", "Devices, ports, P_Key tables and counters from /sys/class/infiniband",
                  true, make_sysfs, sysfs::sysfs_options()});
#if RDMADIAG_HAVE_VERBS_SOURCE
    registry.add({"verbs", "Async events of every verbs device (PKEY_CHANGE, PORT_ERR, ...)", true,
                  [](const sources::SourceSettings& s) { return verbs::make_verbs_source(s); },
                  verbs::verbs_options()});
#endif
    registry.add({"sim", "The built-in simulated fabric, playing a scenario", false,
                  [](const sources::SourceSettings& s) { return sim::make_sim_source(s); }});
#ifdef RDMADIAG_HAVE_MAD_SOURCE
    registry.add({"mad",
                  "P_Key tables, PortInfo and PMA counters over MADs (libibumad), local or subnet",
                  false, [](const sources::SourceSettings& s) { return mad::make_mad_source(s); },
                  mad::mad_options()});
#endif
    registry.add(tracefs::tracefs_source_entry());
    registry.add(netlink::netlink_source_entry());
    registry.add(
        machine_only(netdev::netdev_source_entry(), "rtnetlink describes this machine's netdevs"));
    registry.add(machine_only(consumers::consumers_source_entry(),
                              "netlink describes this machine's consumers"));
    registry.add(probe::probe_source_entry());
    registry.add(partitions_conf::partitions_source_entry());
}

}  // namespace rdmadiag::builtin
