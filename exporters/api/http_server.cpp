// The only translation unit that includes Beast and Asio: they are heavy to compile, and
// everything else sees http_server.hpp.

#include "exporters/api/http_server.hpp"

#include <openssl/ssl.h>
#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <list>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "collector/common/log.hpp"
#include "exporters/api/basic_auth.hpp"
#include "exporters/api/listen_address.hpp"

namespace rdmadiag::api {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

// Two threads run every connection. Nothing a connection does blocks (bcrypt, the one slow
// step, has a thread of its own), so threads only buy CPU: a TLS handshake or the whole
// snapshot as JSON (a few ms each) on one thread leaves the other free for everyone else, and
// more than the two cores of a typical collector host would only add stacks and malloc arenas.
constexpr int kThreads = 2;
// After its answer a connection is closed gracefully (TCP: the rest of what the client sent
// is read and dropped, so a refusal is not lost to a reset; TLS: close_notify), within this.
constexpr auto kLinger = std::chrono::seconds(1);
constexpr size_t kLingerBytes = 64 * 1024;
// Descriptors kept free for everything else the daemon opens (sources, log, config files).
constexpr size_t kReservedFds = 256;
// Out of descriptors, the acceptor waits this long after closing a pending connection.
constexpr auto kAcceptRetry = std::chrono::milliseconds(10);

using HeadParser = http::request_parser<http::empty_body>;

void limit_head(HeadParser& p, size_t max_request_bytes) {
    p.header_limit(static_cast<std::uint32_t>(std::min<size_t>(max_request_bytes, UINT32_MAX)));
    p.eager(false);
}

std::string_view view(beast::string_view s) {
    return {s.data(), s.size()};
}

// Hands what `buffer` holds to the parser; `fresh` of it arrived last, `head_bytes` counts what
// the parser took so far. Returns 0 when the head is complete or more bytes are needed, else
// the status to refuse the head with.
int take_head_bytes(HeadParser& parser, beast::flat_buffer& buffer, size_t fresh,
                    size_t& head_bytes, size_t max_request_bytes) {
    error_code ec;
    const size_t used = parser.put(buffer.data(), ec);
    buffer.consume(used);
    head_bytes += used;
    // The parser's header_limit bounds what it has not consumed yet, but it consumes the request
    // line and each complete header line as it goes (Boost 1.81): the whole head is counted
    // here, so a thousand small headers count as much as one large one.
    const size_t unparsed = ec == http::error::need_more ? buffer.size() : 0;
    if (head_bytes + unparsed > max_request_bytes) return 431;
    if (ec == http::error::need_more) {
        // The parser waits for a whole line before it judges any of it. Control bytes other
        // than tab, CR and LF never occur in a head: this is not HTTP (a TLS hello, a binary
        // probe), so it is refused now rather than at the deadline.
        const auto* bytes = static_cast<const unsigned char*>(buffer.data().data());
        for (size_t i = buffer.size() - std::min(fresh, buffer.size()); i < buffer.size(); ++i) {
            const unsigned char c = bytes[i];
            if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f) return 400;
        }
        return 0;
    }
    if (!ec) return 0;
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) return 431;
    return ec == http::error::bad_version ? 505 : 400;  // the parser takes HTTP/1.0 and 1.1
}

HttpRequest to_request(const HeadParser& p) {
    const auto& m = p.get();
    HttpRequest r;
    r.method = std::string(view(m.method_string()));
    const std::string_view target = view(m.target());
    const size_t q = target.find('?');
    r.path = percent_decode(target.substr(0, q), false);
    if (q != std::string_view::npos) r.query = std::string(target.substr(q + 1));
    for (const auto& field : m)
        r.headers[ascii_lower(view(field.name_string()))] = std::string(view(field.value()));
    if (auto n = p.content_length()) {
        r.content_length = static_cast<long long>(std::min<std::uint64_t>(*n, LLONG_MAX));
    }
    r.chunked = p.chunked();
    return r;
}

