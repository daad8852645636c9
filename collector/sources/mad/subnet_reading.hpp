#pragma once
// What one MAD sweep read, as plain data: the nodes it found, how each is reached, and per port
// its PortInfo, P_Key table (SMA and, with an SM_Key, the SM's records) and PMA counters. Each
// value that could not be read is an error on that port, not a hole in the sweep.

#include <cstdint>
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
    std::optional<std::vector<uint16_t>> sma_pkeys;
    std::vector<uint16_t> sma_unreadable;  // indexes of blocks that did not answer
    std::optional<std::vector<uint16_t>> sm_pkeys;
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

// Whether any port of the node answered PortInfo; a node that did not is gone, rebooting, or at a
// LID the SM moved.
bool node_answered(const NodeReading& node);

struct SubnetReading {
    std::string discovery;  // "sa", "directed-route", "local"
    std::vector<NodeReading> nodes;
    std::vector<std::string> errors;  // sweep-wide (discovery fell back, SA refused, ...)
};

}  // namespace rdmadiag::mad
