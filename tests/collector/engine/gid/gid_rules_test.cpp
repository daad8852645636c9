#include "collector/engine/gid/gid_rules.hpp"

#include <gtest/gtest.h>

#include "collector/engine/gid/gid_table_diff.hpp"
#include "tests/collector/engine/gid/gid_scenario.hpp"

namespace rdmadiag::test {
namespace {

using engine::gid::compare_ib;
using engine::gid::compare_roce;
using engine::gid::duplicates_in_table;

GidTable table(std::vector<GidEntry> entries, std::vector<uint16_t> unreadable = {}) {
    return GidTable{std::move(entries), std::move(unreadable)};
}

TEST(CompareIb, ReportsEachIndexThePortHoldsOtherwise) {
    auto cache = table({ib_entry(0, "fe80::1"), ib_entry(1, "fe80::5")});
    auto port = table({ib_entry(0, "fec0::1"), ib_entry(1, "fe80::5"), ib_entry(2, "fe80::7")});
    auto m = compare_ib(cache, port);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].index, 0);
    EXPECT_EQ(m[0].cache, gid_of("fe80::1"));
    EXPECT_EQ(m[1].index, 2);
    EXPECT_FALSE(m[1].cache);
    // An index the cache view could not read proves nothing.
    cache.unreadable = {0};
    EXPECT_EQ(compare_ib(cache, port).size(), 1u);
    // Entries the cache has beyond the port's are not judged.
    EXPECT_TRUE(compare_ib(port, table({ib_entry(0, "fec0::1")})).empty());
}

TEST(CompareRoce, MatchesByGidAndNetdevWhateverTheType) {
    auto cache = table({roce_entry(0, "fe80::1", "eth0", GidType::roce_v1),
                        roce_entry(1, "fe80::1", "eth0", GidType::roce_v2),
                        roce_entry(2, "::ffff:192.0.2.1", "eth0")});
    auto netdev = table({roce_entry(0, "fe80::1", "eth0", GidType::unknown),
                         roce_entry(1, "::ffff:192.0.2.1", "eth0", GidType::unknown)});
    EXPECT_TRUE(compare_roce(cache, netdev).empty());
    // The same address on another netdev is another GID.
    netdev.entries[1].ndev = "eth0.7";
    auto m = compare_roce(cache, netdev);
    ASSERT_EQ(m.missing.size(), 1u);
    EXPECT_EQ(m.missing[0].ndev, "eth0.7");
    ASSERT_EQ(m.stale.size(), 1u);
    EXPECT_EQ(m.stale[0].index, 2);
}

TEST(CompareRoce, NothingIsMissingFromACacheWithUnreadableEntries) {
    auto cache = table({roce_entry(0, "fe80::1", "eth0")}, {1});
    auto netdev = table({roce_entry(0, "fe80::1", "eth0", GidType::unknown),
                         roce_entry(1, "::ffff:192.0.2.1", "eth0", GidType::unknown)});
    EXPECT_TRUE(compare_roce(cache, netdev).empty());
}

TEST(DuplicatesInTable, SameGidTypeAndNetdevOnly) {
    auto t = table({roce_entry(0, "fe80::1", "eth0", GidType::roce_v1),
                    roce_entry(1, "fe80::1", "eth0", GidType::roce_v2),
                    roce_entry(2, "fe80::1", "eth1", GidType::roce_v2)});
    EXPECT_TRUE(duplicates_in_table(t).empty());
    t.entries.push_back(roce_entry(9, "fe80::1", "eth1", GidType::roce_v2));
    auto d = duplicates_in_table(t);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].first.index, 2);
    EXPECT_EQ(d[0].second.index, 9);
}

TEST(DiffGidTables, AChangedIndexIsRemovedAndAdded) {
    GidDiff d;
    engine::gid::diff_gid_tables(table({ib_entry(0, "fe80::1"), ib_entry(1, "fe80::2")}),
                                 table({ib_entry(0, "fec0::1"), ib_entry(1, "fe80::2")}), d);
    ASSERT_EQ(d.removed.size(), 1u);
    ASSERT_EQ(d.added.size(), 1u);
    EXPECT_EQ(d.added[0].gid, gid_of("fec0::1"));
    EXPECT_EQ(engine::gid::describe_gid_diff(d),
              "-index 0 fe80:0000:0000:0000:0000:0000:0000:0001; "
              "+index 0 fec0:0000:0000:0000:0000:0000:0000:0001");
}

TEST(DiffGidTables, TheNetdevViewIsComparedByValue) {
    GidDiff d;
    d.view = GidView::netdev;
    // An address that sorts first moves every other entry one place on; none of them changed.
    engine::gid::diff_gid_tables(
        table({roce_entry(0, "fe80::1", "eth0", GidType::unknown),
               roce_entry(1, "::ffff:192.0.2.1", "eth0", GidType::unknown)}),
        table({roce_entry(0, "2001:db8::1", "eth0", GidType::unknown),
               roce_entry(1, "fe80::1", "eth0", GidType::unknown),
               roce_entry(2, "::ffff:192.0.2.1", "eth0", GidType::unknown)}),
        d);
    EXPECT_TRUE(d.removed.empty());
    ASSERT_EQ(d.added.size(), 1u);
    EXPECT_EQ(d.added[0].gid, gid_of("2001:db8::1"));
    EXPECT_EQ(engine::gid::describe_gid_diff(d), "+2001:0db8:0000:0000:0000:0000:0000:0001 (eth0)");
    // The same address on another netdev is another entry.
    engine::gid::diff_gid_tables(table({roce_entry(0, "fe80::1", "eth0", GidType::unknown)}),
                                 table({roce_entry(0, "fe80::1", "eth1", GidType::unknown)}), d);
    EXPECT_EQ(d.removed.size(), 1u);
    EXPECT_EQ(d.added.size(), 1u);
}

}  // namespace
}  // namespace rdmadiag::test
