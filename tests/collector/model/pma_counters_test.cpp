#include "collector/model/pma_counters.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

namespace rdmadiag {
namespace {

TEST(PmaCounters, EachCounterIsDescribedOncePerAttribute) {
    std::set<std::tuple<CounterKind, std::string, PmaAttribute>> seen;
    for (const auto& c : pma_counters()) {
        EXPECT_TRUE(seen.emplace(c.kind, std::string(c.name), c.attribute).second) << c.name;
    }
}

TEST(PmaCounters, FieldsLieInsideTheirAttributeInLayoutOrder) {
    for (auto attribute : {PmaAttribute::port_counters, PmaAttribute::port_counters_ext}) {
        const size_t size = attribute == PmaAttribute::port_counters ? 44 : 72;
        unsigned last_bit = 0;
        for (const auto& f : pma_counters_of(attribute)) {
            const unsigned end = f.bits >= 8 ? (f.offset + f.bits / 8u) * 8u : (f.offset + 1u) * 8u;
            EXPECT_LE(end, size * 8) << f.name;
            const unsigned first = f.offset * 8u + (f.bits >= 8 ? 0u : 8u - f.shift - f.bits);
            EXPECT_GE(first, last_bit) << f.name;
            last_bit = first + f.bits;
        }
    }
}

TEST(PmaCounters, FastCountersAreNarrowAndFindingsReadViolations) {
    for (const auto& c : pma_counters()) {
        if (!c.fast) continue;
        EXPECT_LT(c.bits, 32) << c.name;
        if (*c.fast == FastReason::finding) {
            EXPECT_TRUE(c.pkey_violation) << c.name;
        }
        EXPECT_FALSE(c.link_error && c.pkey_violation) << c.name;
    }
}

TEST(PmaCounters, FindsByKindAndName) {
    const auto* symbol = find_pma_counter(CounterKind::pma, "symbol_error");
    ASSERT_NE(symbol, nullptr);
    EXPECT_EQ(symbol->bits, 16);
    EXPECT_TRUE(symbol->link_error);
    // The first is the PortCounters field; counter_width() says what sysfs shows.
    const auto* data = find_pma_counter(CounterKind::pma, "port_xmit_data");
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(data->attribute, PmaAttribute::port_counters);
    EXPECT_EQ(data->bits, 32);
    EXPECT_EQ(counter_width(CounterKind::pma, "port_xmit_data"), 64);
    EXPECT_EQ(find_pma_counter(CounterKind::hw, "link_downed"), nullptr);
    EXPECT_NE(find_pma_counter(CounterKind::portinfo, "p_key_violations"), nullptr);
}

TEST(PmaCounters, LinkErrorsAreTheSummarysCounters) {
    for (const char* name : {"symbol_error", "link_error_recovery", "link_downed",
                             "port_rcv_errors", "port_xmit_discards", "local_link_integrity_errors",
                             "excessive_buffer_overrun_errors", "VL15_dropped"}) {
        EXPECT_TRUE(is_link_error_counter(name)) << name;
    }
    for (const char* name :
         {"port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors",
          "port_rcv_constraint_errors", "p_key_violations", "port_xmit_data", "vl15_dropped"}) {
        EXPECT_FALSE(is_link_error_counter(name)) << name;
    }
}

}  // namespace
}  // namespace rdmadiag
