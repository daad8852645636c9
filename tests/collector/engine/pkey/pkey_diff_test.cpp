#include "collector/engine/pkey/pkey_diff.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace rdmadiag::engine::pkey {
namespace {

PKeyTable pkey_table(std::vector<uint16_t> keys) {
    return PKeyTable{std::move(keys), {}};
}

TEST(PKeyDiff, EqualTablesHaveNoChanges) {
    EXPECT_TRUE(
        diff_pkey_tables(pkey_table({0xffff, 0x8001}), pkey_table({0xffff, 0x8001})).empty());
}

TEST(PKeyDiff, AddedAndRemovedByIndex) {
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001, 0}), pkey_table({0xffff, 0, 0x8002}));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::removed);
    EXPECT_EQ(d[0].index, 1);
    EXPECT_EQ(d[0].old_key, 0x8001);
    EXPECT_EQ(d[1].kind, PKeyChangeKind::added);
    EXPECT_EQ(d[1].index, 2);
    EXPECT_EQ(d[1].new_key, 0x8002);
}

TEST(PKeyDiff, AnotherKeyInPlaceReusesTheIndex) {
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001, 0}), pkey_table({0xffff, 0x8005, 0}));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::removed);
    EXPECT_EQ(d[0].old_key, 0x8001);
    EXPECT_FALSE(d[0].previous_key.has_value());
    EXPECT_EQ(d[1].kind, PKeyChangeKind::added);
    EXPECT_EQ(d[1].index, 1);
    EXPECT_EQ(d[1].previous_key, 0x8001);
    EXPECT_EQ(describe_change(d[1]), "0x8005 added at index 1, reusing the index of 0x8001");
}

TEST(PKeyDiff, AnAdditionOnAnEmptySlotReusesNothing) {
    auto d =
        diff_pkey_tables(pkey_table({0xffff, 0x8001, 0}), pkey_table({0xffff, 0x8001, 0x8002}));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_FALSE(d[0].previous_key.has_value());
    EXPECT_EQ(describe_change(d[0]), "0x8002 added at index 2");
}

TEST(PKeyDiff, AMoveOntoAnotherKeysIndexReusesIt) {
    auto d =
        diff_pkey_tables(pkey_table({0xffff, 0x8001, 0x8002}), pkey_table({0xffff, 0, 0x8001}));
    // 0x8001 moves from 1 to 2, where 0x8002 was (removed).
    ASSERT_EQ(d.size(), 2u);
    const auto moved = std::find_if(d.begin(), d.end(), [](const PKeyEntryChange& c) {
        return c.kind == PKeyChangeKind::moved;
    });
    ASSERT_NE(moved, d.end());
    EXPECT_EQ(moved->index, 2);
    EXPECT_EQ(moved->previous_key, 0x8002);
    EXPECT_EQ(describe_change(*moved),
              "0x8001 moved from index 1 to index 2, reusing the index of 0x8002");
}

TEST(PKeyDiff, SameBaseKeyAtAnotherIndexIsAMove) {
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001, 0}), pkey_table({0xffff, 0, 0x8001}));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::moved);
    EXPECT_EQ(d[0].index, 2);
    EXPECT_EQ(d[0].old_index, 1);
    EXPECT_EQ(describe_change(d[0]), "0x8001 moved from index 1 to index 2");
}

TEST(PKeyDiff, MoveWithMembershipFlipReportsBoth) {
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001, 0}), pkey_table({0xffff, 0, 0x0001}));
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::moved);
    EXPECT_EQ(d[1].kind, PKeyChangeKind::membership_changed);
}

TEST(PKeyDiff, MembershipFlipInPlace) {
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001}), pkey_table({0xffff, 0x0001}));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::membership_changed);
    EXPECT_EQ(describe_change(d[0]), "0x8001 became 0x0001 (full -> limited) at index 1");
}

TEST(PKeyDiff, UnreadableIndexesAreNotChanges) {
    PKeyTable a = pkey_table({0xffff, 0x8001, 0x8002});
    PKeyTable b = pkey_table({0xffff, 0, 0x8002});
    b.unreadable = {1};
    EXPECT_TRUE(diff_pkey_tables(a, b).empty());
    EXPECT_TRUE(pkey_tables_agree(a, b));
}

TEST(PKeyDiff, ShorterTableReadsAsEmptySlots) {
    EXPECT_TRUE(
        pkey_tables_agree(pkey_table({0xffff, 0x8001}), pkey_table({0xffff, 0x8001, 0, 0})));
    auto d = diff_pkey_tables(pkey_table({0xffff, 0x8001, 0x8005}), pkey_table({0xffff, 0x8001}));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].kind, PKeyChangeKind::removed);
    EXPECT_EQ(d[0].index, 2);
}

TEST(PKeyDiff, DescribeChangesLimitsTheList) {
    auto d = diff_pkey_tables(pkey_table({0, 0, 0, 0, 0, 0}),
                              pkey_table({0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006}));
    EXPECT_EQ(d.size(), 6u);
    const auto text = describe_changes(d, 2);
    EXPECT_EQ(text, "0x8001 added at index 0; 0x8002 added at index 1; and 4 more");
}

}  // namespace
}  // namespace rdmadiag::engine::pkey
