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
    explicit RawConnection(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    }
    ~RawConnection() {
        if (fd_ >= 0) ::close(fd_);
    }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool connected() const { return connected_; }
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

inline std::string http_exchange(int port, const std::string& request) {
    RawConnection c(port);
    if (!c.connected() || !c.send(request)) return "";
    return c.read_all(std::chrono::seconds(10));
}

}  // namespace rdmadiag::testing
