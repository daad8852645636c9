#pragma once
// What a sweep asks of each node and port it found, one function per kind of request. Each adds
// that kind's MADs for one node or port to a batch (none when the kind does not apply there) and
// a handler that stores the decoded answer, or the error, on that node or port. The node and port
// must outlive the batch's run. The sweep decides the rounds and which kinds each one carries.

#include <cstdint>

#include "collector/sources/mad/mad_batch.hpp"
#include "collector/sources/mad/subnet_reading.hpp"

namespace rdmadiag::mad {

// SwitchInfo of a switch: its external ports' P_Key table size.
void add_switch_info(MadBatch& batch, NodeReading& node);
// NodeDescription, when discovery did not already bring it.
void add_node_description(MadBatch& batch, NodeReading& node);
// PortInfo of one port.
void add_port_info(MadBatch& batch, PortReading& port);
// Mellanox's ExtendedPortInfo of a linked external port that PortInfo says runs at QDR, on a node
// that has the attribute (has_mlnx_ext_port_info): whether the link is FDR10.
void add_mlnx_ext_port_info(MadBatch& batch, const NodeReading& node, PortReading& port);
// PMA ClassPortInfo of a node with a PMA LID: which counters its ports can give.
void add_pma_class_port_info(MadBatch& batch, NodeReading& node);

// Every P_KeyTable block of a port whose table is reachable. The table (port.sma_pkeys) is sized
// now; a block that does not answer leaves its indexes in port.sma_unreadable.
void add_pkey_blocks(MadBatch& batch, const NodeReading& node, PortReading& port);
// PortCounters of a port with a PMA (not a switch's port 0).
void add_port_counters(MadBatch& batch, const NodeReading& node, PortReading& port);
// PortCountersExtended, when the node's ClassPortInfo says it has them. Added after
// add_port_counters, so that its 64-bit values replace the 32-bit ones.
void add_port_counters_ext(MadBatch& batch, const NodeReading& node, PortReading& port);
// The SM's view of a port's table: one SA PKeyTableRecord Get per block of port.sma_pkeys
// (add_pkey_blocks sized it). Any block that fails leaves the port with no SM view at all.
void add_sm_pkey_records(MadBatch& batch, const NodeReading& node, PortReading& port,
                         uint16_t sm_lid, uint64_t sm_key);

// Every GUIDInfo block of a port with GIDs whose SMA is reachable (PortInfo.GUIDCap entries):
// its alias GUIDs. The table (port.guid_table->sma) is sized now; a block that does not answer
// leaves its indexes in sma_unreadable.
void add_guid_blocks(MadBatch& batch, const NodeReading& node, PortReading& port);
// The SM's view of a port's GIDs: an SA PortInfoRecord Get for its subnet prefix and one
// GUIDInfoRecord Get per block of the port's GUIDCap (PortInfo, read before). A PortInfoRecord
// that fails leaves the port with no SM view; a GUIDInfoRecord that fails, its indexes unreadable.
void add_sm_gid_records(MadBatch& batch, const NodeReading& node, PortReading& port,
                        uint16_t sm_lid, uint64_t sm_key);

}  // namespace rdmadiag::mad
