#include "collector/sources/netlink/nl_transport.hpp"

#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "collector/common/unique_fd.hpp"
#include "collector/sources/netlink/nl_message.hpp"

namespace rdmadiag::netlink {

namespace {

constexpr size_t kMaxDumpBytes = 64u << 20;

}  // namespace

Result<NlTransport> open_netlink(int protocol, const std::string& what) {
    // Shared: the transport is a copyable std::function, and the socket (and the receive buffer,
    // allocated once for every exchange) goes with its last copy.
    struct Socket {
        common::UniqueFd fd;
        std::vector<uint8_t> buf;
    };
    auto sock = std::make_shared<Socket>(
        Socket{common::UniqueFd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol)),
               std::vector<uint8_t>(1 << 16)});
    if (!sock->fd) {
        int e = errno;
        return make_error(
            what + " unavailable: " + std::strerror(e) +
                (e == EPROTONOSUPPORT && protocol == NETLINK_RDMA ? " (ib_core not loaded)" : ""),
            e);
    }
    timeval tv{2, 0};  // a kernel that never answers must not hang the poll
    ::setsockopt(sock->fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    NlTransport t = [sock](std::span<const uint8_t> req) -> Result<std::vector<uint8_t>> {
        const int fd = sock->fd.get();
        sockaddr_nl kernel{};
        kernel.nl_family = AF_NETLINK;
        if (::sendto(fd, req.data(), req.size(), 0, reinterpret_cast<sockaddr*>(&kernel),
                     sizeof kernel) < 0) {
            return make_error(std::string("netlink send: ") + std::strerror(errno), errno);
        }
        std::vector<uint8_t> all;
        std::vector<uint8_t>& buf = sock->buf;
        while (!nl_dump_finished(all)) {
            ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
            if (n <= 0) {
                return make_error(std::string("netlink receive: ") + std::strerror(errno), errno);
            }
            // A socket kept open may still hold the end of an exchange that timed out: what does
            // not answer this request is left out (each datagram carries one request's messages).
            nlmsghdr first{};
            if (static_cast<size_t>(n) >= sizeof first && req.size() >= sizeof first) {
                nlmsghdr asked{};
                std::memcpy(&first, buf.data(), sizeof first);
                std::memcpy(&asked, req.data(), sizeof asked);
                if (first.nlmsg_seq != asked.nlmsg_seq) continue;
            }
            if (all.size() + static_cast<size_t>(n) > kMaxDumpBytes) {
                return make_error("netlink dump larger than 64 MiB");
            }
            all.insert(all.end(), buf.begin(), buf.begin() + n);
        }
        return all;
    };
    return t;
}

Result<NlTransport> open_rdma_netlink() {
    return open_netlink(NETLINK_RDMA, "RDMA netlink");
}

}  // namespace rdmadiag::netlink
