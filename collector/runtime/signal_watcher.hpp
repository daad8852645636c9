#pragma once
// Turns SIGTERM, SIGINT and SIGHUP into values the main thread waits for (signalfd), so shutdown
// and reload run as ordinary code instead of inside a signal handler. The signals are blocked in
// the constructing thread, which must be the main thread before any other thread starts, so
// every later thread inherits the mask.

#include <optional>

#include "collector/runtime/epoll_loop.hpp"

namespace rdmadiag::runtime {

enum class DaemonSignal { terminate, reload };

class SignalWatcher {
public:
    SignalWatcher();  // throws std::system_error on failure
    ~SignalWatcher();
    SignalWatcher(const SignalWatcher&) = delete;
    SignalWatcher& operator=(const SignalWatcher&) = delete;

    // Waits for the next signal (timeout < 0: forever); nothing on timeout.
    std::optional<DaemonSignal> wait(Duration timeout);
    int fd() const { return fd_.get(); }

private:
    common::UniqueFd fd_;
    bool restore_ = false;
    unsigned char old_mask_[128];  // sigset_t, kept opaque to spare includers <signal.h>
};

}  // namespace rdmadiag::runtime
