#include <gtest/gtest.h>

#include "tests/collector/engine/pkey/pkey_scenario.hpp"

namespace rdmadiag::engine::pkey::rules {
namespace {

using test::at;
using test::table_of;

constexpr const char* kSpuriousEvent = "pkey.spurious_event";

TEST(SpuriousEvent, EventWithNoTableDifferenceFiresAndClears) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.event(5);
    s.table(5.1, table_of({0x8001}));
    const Finding* f = s.active(kSpuriousEvent);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, Severity::info);
    EXPECT_EQ(f->since, at(5));
    EXPECT_NE(f->evidence.find("equals the cached one"), std::string::npos);
    EXPECT_EQ(s.port().cache, CacheJudgement::coherent);
    s.advance(5.1 + 600);  // held from when the reload showed no difference
    EXPECT_EQ(s.active(kSpuriousEvent), nullptr);
    EXPECT_NE(s.cleared(kSpuriousEvent), nullptr);
}

TEST(SpuriousEvent, EventForARealChangeIsNotSpurious) {
    test::PKeyScenario s;
    s.watch(0);
    s.table(1, table_of({0x8001}));
    s.event(5);
    s.table(5.1, table_of({0x8001, 0x8002}));
    EXPECT_EQ(s.active(kSpuriousEvent), nullptr);
}

}  // namespace
}  // namespace rdmadiag::engine::pkey::rules
