#include "collector/sources/sysfs/legacy_counters.hpp"

#include <array>

namespace rdmadiag::sysfs {

namespace {

// The files node_exporter exports as node_infiniband_legacy_*. The unicast and multicast packet
// counters exist in counters/ only where the PMA has the extended set (unicast_xmit_packets, ...);
// on mlx4 they are here only, and take the same names.
constexpr std::array<LegacyCounter, 8> kLegacy{{
    {"port_xmit_data_64", "port_xmit_data"},
    {"port_rcv_data_64", "port_rcv_data"},
    {"port_xmit_packets_64", "port_xmit_packets"},
    {"port_rcv_packets_64", "port_rcv_packets"},
    {"port_unicast_xmit_packets", "unicast_xmit_packets"},
    {"port_unicast_rcv_packets", "unicast_rcv_packets"},
    {"port_multicast_xmit_packets", "multicast_xmit_packets"},
    {"port_multicast_rcv_packets", "multicast_rcv_packets"},
}};

}  // namespace

std::span<const LegacyCounter> legacy_counters() {
    return kLegacy;
}

std::string_view legacy_counter_name(std::string_view file) {
    for (const auto& c : kLegacy) {
        if (c.file == file) return c.counter;
    }
    return file;
}

}  // namespace rdmadiag::sysfs
