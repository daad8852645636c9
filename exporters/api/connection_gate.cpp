#include "exporters/api/connection_gate.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "exporters/api/loopback_backend.hpp"
#include "exporters/api/tls_frontend.hpp"

namespace rdmadiag::api {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr uint64_t kListenTag = ~uint64_t{0};
constexpr uint64_t kWakeTag = kListenTag - 1;
// Descriptors kept free for everything else the daemon opens (sources, relays, CivetWeb).
constexpr size_t kReservedFds = 256;

bool parse_port(std::string_view p, uint16_t& out) {
    unsigned v = 0;
    auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (p.empty() || ec != std::errc() || ptr != p.data() + p.size() || v > 65535) return false;
    out = static_cast<uint16_t>(v);
    return true;
}

// HOST:PORT, :PORT, PORT or [V6]:PORT, as the listener has always taken them.
Result<sockaddr_storage> parse_address(const std::string& address, socklen_t& len) {
    sockaddr_storage out{};
    auto bad = [&] { return make_error("listen address '" + address + "': expected HOST:PORT"); };
    if (!address.empty() && address.front() == '[') {
        size_t close = address.find("]:");
        auto* a = reinterpret_cast<sockaddr_in6*>(&out);
        a->sin6_family = AF_INET6;
        uint16_t port = 0;
        if (close == std::string::npos ||
            !parse_port(std::string_view(address).substr(close + 2), port) ||
            inet_pton(AF_INET6, address.substr(1, close - 1).c_str(), &a->sin6_addr) != 1) {
            return bad();
        }
        a->sin6_port = htons(port);
        len = sizeof *a;
        return out;
    }
    size_t colon = address.rfind(':');
    std::string host = colon == std::string::npos ? "" : address.substr(0, colon);
    uint16_t port = 0;
    if (!parse_port(colon == std::string::npos ? address : address.substr(colon + 1), port))
        return bad();
    auto* a = reinterpret_cast<sockaddr_in*>(&out);
    a->sin_family = AF_INET;
    a->sin_port = htons(port);
    if (host.empty()) {
        a->sin_addr.s_addr = htonl(INADDR_ANY);
    } else if (inet_pton(AF_INET, host.c_str(), &a->sin_addr) != 1) {
        return bad();
    }
    len = sizeof *a;
    return out;
}

std::string status_reply(int status, std::string_view reason) {
    std::string body =
        "{\"error\":\"" + std::string(reason) + "\",\"status\":" + std::to_string(status) + "}\n";
    return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
}

std::string_view reason_of(int status) {
    switch (status) {
        case 400:
            return "Bad Request";
        case 408:
            return "Request Timeout";
        case 431:
            return "Request Header Fields Too Large";
        default:
            return "Service Unavailable";
    }
}

bool write_all(int fd, const char* data, size_t n, SteadyClock::time_point deadline) {
    while (n > 0) {
        if (SteadyClock::now() > deadline) return false;
        ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
        if (w <= 0) return false;
        data += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

}  // namespace

ConnectionGate::ConnectionGate(ConnectionGateOptions options) : options_(std::move(options)) {}

ConnectionGate::~ConnectionGate() {
    stop();
}

Result<void> ConnectionGate::start() {
    socklen_t len = 0;
    auto addr = parse_address(options_.listen_address, len);
    if (!addr) return addr.error();
    // Each pending client is a descriptor, and may be another while it waits for a relay: ask
    // for what that takes, as far as the hard limit allows, and fit the bound to what we got.
    rlimit nofile{};
    max_pending_ = options_.max_pending;
    const rlim_t wanted = static_cast<rlim_t>(max_pending_ * 2 + kReservedFds);
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < wanted) {
        nofile.rlim_cur =
            nofile.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, nofile.rlim_max);
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY) {
        size_t room = nofile.rlim_cur > kReservedFds * 2 ? nofile.rlim_cur - kReservedFds
                                                         : nofile.rlim_cur / 2;
        max_pending_ = std::min(max_pending_, room / 2);  // a pending fd may also wait in ready_
    }
    max_pending_ = std::max<size_t>(max_pending_, 1);

