#include "collector/sources/counter_tiers.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "collector/engine/pkey/rules/pkey_rule.hpp"
#include "collector/model/counter.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::sources {
namespace {

TEST(CounterTiers, EveryCounterARuleReadsIsFast) {
    // Findings keep their one-second resolution.
    for (const auto& vc : engine::pkey::rules::kViolationCounters) {
        EXPECT_EQ(counter_tier(vc.kind, vc.name), CounterTier::fast) << vc.name;
    }
}

TEST(CounterTiers, NarrowCountersAreFastAndTheirReasonsHold) {
    for (const auto& c : fast_counters()) {
        EXPECT_LT(counter_width(c.kind, c.name), 32) << c.name;
        if (c.reason == FastReason::finding) {
            EXPECT_TRUE(is_pkey_violation_counter(c.name)) << c.name;
        }
    }
}

TEST(CounterTiers, DataPacketWaitAndDriverCountersAreSlow) {
    for (const char* name :
         {"port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets",
          "unicast_xmit_packets", "unicast_rcv_packets", "multicast_xmit_packets",
          "multicast_rcv_packets", "port_xmit_wait", "a_counter_nobody_knows"}) {
        EXPECT_EQ(counter_tier(CounterKind::pma, name), CounterTier::slow) << name;
    }
    // rxe's hw link_downed is 64 bits and drives nothing: the PMA one of that name is fast.
    for (const char* name : {"out_of_buffer", "link_downed", "rnr_nak_retry_err"}) {
        EXPECT_EQ(counter_tier(CounterKind::hw, name), CounterTier::slow) << name;
    }
    EXPECT_FALSE(kind_has_fast_counters(CounterKind::hw));
    EXPECT_TRUE(kind_has_fast_counters(CounterKind::pma));
    EXPECT_TRUE(kind_has_fast_counters(CounterKind::portinfo));
}

TEST(CounterTiers, TiersCoverWhatTheyAreAskedFor) {
    EXPECT_TRUE(CounterTiers::all().covers(CounterKind::pma, "port_xmit_data"));
    EXPECT_TRUE((CounterTiers{true, false}).covers(CounterKind::pma, "symbol_error"));
    EXPECT_FALSE((CounterTiers{true, false}).covers(CounterKind::pma, "port_xmit_data"));
    EXPECT_FALSE((CounterTiers{false, true}).covers(CounterKind::pma, "symbol_error"));
    EXPECT_FALSE(CounterTiers{}.any());
}

TEST(CounterTiers, DocsMetricsListsEveryFastCounter) {
    std::ifstream in(::rdmadiag::test::source_dir() + "/docs/metrics.md");
    ASSERT_TRUE(in) << "docs/metrics.md";
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const auto tiers = doc.find("## Counter tiers");
    ASSERT_NE(tiers, std::string::npos);
    for (const auto& c : fast_counters()) {
        EXPECT_NE(doc.find("`" + std::string(c.name) + "`", tiers), std::string::npos) << c.name;
    }
}

}  // namespace
}  // namespace rdmadiag::sources
