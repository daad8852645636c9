#include "collector/common/unique_fd.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace rdmadiag::common {
namespace {

bool is_open(int fd) {
    return ::fcntl(fd, F_GETFD) != -1;
}

TEST(UniqueFd, ClosesOnDestructionAndMoves) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ::close(fds[1]);
    {
        UniqueFd a(fds[0]);
        UniqueFd b(std::move(a));
        EXPECT_FALSE(a);
        EXPECT_FALSE(a.valid());
        EXPECT_EQ(b.get(), fds[0]);
        EXPECT_TRUE(is_open(fds[0]));
    }
    EXPECT_FALSE(is_open(fds[0]));
}

TEST(UniqueFd, MoveAssignmentClosesTheDescriptorItReplaces) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    UniqueFd a(fds[0]);
    UniqueFd b(fds[1]);
    a = std::move(b);
    EXPECT_FALSE(is_open(fds[0]));
    EXPECT_EQ(a.get(), fds[1]);
    a.reset();
    EXPECT_FALSE(is_open(fds[1]));
    EXPECT_FALSE(a);
}

TEST(UniqueFd, ReleaseGivesTheDescriptorUpWithoutClosingIt) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    int kept = -1;
    {
        UniqueFd a(fds[0]);
        kept = a.release();
        EXPECT_FALSE(a);
    }
    EXPECT_TRUE(is_open(kept));
    ::close(kept);
    ::close(fds[1]);
}

TEST(UniqueFd, HoldsNothingByDefault) {
    UniqueFd none;
    EXPECT_EQ(none.get(), -1);
    EXPECT_FALSE(none.valid());
}

}  // namespace
}  // namespace rdmadiag::common
