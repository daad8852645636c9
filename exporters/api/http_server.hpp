#pragma once
// The daemon's one HTTP listener: plain HTTP or TLS on one port, IPv4 and IPv6, every request
// handed to one handler (the router). It is event-driven: a connection costs a descriptor and
// a few buffers, never a thread, so clients that stall in their TLS handshake or dribble their
// request head cannot hold up anyone else. Beast and Asio are confined to http_server.cpp;
// this header is all the rest of the tree sees.
//
// Limits, per connection and in total:
// - A connection is *pending* from its accept until it gets its turn to be answered: its TLS
//   handshake, its request head, and any wait for a turn. At most `max_pending` connections are
//   pending; one more closes the oldest pending one (a well-behaved client sends its head at
//   once, so it is never the oldest).
// - The handshake and the head must arrive within `request_timeout` of the accept: else the
//   client is closed, with 408 when it had started its head. A head larger than
//   `max_request_bytes` is answered 431, a malformed one 400; request bodies are not read (the
//   router answers 413, or 405 for methods other than GET and HEAD).
// - At most `max_connections` requests are answered at once, from the complete head until the
//   answer is written; further complete requests wait their turn within their deadline (503 when
//   it passes). An answer must be taken within `request_timeout`.
// So at most max_pending + max_connections connections are open at once, plus closing ones for
// at most a second each. One request per connection (answers say Connection: close).
// Basic auth and TLS follow the exporter-toolkit web config.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "exporters/api/http_types.hpp"
#include "exporters/api/web_config.hpp"

namespace rdmadiag::common {
class Logger;
}  // namespace rdmadiag::common

namespace rdmadiag::api {

struct HttpServerOptions {
    std::string listen_address = ":9857";  // see listen_address.hpp
    size_t max_connections = 4;            // requests answered at once
    Duration request_timeout = std::chrono::seconds(10);
    size_t max_request_bytes = 8192;  // request line + headers
    size_t max_pending = 512;         // connections not yet being answered
    WebConfig web;
};

struct HttpServerStats {
    uint64_t accepted = 0;
    uint64_t answered = 0;   // answers written, errors included
    uint64_t timed_out = 0;  // no complete head (or handshake) within the timeout
    uint64_t oversized = 0;  // 431: head larger than max_request_bytes
    uint64_t evicted = 0;    // oldest pending connection closed to make room
    uint64_t busy = 0;       // 503: no turn to be answered within the timeout
};

class HttpServer {
public:
    using Handler = std::function<HttpResponse(const HttpRequest&)>;

    HttpServer(HttpServerOptions options, Handler handler, common::Logger* log = nullptr);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and starts serving. Errors: address in use, bad TLS files, bad address.
    Result<void> start();
    // Closes the listener and every connection; start() may be called again.
    void stop();

    // Ports actually bound (useful with port 0).
    std::vector<int> ports() const;
    HttpServerStats stats() const;
    bool tls() const { return options_.web.tls.has_value(); }

    struct Impl;

private:
    HttpServerOptions options_;
    Handler handler_;
    common::Logger* log_;
    std::unique_ptr<Impl> impl_;
};

// What the server makes of the bytes a client sent up to the end of its request head, through
// the same parser and checks the server uses on the wire: for tests and the fuzz target.
struct RequestHead {
    enum class Outcome { complete, incomplete, refused };
    Outcome outcome = Outcome::incomplete;
    int status = 0;       // refused: the status the client is answered (400, 431, 505)
    HttpRequest request;  // complete
};
RequestHead parse_request_head(std::string_view bytes, size_t max_request_bytes);

}  // namespace rdmadiag::api
