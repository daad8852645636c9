#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kViewDivergence = "pkey.view_divergence";

TEST(ViewDivergence, DisagreementLongerThanGraceFiresAndClears) {
    test::PKeyScenario s;
    s.table(0, table_of({0x8001}), PKeyView::device);
    s.table(0, table_of({0x8001}), PKeyView::sma);
    s.table(1, table_of({0x8001, 0x8002}), PKeyView::sm);  // the SM intends a new key
    s.advance(30.9);
    EXPECT_EQ(s.active(kViewDivergence), nullptr);
    s.advance(31);
    const Finding* f = s.active(kViewDivergence);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(1));
    EXPECT_NE(f->evidence.find("device vs sm"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("index 2 0x0000/0x8002"), std::string::npos) << f->evidence;
    EXPECT_EQ(f->evidence.find("device vs sma"), std::string::npos) << f->evidence;
    // The SM programs the port.
    s.table(40, table_of({0x8001, 0x8002}), PKeyView::sma);
    s.table(40, table_of({0x8001, 0x8002}), PKeyView::device);
    EXPECT_EQ(s.active(kViewDivergence), nullptr);
    EXPECT_NE(s.cleared(kViewDivergence), nullptr);
}

TEST(ViewDivergence, AViewNotReadForLongStopsCounting) {
    test::PKeyScenario s;
    s.table(0, table_of({0x8001}), PKeyView::device);
    s.table(0, table_of({0x8002}), PKeyView::sm);
    s.advance(40);
    ASSERT_NE(s.active(kViewDivergence), nullptr);
    for (int t = 60; t <= 660; t += 60) s.table(t, table_of({0x8001}), PKeyView::device);
    EXPECT_EQ(s.active(kViewDivergence), nullptr);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