    listen_ =
        common::UniqueFd(::socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    int one = 1;
    setsockopt(listen_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (addr->ss_family == AF_INET6) setsockopt(listen_.get(), IPPROTO_IPV6, IPV6_V6ONLY, &one, 4);
    if (!listen_ || ::bind(listen_.get(), reinterpret_cast<sockaddr*>(&*addr), len) != 0 ||
        ::listen(listen_.get(), 1024) != 0) {
        int e = errno;
        listen_ = common::UniqueFd();
        return make_error("cannot listen on " + options_.listen_address + ": " + std::strerror(e),
                          e);
    }
    sockaddr_storage bound{};
    socklen_t blen = sizeof bound;
    getsockname(listen_.get(), reinterpret_cast<sockaddr*>(&bound), &blen);
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);

    epoll_ = common::UniqueFd(::epoll_create1(EPOLL_CLOEXEC));
    wake_ = common::UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = kListenTag;
    epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listen_.get(), &ev);
    ev.data.u64 = kWakeTag;
    epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, wake_.get(), &ev);

    stopping_ = false;
    for (size_t i = 0; i < std::max<size_t>(options_.relays, 1); ++i)
        relays_.emplace_back([this] { relay_loop(); });
    gate_ = std::thread([this] { gate_loop(); });
    return {};
}

void ConnectionGate::stop() {
    if (!gate_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    uint64_t one = 1;
    ssize_t r = ::write(wake_.get(), &one, sizeof one);
    (void)r;
    ready_cv_.notify_all();
    gate_.join();
    for (auto& t : relays_) t.join();
    relays_.clear();
    for (auto& [fd, p] : pending_) ::close(fd);
    pending_.clear();
    pending_at_.clear();
    for (auto& r2 : ready_) ::close(r2.fd);
    ready_.clear();
    listen_ = common::UniqueFd();
}

ConnectionGateStats ConnectionGate::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void ConnectionGate::count(uint64_t ConnectionGateStats::*field) {
    std::lock_guard lock(mutex_);
    ++(stats_.*field);
}

void ConnectionGate::close_pending(int fd, int status) {
    auto at = pending_at_.find(fd);
    if (at == pending_at_.end()) return;
    pending_.erase(at->second);
    pending_at_.erase(at);
    epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
    if (status != 0) {
        // Best effort and without blocking: a client that does not read its answer loses it.
        std::string r = status_reply(status, reason_of(status));
        ssize_t n = ::send(fd, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)n;
    }
    ::close(fd);
}

void ConnectionGate::accept_clients() {
    for (;;) {
        int fd = ::accept4(listen_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) {
                if (!pending_.empty()) {
                    count(&ConnectionGateStats::evicted);
                    close_pending(pending_.front().first, 0);
                    continue;
                }
                // Out of descriptors with nobody to drop: let the relays finish some work
                // rather than spin on a listener that stays readable.
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            return;
        }
        if (pending_.size() >= max_pending_) {
            count(&ConnectionGateStats::evicted);
            close_pending(pending_.front().first, 0);
        }
        count(&ConnectionGateStats::accepted);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP;
        ev.data.u64 = static_cast<uint64_t>(fd);
        if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) != 0) {
            ::close(fd);
            continue;
        }
        pending_.emplace_back(fd, Pending{{}, SteadyClock::now() + options_.timeout});
        pending_at_[fd] = std::prev(pending_.end());
    }
}

