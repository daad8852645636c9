#pragma once
// What a probe client says on its socket: fixed-size messages (rdmadiag_probe_msg), a ring
// message carrying the ring's memfd (SCM_RIGHTS), a device message naming a device index, a
// doorbell asking for a drain now (counted in the client's `doorbells`). Each
// message is checked before it is believed: a malformed or unknown one counts against the
// client's bad-message budget, and a client that overruns a bound, or hands over a ring that
// already lies about its contents, is cut off.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/probe/include/rdmadiag_probe_layout.h"
#include "collector/probe/probe_client.hpp"
#include "collector/probe/probe_limits.hpp"

namespace rdmadiag::probe {

// The descriptors one message carried, whatever it was: they are closed with it, so that a
// message that is refused (or one that only looks like the end of the stream) leaks none.
class CarriedFds {
public:
    CarriedFds() = default;
    explicit CarriedFds(std::vector<int> fds) : fds_(std::move(fds)) {}
    CarriedFds(CarriedFds&& other) noexcept : fds_(std::move(other.fds_)) { other.fds_.clear(); }
    CarriedFds& operator=(CarriedFds&& other) noexcept;
    CarriedFds(const CarriedFds&) = delete;
    CarriedFds& operator=(const CarriedFds&) = delete;
    ~CarriedFds();

    size_t size() const { return fds_.size(); }
    bool empty() const { return fds_.empty(); }
    int operator[](size_t i) const { return fds_[i]; }

private:
    void close_all();
    std::vector<int> fds_;
};

struct ProbeMessage {
    size_t length = 0;       // bytes received; 0 reads as the client having left
    bool truncated = false;  // it had more bytes or descriptors than fit
    rdmadiag_probe_msg body{};
    CarriedFds fds;
};

// The next message waiting on connected socket `fd`; nullopt when none is waiting.
Result<std::optional<ProbeMessage>> receive_probe_message(int fd);

// What one message did: added a ring, was bad (counted, tolerated up to the bound), or got
// the client cut off (`cut_off` is the reason). A bad message over the bound is both.
struct MessageEffect {
    bool ring_added = false;
    bool doorbell = false;
    bool bad = false;
    std::string cut_off;
};
MessageEffect apply_probe_message(ProbeClient& c, const ProbeMessage& m, const ProbeLimits& limits);

// Reads and applies every message waiting for the client. True while it stays connected, false
// when it has left; an error, the reason, when it must be cut off.
Result<bool> read_probe_messages(ProbeClient& c, const ProbeLimits& limits, ProbeStats& stats);

}  // namespace rdmadiag::probe
