#include "collector/sources/mad/link_rate.hpp"

#include <gtest/gtest.h>

#include "collector/sources/sysfs/sysfs_parsers.hpp"

namespace rdmadiag::mad {
namespace {

TEST(LinkRate, InTheKernelsWords) {
    EXPECT_EQ(link_rate_text(2, 4, 2), "100 Gb/sec (4X EDR)");
    EXPECT_EQ(link_rate_text(2, 4, 1), "56 Gb/sec (4X FDR)");
    EXPECT_EQ(link_rate_text(2, 4, 4), "200 Gb/sec (4X HDR)");
    EXPECT_EQ(link_rate_text(2, 4, 8), "400 Gb/sec (4X NDR)");
    EXPECT_EQ(link_rate_text(16, 4, 8), "200 Gb/sec (2X NDR)");
    EXPECT_EQ(link_rate_text(8, 4, 4), "600 Gb/sec (12X HDR)");
    EXPECT_EQ(link_rate_text(2, 4, 0), "40 Gb/sec (4X QDR)");
    EXPECT_EQ(link_rate_text(1, 1, 0), "2.5 Gb/sec (1X SDR)");
    EXPECT_EQ(link_rate_text(8, 1, 0), "30 Gb/sec (12X SDR)");
    EXPECT_EQ(link_rate_text(4, 2, 0), "40 Gb/sec (8X DDR)");
}

TEST(LinkRate, Fdr10IsAQdrLinkThatMellanoxsAttributeNames) {
    EXPECT_EQ(link_rate_text(2, 4, 0, true), "40 Gb/sec (4X FDR10)");
    EXPECT_EQ(link_rate_text(1, 4, 0, true), "10 Gb/sec (1X FDR10)");
    EXPECT_TRUE(sysfs::parse_rate("40 Gb/sec (4X FDR10)\n").ok());
    // Only a link PortInfo reports as QDR can be FDR10.
    EXPECT_EQ(link_rate_text(2, 4, 1, true), "56 Gb/sec (4X FDR)");
    EXPECT_EQ(link_rate_text(2, 1, 0, true), "10 Gb/sec (4X SDR)");
}

TEST(LinkRate, NoRateForValuesThatAreNotOneKnownSetting) {
    EXPECT_FALSE(link_rate_text(0, 4, 2)) << "no width";
    EXPECT_FALSE(link_rate_text(3, 4, 2)) << "two widths";
    EXPECT_FALSE(link_rate_text(2, 0, 0)) << "no speed";
    EXPECT_FALSE(link_rate_text(2, 4, 3)) << "two extended speeds";
    EXPECT_FALSE(link_rate_text(2, 8, 0)) << "a speed bit without a name";
}

TEST(LinkRate, ReadsBackAsTheSysfsRate) {
    for (uint8_t w : {1, 2, 4, 8, 16}) {
        for (uint8_t ext : {0, 1, 2, 4, 8}) {
            auto text = link_rate_text(w, 4, ext);
            ASSERT_TRUE(text);
            EXPECT_TRUE(sysfs::parse_rate(*text + "\n").ok()) << *text;
        }
    }
}

}  // namespace
}  // namespace rdmadiag::mad
