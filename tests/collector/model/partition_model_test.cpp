#include "collector/model/partition_model.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

// Two ports: one a subnet sweep read (sma), one read only locally (device).
PartitionModel two_ports() {
    PartitionModel m;
    EndPort swept;
    swept.port = PortRef{"guid:0x10", 1};
    swept.views_read = 1u << static_cast<unsigned>(MemberView::sma);
    EndPort local;
    local.port = PortRef{"mlx5_0", 1};
    local.views_read = 1u << static_cast<unsigned>(MemberView::device);
    m.ports = {swept, local};
    return m;
}

PartitionMember member(uint32_t port, uint8_t intent, uint8_t sma, uint8_t device) {
    PartitionMember m;
    m.port = port;
    m.holds[static_cast<size_t>(MemberView::intent)] = intent;
    m.holds[static_cast<size_t>(MemberView::sma)] = sma;
    m.holds[static_cast<size_t>(MemberView::device)] = device;
    return m;
}

TEST(PartitionModel, APortIsJudgedInTheViewItHolds) {
    auto m = two_ports();
    EXPECT_EQ(held_view(m.ports[0]), MemberView::sma);
    EXPECT_EQ(held_view(m.ports[1]), MemberView::device);
    m.intent = PartitionIntentInfo{};
    Partition p;
    p.pkey = 0x11;
    p.intended = true;
    // The device view of the swept port is not what it is judged on.
    EXPECT_EQ(difference(m, p, member(0, kHoldsFull, 0, kHoldsFull)), MemberDifference::missing);
    EXPECT_EQ(difference(m, p, member(1, kHoldsFull, 0, kHoldsFull)), MemberDifference::none);
    EXPECT_EQ(difference(m, p, member(1, 0, 0, kHoldsLimited)), MemberDifference::unexpected);
    EXPECT_EQ(difference(m, p, member(0, kHoldsFull, kHoldsBoth, 0)), MemberDifference::mismatch);
    EXPECT_EQ(difference(m, p, member(0, kHoldsLimited, kHoldsFull, 0)),
              MemberDifference::mismatch);
    p.members = {member(0, kHoldsFull, 0, 0), member(1, kHoldsFull, 0, kHoldsFull)};
    EXPECT_EQ(differences(m, p), 1u);
}

TEST(PartitionModel, WhatIsJudged) {
    auto m = two_ports();
    Partition in_file, outside;
    in_file.intended = true;
    const auto stray = member(0, 0, kHoldsFull, 0);
    EXPECT_FALSE(m.judged(in_file)) << "no intent, nothing judged";
    EXPECT_EQ(difference(m, outside, stray), MemberDifference::none);
    m.intent = PartitionIntentInfo{};
    EXPECT_TRUE(m.judged(in_file));
    EXPECT_TRUE(m.judged(outside));
    EXPECT_EQ(difference(m, outside, stray), MemberDifference::unexpected);
    m.intent->generated_keys = true;
    EXPECT_TRUE(m.judged(in_file));
    EXPECT_FALSE(m.judged(outside)) << "the SM may have generated this key for the file";
    // A port whose held view was never read holds nothing we know of.
    m.ports[0].views_read = 0;
    EXPECT_EQ(difference(m, in_file, member(0, kHoldsFull, 0, 0)), MemberDifference::none);
}

TEST(PartitionModel, NamesOfViewsAndHoldings) {
    EXPECT_EQ(to_string(MemberView::sma), "sma");
    EXPECT_EQ(member_view(PKeyView::cache), MemberView::cache);
    EXPECT_EQ(holding_name(kHoldsBoth), "both");
    EXPECT_EQ(holding_name(kHoldsLimited), "limited");
    EXPECT_EQ(holding_name(0), "");
    EXPECT_EQ(node_kind(std::string("switch")), NodeKind::switch_node);
    EXPECT_EQ(node_kind(std::nullopt), NodeKind::other);
}

}  // namespace
}  // namespace rdmadiag
