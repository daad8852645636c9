#include "collector/common/parse_number.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace rdmadiag::common {
namespace {

TEST(ParseNumber, TakesTheWholeTextInItsBase) {
    EXPECT_EQ(parse_number<unsigned>("42"), 42u);
    EXPECT_EQ(parse_number<uint64_t>("ffffffffffffffff", 16), UINT64_MAX);
    EXPECT_EQ(parse_number<unsigned>("0660", 8), 0660u);
    EXPECT_EQ(parse_number<int>("-7"), -7);
    EXPECT_EQ(parse_number<uint16_t>("FfFf", 16), 0xffff);
}

TEST(ParseNumber, AnythingButDigitsIsNoNumber) {
    for (const char* text : {"", " 1", "1 ", "+1", "1x", "0x10", "1.5", "-"}) {
        EXPECT_FALSE(parse_number<unsigned>(text)) << text;
    }
    EXPECT_FALSE(parse_number<unsigned>("-1")) << "no sign on an unsigned type";
    EXPECT_FALSE(parse_number<unsigned>("8", 8));
    EXPECT_FALSE(parse_number<unsigned>("g", 16));
}

TEST(ParseNumber, OverflowIsAnErrorNotAWrap) {
    EXPECT_EQ(parse_number<uint8_t>("255"), 255);
    EXPECT_FALSE(parse_number<uint8_t>("256"));
    EXPECT_FALSE(parse_number<uint64_t>("18446744073709551616"));
    EXPECT_FALSE(parse_number<int8_t>("-129"));
    EXPECT_EQ(parse_number<int8_t>("-128"), -128);
}

TEST(TakeNumber, TakesTheLeadingNumberAndMovesPastIt) {
    std::string_view text = "12:34";
    EXPECT_EQ(take_number<unsigned>(text), 12u);
    EXPECT_EQ(text, ":34");
    EXPECT_FALSE(take_number<unsigned>(text));
    EXPECT_EQ(text, ":34") << "unchanged when there is no number";
    text = "ff rest";
    EXPECT_EQ(take_number<unsigned>(text, 16), 0xffu);
    EXPECT_EQ(text, " rest");
    text = "300x";
    EXPECT_FALSE(take_number<uint8_t>(text));
    EXPECT_EQ(text, "300x") << "unchanged on overflow";
}

TEST(TakeNumber, ReadsFloatingPointInDecimalOrScientificNotation) {
    std::string_view text = "1.5ms";
    EXPECT_EQ(take_number<double>(text), 1.5);
    EXPECT_EQ(text, "ms");
    text = "2e3s";
    EXPECT_EQ(take_number<double>(text), 2000.0);
    EXPECT_EQ(text, "s");
    text = "ms";
    EXPECT_FALSE(take_number<double>(text));
    EXPECT_EQ(text, "ms");
}

TEST(TakeHexPrefix, TakesEitherCase) {
    std::string_view text = "0x1f";
    EXPECT_TRUE(take_hex_prefix(text));
    EXPECT_EQ(text, "1f");
    text = "0X1F";
    EXPECT_TRUE(take_hex_prefix(text));
    EXPECT_EQ(text, "1F");
    text = "01f";
    EXPECT_FALSE(take_hex_prefix(text));
    EXPECT_EQ(text, "01f");
    text = "0x";
    EXPECT_TRUE(take_hex_prefix(text));
    EXPECT_EQ(text, "");
}

TEST(ParseCNumber, HexOctalOrDecimalAsStrtoullReadsThem) {
    EXPECT_EQ(parse_c_number("0x8001"), 0x8001u);
    EXPECT_EQ(parse_c_number("0X0002C903000E0B72"), 0x0002c903000e0b72u);
    EXPECT_EQ(parse_c_number("0777"), 0777u);
    EXPECT_EQ(parse_c_number("0"), 0u);
    EXPECT_EQ(parse_c_number("32769"), 32769u);
    for (const char* text : {"", "0x", "08", "0x1g", "1e3", "0x10000000000000000", "-1"}) {
        EXPECT_FALSE(parse_c_number(text)) << text;
    }
}

}  // namespace
}  // namespace rdmadiag::common