HttpResponse status_answer(int status, std::string_view message = {}) {
    HttpResponse r;
    r.status = status;
    const std::string_view text = message.empty() ? http_reason(status) : message;
    r.body =
        "{\"error\":\"" + std::string(text) + "\",\"status\":" + std::to_string(status) + "}\n";
    return r;
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

Result<void> setup_tls(ssl::context& ctx, const TlsSettings& tls) {
    error_code ec;
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                    ssl::context::no_sslv3);
    if (ctx.use_certificate_chain_file(tls.cert_file, ec); ec)
        return make_error(tls.cert_file + ": " + ec.message());
    if (ctx.use_private_key_file(tls.key_file, ssl::context::pem, ec); ec)
        return make_error(tls.key_file + ": " + ec.message());
    if (SSL_CTX_check_private_key(ctx.native_handle()) != 1)
        return make_error(tls.key_file + ": the key does not belong to " + tls.cert_file);
    SSL_CTX_set_min_proto_version(ctx.native_handle(), openssl_version(tls.min_version));
    if (tls.max_version) {
        SSL_CTX_set_max_proto_version(ctx.native_handle(), openssl_version(*tls.max_version));
    }
    if (!tls.client_ca_file.empty()) {
        if (ctx.load_verify_file(tls.client_ca_file, ec); ec)
            return make_error(tls.client_ca_file + ": " + ec.message());
    }
    ssl::verify_mode mode = ssl::verify_none;
    switch (tls.client_auth) {
        case ClientAuth::none:
            break;
        case ClientAuth::request:
        case ClientAuth::verify_if_given:
            mode = ssl::verify_peer;
            break;
        case ClientAuth::require_any:
        case ClientAuth::require_and_verify:
            mode = ssl::verify_peer | ssl::verify_fail_if_no_peer_cert;
            break;
    }
    ctx.set_verify_mode(mode);
    if (tls.client_auth == ClientAuth::request || tls.client_auth == ClientAuth::require_any) {
        // Ask for a certificate without judging it, as the Go toolkit does for these modes.
        ctx.set_verify_callback([](bool, ssl::verify_context&) { return true; });
    }
    return {};
}

// Each pending connection is a descriptor: ask for what the bounds take, as far as the hard
// limit allows, and return how many pending connections fit in what we got.
size_t fit_descriptor_limit(size_t max_pending, size_t max_answering) {
    rlimit nofile{};
    const auto wanted = static_cast<rlim_t>(max_pending + max_answering + kReservedFds);
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < wanted) {
        nofile.rlim_cur =
            nofile.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, nofile.rlim_max);
        setrlimit(RLIMIT_NOFILE, &nofile);
    }
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY) {
        const size_t cur = nofile.rlim_cur;
        const size_t room = cur > kReservedFds * 2 ? cur - kReservedFds : cur / 2;
        max_pending = std::min(max_pending, room > max_answering ? room - max_answering : 1);
    }
    return std::max<size_t>(max_pending, 1);
}

// A connection as the admission bookkeeping sees it, whatever its stream.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    explicit Connection(HttpServer::Impl& server) : server_(server) {}
    virtual ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    virtual void start() = 0;
    // Each is run on the connection's own strand.
    virtual void evict() = 0;
    virtual void resume() = 0;  // its turn to be answered came
    virtual asio::any_io_executor executor() = 0;

    // Admission's, guarded by its mutex.
    std::list<std::weak_ptr<Connection>>::iterator pending_at;
    bool pending = false;
    bool waiting = false;
    bool has_turn = false;
    bool evicted = false;

protected:
    HttpServer::Impl& server_;
};

// Who may be open and who is answered: the pending connections in arrival order, the turns to
// be answered and who waits for one, and the counters. Shared by the threads, under one mutex.
class Admission {
public:
    Admission(size_t max_pending, size_t max_answering)
        : max_pending_(max_pending), max_answering_(std::max<size_t>(max_answering, 1)) {}

    // A new connection is pending; returns the one to close to make room, if any.
    std::shared_ptr<Connection> admit(const std::shared_ptr<Connection>& c) {
        std::lock_guard lock(mutex_);
        ++stats_.accepted;
        std::shared_ptr<Connection> victim;
        if (pending_.size() >= max_pending_) victim = evict_oldest();
        c->pending = true;
        c->pending_at = pending_.insert(pending_.end(), c);
        return victim;
    }

    // Out of descriptors: the oldest pending connection, to be closed.
    std::shared_ptr<Connection> make_room() {
        std::lock_guard lock(mutex_);
        return evict_oldest();
    }

