#pragma once
// One epoll instance for every event source's descriptors, plus an eventfd so another thread
// can wake the loop (to stop it, or because a refresh was requested). Move-only RAII.

#include <cstdint>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "collector/common/unique_fd.hpp"

namespace rdmadiag::runtime {

class EpollLoop {
public:
    // Throws std::system_error when the kernel refuses epoll or eventfd (start-up error).
    EpollLoop();

    // Watches `fd` for input; `tag` comes back with it.
    Result<void> add(int fd, uint64_t tag);
    Result<void> remove(int fd);

    // Waits up to `timeout` (negative: forever) and returns the tags of the ready descriptors.
    // A wake() makes it return early; wake-ups are not reported as tags.
    std::vector<uint64_t> wait(Duration timeout);
    // Thread-safe and async-signal-safe.
    void wake() const;
    size_t watched() const { return watched_; }

private:
    common::UniqueFd epoll_;
    common::UniqueFd wake_;
    size_t watched_ = 0;
};

}  // namespace rdmadiag::runtime
