#include "collector/sources/mad/smp_attributes.hpp"

namespace rdmadiag::mad {

namespace {

Result<void> need(Bytes data, size_t size, std::string_view what) {
    if (data.size() < size) {
        return make_error(std::string(what) + " needs " + std::to_string(size) + " bytes, got " +
                          std::to_string(data.size()));
    }
    return {};
}

}  // namespace

Result<NodeInfo> decode_node_info(Bytes d) {
    RDMADIAG_TRY(need(d, kNodeInfoSize, "NodeInfo"));
    NodeInfo n;
    n.node_type = get8(d, 2);
    n.num_ports = get8(d, 3);
    n.sys_image_guid = get64(d, 4);
    n.node_guid = get64(d, 12);
    n.port_guid = get64(d, 20);
    n.partition_cap = get16(d, 28);
    n.device_id = get16(d, 30);
    n.revision = get32(d, 32);
    n.local_port_num = get8(d, 36);
    n.vendor_id = get24(d, 37);
    if (n.node_type < 1 || n.node_type > 3) {
        return make_error("NodeInfo has unknown node type " + std::to_string(n.node_type));
    }
    return n;
}

Result<MlnxExtPortInfo> decode_mlnx_ext_port_info(Bytes d) {
    RDMADIAG_TRY(need(d, kMlnxExtPortInfoSize, "MlnxExtPortInfo"));
    return MlnxExtPortInfo{get8(d, 15)};
}

bool has_mlnx_ext_port_info(uint32_t vendor_id, uint16_t device_id) {
    const uint16_t d = device_id;
    if ((d >= 0xc738 && d <= 0xc73b) || d == 0xcb20 || d == 0xcf08) return true;  // switches
    if (d >= 0x1003 && d <= 0x1017) return true;                                  // CAs
    if (vendor_id != 0x119f) return false;
    // Bull's SwitchX, Switch-IB, ConnectX-3, Connect-IB and ConnectX-4.
    for (uint16_t bull : {0x1b02, 0x1b50, 0x1ba0, 0x1b33, 0x1b73, 0x1b40, 0x1b41, 0x1b60, 0x1b61,
                          0x1b83, 0x1b93, 0x1b94, 0x1bb4, 0x1bb5, 0x1bc4}) {
        if (d == bull) return true;
    }
    return d >= 0x1bd0 && d <= 0x1bd5;
}

Result<PortInfo> decode_port_info(Bytes d) {
    RDMADIAG_TRY(need(d, kPortInfoSize, "PortInfo"));
    PortInfo p;
    p.m_key = get64(d, 0);
    p.gid_prefix = get64(d, 8);
    p.lid = get16(d, 16);
    p.master_sm_lid = get16(d, 18);
    p.capability_mask = get32(d, 20);
    p.local_port_num = get8(d, 28);
    p.link_width_active = get8(d, 31);
    p.link_speed_supported = get_bits(d, 32, 4, 4);
    p.port_state = get_bits(d, 32, 0, 4);
    p.phys_state = get_bits(d, 33, 4, 4);
    p.lmc = get_bits(d, 34, 0, 3);
    p.link_speed_active = get_bits(d, 35, 4, 4);
    p.neighbor_mtu = get_bits(d, 36, 4, 4);
    p.master_sm_sl = get_bits(d, 36, 0, 4);
    p.partition_enforcement_inbound = get_bits(d, 43, 3, 1) != 0;
    p.partition_enforcement_outbound = get_bits(d, 43, 2, 1) != 0;
    p.m_key_violations = get16(d, 44);
    p.p_key_violations = get16(d, 46);
    p.q_key_violations = get16(d, 48);
    p.guid_cap = get8(d, 50);
    p.link_speed_ext_active = get_bits(d, 62, 4, 4);
    return p;
}

Result<SwitchInfo> decode_switch_info(Bytes d) {
    RDMADIAG_TRY(need(d, kSwitchInfoSize, "SwitchInfo"));
    SwitchInfo s;
    s.linear_fdb_cap = get16(d, 0);
    s.linear_fdb_top = get16(d, 6);
    s.lids_per_port = get16(d, 12);
    s.partition_enforcement_cap = get16(d, 14);
    return s;
}

Result<std::vector<uint16_t>> decode_pkey_block(Bytes d) {
    RDMADIAG_TRY(need(d, kPKeyTableSize, "P_KeyTable block"));
    std::vector<uint16_t> keys(kPKeyBlockSize);
    for (size_t i = 0; i < kPKeyBlockSize; ++i) keys[i] = get16(d, 2 * i);
    return keys;
}

Result<GuidBlock> decode_guid_block(Bytes d) {
    RDMADIAG_TRY(need(d, kGuidInfoSize, "GUIDInfo block"));
    GuidBlock guids{};
    for (size_t i = 0; i < kGuidBlockSize; ++i) guids[i] = get64(d, 8 * i);
    return guids;
}

Result<std::string> decode_node_description(Bytes d) {
    RDMADIAG_TRY(need(d, 64, "NodeDescription"));
    std::string text;
    for (size_t i = 0; i < 64 && d[i] != 0; ++i) {
        char c = static_cast<char>(d[i]);
        text.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return text;
}

std::string_view port_state_name(uint8_t state) {
    switch (state) {
        case 1:
            return "Down";
        case 2:
            return "Init";
        case 3:
            return "Armed";
        case 4:
            return "Active";
        default:
            return "NoChange";
    }
}

std::string_view phys_state_name(uint8_t phys) {
    switch (phys) {
        case 1:
            return "Sleep";
        case 2:
            return "Polling";
        case 3:
            return "Disabled";
        case 4:
            return "PortConfigurationTraining";
        case 5:
            return "LinkUp";
        case 6:
            return "LinkErrorRecovery";
        case 7:
            return "PhyTest";
        default:
            return "NoStateChange";
    }
}

}  // namespace rdmadiag::mad
