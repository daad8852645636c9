#include "exporters/api/http_server.hpp"

#include <civetweb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <charconv>

#include <cstring>
#include <mutex>

#include "collector/common/log.hpp"
#include "collector/daemon/daemon_config.hpp"

namespace rdmadiag::api {

Result<std::string> civetweb_listen_spec(const std::string& address) {
    auto valid_port = [](std::string_view p) {
        unsigned v = 0;
        auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
        return !p.empty() && ec == std::errc() && ptr == p.data() + p.size() && v <= 65535;
    };
    if (!address.empty() && address.front() == '[') {
        size_t close = address.find("]:");
        if (close == std::string::npos || !valid_port(std::string_view(address).substr(close + 2)))
            return make_error("listen address '" + address + "': expected [ADDR]:PORT");
        return address;  // CivetWeb takes [::1]:9857 as written
    }
    size_t colon = address.rfind(':');
    std::string host = colon == std::string::npos ? "" : address.substr(0, colon);
    std::string port = colon == std::string::npos ? address : address.substr(colon + 1);
    if (!valid_port(port) || host.find(':') != std::string::npos)
        return make_error("listen address '" + address + "': expected HOST:PORT or :PORT");
    if (host.empty() || host == "0.0.0.0") return port;
    return host + ":" + port;
}

namespace {

std::string lower(std::string s) {
    for (auto& c : s) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
}

void write_response(mg_connection* conn, const HttpResponse& r, bool head) {
    std::string out =
        "HTTP/1.1 " + std::to_string(r.status) + " " + std::string(http_reason(r.status)) + "\r\n";
    out += "Content-Type: " + r.content_type + "\r\n";
    out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
    out += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n";
    for (const auto& [k, v] : r.headers) out += k + ": " + v + "\r\n";
    out += "\r\n";
    // The body goes out as it is rather than copied behind the head: /metrics is the largest
    // thing the daemon builds, and each worker would keep a copy's worth of heap.
    mg_write(conn, out.data(), out.size());
    if (!head && !r.body.empty()) mg_write(conn, r.body.data(), r.body.size());
}

int openssl_version(TlsVersion v) {
    switch (v) {
        case TlsVersion::tls10:
            return TLS1_VERSION;
        case TlsVersion::tls11:
            return TLS1_1_VERSION;
        case TlsVersion::tls12:
            return TLS1_2_VERSION;
        case TlsVersion::tls13:
            return TLS1_3_VERSION;
    }
    return TLS1_2_VERSION;
}

std::string openssl_error() {
    unsigned long e = ERR_get_error();
    if (e == 0) return "unknown TLS error";
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    return buf;
}

std::once_flag g_library_once;

}  // namespace

HttpServer::HttpServer(HttpServerOptions options, Handler handler, common::Logger* log)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      log_(log),
      auth_(options_.web.basic_auth_users) {}

HttpServer::~HttpServer() {
    stop();
}

std::string HttpServer::setup_tls(SSL_CTX* ctx) {
    const TlsSettings& tls = *options_.web.tls;
    if (SSL_CTX_use_certificate_chain_file(ctx, tls.cert_file.c_str()) != 1)
        return tls.cert_file + ": " + openssl_error();
    if (SSL_CTX_use_PrivateKey_file(ctx, tls.key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        return tls.key_file + ": " + openssl_error();
    }
    SSL_CTX_set_min_proto_version(ctx, openssl_version(tls.min_version));
    if (tls.max_version) SSL_CTX_set_max_proto_version(ctx, openssl_version(*tls.max_version));
    if (!tls.client_ca_file.empty() &&
        SSL_CTX_load_verify_locations(ctx, tls.client_ca_file.c_str(), nullptr) != 1) {
        return tls.client_ca_file + ": " + openssl_error();
    }
    int mode = SSL_VERIFY_NONE;
    switch (tls.client_auth) {
        case ClientAuth::none:
            break;
        case ClientAuth::request:
        case ClientAuth::verify_if_given:
            mode = SSL_VERIFY_PEER;
            break;
        case ClientAuth::require_any:
        case ClientAuth::require_and_verify:
            mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
            break;
    }
    if (tls.client_auth == ClientAuth::request || tls.client_auth == ClientAuth::require_any) {
        // Ask for a certificate without judging it, as the Go toolkit does for these modes.
        SSL_CTX_set_verify(ctx, mode, [](int, X509_STORE_CTX*) { return 1; });
    } else {
        SSL_CTX_set_verify(ctx, mode, nullptr);
    }
    return "";
}

int HttpServer::on_log(const mg_connection* conn, const char* message) {
    const mg_context* ctx = mg_get_context(conn);
    auto* self = ctx ? static_cast<HttpServer*>(mg_get_user_data(ctx)) : nullptr;
    if (self && self->log_) self->log_->debug("http server", {{"message", message}});
    return 1;  // handled: CivetWeb prints nothing itself
}

Result<void> HttpServer::start() {
    if (ctx_) return make_error("HTTP server already running");
    auto spec = civetweb_listen_spec(options_.listen_address);
    if (!spec) return spec.error();
    // CivetWeb serves plain HTTP on loopback, behind the gate or the TLS frontend.
    std::string ports = "127.0.0.1:0";
    std::call_once(g_library_once, [] { mg_init_library(0); });

    std::string threads = std::to_string(options_.max_connections);
    std::string queue = std::to_string(options_.queue);
    std::string timeout = std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(options_.request_timeout).count());
    std::string max_request = std::to_string(options_.max_request_bytes);
    const char* opts[] = {"listening_ports", ports.c_str(), "num_threads", threads.c_str(),
                          "connection_queue", queue.c_str(), "request_timeout_ms", timeout.c_str(),
                          "max_request_size", max_request.c_str(), "enable_keep_alive", "no",
                          "enable_directory_listing", "no", "enable_auth_domain_check", "no",
                          "access_control_allow_origin", "", "decode_url", "yes",
                          // The head and the body are two writes: send each at once.
                          "tcp_nodelay", "1", nullptr};
    mg_callbacks callbacks;
    std::memset(&callbacks, 0, sizeof callbacks);
    callbacks.log_message = &HttpServer::on_log;

    mg_init_data init;
    std::memset(&init, 0, sizeof init);
    init.callbacks = &callbacks;
    init.user_data = this;
    init.configuration_options = opts;
    mg_error_data error;
    std::memset(&error, 0, sizeof error);
    char error_text[256] = {0};
    error.text = error_text;
    error.text_buffer_size = sizeof error_text;
    ctx_ = mg_start2(&init, &error);
    if (!ctx_) {
        return make_error("cannot listen on " + options_.listen_address + ": " +
                          std::string(error_text));
    }
    // The catch-all handler: every URI is ours to answer (404 included).
    mg_set_request_handler(ctx_, "/", &HttpServer::on_request, this);
    frontend_token_ = make_frontend_token();
    mg_server_port bound[2];
    const int backend = mg_get_server_ports(ctx_, 2, bound) > 0 ? bound[0].port : 0;
    if (options_.web.tls) {
        TlsFrontendOptions f;
        f.listen_address = options_.listen_address;
        f.backend_port = backend;
        f.token = frontend_token_;
        f.max_connections = options_.max_connections;
        f.timeout = options_.request_timeout;
        f.max_request_bytes = options_.max_request_bytes;
        frontend_ = std::make_unique<TlsFrontend>(f, [this](SSL_CTX* c) { return setup_tls(c); });
        if (auto r = frontend_->start(); !r) {
            frontend_.reset();
            stop();
            return r.error();
        }
        return {};
    }
    ConnectionGateOptions g;
    g.listen_address = options_.listen_address;
    g.backend_port = backend;
    g.token = frontend_token_;
    g.relays = options_.max_connections;
    g.max_pending = options_.max_pending;
    g.timeout = options_.request_timeout;
    g.max_request_bytes = options_.max_request_bytes;
    gate_ = std::make_unique<ConnectionGate>(g);
    if (auto r = gate_->start(); !r) {
        gate_.reset();
        stop();
        return r.error();
    }
    return {};
}

void HttpServer::stop() {
    if (frontend_) frontend_->stop();
    frontend_.reset();
    if (gate_) gate_->stop();
    gate_.reset();
    if (!ctx_) return;
    mg_stop(ctx_);
    ctx_ = nullptr;
}

std::vector<int> HttpServer::ports() const {
    std::vector<int> out;
    if (frontend_) return {frontend_->port()};
    if (gate_) return {gate_->port()};
    if (!ctx_) return out;
    mg_server_port ports[4];
    int n = mg_get_server_ports(ctx_, 4, ports);
    for (int i = 0; i < n; ++i) out.push_back(ports[i].port);
    return out;
}

int HttpServer::backend_port() const {
    if (!ctx_) return 0;
    mg_server_port bound[2];
    return mg_get_server_ports(ctx_, 2, bound) > 0 ? bound[0].port : 0;
}

ConnectionGateStats HttpServer::gate_stats() const {
    return gate_ ? gate_->stats() : ConnectionGateStats{};
}

int HttpServer::on_request(mg_connection* conn, void* self) {
    return static_cast<HttpServer*>(self)->serve(conn);
}

int HttpServer::serve(mg_connection* conn) {
    const mg_request_info* ri = mg_get_request_info(conn);
    HttpRequest req;
    req.method = ri->request_method ? ri->request_method : "";
    req.path = ri->local_uri ? ri->local_uri : "";
    req.query = ri->query_string ? ri->query_string : "";
    req.content_length = ri->content_length;
    for (int i = 0; i < ri->num_headers; ++i) {
        std::string name = lower(ri->http_headers[i].name ? ri->http_headers[i].name : "");
        req.headers[name] = ri->http_headers[i].value ? ri->http_headers[i].value : "";
    }
    auto te = req.headers.find("transfer-encoding");
    req.chunked = te != req.headers.end() && lower(te->second).find("chunked") != std::string::npos;
    bool head = req.method == "HEAD";

    HttpResponse resp;
    if (!frontend_token_.empty()) {
        auto f = req.headers.find("x-rdmadiag-frontend");
        if (f == req.headers.end() || f->second != frontend_token_) {
            resp = HttpResponse{
                403,
                "application/json",
                "{\"error\":\"this port only serves through the front listener\",\"status\":403}\n",
                {}};
            write_response(conn, resp, head);
            return 403;
        }
    }
    if (auth_.enabled()) {
        auto h = req.headers.find("authorization");
        if (h == req.headers.end() || !auth_.allows(h->second)) {
            resp.status = 401;
            resp.body = "{\"error\":\"authentication required\",\"status\":401}\n";
            resp.headers.emplace_back("WWW-Authenticate", "Basic realm=\"rdmadiag\"");
            write_response(conn, resp, head);
            return 401;
        }
    }
    try {
        resp = handler_(req);
    } catch (const std::exception& e) {
        if (log_) log_->error("request failed", {{"path", req.path}, {"error", e.what()}});
        resp = HttpResponse{
            500, "application/json", "{\"error\":\"internal error\",\"status\":500}\n", {}};
    }
    write_response(conn, resp, head);
    if (log_ && log_->enabled(common::LogLevel::debug)) {
        log_->debug("request", {{"method", req.method},
                                {"path", req.path},
                                {"status", std::to_string(resp.status)},
                                {"bytes", std::to_string(resp.body.size())}});
    }
    return resp.status;
}

}  // namespace rdmadiag::api
