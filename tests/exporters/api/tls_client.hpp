#pragma once
// A blocking TLS client for server tests (OpenSSL, no certificate check): one request, the
// whole answer. Test code only.

#include <openssl/ssl.h>

#include <chrono>
#include <memory>
#include <string>

#include "tests/exporters/api/raw_http_client.hpp"

namespace rdmadiag::testing {

struct SslCtxFree {
    void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
};
struct SslFree {
    void operator()(SSL* s) const { SSL_free(s); }
};

// Sends `request` over TLS to 127.0.0.1:`port` and reads until the server closes; empty when
// the handshake fails. Reads and writes give up after `limit`.
inline std::string tls_exchange(int port, const std::string& request,
                                std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    std::unique_ptr<SSL_CTX, SslCtxFree> ctx(SSL_CTX_new(TLS_client_method()));
    if (!ctx) return "";
    RawConnection c(port);
    if (!c.connected()) return "";
    timeval tv{static_cast<time_t>(limit.count() / 1000),
               static_cast<suseconds_t>(limit.count() % 1000 * 1000)};
    setsockopt(c.fd(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(c.fd(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    std::unique_ptr<SSL, SslFree> ssl(SSL_new(ctx.get()));
    SSL_set_fd(ssl.get(), c.fd());
    if (SSL_connect(ssl.get()) != 1) return "";
    if (SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())) <= 0) return "";
    std::string out;
    char buf[16384];
    for (;;) {
        int n = SSL_read(ssl.get(), buf, sizeof buf);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

}  // namespace rdmadiag::testing
