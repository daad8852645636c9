#include "collector/engine/partitions/partition_model.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::partitions {
namespace {

PortSnapshot port_with(const std::string& dev, uint32_t n, std::optional<uint64_t> guid,
                       std::vector<std::pair<PKeyView, std::vector<uint16_t>>> views) {
    PortSnapshot p;
    p.ref = PortRef{dev, n};
    p.info.port = p.ref;
    p.info.port_guid = guid;
    for (auto& [view, keys] : views) {
        PKeyViewState s;
        s.view = view;
        s.table.keys = std::move(keys);
        p.pkeys.views.push_back(std::move(s));
    }
    return p;
}

DeviceSnapshot device(const std::string& name, const std::string& type, uint64_t node_guid,
                      const std::string& desc, std::vector<PortSnapshot> ports) {
    DeviceSnapshot d;
    d.info.device = name;
    d.info.node_type = type;
    d.info.node_guid = node_guid;
    d.info.node_desc = desc;
    d.ports = std::move(ports);
    return d;
}

// A switch (GUID 0x100) and two HCA ports, as a subnet sweep and a local sysfs read show them.
Snapshot small_subnet() {
    Snapshot s;
    s.devices.push_back(
        device("sw", "switch", 0x100, "Leaf01",
               {port_with("sw", 0, std::nullopt, {{PKeyView::sma, {0xffff, 0x8011}}}),
                port_with("sw", 1, std::nullopt, {{PKeyView::sma, {0xffff, 0x8011, 0x8020}}}),
                port_with("sw", 2, std::nullopt, {{PKeyView::sma, {0xffff}}})}));
    s.devices.push_back(
        device("ca1", "CA", 0x200, "node0001 HCA-1",
               {port_with("ca1", 1, 0x201,
                          {{PKeyView::sma, {0xffff, 0x8011}}, {PKeyView::sm, {0xffff, 0x8011}}})}));
    s.devices.push_back(device("ca2", "CA", 0x300, "node0002 HCA-1",
                               {port_with("ca2", 1, 0x301,
                                          {{PKeyView::device, {0xffff, 0x0000, 0x8011}},
                                           {PKeyView::sma, {0x7fff, 0x0011}}})}));
    return s;
}

const PartitionMember* member(const Partition& p, const PartitionModel& m, const std::string& dev) {
    for (const auto& mem : p.members) {
        if (m.ports[mem.port].port.device == dev) return &mem;
    }
    return nullptr;
}

TEST(PartitionModel, EveryViewOfEveryEndPortByPKey) {
    const auto m = build_partition_model(small_subnet(), nullptr);
    ASSERT_EQ(m.ports.size(), 3u) << "a switch's external ports are not end ports";
    EXPECT_EQ(m.ports[0].port, (PortRef{"sw", 0}));
    EXPECT_EQ(m.ports[0].guid, 0x100u) << "port 0 of a switch carries the switch's GUID";
    EXPECT_EQ(m.ports[0].node_name, "Leaf01");
    EXPECT_EQ(m.ports[0].kind, NodeKind::switch_node);

    ASSERT_EQ(m.partitions.size(), 2u);
    const Partition* storage = m.find(0x0011);
    ASSERT_NE(storage, nullptr);
    EXPECT_FALSE(storage->intended);
    ASSERT_EQ(storage->members.size(), 3u);
    EXPECT_EQ(member(*storage, m, "sw")->in(MemberView::sma), kHoldsFull);
    EXPECT_EQ(member(*storage, m, "ca1")->in(MemberView::sm), kHoldsFull);
    const auto* ca2 = member(*storage, m, "ca2");
    EXPECT_EQ(ca2->in(MemberView::sma), kHoldsLimited);
    EXPECT_EQ(ca2->in(MemberView::device), kHoldsFull);
    EXPECT_EQ(ca2->in(MemberView::sm), 0);
    // sma: sw and ca1 full, ca2 limited.
    EXPECT_EQ(storage->counts[static_cast<size_t>(MemberView::sma)],
              (std::array<uint32_t, 3>{1, 2, 0}));
    EXPECT_EQ(m.find(0x0020), nullptr) << "0x8020 is held by an external switch port only";
}

TEST(PartitionModel, TheIntentResolvedAgainstThePorts) {
    const auto conf = parse_partitions_conf(
        "Default=0x7fff : ALL=full ;\n"
        "Storage=0x8011 : ALL_SWITCHES=full, 0x201=full, 0x301=full, 0x999 ;\n"
        "Empty=0x20 : ;\n"
        "Generated : 0x201 ;\n"
        "Mine=0x30 : SELF=full ;\n");
    const auto m = build_partition_model(small_subnet(), &conf, ModelOptions{0x301});
    const Partition* storage = m.find(0x0011);
    ASSERT_NE(storage, nullptr);
    EXPECT_TRUE(storage->intended);
    EXPECT_EQ(storage->name, "Storage");
    EXPECT_EQ(member(*storage, m, "ca2")->in(MemberView::intent), kHoldsFull);
    EXPECT_EQ(storage->counts[static_cast<size_t>(MemberView::intent)],
              (std::array<uint32_t, 3>{0, 3, 0}));

    const Partition* empty = m.find(0x0020);
    ASSERT_NE(empty, nullptr) << "an intended partition without members is still one";
    EXPECT_TRUE(empty->members.empty());
    EXPECT_TRUE(empty->intended);

    const Partition* mine = m.find(0x0030);
    ASSERT_NE(mine, nullptr);
    ASSERT_EQ(mine->members.size(), 1u);
    EXPECT_EQ(m.ports[mine->members[0].port].port, (PortRef{"ca2", 1}));

    const Partition* def = m.find(kDefaultPartition);
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(def->counts[static_cast<size_t>(MemberView::intent)],
              (std::array<uint32_t, 3>{0, 3, 0}));

    EXPECT_EQ(m.unresolved,
              (std::vector<std::string>{"line 2: no port has GUID 0x0000000000000999",
                                        "line 4: partition 'Generated' has no P_Key in the file; "
                                        "the SM generates one, which is not known here"}));
    // By P_Key.
    for (size_t i = 1; i < m.partitions.size(); ++i)
        EXPECT_LT(m.partitions[i - 1].pkey, m.partitions[i].pkey);
}

TEST(PartitionModel, FullWinsWhereTheIntentSaysBoth) {
    const auto conf = parse_partitions_conf(
        "P=0x40 : ALL_CAS=limited, 0x201=full ;\n"
        "P=0x40 : 0x301=both ;\n"
        "Q=0x41 : SELF=full ;\n");
    const auto m = build_partition_model(small_subnet(), &conf);
    const Partition* p = m.find(0x40);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(member(*p, m, "ca1")->in(MemberView::intent), kHoldsFull);
    EXPECT_EQ(member(*p, m, "ca2")->in(MemberView::intent), kHoldsFull);
    EXPECT_EQ(member(*p, m, "sw"), nullptr);
    EXPECT_EQ(m.unresolved, (std::vector<std::string>{"line 3: SELF: the SM's port is not known"}));
}

TEST(PartitionModel, AbsentDevicesAndPortsAreNotMembers) {
    auto s = small_subnet();
    DeviceSnapshot gone = s.devices[1];
    gone.present = false;
    s.devices.set(1, gone);
    DeviceSnapshot half = s.devices[2];
    half.ports[0].present = false;
    s.devices.set(2, half);
    const auto m = build_partition_model(s, nullptr);
    ASSERT_EQ(m.ports.size(), 1u);
    EXPECT_EQ(m.find(0x0011)->members.size(), 1u);
}

TEST(PartitionModel, RoCEPortsAreInNoPartitionAndEachPortSaysWhichViewsWereRead) {
    auto s = small_subnet();
    auto roce = port_with("roce", 1, std::nullopt, {{PKeyView::device, {0xffff}}});
    roce.info.link_layer = LinkLayer::ethernet;
    s.devices.push_back(device("roce", "CA", 0x400, "node0001 RoCE", {roce}));
    const auto m = build_partition_model(s, nullptr);
    ASSERT_EQ(m.ports.size(), 3u);
    for (const auto& p : m.ports) EXPECT_NE(p.port.device, "roce");
    const auto& ca2 = m.ports[2];
    EXPECT_EQ(ca2.port, (PortRef{"ca2", 1}));
    EXPECT_TRUE(ca2.has(MemberView::sma));
    EXPECT_TRUE(ca2.has(MemberView::device));
    EXPECT_FALSE(ca2.has(MemberView::sm));
    EXPECT_FALSE(ca2.has(MemberView::intent));
}

}  // namespace
}  // namespace rdmadiag::partitions
