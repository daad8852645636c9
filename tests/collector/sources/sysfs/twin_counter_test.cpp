#include "collector/sources/sysfs/twin_counter.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace rdmadiag::sysfs {
namespace {

TEST(TwinCounter, StartsAtTheLargerFile) {
    TwinCounter t;
    EXPECT_EQ(t.update(0, 4631917), 4631917u);
    TwinCounter u;
    EXPECT_EQ(u.update(6825908347ULL, 0), 6825908347ULL);
}

TEST(TwinCounter, NothingWhenNeitherFileHasAValue) {
    TwinCounter t;
    EXPECT_EQ(t.update(std::nullopt, std::nullopt), std::nullopt);
    EXPECT_EQ(t.update(std::nullopt, 7), 7u);
}

TEST(TwinCounter, AFileMissingForAPollCostsNothingAfter) {
    TwinCounter t;
    EXPECT_EQ(t.update(100, 100), 100u);
    EXPECT_EQ(t.update(std::nullopt, 150), 150u);
    // counters/ is back with the value it has now: not a rise of 100 on top.
    EXPECT_EQ(t.update(200, 200), 200u);
}

TEST(TwinCounter, AResetOfBothCountsOnFromWhereItWas) {
    TwinCounter t;
    EXPECT_EQ(t.update(1000, 1000), 1000u);
    EXPECT_EQ(t.update(10, 10), 1010u);
    EXPECT_EQ(t.update(30, 30), 1030u);
}

TEST(TwinCounter, AStuckFileAboveTheLiveOneAfterAResetAddsNothing) {
    TwinCounter t;
    EXPECT_EQ(t.update(5000, 4000), 5000u);  // counters_ext/ stuck at 4000
    EXPECT_EQ(t.update(100, 4000), 5100u);   // counters/ reset, counts again
    EXPECT_EQ(t.update(300, 4000), 5300u);
}

TEST(TwinCounter, ASaturated32BitFileBesideTheLive64BitOne) {
    TwinCounter t;
    constexpr uint64_t kSaturated = 4294967295ULL;
    EXPECT_EQ(t.update(kSaturated, 48318382080ULL), 48318382080ULL);
    EXPECT_EQ(t.update(kSaturated, 48318383080ULL), 48318383080ULL);
}

TEST(TwinCounter, NeverWrapsPastTheTop) {
    TwinCounter t;
    constexpr uint64_t kTop = std::numeric_limits<uint64_t>::max();
    EXPECT_EQ(t.update(kTop - 1, 0), kTop - 1);
    EXPECT_EQ(t.update(5, 0), kTop);
    EXPECT_EQ(t.update(10, 0), kTop);
}

}  // namespace
}  // namespace rdmadiag::sysfs
