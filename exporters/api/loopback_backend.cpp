#include "exporters/api/loopback_backend.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <cstdint>

namespace rdmadiag::api {

void set_socket_timeouts(int fd, Duration timeout) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(timeout).count();
    timeval tv{static_cast<time_t>(us / 1'000'000), static_cast<suseconds_t>(us % 1'000'000)};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

common::UniqueFd connect_loopback_backend(int port, Duration timeout) {
    common::UniqueFd backend(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!backend) return backend;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    set_socket_timeouts(backend.get(), timeout);
    if (::connect(backend.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
        return common::UniqueFd();
    return backend;
}

}  // namespace rdmadiag::api
