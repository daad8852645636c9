#include "collector/runtime/signal_watcher.hpp"

#include <gtest/gtest.h>
#include <signal.h>

namespace rdmadiag::runtime {
namespace {

TEST(SignalWatcher, TurnsSignalsIntoValues) {
    SignalWatcher w;
    EXPECT_FALSE(w.wait(Duration::zero()));
    ASSERT_EQ(raise(SIGHUP), 0);
    EXPECT_EQ(w.wait(std::chrono::seconds(5)), DaemonSignal::reload);
    ASSERT_EQ(raise(SIGTERM), 0);
    EXPECT_EQ(w.wait(std::chrono::seconds(5)), DaemonSignal::terminate);
    ASSERT_EQ(raise(SIGINT), 0);
    EXPECT_EQ(w.wait(std::chrono::seconds(5)), DaemonSignal::terminate);
}

TEST(SignalWatcher, RestoresTheSignalMask) {
    { SignalWatcher w; }
    sigset_t current;
    ASSERT_EQ(pthread_sigmask(SIG_BLOCK, nullptr, &current), 0);
    EXPECT_EQ(sigismember(&current, SIGTERM), 0);
    EXPECT_EQ(sigismember(&current, SIGHUP), 0);
}

}  // namespace
}  // namespace rdmadiag::runtime
