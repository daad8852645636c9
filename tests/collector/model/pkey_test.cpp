#include "collector/model/pkey.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TEST(PKey, MembershipAndBase) {
    EXPECT_TRUE(pkey_is_full(0xffff));
    EXPECT_FALSE(pkey_is_full(0x7fff));
    EXPECT_EQ(pkey_base(0x8001), 0x0001);
    EXPECT_TRUE(pkey_is_empty(0x0000));
    EXPECT_TRUE(pkey_is_empty(0x8000));
    EXPECT_FALSE(pkey_is_empty(0x0001));
}

TEST(PKey, ParsesSysfsAndUserForms) {
    EXPECT_EQ(*parse_pkey("0xffff"), 0xffff);
    EXPECT_EQ(*parse_pkey("0x8001"), 0x8001);
    EXPECT_EQ(*parse_pkey("8001"), 0x8001);  // four digits read as hex, as tools print them
    EXPECT_EQ(*parse_pkey("32769"), 32769);
    EXPECT_FALSE(parse_pkey("0x10000").ok());
    EXPECT_FALSE(parse_pkey("0x").ok());
    EXPECT_FALSE(parse_pkey("zz").ok());
    EXPECT_EQ(format_pkey(0x8001), "0x8001");
}

TEST(PKey, ViewNamesRoundTrip) {
    for (auto v : kAllPKeyViews) EXPECT_EQ(parse_pkey_view(to_string(v)), v);
    EXPECT_FALSE(parse_pkey_view("kernel").has_value());
}

TEST(PKeyTable, UsedCountsReadableNonEmptySlots) {
    PKeyTable t{{0xffff, 0x0000, 0x8001, 0x0002}, {3}};
    EXPECT_EQ(t.used(), 2u);
    EXPECT_FALSE(t.complete());
}

}  // namespace
}  // namespace rdmadiag
