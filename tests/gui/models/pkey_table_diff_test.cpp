#include "gui/models/pkey_table_diff.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::gui {
namespace {

PKeyTable table(std::vector<uint16_t> keys, std::vector<uint16_t> unreadable = {}) {
    return PKeyTable{std::move(keys), std::move(unreadable)};
}

TEST(PKeyTableDiff, SameTableNoChanges) {
    EXPECT_TRUE(diff_pkey_tables(table({0xffff, 0x8001}), table({0xffff, 0x8001})).empty());
}

TEST(PKeyTableDiff, AddedRemovedMovedMembership) {
    const auto before = table({0xffff, 0x8001, 0x8002, 0x0003, 0, 0x8005});
    const auto after = table({0xffff, 0x8001, 0, 0x8003, 0x8004, 0, 0, 0, 0, 0x8002});
    const auto d = diff_pkey_tables(before, after);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0], (PKeyIndexChange{PKeyChange::membership, 3, std::nullopt, 0x0003, 0x8003}));
    EXPECT_EQ(d[1], (PKeyIndexChange{PKeyChange::added, 4, std::nullopt, 0, 0x8004}));
    EXPECT_EQ(d[2], (PKeyIndexChange{PKeyChange::removed, 5, std::nullopt, 0x8005, 0}));
    EXPECT_EQ(d[3], (PKeyIndexChange{PKeyChange::moved, 9, uint16_t{2}, 0x8002, 0x8002}));
}

TEST(PKeyTableDiff, UnreadableSlotsAreNotChanges) {
    // Index 1 could not be read afterwards: nothing is known, so 0x8001 is not "removed".
    const auto d = diff_pkey_tables(table({0xffff, 0x8001}), table({0xffff, 0}, {1}));
    EXPECT_TRUE(d.empty());
}

TEST(PKeyTableDiff, Names) {
    EXPECT_EQ(to_string(PKeyChange::membership), "membership");
    EXPECT_EQ(to_string(PKeyChange::moved), "moved");
}

}  // namespace
}  // namespace rdmadiag::gui
