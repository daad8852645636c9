#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kFlapping = "pkey.flapping";

TEST(Flapping, TooManyChangesWithinTheWindowFireThenClear) {
    test::PKeyScenario s;
    s.table(0, table_of({0x8001}));
    s.table(10, table_of({0x0001}));
    s.table(20, table_of({0x8001}));
    s.table(30, table_of({0x0001}));
    EXPECT_EQ(s.active(kFlapping), nullptr);
    s.table(40, table_of({0x8001}));
    const Finding* f = s.active(kFlapping);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(10));
    EXPECT_NE(f->evidence.find("4 changes of the device table within 5m"), std::string::npos)
        << f->evidence;
    // The change at 10s leaves the window at 310s: three remain, below the threshold.
    s.advance(309);
    EXPECT_NE(s.active(kFlapping), nullptr);
    s.advance(310);
    EXPECT_EQ(s.active(kFlapping), nullptr);
    EXPECT_NE(s.cleared(kFlapping), nullptr);
}

TEST(Flapping, ChangesSpreadOutDoNotFire) {
    test::PKeyScenario s;
    for (int i = 0; i < 8; ++i) {
        s.table(i * 200.0, table_of({static_cast<uint16_t>(i % 2 ? 0x8001 : 0x0001)}));
    }
    EXPECT_EQ(s.active(kFlapping), nullptr);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