    // The connection's head is complete: true when it is answered now, false when it waits to
    // be resumed (or was evicted meanwhile and is about to be closed).
    bool take_turn(const std::shared_ptr<Connection>& c) {
        std::lock_guard lock(mutex_);
        if (c->evicted) return false;
        if (answering_ < max_answering_) {
            ++answering_;
            c->has_turn = true;
            leave_pending(*c);
            return true;
        }
        c->waiting = true;
        waiters_.push_back(c);
        return false;
    }

    // A waiting connection's deadline passed: true when it gives up (it will not be resumed),
    // false when its turn was already given.
    bool give_up_waiting(Connection& c) {
        std::lock_guard lock(mutex_);
        if (!c.waiting) return false;
        c.waiting = false;
        ++stats_.busy;
        return true;
    }

    // The connection is done with its turn and its place (idempotent; from its destructor too).
    void done(Connection& c) {
        std::shared_ptr<Connection> next;
        // Waiters that gave up are dropped after the lock: the last reference to one runs its
        // destructor, which comes back here.
        std::vector<std::shared_ptr<Connection>> gave_up;
        {
            std::lock_guard lock(mutex_);
            leave_pending(c);
            c.waiting = false;
            if (!c.has_turn) return;
            c.has_turn = false;
            --answering_;
            while (!stopping_ && !next && !waiters_.empty()) {
                next = waiters_.front().lock();
                waiters_.pop_front();
                if (next && !next->waiting) gave_up.push_back(std::move(next));
            }
            if (!next) return;
            next->waiting = false;
            next->has_turn = true;
            ++answering_;
            leave_pending(*next);
        }
        asio::post(next->executor(), [next] { next->resume(); });
    }

    void count(uint64_t HttpServerStats::*field) {
        std::lock_guard lock(mutex_);
        ++(stats_.*field);
    }
    HttpServerStats stats() const {
        std::lock_guard lock(mutex_);
        return stats_;
    }
    void stop() {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }

private:
    std::shared_ptr<Connection> evict_oldest() {
        while (!pending_.empty()) {
            auto victim = pending_.front().lock();
            pending_.pop_front();
            if (!victim) continue;  // being destroyed: it leaves by itself
            victim->pending = false;
            victim->waiting = false;
            victim->evicted = true;
            ++stats_.evicted;
            return victim;
        }
        return nullptr;
    }
    void leave_pending(Connection& c) {
        if (!c.pending) return;
        pending_.erase(c.pending_at);
        c.pending = false;
    }

    const size_t max_pending_;
    const size_t max_answering_;
    mutable std::mutex mutex_;
    std::list<std::weak_ptr<Connection>> pending_;
    std::deque<std::weak_ptr<Connection>> waiters_;
    size_t answering_ = 0;
    bool stopping_ = false;
    HttpServerStats stats_;
};

}  // namespace

struct HttpServer::Impl {
    Impl(const HttpServerOptions& o, const Handler& h, common::Logger* l)
        : options(o),
          handler(h),
          log(l),
          auth(o.web.basic_auth_users),
          admission(fit_descriptor_limit(o.max_pending, o.max_connections), o.max_connections) {}

    Result<void> listen();
    void accept();
    void run_thread();

    const HttpServerOptions& options;
    const Handler& handler;
    common::Logger* log;
    BasicAuth auth;
    Admission admission;
    std::optional<ssl::context> tls;
    // Declared after everything a connection uses: destroying the context destroys the
    // connections its handlers still hold.
    asio::io_context ioc{kThreads};
    tcp::acceptor acceptor{ioc};
    asio::steady_timer accept_retry{ioc};
    // Verifies basic-auth passwords (bcrypt, tens of ms each) so the I/O threads never wait
    // for one; only a password not verified before goes there.
    std::optional<asio::thread_pool> auth_pool;
    std::vector<std::thread> threads;
    int port = 0;
};

namespace {

Connection::~Connection() {
    server_.admission.done(*this);
}

enum class Phase { handshake, head, waiting, answering, closing };

template <class Stream>
class Session final : public Connection {
public:
    static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

