#pragma once
// What one MAD sweep read, as plain data: the nodes it found, how each is reached, and per port
// its PortInfo, P_Key table (SMA and, with an SM_Key, the SM's records), GUIDs and PMA counters.
// Each value that could not be read is an error on that port, not a hole in the sweep.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/pma_attributes.hpp"
#include "collector/sources/mad/smp_attributes.hpp"

namespace rdmadiag::mad {

// How an SMP reaches a node's SMA: LID routed, or directed route when dr is set.
struct Route {
    bool dr = false;
    DrPath path;
    uint16_t lid = 0;
    bool operator==(const Route&) const = default;
    std::string describe() const;  // "lid 5", "dr 0,1,11"
};

// The port at the other end of a port's link.
struct PortPeer {
    uint64_t node_guid = 0;
    uint8_t port = 0;
    bool operator==(const PortPeer&) const = default;
};

// What a sweep read of a port's GUIDs beyond PortInfo and the port GUID, which is enough for GID 0
// (PortInfo.GidPrefix + the port GUID) and all a subnet sweep reads. The local scope reads the
// alias GUIDs too (GUIDInfo), and with an SM_Key what the SA holds for the port. By index; 0: no
// GUID there.
struct PortGuidTable {
    std::vector<uint64_t> sma;             // GUIDInfo, PortInfo.GUIDCap entries
    std::vector<uint16_t> sma_unreadable;  // indexes of blocks that did not answer
    std::optional<uint64_t> sm_prefix;     // the SA's PortInfoRecord
    std::vector<uint64_t> sm;              // the SA's GUIDInfoRecords, sized like `sma`
    std::vector<uint16_t> sm_unreadable;
};

struct PortReading {
    uint8_t port = 0;
    Route route;           // for this port's SMPs (a CA answers P_KeyTable for the arrival port)
    uint16_t pma_lid = 0;  // 0: not reachable by GMPs (no LID)
    // A CA's or router's port GUID: the PortGUID of a NodeInfo that arrived through this port
    // (what partitions.conf names a port by). A switch's ports share port 0's, NodeInfo's own.
    std::optional<uint64_t> guid;
    bool table_reachable = true;  // false: `route` ends at another port's SMA view
    // The link as the pass that made this topology saw it (LinkUp or not); unknown before any.
    std::optional<bool> link_up_before;
    std::optional<PortPeer> peer;  // found by discovery: the SA's LinkRecords, or the walk
    std::optional<PortInfo> info;
    // Read where a Mellanox node's link reads QDR in PortInfo: whether it is FDR10.
    std::optional<MlnxExtPortInfo> mlnx_ext;
    std::optional<std::vector<uint16_t>> sma_pkeys;
    std::vector<uint16_t> sma_unreadable;  // indexes of blocks that did not answer
    std::optional<std::vector<uint16_t>> sm_pkeys;
    // Held by pointer so the ports of a subnet sweep, which never have any, pay one pointer. Made
    // by the pass that reads them and written only while its batch runs; a copy of the reading
    // (topology_of makes none) shares what is by then read.
    std::shared_ptr<PortGuidTable> guid_table;
    std::vector<PmaCounter> counters;
    std::vector<std::string> errors;  // "P_KeyTable block 1: no answer ..."
};

struct NodeReading {
    NodeInfo info;
    std::string description;
    Route route;  // node-wide SMPs (SwitchInfo)
    uint16_t pma_lid = 0;
    std::optional<SwitchInfo> switch_info;
    std::optional<PmaClassPortInfo> pma_info;
    std::vector<PortReading> ports;
    std::vector<std::string> errors;

    bool is_switch() const { return info.node_type == static_cast<uint8_t>(NodeType::switch_node); }
    // The LID a node is named by: its switch LID or its first CA port's LID.
    uint16_t lid() const;
};

// Whether the port has GIDs: every port of a CA or router, and a switch's port 0 (its external
// ports have none).
bool port_has_gids(const NodeReading& node, const PortReading& port);
// The port's GUID as discovery or NodeInfo told it (a switch's port 0 has NodeInfo's PortGUID);
// nullopt when no NodeInfo came through the port.
std::optional<uint64_t> known_port_guid(const NodeReading& node, const PortReading& port);

// Whether any port of the node answered PortInfo; a node that did not is gone, rebooting, or at a
// LID the SM moved.
bool node_answered(const NodeReading& node);

struct SubnetReading {
    std::string discovery;  // "sa", "directed-route", "local"
    std::vector<NodeReading> nodes;
    std::vector<std::string> errors;  // sweep-wide (discovery fell back, SA refused, ...)
};

}  // namespace rdmadiag::mad
