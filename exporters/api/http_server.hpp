#pragma once
// The daemon's one HTTP listener, on CivetWeb. Every request goes to one handler (the router):
// CivetWeb's own file serving, directory listing and CGI are never reached. CivetWeb itself
// listens on loopback only; clients talk to a front that reads each request head without
// holding a worker (the connection gate, or the TLS frontend with TLS) and hands complete heads
// on, stamped with a per-process secret header that the listener insists on. Workers and
// pending connections are bounded, slow clients time out, request heads are size-limited, and
// optional TLS and basic auth follow the exporter-toolkit web config.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "exporters/api/basic_auth.hpp"
#include "exporters/api/connection_gate.hpp"
#include "exporters/api/http_types.hpp"
#include "exporters/api/tls_frontend.hpp"
#include "exporters/api/web_config.hpp"

struct mg_context;
struct mg_connection;

namespace rdmadiag::api {}  // namespace rdmadiag::api
namespace rdmadiag::common {
class Logger;
}  // namespace rdmadiag::common
namespace rdmadiag::api {

struct HttpServerOptions {
    std::string listen_address = ":9857";  // HOST:PORT, :PORT; port 0 picks a free one
    size_t max_connections = 4;            // requests served at once
    size_t queue = 4;                      // accepted connections waiting for a worker
    Duration request_timeout = std::chrono::seconds(10);
    size_t max_request_bytes = 8192;  // request line + headers
    size_t max_pending = 512;         // connections still sending their request head
    WebConfig web;
};

// "host:port", ":port" or "port" to CivetWeb's listening_ports form; IPv6 "[::1]:port" too.
Result<std::string> civetweb_listen_spec(const std::string& address);

class HttpServer {
public:
    using Handler = std::function<HttpResponse(const HttpRequest&)>;

    HttpServer(HttpServerOptions options, Handler handler, common::Logger* log = nullptr);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and starts serving. Errors: address in use, bad TLS files, bad address.
    Result<void> start();
    void stop();

    // Ports actually bound (useful with port 0).
    std::vector<int> ports() const;
    // The loopback port CivetWeb sits on behind the gate or the TLS frontend.
    int backend_port() const;
    // The gate's counters (all zero with TLS).
    ConnectionGateStats gate_stats() const;
    bool tls() const { return options_.web.tls.has_value(); }

private:
    static int on_request(mg_connection* conn, void* self);
    static int on_log(const mg_connection* conn, const char* message);
    int serve(mg_connection* conn);
    std::string setup_tls(SSL_CTX* ctx);

    HttpServerOptions options_;
    Handler handler_;
    common::Logger* log_;
    BasicAuth auth_;
    mg_context* ctx_ = nullptr;
    std::unique_ptr<TlsFrontend> frontend_;
    std::unique_ptr<ConnectionGate> gate_;
    std::string frontend_token_;
};

}  // namespace rdmadiag::api