    template <class... StreamArgs>
    Session(HttpServer::Impl& server, tcp::socket&& socket, StreamArgs&... args)
        : Connection(server),
          stream_(std::move(socket), args...),
          deadline_(stream_.get_executor()),
          buffer_(server.options.max_request_bytes + 4096) {}

    asio::any_io_executor executor() override { return stream_.get_executor(); }

    void start() override {
        asio::dispatch(stream_.get_executor(), [self = self()] { self->begin(); });
    }

    void evict() override { close(); }

    void resume() override {
        if (phase_ == Phase::waiting) answer();
    }

private:
    std::shared_ptr<Session> self() {
        return std::static_pointer_cast<Session>(shared_from_this());
    }
    beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

    void begin() {
        error_code ec;
        lowest().socket().set_option(tcp::no_delay(true), ec);
        // The handshake and the head share one deadline, kept here rather than by the stream's
        // own expiry: that closes the socket, and a client that started its head is owed a 408.
        deadline_.expires_after(server_.options.request_timeout);
        deadline_.async_wait([self = self()](const error_code& e) { self->on_deadline(e); });
        if constexpr (kTls) {
            phase_ = Phase::handshake;
            stream_.async_handshake(ssl::stream_base::server, [self = self()](const error_code& e) {
                self->on_handshake(e);
            });
        } else {
            read_head();
        }
    }

    void on_deadline(const error_code& ec) {
        if (ec || phase_ == Phase::answering || phase_ == Phase::closing) return;
        timed_out_ = true;
        if (phase_ == Phase::waiting) {
            if (server_.admission.give_up_waiting(*this)) refuse(503, "no turn within the timeout");
            return;
        }
        lowest().cancel();  // the handshake or the head read ends with operation_aborted
    }

    void on_handshake(const error_code& ec) {
        if (ec) {
            if (timed_out_) server_.admission.count(&HttpServerStats::timed_out);
            return close();
        }
        read_head();
    }

    void read_head() {
        phase_ = Phase::head;
        parser_.emplace();
        limit_head(*parser_, server_.options.max_request_bytes);
        read_some();
    }

    // The head is read here rather than by http::async_read_header, to look at each piece as
    // it arrives (see take_head_bytes).
    void read_some() {
        const size_t room = std::min<size_t>(4096, buffer_.max_size() - buffer_.size());
        stream_.async_read_some(
            buffer_.prepare(room),
            [self = self()](const error_code& e, size_t n) { self->on_read(e, n); });
    }

    void on_read(const error_code& ec, size_t n) {
        if (ec && timed_out_) {
            server_.admission.count(&HttpServerStats::timed_out);
            // The parser consumes complete lines, so what was sent is what it took and what waits.
            return head_bytes_ + buffer_.size() > 0 ? refuse(408) : close();
        }
        if (ec) return close();  // gone before it finished asking
        buffer_.commit(n);
        if (int status = take_head_bytes(*parser_, buffer_, n, head_bytes_,
                                         server_.options.max_request_bytes);
            status != 0) {
            if (status == 431) server_.admission.count(&HttpServerStats::oversized);
            return refuse(status);
        }
        if (!parser_->is_header_done()) return read_some();
        request_ = to_request(*parser_);
        phase_ = Phase::waiting;
        if (server_.admission.take_turn(shared_from_this())) answer();
    }

    void answer() {
        phase_ = Phase::answering;
        deadline_.cancel();
        if (!server_.auth.enabled()) return respond(route());
        std::string credentials(request_.header("authorization"));
        if (credentials.empty()) return respond(unauthorized());
        if (server_.auth.allows_remembered(credentials)) return respond(route());
        asio::post(*server_.auth_pool, [self = self(), credentials = std::move(credentials)] {
            const bool ok = self->server_.auth.allows(credentials);
            asio::post(self->stream_.get_executor(),
                       [self, ok] { self->respond(ok ? self->route() : unauthorized()); });
        });
    }

    static HttpResponse unauthorized() {
        HttpResponse r = status_answer(401, "authentication required");
        r.headers.emplace_back("WWW-Authenticate", "Basic realm=\"rdmadiag\"");
        return r;
    }

    HttpResponse route() {
        try {
            return server_.handler(request_);
        } catch (const std::exception& e) {
            if (server_.log) {
                server_.log->error("request failed",
                                   {{"path", request_.path}, {"error", e.what()}});
            }
            return status_answer(500, "internal error");
        }
    }