void ConnectionGate::read_head(int fd) {
    auto at = pending_at_.find(fd);
    if (at == pending_at_.end()) return;
    std::string& head = at->second->second.head;
    char buf[4096];
    for (;;) {
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            close_pending(fd, 0);  // gone before it finished asking
            return;
        }
        // Look for the blank line from just before the new bytes (it may straddle reads).
        size_t from = head.size() < 3 ? 0 : head.size() - 3;
        head.append(buf, static_cast<size_t>(n));
        size_t end = head.find("\r\n\r\n", from);
        // Control bytes (other than tab, CR, LF) never occur in an HTTP request head: this is
        // not HTTP (a TLS hello, a binary probe), so answer now rather than at the deadline.
        const size_t scan_end = end == std::string::npos ? head.size() : end;
        for (size_t i = head.size() - static_cast<size_t>(n); i < scan_end; ++i) {
            const auto c = static_cast<unsigned char>(head[i]);
            if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) {
                close_pending(fd, 400);
                return;
            }
        }
        if (end == std::string::npos && head.size() > options_.max_request_bytes) {
            count(&ConnectionGateStats::oversized);
            close_pending(fd, 431);
            return;
        }
        if (end == std::string::npos) continue;
        if (end + 4 > options_.max_request_bytes) {
            count(&ConnectionGateStats::oversized);
            close_pending(fd, 431);
            return;
        }
        std::string complete = std::move(head);
        pending_.erase(at->second);
        pending_at_.erase(at);
        epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
        std::unique_lock lock(mutex_);
        if (ready_.size() >= max_pending_) {
            ++stats_.busy;
            lock.unlock();
            std::string r = status_reply(503, reason_of(503));
            ssize_t w = ::send(fd, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
            (void)w;
            ::close(fd);
            return;
        }
        ready_.push_back(Ready{fd, std::move(complete)});
        lock.unlock();
        ready_cv_.notify_one();
        return;
    }
}

void ConnectionGate::gate_loop() {
    epoll_event events[64];
    while (!stopping_) {
        int wait_ms = -1;
        if (!pending_.empty()) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                pending_.front().second.deadline - SteadyClock::now());
            wait_ms = static_cast<int>(std::max<int64_t>(left.count() + 1, 0));
        }
        int n = epoll_wait(epoll_.get(), events, 64, wait_ms);
        for (int i = 0; i < n; ++i) {
            uint64_t tag = events[i].data.u64;
            if (tag == kWakeTag) continue;
            if (tag == kListenTag) {
                accept_clients();
            } else {
                read_head(static_cast<int>(tag));
            }
        }
        // Pending clients are in arrival order, so their deadlines are in order too.
        const auto now = SteadyClock::now();
        while (!pending_.empty() && pending_.front().second.deadline <= now) {
            const bool sent_something = !pending_.front().second.head.empty();
            count(&ConnectionGateStats::timed_out);
            close_pending(pending_.front().first, sent_something ? 408 : 0);
        }
    }
}

void ConnectionGate::relay_loop() {
    for (;;) {
        Ready r;
        {
            std::unique_lock lock(mutex_);
            ready_cv_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
            if (stopping_) return;
            r = std::move(ready_.front());
            ready_.pop_front();
        }
        relay(r.fd, std::move(r.head));
        ::close(r.fd);
    }
}

void ConnectionGate::relay(int client, std::string head) {
    const auto deadline = SteadyClock::now() + options_.timeout;
    int flags = fcntl(client, F_GETFL);
    fcntl(client, F_SETFL, flags & ~O_NONBLOCK);
    set_socket_timeouts(client, options_.timeout);
    size_t end = head.find("\r\n\r\n");
    auto stamped =
        TlsFrontend::stamp_request_head(std::string_view(head).substr(0, end + 2), options_.token);
    if (!stamped) {
        std::string reply = status_reply(400, reason_of(400));
        write_all(client, reply.data(), reply.size(), deadline);
        return;
    }
    *stamped += "\r\n";
    *stamped += head.substr(end + 4);  // body bytes, if any: the listener refuses them
    common::UniqueFd backend = connect_loopback_backend(options_.backend_port, options_.timeout);
    if (!backend || !write_all(backend.get(), stamped->data(), stamped->size(), deadline)) {
        std::string reply = status_reply(503, reason_of(503));
        write_all(client, reply.data(), reply.size(), deadline);
        return;
    }
    char buf[16384];
    for (;;) {
        ssize_t n = ::recv(backend.get(), buf, sizeof buf, 0);
        if (n <= 0 || !write_all(client, buf, static_cast<size_t>(n), deadline)) break;
    }
    count(&ConnectionGateStats::relayed);
}

}  // namespace rdmadiag::api
