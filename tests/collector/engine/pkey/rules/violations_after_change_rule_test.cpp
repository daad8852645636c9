#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kViolationsAfterChange = "pkey.violations_after_change";

TEST(ViolationsAfterChange, RiseWithinTheWindowNamesTheChange) {
    test::PKeyScenario s;
    s.counter_value(0, "port_rcv_constraint_errors", 3, 8);
    s.table(1, {0xffff, 0x8001, 0});
    s.table(10, {0xffff, 0, 0x8001});
    s.counter_value(11, "port_rcv_constraint_errors", 3, 8);
    EXPECT_EQ(s.active(kViolationsAfterChange), nullptr);
    s.counter_value(12, "port_rcv_constraint_errors", 7, 8);
    const Finding* f = s.active(kViolationsAfterChange);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::critical);
    EXPECT_EQ(f->since, at(12));
    EXPECT_NE(f->evidence.find("port_rcv_constraint_errors rose by 4 to 7"), std::string::npos)
        << f->evidence;
    EXPECT_NE(f->evidence.find("0x8001 moved from index 1 to index 2"), std::string::npos)
        << f->evidence;
    EXPECT_NE(f->evidence.find("generation 2"), std::string::npos) << f->evidence;
    // Clears once the counter has stayed flat for the window.
    s.counter_value(50, "port_rcv_constraint_errors", 7, 8);
    s.advance(71.9);
    EXPECT_NE(s.active(kViolationsAfterChange), nullptr);
    s.advance(72);
    EXPECT_EQ(s.active(kViolationsAfterChange), nullptr);
    EXPECT_NE(s.cleared(kViolationsAfterChange), nullptr);
}

TEST(ViolationsAfterChange, RiseWithNoChangeDoesNotFire) {
    test::PKeyScenario s;
    s.table(1, table_of({0x8001}));
    s.counter_value(1, "p_key_violations", 10, 16, CounterKind::portinfo);
    s.counter_value(2, "p_key_violations", 20, 16, CounterKind::portinfo);
    s.counter_value(3, "p_key_violations", 40, 16, CounterKind::portinfo);
    EXPECT_EQ(s.active(kViolationsAfterChange), nullptr);
}

TEST(ViolationsAfterChange, RiseAfterTheWindowDoesNotFire) {
    test::PKeyScenario s;
    s.counter_value(0, "port_xmit_constraint_errors", 0, 8);
    s.table(1, table_of({0x8001}));
    s.table(10, table_of({0x8002}));
    s.counter_value(71, "port_xmit_constraint_errors", 5, 8);
    EXPECT_EQ(s.active(kViolationsAfterChange), nullptr);
}

TEST(ViolationsAfterChange, RiseSeenBeforeTheChangeWasReadIsTiedToIt) {
    test::PKeyScenario s;
    s.table(0, table_of({0x8001}));
    s.counter_value(0, "p_key_violations", 0, 16, CounterKind::portinfo);
    s.counter_value(3, "p_key_violations", 2, 16, CounterKind::portinfo);  // change not read yet
    EXPECT_EQ(s.active(kViolationsAfterChange), nullptr);
    s.table(10, table_of({0x0001}));
    const Finding* f = s.active(kViolationsAfterChange);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->evidence.find("p_key_violations (at 1970-01-01T00:00:03.000Z) rose between"),
              std::string::npos)
        << f->evidence;
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
