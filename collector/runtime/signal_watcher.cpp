#include "collector/runtime/signal_watcher.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace rdmadiag::runtime {

static_assert(sizeof(sigset_t) <= 128, "sigset_t larger than expected");

SignalWatcher::SignalWatcher() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigset_t old;
    if (int e = pthread_sigmask(SIG_BLOCK, &set, &old); e != 0)
        throw std::system_error(e, std::generic_category(), "pthread_sigmask");
    std::memcpy(old_mask_, &old, sizeof old);
    restore_ = true;
    fd_ = common::UniqueFd(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    if (!fd_) throw std::system_error(errno, std::generic_category(), "signalfd");
}

SignalWatcher::~SignalWatcher() {
    if (restore_) {
        sigset_t old;
        std::memcpy(&old, old_mask_, sizeof old);
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
    }
}

std::optional<DaemonSignal> SignalWatcher::wait(Duration timeout) {
    pollfd p{fd_.get(), POLLIN, 0};
    int ms = timeout < Duration::zero()
                 ? -1
                 : static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(timeout).count());
    int n = ::poll(&p, 1, ms);
    if (n <= 0) return std::nullopt;
    signalfd_siginfo info{};
    if (::read(fd_.get(), &info, sizeof info) != static_cast<ssize_t>(sizeof info))
        return std::nullopt;
    if (info.ssi_signo == SIGHUP) return DaemonSignal::reload;
    return DaemonSignal::terminate;
}

}  // namespace rdmadiag::runtime
