#pragma once
// A deliberately dumb HTTP client for server tests: it sends exactly the bytes it is given (so a
// test can send garbage, oversized heads or half a request) and reads until the server closes.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace rdmadiag::testing {

class RawConnection {
public:
    // `host` is an IPv4 or IPv6 literal.
    explicit RawConnection(int port, const std::string& host = "127.0.0.1") {
        sockaddr_storage addr{};
        socklen_t len = 0;
        auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
        auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
        if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
            v4->sin_family = AF_INET;
            v4->sin_port = htons(static_cast<uint16_t>(port));
            len = sizeof *v4;
        } else if (inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
            v6->sin6_family = AF_INET6;
            v6->sin6_port = htons(static_cast<uint16_t>(port));
            len = sizeof *v6;
        } else {
            return;
        }
        fd_ = ::socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), len) == 0;
    }
    ~RawConnection() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool connected() const { return connected_; }
    int fd() const { return fd_; }
    bool send(const std::string& bytes) {
        size_t off = 0;
        while (off < bytes.size()) {
            ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
            if (n <= 0) return false;
            off += static_cast<size_t>(n);
        }
        return true;
    }
    // Reads until the peer closes or `limit` passes; `closed` says which.
    std::string read_all(std::chrono::milliseconds limit, bool* closed = nullptr) {
        std::string out;
        auto deadline = std::chrono::steady_clock::now() + limit;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) break;
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
            char buf[8192];
            ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) {
                if (closed) *closed = true;
                return out;
            }
            out.append(buf, static_cast<size_t>(n));
        }
        if (closed) *closed = false;
        return out;
    }

private:
    int fd_ = -1;
    bool connected_ = false;
};

inline int status_of(const std::string& response) {
    if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return -1;
    return std::stoi(response.substr(9, 3));
}

inline std::string body_of(const std::string& response) {
    auto p = response.find("\r\n\r\n");
    return p == std::string::npos ? "" : response.substr(p + 4);
}

// The value of header `name` (as the server spells it) in a raw response; empty when absent.
inline std::string header_of(const std::string& response, const std::string& name) {
    const std::string head = response.substr(0, response.find("\r\n\r\n"));
    const std::string key = "\r\n" + name + ": ";
    auto p = head.find(key);
    if (p == std::string::npos) return "";
    p += key.size();
    return head.substr(p, head.find("\r\n", p) - p);
}

inline std::string http_exchange(int port, const std::string& request,
                                 const std::string& host = "127.0.0.1") {
    RawConnection c(port, host);
    if (!c.connected() || !c.send(request)) return "";
    return c.read_all(std::chrono::seconds(10));
}

}  // namespace rdmadiag::testing
