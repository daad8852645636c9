#include "exporters/api/tls_frontend.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "exporters/api/loopback_backend.hpp"

namespace rdmadiag::api {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

bool write_all(int fd, const char* data, size_t n) {
    while (n > 0) {
        ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
        if (w <= 0) return false;
        data += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

bool ssl_write_all(SSL* ssl, const char* data, size_t n) {
    while (n > 0) {
        int w = SSL_write(ssl, data, static_cast<int>(std::min<size_t>(n, 1 << 30)));
        if (w <= 0) return false;
        data += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

void ssl_reply(SSL* ssl, int status, std::string_view reason) {
    std::string body =
        "{\"error\":\"" + std::string(reason) + "\",\"status\":" + std::to_string(status) + "}\n";
    std::string r =
        "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
        "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\nConnection: close\r\n\r\n" + body;
    ssl_write_all(ssl, r.data(), r.size());
}

Result<sockaddr_in> parse_ipv4(const std::string& address) {
    size_t colon = address.rfind(':');
    std::string host = colon == std::string::npos ? "" : address.substr(0, colon);
    std::string port = colon == std::string::npos ? address : address.substr(colon + 1);
    unsigned p = 0;
    auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (port.empty() || ec != std::errc() || ptr != port.data() + port.size() || p > 65535)
        return make_error("listen address '" + address + "': expected HOST:PORT");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(p));
    if (host.empty()) {
        a.sin_addr.s_addr = htonl(INADDR_ANY);
    } else if (inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
        return make_error("listen address '" + address + "': TLS listens on IPv4 addresses only");
    }
    return a;
}

// The handshake must be over by the deadline: per-read timeouts alone would let a client that
// sends a byte every few seconds hold its connection (one of max_connections) for ever.
bool accept_by(SSL* ssl, int fd, std::chrono::steady_clock::time_point deadline) {
    const int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    bool ok = false;
    for (;;) {
        int rc = SSL_accept(ssl);
        if (rc == 1) {
            ok = true;
            break;
        }
        int err = SSL_get_error(ssl, rc);
        short want = err == SSL_ERROR_WANT_READ    ? POLLIN
                     : err == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                   : 0;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (want == 0 || left.count() <= 0) break;
        pollfd p{fd, want, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    }
    fcntl(fd, F_SETFL, flags);
    return ok;
}

}  // namespace

std::string make_frontend_token() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) throw std::runtime_error("no randomness for TLS");
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

std::optional<std::string> TlsFrontend::stamp_request_head(std::string_view head,
                                                           const std::string& token) {
    size_t eol = head.find("\r\n");
    if (eol == std::string_view::npos || head.substr(0, eol).find(' ') == std::string_view::npos)
        return std::nullopt;
    std::string out(head.substr(0, eol + 2));
    out += std::string(kFrontendHeader) + ": " + token + "\r\n";
    const std::string name = lower(kFrontendHeader);
    size_t pos = eol + 2;
    while (pos < head.size()) {
        size_t next = head.find("\r\n", pos);
        if (next == std::string_view::npos) next = head.size();
        std::string_view line = head.substr(pos, next - pos);
        size_t colon = line.find(':');
        bool ours = colon != std::string_view::npos && lower(line.substr(0, colon)) == name;
        if (!ours) {
            out += line;
            if (next < head.size()) out += "\r\n";
        }
        pos = next + 2;
    }
    return out;
}

TlsFrontend::TlsFrontend(TlsFrontendOptions options, std::function<std::string(SSL_CTX*)> configure)
    : options_(std::move(options)), configure_(std::move(configure)) {}

TlsFrontend::~TlsFrontend() {
    stop();
}

Result<void> TlsFrontend::start() {
    auto addr = parse_ipv4(options_.listen_address);
    if (!addr) return addr.error();
    ctx_ = SSL_CTX_new(TLS_server_method());
    if (!ctx_) return make_error("cannot create a TLS context");
    if (std::string err = configure_(ctx_); !err.empty()) {
        SSL_CTX_free(ctx_);
        ctx_ = nullptr;
        return make_error(err);
    }
    listen_ = common::UniqueFd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    int one = 1;
    setsockopt(listen_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(listen_.get(), reinterpret_cast<sockaddr*>(&*addr), sizeof *addr) != 0 ||
        ::listen(listen_.get(), 64) != 0) {
        int e = errno;
        return make_error("cannot listen on " + options_.listen_address + ": " + std::strerror(e),
                          e);
    }
    sockaddr_in bound{};
    socklen_t len = sizeof bound;
    getsockname(listen_.get(), reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(bound.sin_port);
    wake_ = common::UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    stopping_ = false;
    acceptor_ = std::thread([this] { accept_loop(); });
    return {};
}

void TlsFrontend::stop() {
    if (acceptor_.joinable()) {
        stopping_ = true;
        uint64_t one = 1;
        ssize_t r = ::write(wake_.get(), &one, sizeof one);
        (void)r;
        acceptor_.join();
    }
    reap(true);
    if (ctx_) {
        SSL_CTX_free(ctx_);
        ctx_ = nullptr;
    }
    listen_ = common::UniqueFd();
}

void TlsFrontend::reap(bool all) {
    std::list<std::thread> done;
    {
        std::lock_guard lock(mutex_);
        for (auto it = workers_.begin(); it != workers_.end();) {
            bool finished = all;
            for (auto id : finished_) finished = finished || id == it->get_id();
            if (finished) {
                done.splice(done.end(), workers_, it++);
            } else {
                ++it;
            }
        }
        if (all) finished_.clear();
    }
    for (auto& t : done) {
        t.join();
        std::lock_guard lock(mutex_);
        finished_.remove(t.get_id());
    }
}

void TlsFrontend::accept_loop() {
    pollfd fds[2] = {{listen_.get(), POLLIN, 0}, {wake_.get(), POLLIN, 0}};
    while (!stopping_) {
        if (::poll(fds, 2, 1000) <= 0) {
            reap(false);
            continue;
        }
        if (fds[1].revents) break;
        int client = ::accept4(listen_.get(), nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        reap(false);
        if (active_ >= options_.max_connections) {
            ::close(client);  // over the bound: refuse rather than queue without limit
            continue;
        }
        ++active_;
        std::lock_guard lock(mutex_);
        workers_.emplace_back([this, client] {
            serve(client);
            ::close(client);
            --active_;
            std::lock_guard inner(mutex_);
            finished_.push_back(std::this_thread::get_id());
        });
    }
}

void TlsFrontend::serve(int client) {
    set_socket_timeouts(client, options_.timeout);
    SSL* ssl = SSL_new(ctx_);
    if (!ssl) return;
    SSL_set_fd(ssl, client);
    auto deadline = std::chrono::steady_clock::now() + options_.timeout;
    if (!accept_by(ssl, client, deadline)) {
        SSL_free(ssl);
        ERR_clear_error();
        return;
    }
    std::string head;
    char buf[4096];
    size_t end = std::string::npos;
    while (end == std::string::npos) {
        if (head.size() > options_.max_request_bytes ||
            std::chrono::steady_clock::now() > deadline) {
            break;
        }
        int n = SSL_read(ssl, buf, sizeof buf);
        if (n <= 0) break;
        head.append(buf, static_cast<size_t>(n));
        end = head.find("\r\n\r\n");
    }
    std::optional<std::string> stamped;
    if (end != std::string::npos && end + 4 <= options_.max_request_bytes) {
        stamped = stamp_request_head(std::string_view(head).substr(0, end + 2), options_.token);
    }
    if (!stamped) {
        if (end == std::string::npos && head.size() > options_.max_request_bytes) {
            ssl_reply(ssl, 431, "Request Header Fields Too Large");
        } else if (!head.empty()) {
            ssl_reply(ssl, 400, "Bad Request");
        }
    } else {
        *stamped += "\r\n";
        *stamped += head.substr(end + 4);  // body bytes, if any: the listener refuses them
        common::UniqueFd backend =
            connect_loopback_backend(options_.backend_port, options_.timeout);
        if (!backend || !write_all(backend.get(), stamped->data(), stamped->size())) {
            ssl_reply(ssl, 503, "Service Unavailable");
        } else {
            for (;;) {
                ssize_t n = ::recv(backend.get(), buf, sizeof buf, 0);
                if (n <= 0 || !ssl_write_all(ssl, buf, static_cast<size_t>(n))) break;
            }
        }
    }
    SSL_shutdown(ssl);
    SSL_free(ssl);
    ERR_clear_error();
}

}  // namespace rdmadiag::api
