// pkey.index_moved, pkey.removed and pkey.membership_changed: raised from the diff of a change,
// held for change_hold, then cleared into the history.
#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

TEST(ChangeRules, IndexMoveFiresAndClearsAfterTheHold) {
    test::PKeyScenario s;
    s.table(1, {0xffff, 0x8001, 0x8002, 0});
    s.table(10, {0xffff, 0, 0x8002, 0x8001});
    const Finding* f = s.active("pkey.index_moved");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->subject.index, 3);
    EXPECT_EQ(f->subject.pkey, 0x8001);
    EXPECT_EQ(f->since, at(10));
    EXPECT_EQ(f->evidence,
              "0x8001 moved from index 1 to index 3 (device generation 1 -> 2 at "
              "1970-01-01T00:00:10.000Z)");
    EXPECT_EQ(s.active("pkey.removed"), nullptr);
    const auto last = s.port().last_diff;
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->old_generation, 1u);
    EXPECT_EQ(last->new_generation, 2u);
    s.advance(10 + 599);
    EXPECT_NE(s.active("pkey.index_moved"), nullptr);
    s.advance(10 + 600);
    EXPECT_EQ(s.active("pkey.index_moved"), nullptr);
    ASSERT_NE(s.cleared("pkey.index_moved"), nullptr);
    EXPECT_EQ(s.cleared("pkey.index_moved")->cleared, at(610));
}

TEST(ChangeRules, RemovalFiresPerKey) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001, 0x8002, 0x8003}));
    s.table(5, table_of({0x8001, 0, 0}));
    EXPECT_EQ(s.active_count("pkey.removed"), 2u);
    const Finding* f = s.active("pkey.removed");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->subject.device, "mlx5_0");
    EXPECT_TRUE(f->subject.pkey == 0x8002 || f->subject.pkey == 0x8003);
    s.advance(1000);
    EXPECT_EQ(s.active_count("pkey.removed"), 0u);
    EXPECT_NE(s.cleared("pkey.removed"), nullptr);
}

TEST(ChangeRules, MembershipFlipFullToLimitedIsAWarning) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001}));
    s.table(2, table_of({0x0001}));
    const Finding* f = s.active("pkey.membership_changed");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_EQ(f->subject.index, 1);
    EXPECT_EQ(f->subject.pkey, 0x0001);
    EXPECT_NE(f->evidence.find("full -> limited"), std::string::npos);
    EXPECT_EQ(s.active("pkey.removed"), nullptr);
    EXPECT_EQ(s.active("pkey.index_moved"), nullptr);
    s.advance(700);
    EXPECT_EQ(s.active("pkey.membership_changed"), nullptr);
}

TEST(ChangeRules, MembershipFlipLimitedToFullIsInfo) {
    test::PKeyScenario s;
    s.table(1, table_of({0x0001}));
    s.table(2, table_of({0x8001}));
    const Finding* f = s.active("pkey.membership_changed");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::info);
}

TEST(ChangeRules, AdditionsRaiseNothing) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001}));
    s.table(2, table_of({0x8001, 0x8002}));
    EXPECT_TRUE(s.engine().findings().active().empty());
    ASSERT_TRUE(s.port().last_diff.has_value());
    EXPECT_EQ(s.port().last_diff->changes.size(), 1u);
}

TEST(ChangeRules, AKeyOnAnIndexEmptiedEarlierIsAReuse) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001, 0x8002, 0x8003}));
    s.table(2, table_of({0x8001, 0, 0x8003}));          // 0x8002 leaves a hole at 2
    s.table(3, table_of({0x8001, 0, 0x8003, 0x8004}));  // a new key after the last used index
    EXPECT_EQ(s.active("pkey.index_reused"), nullptr) << "index 4 was never held";
    s.table(4, table_of({0x8001, 0x8005, 0x8003, 0x8004}));  // the hole is given to 0x8005
    const Finding* f = s.active("pkey.index_reused");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->subject.index, 2);
    EXPECT_EQ(f->subject.pkey, 0x8005);
    EXPECT_EQ(f->evidence,
              "0x8005 added at index 2, reusing the index of 0x8002 (device generation 3 -> 4 at "
              "1970-01-01T00:00:04.000Z)");
    EXPECT_NE(f->advice.find("index 2 for 0x8002"), std::string::npos) << f->advice;
    ASSERT_TRUE(s.port().last_diff.has_value());
    ASSERT_EQ(s.port().last_diff->changes.size(), 1u);
    EXPECT_EQ(s.port().last_diff->changes[0].kind, PKeyChangeKind::added);
    EXPECT_EQ(s.port().last_diff->changes[0].previous_key, 0x8002);
    s.advance(700);
    EXPECT_EQ(s.active("pkey.index_reused"), nullptr);
    EXPECT_NE(s.cleared("pkey.index_reused"), nullptr);
}

TEST(ChangeRules, TheSameKeyBackOnItsOldIndexIsNoReuse) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001, 0x8002}));
    s.table(2, table_of({0x8001, 0}));
    s.table(3, table_of({0x8001, 0x0002}));  // back, as a limited member
    EXPECT_EQ(s.active("pkey.index_reused"), nullptr);
    ASSERT_TRUE(s.port().last_diff.has_value());
    EXPECT_FALSE(s.port().last_diff->changes.at(0).previous_key.has_value());
    // The index is no longer empty: a later change there is judged against 0x0002.
    s.table(4, table_of({0x8001, 0}));
    s.table(5, table_of({0x8001, 0x8007}));
    const Finding* f = s.active("pkey.index_reused");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("reusing the index of 0x0002"), std::string::npos) << f->evidence;
}

TEST(ChangeRules, SnapshotKeepsABoundedChangeHistory) {
    PKeySettings settings;
    settings.change_history = 3;
    test::PKeyScenario s(settings);
    for (int i = 0; i < 6; ++i) {
        s.table(i, table_of({static_cast<uint16_t>(0x8001 + i)}));
    }
    auto snap = s.engine().snapshot();
    ASSERT_EQ(snap->pkey_changes.size(), 3u);
    EXPECT_EQ(snap->pkey_changes.back().new_generation, 6u);
    EXPECT_EQ(snap->pkey_changes.front().new_generation, 4u);
    const auto* port = snap->find_port(PortRef{"mlx5_0", 1});
    ASSERT_NE(port, nullptr);
    ASSERT_TRUE(port->pkeys.last_diff.has_value());
    EXPECT_EQ(port->pkeys.last_diff->new_generation, 6u);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
