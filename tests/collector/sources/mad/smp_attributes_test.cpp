// SMP attribute decoding on MADs captured from ibsim, cross-checked field by field against
// libibmad's field tables (an independent reading of the IBA layouts).

#include "collector/sources/mad/smp_attributes.hpp"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <vector>

#include "collector/sources/mad/mad_header.hpp"
#include "tests/collector/sources/mad/captured_mads.hpp"

namespace rdmadiag::mad {
namespace {

uint32_t ibmad(std::vector<uint8_t>& data, enum MAD_FIELDS field) {
    return mad_get_field(data.data(), 0, field);
}

std::vector<uint8_t> attribute(const std::array<uint8_t, 256>& mad) {
    return std::vector<uint8_t>(mad.begin() + 64, mad.begin() + 128);
}

TEST(SmpAttributes, PortInfoFromIbsimMatchesLibibmad) {
    auto data = attribute(captured::kPortInfoLid5Port1);
    auto pi = decode_port_info(data);
    ASSERT_TRUE(pi.ok()) << pi.error().message;
    EXPECT_EQ(pi->lid, 5);
    EXPECT_EQ(pi->lid, ibmad(data, IB_PORT_LID_F));
    EXPECT_EQ(pi->master_sm_lid, 1);
    EXPECT_EQ(pi->master_sm_lid, ibmad(data, IB_PORT_SMLID_F));
    EXPECT_EQ(pi->port_state, 4);
    EXPECT_EQ(pi->port_state, ibmad(data, IB_PORT_STATE_F));
    EXPECT_EQ(pi->phys_state, 5);
    EXPECT_EQ(pi->phys_state, ibmad(data, IB_PORT_PHYS_STATE_F));
    EXPECT_EQ(pi->lmc, ibmad(data, IB_PORT_LMC_F));
    EXPECT_EQ(pi->capability_mask, ibmad(data, IB_PORT_CAPMASK_F));
    EXPECT_EQ(pi->link_speed_active, ibmad(data, IB_PORT_LINK_SPEED_ACTIVE_F));
    EXPECT_EQ(pi->neighbor_mtu, ibmad(data, IB_PORT_NEIGHBOR_MTU_F));
    EXPECT_EQ(pi->master_sm_sl, ibmad(data, IB_PORT_SMSL_F));
    EXPECT_EQ(pi->p_key_violations, 0) << "ibsim always answers 0";
    EXPECT_EQ(pi->gid_prefix, 0xfe80000000000000ull);
}

TEST(SmpAttributes, PortInfoViolationCountersAreDecodedFromTheirOwnBytes) {
    // The captured PortInfo with the three 16-bit violation counters patched in (IBA: bytes
    // 44..49 of the attribute): P_KeyViolations 0x1234, M_Key 0x0102, Q_Key 0xfffe.
    auto data = attribute(captured::kPortInfoLid5Port1);
    data[44] = 0x01, data[45] = 0x02;
    data[46] = 0x12, data[47] = 0x34;
    data[48] = 0xff, data[49] = 0xfe;
    auto pi = decode_port_info(data);
    ASSERT_TRUE(pi.ok());
    EXPECT_EQ(pi->m_key_violations, 0x0102);
    EXPECT_EQ(pi->p_key_violations, 0x1234);
    EXPECT_EQ(pi->q_key_violations, 0xfffe);
    EXPECT_EQ(pi->m_key_violations, ibmad(data, IB_PORT_MKEY_VIOL_F));
    EXPECT_EQ(pi->p_key_violations, ibmad(data, IB_PORT_PKEY_VIOL_F));
    EXPECT_EQ(pi->q_key_violations, ibmad(data, IB_PORT_QKEY_VIOL_F));
    // Nothing else moved.
    auto clean = decode_port_info(attribute(captured::kPortInfoLid5Port1));
    ASSERT_TRUE(clean.ok());
    PortInfo expect = *clean;
    expect.m_key_violations = 0x0102;
    expect.p_key_violations = 0x1234;
    expect.q_key_violations = 0xfffe;
    EXPECT_EQ(*pi, expect);
}

TEST(SmpAttributes, PortInfoViolationsMatchLibibmadEncoder) {
    std::vector<uint8_t> data(64, 0);
    mad_set_field(data.data(), 0, IB_PORT_PKEY_VIOL_F, 7);
    mad_set_field(data.data(), 0, IB_PORT_MKEY_VIOL_F, 65535);
    mad_set_field(data.data(), 0, IB_PORT_STATE_F, 2);
    mad_set_field(data.data(), 0, IB_PORT_PHYS_STATE_F, 3);
    mad_set_field(data.data(), 0, IB_PORT_LMC_F, 2);
    auto pi = decode_port_info(data);
    ASSERT_TRUE(pi.ok());
    EXPECT_EQ(pi->p_key_violations, 7);
    EXPECT_EQ(pi->m_key_violations, 65535);
    EXPECT_EQ(pi->q_key_violations, 0);
    EXPECT_EQ(pi->port_state, 2);
    EXPECT_EQ(pi->phys_state, 3);
    EXPECT_EQ(pi->lmc, 2);
}

TEST(SmpAttributes, MlnxExtPortInfoLinkSpeedActiveMatchesLibibmadEncoder) {
    std::vector<uint8_t> data(64, 0);
    mad_set_field(data.data(), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F, 1);
    mad_set_field(data.data(), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F, 1);
    mad_set_field(data.data(), 0, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F, 1);
    auto fdr10 = decode_mlnx_ext_port_info(data);
    ASSERT_TRUE(fdr10.ok());
    EXPECT_TRUE(fdr10->fdr10());
    mad_set_field(data.data(), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F, 0);
    auto qdr = decode_mlnx_ext_port_info(data);
    ASSERT_TRUE(qdr.ok());
    EXPECT_FALSE(qdr->fdr10());
    EXPECT_FALSE(decode_mlnx_ext_port_info(std::vector<uint8_t>(15, 0)).ok()) << "truncated";
}

TEST(SmpAttributes, OnlyTheDevicesInfinibandDiagsAsksHaveMlnxExtPortInfo) {
    EXPECT_TRUE(has_mlnx_ext_port_info(0x02c9, 0xc738));   // SwitchX (SX6036)
    EXPECT_TRUE(has_mlnx_ext_port_info(0x02c9, 0xcb20));   // Switch-IB
    EXPECT_TRUE(has_mlnx_ext_port_info(0x02c9, 0x1003));   // ConnectX-3
    EXPECT_TRUE(has_mlnx_ext_port_info(0x02c9, 0x1017));   // ConnectX-5
    EXPECT_TRUE(has_mlnx_ext_port_info(0x119f, 0x1b33));   // Bull ConnectX-3
    EXPECT_TRUE(has_mlnx_ext_port_info(0x119f, 0x1bd3));   // Bull Switch-IB 2
    EXPECT_FALSE(has_mlnx_ext_port_info(0x02c9, 0x6274));  // InfiniHost III
    EXPECT_FALSE(has_mlnx_ext_port_info(0x08f1, 0x5a06));  // a Voltaire switch
    EXPECT_FALSE(has_mlnx_ext_port_info(0x02c9, 0x1b33));  // a Bull ID from another vendor
    EXPECT_FALSE(has_mlnx_ext_port_info(0x1175, 0x7322));  // QLogic
}

TEST(SmpAttributes, PartitionEnforcementBitsMatchLibibmadEncoder) {
    auto clean = attribute(captured::kPortInfoLid5Port1);
    const uint32_t oper_vls = ibmad(clean, IB_PORT_OPER_VLS_F);
    for (uint32_t inbound : {0u, 1u}) {
        for (uint32_t outbound : {0u, 1u}) {
            auto data = clean;
            mad_set_field(data.data(), 0, IB_PORT_PART_EN_INB_F, inbound);
            mad_set_field(data.data(), 0, IB_PORT_PART_EN_OUTB_F, outbound);
            auto pi = decode_port_info(data);
            ASSERT_TRUE(pi.ok());
            EXPECT_EQ(pi->partition_enforcement_inbound, inbound == 1);
            EXPECT_EQ(pi->partition_enforcement_outbound, outbound == 1);
            // The byte's other fields are not read as enforcement, nor moved by it.
            EXPECT_EQ(ibmad(data, IB_PORT_OPER_VLS_F), oper_vls);
        }
    }
}

TEST(SmpAttributes, NodeInfoOfASwitch) {
    auto data = attribute(captured::kNodeInfoSwitch1);
    auto n = decode_node_info(data);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_EQ(n->node_type, 2);
    EXPECT_EQ(n->num_ports, 12);
    EXPECT_EQ(n->node_guid, 0x200000u);
    EXPECT_EQ(n->node_type, ibmad(data, IB_NODE_TYPE_F));
    EXPECT_EQ(n->num_ports, ibmad(data, IB_NODE_NPORTS_F));
    EXPECT_EQ(n->partition_cap, ibmad(data, IB_NODE_PARTITION_CAP_F));
    EXPECT_EQ(n->local_port_num, ibmad(data, IB_NODE_LOCAL_PORT_F));
    EXPECT_EQ(n->vendor_id, ibmad(data, IB_NODE_VENDORID_F));
    EXPECT_EQ(n->device_id, ibmad(data, IB_NODE_DEVID_F));
    EXPECT_EQ(n->node_guid, mad_get_field64(data.data(), 0, IB_NODE_GUID_F));
    EXPECT_EQ(n->port_guid, mad_get_field64(data.data(), 0, IB_NODE_PORT_GUID_F));
}

TEST(SmpAttributes, NodeInfoWithUnknownTypeIsAnError) {
    auto data = attribute(captured::kNodeInfoSwitch1);
    data[2] = 9;
    EXPECT_FALSE(decode_node_info(data).ok());
}

TEST(SmpAttributes, SwitchInfoPartitionEnforcementCap) {
    auto data = attribute(captured::kSwitchInfoSwitch1);
    auto s = decode_switch_info(data);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->partition_enforcement_cap, ibmad(data, IB_SW_PARTITION_ENFORCE_CAP_F));
    EXPECT_GT(s->partition_enforcement_cap, 0);
}

TEST(SmpAttributes, PKeyBlockIs32BigEndianKeys) {
    std::vector<uint8_t> data(64, 0);
    data[0] = 0xff, data[1] = 0xff;
    data[2] = 0x80, data[3] = 0x01;
    data[62] = 0x00, data[63] = 0x02;
    auto keys = decode_pkey_block(data);
    ASSERT_TRUE(keys.ok());
    ASSERT_EQ(keys->size(), 32u);
    EXPECT_EQ((*keys)[0], 0xffff);
    EXPECT_EQ((*keys)[1], 0x8001);
    EXPECT_EQ((*keys)[2], 0x0000);
    EXPECT_EQ((*keys)[31], 0x0002);
}

TEST(SmpAttributes, GuidCapMatchesLibibmad) {
    // ibsim gives a CA port 32 GUIDs (four GUIDInfo blocks).
    auto data = attribute(captured::kPortInfoLid5Port1);
    auto pi = decode_port_info(data);
    ASSERT_TRUE(pi.ok());
    EXPECT_EQ(pi->guid_cap, 32);
    EXPECT_EQ(pi->guid_cap, ibmad(data, IB_PORT_GUID_CAP_F));
    data[50] = 0xff;
    EXPECT_EQ(decode_port_info(data)->guid_cap, ibmad(data, IB_PORT_GUID_CAP_F));
    EXPECT_EQ(decode_port_info(data)->q_key_violations, 0) << "the byte before is not touched";
    EXPECT_EQ(guid_blocks(32), 4);
    EXPECT_EQ(guid_blocks(255), 32);
    EXPECT_EQ(guid_blocks(1), 1);
    EXPECT_EQ(guid_blocks(0), 0);
}

TEST(SmpAttributes, GuidBlockIsEightGuidsAsLibibmadReadsThem) {
    std::vector<uint8_t> data(kGuidInfoSize, 0);
    for (size_t i = 0; i < kGuidInfoSize; ++i) data[i] = static_cast<uint8_t>(0x10 + i);
    auto guids = decode_guid_block(data);
    ASSERT_TRUE(guids.ok()) << guids.error().message;
    const MAD_FIELDS fields[] = {IB_GI_GUID0_F, IB_GI_GUID1_F, IB_GI_GUID2_F, IB_GI_GUID3_F,
                                 IB_GI_GUID4_F, IB_GI_GUID5_F, IB_GI_GUID6_F, IB_GI_GUID7_F};
    for (size_t i = 0; i < kGuidBlockSize; ++i)
        EXPECT_EQ((*guids)[i], mad_get_field64(data.data(), 0, fields[i])) << i;
    EXPECT_EQ((*guids)[0], 0x1011121314151617ull);
}

TEST(SmpAttributes, ShortDataIsAnErrorNotACrash) {
    std::vector<uint8_t> data(10, 0xff);
    EXPECT_FALSE(decode_port_info(data).ok());
    EXPECT_FALSE(decode_node_info(data).ok());
    EXPECT_FALSE(decode_switch_info(data).ok());
    EXPECT_FALSE(decode_pkey_block(data).ok());
    EXPECT_FALSE(decode_node_description(data).ok());
    EXPECT_FALSE(decode_guid_block(data).ok());
    EXPECT_FALSE(decode_guid_block(std::vector<uint8_t>(kGuidInfoSize - 1, 0)).ok());
}

TEST(SmpAttributes, PKeyTableModifierAndBlocks) {
    EXPECT_EQ(pkey_table_modifier(1, 0), 1u);
    EXPECT_EQ(pkey_table_modifier(0, 3), 0x30000u);
    EXPECT_EQ(pkey_table_modifier(2, 12), 0xc0002u);
    EXPECT_EQ(pkey_blocks(64), 2);
    EXPECT_EQ(pkey_blocks(65), 3);
    EXPECT_EQ(pkey_blocks(0), 0);
}

TEST(SmpAttributes, NodeDescriptionStopsAtNulAndMasksControlBytes) {
    std::vector<uint8_t> data(64, 0);
    const char text[] = "Hca2 mlx\x01";
    std::copy(text, text + sizeof text - 1, data.begin());
    auto d = decode_node_description(data);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(*d, "Hca2 mlx?");
}

}  // namespace
}  // namespace rdmadiag::mad