    // Answers a head that is not served (malformed, too large, too late, no turn).
    void refuse(int status, std::string_view message = {}) {
        server_.admission.done(*this);
        deadline_.cancel();
        phase_ = Phase::answering;
        respond(status_answer(status, message));
    }

    void respond(HttpResponse r) {
        answer_ = std::move(r);
        const std::string_view body = answer_.payload();
        response_ = {};
        response_.version(11);
        response_.result(static_cast<unsigned>(answer_.status));
        response_.reason(http_reason(answer_.status));
        response_.set(http::field::content_type, answer_.content_type);
        response_.content_length(body.size());
        response_.set(http::field::cache_control, "no-store");
        response_.set("X-Content-Type-Options", "nosniff");
        response_.keep_alive(false);
        for (const auto& [name, value] : answer_.headers) response_.insert(name, value);
        response_.body() = boost::span<const char>(body.data(), body.size());
        serializer_.emplace(response_);
        lowest().expires_after(server_.options.request_timeout);
        auto written = [self = self()](const error_code& e, size_t) { self->on_written(e); };
        // HEAD: the headers GET would have (Content-Length included), no body.
        if (request_.method == "HEAD") {
            http::async_write_header(stream_, *serializer_, std::move(written));
        } else {
            http::async_write(stream_, *serializer_, std::move(written));
        }
    }

    void on_written(const error_code& ec) {
        server_.admission.count(&HttpServerStats::answered);
        server_.admission.done(*this);
        if (server_.log && server_.log->enabled(common::LogLevel::debug)) {
            server_.log->debug("request", {{"method", request_.method},
                                           {"path", request_.path},
                                           {"status", std::to_string(answer_.status)},
                                           {"bytes", std::to_string(answer_.payload().size())}});
        }
        serializer_.reset();
        answer_ = {};
        if (ec) return close();
        phase_ = Phase::closing;
        lowest().expires_after(std::min<Duration>(kLinger, server_.options.request_timeout));
        if constexpr (kTls) {
            stream_.async_shutdown([self = self()](const error_code&) { self->close(); });
        } else {
            error_code ignored;
            lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
            drain();
        }
    }

    void drain() {
        buffer_.consume(buffer_.size());
        const size_t room = std::min<size_t>(4096, buffer_.max_size());
        lowest().async_read_some(buffer_.prepare(room),
                                 [self = self()](const error_code& e, size_t n) {
                                     self->drained_ += n;
                                     if (e || self->drained_ > kLingerBytes) return self->close();
                                     self->drain();
                                 });
    }

    void close() {
        phase_ = Phase::closing;
        deadline_.cancel();
        error_code ignored;
        lowest().socket().close(ignored);
    }

    Stream stream_;
    asio::steady_timer deadline_;
    beast::flat_buffer buffer_;
    std::optional<HeadParser> parser_;
    HttpRequest request_;
    HttpResponse answer_;
    http::response<http::span_body<const char>> response_;
    std::optional<http::response_serializer<http::span_body<const char>>> serializer_;
    Phase phase_ = Phase::head;
    bool timed_out_ = false;
    size_t head_bytes_ = 0;
    size_t drained_ = 0;
};

}  // namespace

Result<void> HttpServer::Impl::listen() {
    const auto address = RDMADIAG_TRY(parse_listen_address(options.listen_address));
    auto open = [&](const tcp::endpoint& at, bool v6_only) {
        error_code ec;
        acceptor.open(at.protocol(), ec);
        if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
        if (!ec && at.address().is_v6()) acceptor.set_option(asio::ip::v6_only(v6_only), ec);
        if (!ec) acceptor.bind(at, ec);
        if (!ec) acceptor.listen(1024, ec);
        if (ec) {
            error_code ignored;
            acceptor.close(ignored);
        }
        return ec;
    };
    error_code ec;
    switch (address.family) {
        case ListenAddress::Family::any:
            // One dual-stack socket for IPv6 and IPv4; IPv4 alone where the host has no IPv6.
            ec = open(tcp::endpoint(asio::ip::address_v6::any(), address.port), false);
            if (ec == asio::error::address_family_not_supported ||
                ec == boost::system::errc::address_not_available) {
                ec = open(tcp::endpoint(asio::ip::address_v4::any(), address.port), false);
            }
            break;
        case ListenAddress::Family::ipv4:
        case ListenAddress::Family::ipv6:
            ec = open(tcp::endpoint(asio::ip::make_address(address.host), address.port), true);
            break;
    }
    if (ec)
        return make_error("cannot listen on " + options.listen_address + ": " + ec.message(),
                          ec.value());
    port = acceptor.local_endpoint(ec).port();
    return {};
}

