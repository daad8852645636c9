#pragma once
// Decoders for the SMP attributes rdmadiag reads (IBA 14.2.5): NodeInfo, PortInfo, SwitchInfo,
// P_KeyTable, GUIDInfo and NodeDescription. Each takes the 64-byte attribute data and returns a
// plain struct.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"

namespace rdmadiag::mad {

enum class NodeType : uint8_t { ca = 1, switch_node = 2, router = 3 };

struct NodeInfo {
    uint8_t node_type = 0;
    uint8_t num_ports = 0;
    uint64_t sys_image_guid = 0;
    uint64_t node_guid = 0;
    uint64_t port_guid = 0;
    uint16_t partition_cap = 0;  // P_Key table size of a CA's or router's ports
    uint16_t device_id = 0;
    uint32_t revision = 0;
    uint8_t local_port_num = 0;
    uint32_t vendor_id = 0;
    bool operator==(const NodeInfo&) const = default;
};

struct PortInfo {
    uint64_t m_key = 0;
    uint64_t gid_prefix = 0;
    uint16_t lid = 0;
    uint16_t master_sm_lid = 0;
    uint32_t capability_mask = 0;
    uint8_t local_port_num = 0;
    uint8_t link_width_active = 0;
    uint8_t link_speed_supported = 0;
    uint8_t port_state = 0;  // 1 down, 2 init, 3 armed, 4 active
    uint8_t phys_state = 0;  // 5 LinkUp
    uint8_t lmc = 0;
    uint8_t link_speed_active = 0;
    uint8_t neighbor_mtu = 0;
    uint8_t master_sm_sl = 0;
    bool partition_enforcement_inbound = false;
    bool partition_enforcement_outbound = false;
    uint16_t m_key_violations = 0;
    uint16_t p_key_violations = 0;
    uint16_t q_key_violations = 0;
    uint8_t guid_cap = 0;  // GUIDInfo entries the port holds (its GID table's size on IB)
    uint8_t link_speed_ext_active = 0;
    bool operator==(const PortInfo&) const = default;
};

struct SwitchInfo {
    uint16_t linear_fdb_cap = 0;
    uint16_t linear_fdb_top = 0;
    uint16_t lids_per_port = 0;
    uint16_t partition_enforcement_cap = 0;  // P_Key table size of its external ports
    bool operator==(const SwitchInfo&) const = default;
};

// Mellanox's vendor-specific ExtendedPortInfo. FDR10 (10.3125 Gb/s a lane with 64b/66b coding) is
// not an IBA speed: PortInfo reports such a link as QDR, and only this attribute's
// LinkSpeedActive (byte 15; bit 0 FDR10) tells them apart. ibnetdiscover and iblinkinfo read it
// the same way.
struct MlnxExtPortInfo {
    uint8_t link_speed_active = 0;
    bool fdr10() const { return (link_speed_active & 0x01) != 0; }
    bool operator==(const MlnxExtPortInfo&) const = default;
};

// Whether a node answers MlnxExtPortInfo, by its NodeInfo: the device IDs infiniband-diags 44
// asks it of (SwitchX and Switch-IB: 0xc738-0xc73b, 0xcb20, 0xcf08; ConnectX-3 to ConnectX-4:
// 0x1003-0x1017; and Bull's (vendor 0x119f) builds of them). Asking any other node would cost a
// MAD that fails.
bool has_mlnx_ext_port_info(uint32_t vendor_id, uint16_t device_id);

constexpr size_t kMlnxExtPortInfoSize = 16;
constexpr size_t kPKeyBlockSize = 32;
constexpr size_t kNodeInfoSize = 40;
constexpr size_t kPortInfoSize = 64;
constexpr size_t kSwitchInfoSize = 17;
constexpr size_t kPKeyTableSize = 64;
constexpr size_t kGuidBlockSize = 8;
constexpr size_t kGuidInfoSize = 64;

// One GUIDInfo block: 8 GUIDs, index 8 * block + i of the port's GUID table.
using GuidBlock = std::array<uint64_t, kGuidBlockSize>;

Result<NodeInfo> decode_node_info(Bytes data);
Result<PortInfo> decode_port_info(Bytes data);
Result<SwitchInfo> decode_switch_info(Bytes data);
Result<MlnxExtPortInfo> decode_mlnx_ext_port_info(Bytes data);
Result<std::vector<uint16_t>> decode_pkey_block(Bytes data);  // 32 raw keys
Result<GuidBlock> decode_guid_block(Bytes data);
Result<std::string> decode_node_description(Bytes data);  // up to 64 bytes, NUL padded

// P_KeyTable attribute modifier: block number, and for a switch's external port the port number
// in bits 16..23. CAs answer for the port the SMP arrived on and ignore the port bits.
constexpr uint32_t pkey_table_modifier(uint16_t block, uint8_t switch_port) {
    return uint32_t{block} | (uint32_t{switch_port} << 16);
}
constexpr uint16_t pkey_blocks(uint16_t table_size) {
    return static_cast<uint16_t>((table_size + kPKeyBlockSize - 1) / kPKeyBlockSize);
}

// The GUIDInfo blocks that hold a port's `guid_cap` GUIDs. GUIDInfo's attribute modifier is the
// block number alone: a CA answers for the port the SMP arrived on, a switch has GUIDs on port 0.
constexpr uint16_t guid_blocks(uint8_t guid_cap) {
    return static_cast<uint16_t>((guid_cap + kGuidBlockSize - 1) / kGuidBlockSize);
}

std::string_view port_state_name(uint8_t state);  // "Down", "Init", "Armed", "Active"
constexpr uint8_t kPhysLinkUp = 5;                // PortPhysicalState LinkUp
std::string_view phys_state_name(uint8_t phys);   // "Polling", "LinkUp", ...

}  // namespace rdmadiag::mad
