#include "collector/runtime/epoll_loop.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace rdmadiag::runtime {

namespace {
constexpr uint64_t kWakeTag = ~uint64_t{0};
}

EpollLoop::EpollLoop()
    : epoll_(::epoll_create1(EPOLL_CLOEXEC)), wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (!epoll_) throw std::system_error(errno, std::generic_category(), "epoll_create1");
    if (!wake_) throw std::system_error(errno, std::generic_category(), "eventfd");
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kWakeTag;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, wake_.get(), &ev) != 0)
        throw std::system_error(errno, std::generic_category(), "epoll_ctl");
}

Result<void> EpollLoop::add(int fd, uint64_t tag) {
    if (tag == kWakeTag) return make_error("reserved epoll tag");
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = tag;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) != 0) {
        int e = errno;
        return make_error(
            std::string("epoll_ctl ADD fd ") + std::to_string(fd) + ": " + std::strerror(e), e);
    }
    ++watched_;
    return {};
}

Result<void> EpollLoop::remove(int fd) {
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr) != 0) {
        int e = errno;
        return make_error(std::string("epoll_ctl DEL: ") + std::strerror(e), e);
    }
    if (watched_ > 0) --watched_;
    return {};
}

std::vector<uint64_t> EpollLoop::wait(Duration timeout) {
    int ms = -1;
    if (timeout >= Duration::zero()) {
        auto rounded = std::chrono::ceil<std::chrono::milliseconds>(timeout).count();
        ms = rounded > 3'600'000 ? 3'600'000 : static_cast<int>(rounded);
    }
    epoll_event events[32];
    int n = ::epoll_wait(epoll_.get(), events, 32, ms);
    std::vector<uint64_t> ready;
    for (int i = 0; i < n; ++i) {
        // epoll_event is packed on x86-64: the tag is copied out before anything takes a
        // reference to it (push_back's), which would be a misaligned reference.
        const uint64_t tag = events[i].data.u64;
        if (tag == kWakeTag) {
            uint64_t count = 0;
            while (::read(wake_.get(), &count, sizeof count) > 0) {
            }
            continue;
        }
        ready.push_back(tag);
    }
    return ready;
}

void EpollLoop::wake() const {
    uint64_t one = 1;
    ssize_t r = ::write(wake_.get(), &one, sizeof one);
    (void)r;  // EAGAIN means a wake-up is already pending
}

}  // namespace rdmadiag::runtime