void HttpServer::Impl::accept() {
    // Each connection gets a strand of its own: its handlers never run at once, on either
    // thread, so a connection needs no lock.
    acceptor.async_accept(asio::make_strand(ioc), [this](const error_code& ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted) return;
        if (ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space) {
            // Out of descriptors: make room and try again shortly, rather than spin on a
            // listener that stays readable.
            if (auto victim = admission.make_room())
                asio::post(victim->executor(), [victim] { victim->evict(); });
            accept_retry.expires_after(kAcceptRetry);
            accept_retry.async_wait([this](const error_code& e) {
                if (!e) accept();
            });
            return;
        }
        if (!ec) {
            std::shared_ptr<Connection> c;
            if (tls) {
                c = std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
                    *this, std::move(socket), *tls);
            } else {
                c = std::make_shared<Session<beast::tcp_stream>>(*this, std::move(socket));
            }
            if (auto victim = admission.admit(c))
                asio::post(victim->executor(), [victim] { victim->evict(); });
            c->start();
        }
        accept();
    });
}

void HttpServer::Impl::run_thread() {
    for (;;) {
        try {
            ioc.run();
            return;
        } catch (const std::exception& e) {
            if (log) log->error("HTTP server thread", {{"error", e.what()}});
        }
    }
}

HttpServer::HttpServer(HttpServerOptions options, Handler handler, common::Logger* log)
    : options_(std::move(options)), handler_(std::move(handler)), log_(log) {}

HttpServer::~HttpServer() {
    stop();
}

Result<void> HttpServer::start() {
    if (impl_) return make_error("HTTP server already running");
    auto impl = std::make_unique<Impl>(options_, handler_, log_);
    if (options_.web.tls) {
        try {
            impl->tls.emplace(ssl::context::tls_server);
        } catch (const std::exception& e) {
            return make_error(std::string("cannot create a TLS context: ") + e.what());
        }
        RDMADIAG_TRY(setup_tls(*impl->tls, *options_.web.tls));
    }
    RDMADIAG_TRY(impl->listen());
    if (impl->auth.enabled()) impl->auth_pool.emplace(1);
    impl->accept();
    for (int i = 0; i < kThreads; ++i)
        impl->threads.emplace_back([p = impl.get()] { p->run_thread(); });
    impl_ = std::move(impl);
    return {};
}

void HttpServer::stop() {
    if (!impl_) return;
    impl_->admission.stop();
    if (impl_->auth_pool) {
        impl_->auth_pool->stop();
        impl_->auth_pool->join();
    }
    impl_->ioc.stop();
    for (auto& t : impl_->threads) t.join();
    impl_.reset();
}

std::vector<int> HttpServer::ports() const {
    if (!impl_) return {};
    return {impl_->port};
}

HttpServerStats HttpServer::stats() const {
    return impl_ ? impl_->admission.stats() : HttpServerStats{};
}

RequestHead parse_request_head(std::string_view bytes, size_t max_request_bytes) {
    HeadParser parser;
    limit_head(parser, max_request_bytes);
    beast::flat_buffer buffer;
    buffer.commit(
        asio::buffer_copy(buffer.prepare(bytes.size()), asio::buffer(bytes.data(), bytes.size())));
    RequestHead out;
    size_t head_bytes = 0;
    out.status = take_head_bytes(parser, buffer, bytes.size(), head_bytes, max_request_bytes);
    if (out.status != 0) {
        out.outcome = RequestHead::Outcome::refused;
    } else if (parser.is_header_done()) {
        out.outcome = RequestHead::Outcome::complete;
        out.request = to_request(parser);
    }
    return out;
}

}  // namespace rdmadiag::api
