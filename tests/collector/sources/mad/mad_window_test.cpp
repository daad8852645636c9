#include "collector/sources/mad/mad_window.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::mad {
namespace {

TEST(MadWindow, StartsAtItsInitialSizeWithinTheCeiling) {
    EXPECT_EQ(MadWindow(8, 2).limit(), 2u);
    EXPECT_EQ(MadWindow(8, 20).limit(), 8u);
    EXPECT_EQ(MadWindow(0, 0).limit(), 1u) << "a window never stops a target";
}

TEST(MadWindow, DoublesPerRoundTripUntilTheFirstLossThenGrowsByOne) {
    MadWindow w(64, 2);
    for (int i = 0; i < 2; ++i) w.on_answer();  // one round trip of a 2-MAD window
    EXPECT_EQ(w.limit(), 4u);
    for (int i = 0; i < 4; ++i) w.on_answer();
    EXPECT_EQ(w.limit(), 8u);
    ASSERT_TRUE(w.on_loss(10, 11));
    const unsigned after_loss = w.limit();
    EXPECT_EQ(after_loss, 5u);  // 8 * 0.7
    for (unsigned i = 0; i < after_loss; ++i) w.on_answer();
    EXPECT_EQ(w.limit(), after_loss + 1) << "one MAD more per window of answers";
}

TEST(MadWindow, NeverExceedsItsCeiling) {
    MadWindow w(4, 1);
    for (int i = 0; i < 100; ++i) w.on_answer();
    EXPECT_EQ(w.limit(), 4u);
}

TEST(MadWindow, LossesOfOneBurstCutOnce) {
    MadWindow w(16, 16);
    ASSERT_TRUE(w.on_loss(5, 20));
    const unsigned cut = w.limit();
    EXPECT_FALSE(w.on_loss(6, 21)) << "sent before the cut: the same congestion event";
    EXPECT_FALSE(w.on_loss(19, 22));
    EXPECT_EQ(w.limit(), cut);
    EXPECT_TRUE(w.on_loss(20, 23)) << "sent after the cut: a new event";
    EXPECT_LT(w.limit(), cut);
}

TEST(MadWindow, NeverFallsBelowOne) {
    MadWindow w(4, 4);
    for (uint64_t i = 0; i < 20; ++i) w.on_loss(i * 2, i * 2 + 1);
    EXPECT_EQ(w.limit(), 1u);
}

}  // namespace
}  // namespace rdmadiag::mad
