#include "collector/runtime/epoll_loop.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace rdmadiag::runtime {
namespace {

struct Pipe {
    Pipe() { EXPECT_EQ(::pipe(fds), 0); }
    ~Pipe() {
        ::close(fds[0]);
        ::close(fds[1]);
    }
    int fds[2];
};

TEST(EpollLoop, ReportsTheTagOfAReadableDescriptor) {
    EpollLoop loop;
    Pipe a, b;
    ASSERT_TRUE(loop.add(a.fds[0], 7).ok());
    ASSERT_TRUE(loop.add(b.fds[0], 9).ok());
    ASSERT_EQ(::write(b.fds[1], "x", 1), 1);
    auto ready = loop.wait(std::chrono::seconds(5));
    EXPECT_EQ(ready, std::vector<uint64_t>{9});
    EXPECT_EQ(loop.watched(), 2u);
}

TEST(EpollLoop, WakeReturnsEarlyWithNothingReady) {
    EpollLoop loop;
    loop.wake();
    auto ready = loop.wait(std::chrono::hours(1));  // returns at once: the wake is pending
    EXPECT_TRUE(ready.empty());
}

TEST(EpollLoop, WakeFromAnotherThreadEndsAnInfiniteWait) {
    EpollLoop loop;
    std::thread t([&] { loop.wake(); });
    auto ready = loop.wait(Duration(-1));
    t.join();
    EXPECT_TRUE(ready.empty());
}

TEST(EpollLoop, ZeroTimeoutPollsWithoutBlocking) {
    EpollLoop loop;
    EXPECT_TRUE(loop.wait(Duration::zero()).empty());
}

TEST(EpollLoop, AddingABadDescriptorIsAnError) {
    EpollLoop loop;
    auto r = loop.add(-1, 1);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().code, 0);
    EXPECT_FALSE(loop.add(0, ~uint64_t{0}).ok());  // the wake tag is reserved
}

TEST(EpollLoop, RemovedDescriptorsAreNoLongerReported) {
    EpollLoop loop;
    Pipe a;
    ASSERT_TRUE(loop.add(a.fds[0], 1).ok());
    ASSERT_TRUE(loop.remove(a.fds[0]).ok());
    ASSERT_EQ(::write(a.fds[1], "x", 1), 1);
    EXPECT_TRUE(loop.wait(Duration::zero()).empty());
    EXPECT_EQ(loop.watched(), 0u);
}

}  // namespace
}  // namespace rdmadiag::runtime
