#pragma once
// TLS for the daemon's listener. Debian 12's CivetWeb loads OpenSSL at run time and looks for
// SSL_get_peer_certificate, which OpenSSL 3 no longer exports, so its own TLS cannot start. The
// frontend terminates TLS itself (OpenSSL, linked normally) and hands each request, in plain
// HTTP, to the CivetWeb listener bound on loopback. It stamps every request with a per-process
// secret header and the listener refuses requests without it, so the loopback port is no way
// around TLS or client-certificate checks.
//
// One request per connection (the listener does not keep connections alive), bounded
// connections, a deadline for slow clients and a cap on the request head, like the listener.

#include <atomic>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "collector/runtime/epoll_loop.hpp"
#include "exporters/api/web_config.hpp"

typedef struct ssl_ctx_st SSL_CTX;

namespace rdmadiag::api {

constexpr const char* kFrontendHeader = "X-Rdmadiag-Frontend";

struct TlsFrontendOptions {
    std::string listen_address;  // HOST:PORT or :PORT (IPv4)
    int backend_port = 0;        // the plain listener on 127.0.0.1
    std::string token;           // value of kFrontendHeader
    size_t max_connections = 4;
    Duration timeout = std::chrono::seconds(10);
    size_t max_request_bytes = 8192;
};

class TlsFrontend {
public:
    // `configure` sets up certificates and verification on the SSL_CTX (returns an error text on
    // failure, empty on success).
    TlsFrontend(TlsFrontendOptions options, std::function<std::string(SSL_CTX*)> configure);
    ~TlsFrontend();
    TlsFrontend(const TlsFrontend&) = delete;
    TlsFrontend& operator=(const TlsFrontend&) = delete;

    Result<void> start();
    void stop();
    int port() const { return port_; }

    // Inserts the frontend header after the request line and drops any copy the client sent.
    // Pure, for tests. Returns nothing when `head` is not an HTTP request head.
    static std::optional<std::string> stamp_request_head(std::string_view head,
                                                         const std::string& token);

private:
    void accept_loop();
    void serve(int client_fd);
    void reap(bool all);

    TlsFrontendOptions options_;
    std::function<std::string(SSL_CTX*)> configure_;
    SSL_CTX* ctx_ = nullptr;
    common::UniqueFd listen_;
    common::UniqueFd wake_;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<size_t> active_{0};
    std::thread acceptor_;
    std::mutex mutex_;
    std::list<std::thread> workers_;
    std::list<std::thread::id> finished_;
};

// A random token for kFrontendHeader (hex of 16 bytes from the OpenSSL RNG).
std::string make_frontend_token();

}  // namespace rdmadiag::api
