#pragma once
// The fronts (the connection gate, the TLS frontend) hand complete requests to CivetWeb, which
// listens on loopback only: the socket plumbing they share.

#include "collector/common/time.hpp"
#include "collector/runtime/epoll_loop.hpp"

namespace rdmadiag::api {

// Bounds every later blocking read and write on `fd` by `timeout`.
void set_socket_timeouts(int fd, Duration timeout);

// A connection to 127.0.0.1:`port` with `timeout` on its reads and writes; invalid when the
// listener does not answer.
common::UniqueFd connect_loopback_backend(int port, Duration timeout);

}  // namespace rdmadiag::api
