#include "exporters/api/http_server.hpp"

#include <crypt.h>
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "collector/common/simple_yaml.hpp"
#include "collector/common/text_file.hpp"
#include "exporters/api/api_router.hpp"
#include "exporters/api/basic_auth.hpp"
#include "exporters/api/gzip_encoding.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/exporters/api/gunzip.hpp"
#include "tests/exporters/api/raw_http_client.hpp"
#include "tests/exporters/api/tls_client.hpp"
#include "tests/exporters/sample_snapshot.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::api {
namespace {

using namespace std::chrono_literals;
using testing::body_of;
using testing::header_of;
using testing::http_exchange;
using testing::RawConnection;
using testing::status_of;
using testing::tls_exchange;

std::string http_get(const std::string& path, const std::string& extra = "") {
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extra + "\r\n";
}

class HttpServerTest : public ::testing::Test {
protected:
    void SetUp() override { store.publish(std::make_shared<Snapshot>(testing::sample_snapshot())); }

    int start(HttpServerOptions options = {}, HttpServer::Handler handler = {}) {
        if (options.listen_address == HttpServerOptions{}.listen_address)
            options.listen_address = "127.0.0.1:0";
        if (!handler) handler = [this](const HttpRequest& r) { return router.handle(r); };
        server = std::make_unique<HttpServer>(options, handler);
        auto r = server->start();
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        auto ports = server->ports();
        EXPECT_EQ(ports.size(), 1u);
        return ports.empty() ? 0 : ports[0];
    }

    publish::SnapshotStore store;
    ApiRouter router{store};
    std::unique_ptr<HttpServer> server;
};

// Writes DIR/cert.pem and DIR/key.pem: a one-day self-signed certificate for 127.0.0.1.
bool make_self_signed_cert(const std::string& dir) {
    std::string mk = "mkdir -p " + dir +
                     " && openssl req -x509 -newkey ec -pkeyopt "
                     "ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost "
                     "-addext subjectAltName=IP:127.0.0.1 -keyout " +
                     dir + "/key.pem -out " + dir + "/cert.pem >/dev/null 2>&1";
    return std::system(mk.c_str()) == 0;
}

// A TLS listener's options, with a fresh self-signed certificate in DIR named by the web config.
Result<HttpServerOptions> tls_options(const std::string& dir) {
    if (!make_self_signed_cert(dir))
        return make_error("openssl could not make a certificate in " + dir);
    HttpServerOptions o;
    o.web = RDMADIAG_TRY(
        parse_web_config("tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n", dir));
    return o;
}

TEST_F(HttpServerTest, ServesEveryRouteOverTheWire) {
    int port = start();
    for (const auto& path : ApiRouter::routes()) {
        auto resp = http_exchange(port, http_get(path));
        EXPECT_EQ(status_of(resp), 200) << path << "\n" << resp;
        EXPECT_FALSE(body_of(resp).empty()) << path;
    }
    auto m = http_exchange(port, http_get("/metrics"));
    EXPECT_NE(m.find("Content-Type: text/plain; version=0.0.4; charset=utf-8"), std::string::npos);
    EXPECT_NE(body_of(m).find("rdmadiag_snapshot_sequence 17"), std::string::npos);
}

TEST_F(HttpServerTest, HeadHasTheHeadersOfGetAndNoBody) {
    int port = start();
    auto get = http_exchange(port, http_get("/metrics"));
    auto resp = http_exchange(port, "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(resp), 200);
    EXPECT_EQ(body_of(resp), "");
    EXPECT_EQ(header_of(resp, "Content-Length"), std::to_string(body_of(get).size()));
    EXPECT_EQ(header_of(resp, "Content-Type"), header_of(get, "Content-Type"));
}

TEST_F(HttpServerTest, EveryAnswerSaysItIsNotToBeCachedOrSniffedAndClosesTheConnection) {
    int port = start();
    for (std::string path : {"/metrics", "/healthz", "/nope"}) {
        auto resp = http_exchange(port, http_get(path));
        EXPECT_EQ(header_of(resp, "Cache-Control"), "no-store") << path;
        EXPECT_EQ(header_of(resp, "X-Content-Type-Options"), "nosniff") << path;
        EXPECT_EQ(header_of(resp, "Connection"), "close") << path;
    }
}

TEST_F(HttpServerTest, QueryStringsReachTheRoutes) {
    int port = start();
    auto resp = http_exchange(port, http_get("/api/v1/mrs?state=stuck"));
    EXPECT_EQ(status_of(resp), 200);
    EXPECT_NE(body_of(resp).find("\"mr\":17"), std::string::npos);
    EXPECT_EQ(body_of(resp).find("\"mr\":18"), std::string::npos);
}

TEST_F(HttpServerTest, UnknownRoutesAndFileLikePathsAre404) {
    int port = start();
    for (std::string path : {"/", "/index.html", "/../../etc/passwd", "/x.cgi", "/api/v1/"}) {
        EXPECT_EQ(status_of(http_exchange(port, http_get(path))), 404) << path;
    }
}

TEST_F(HttpServerTest, BadMethodIs405) {
    int port = start();
    auto resp = http_exchange(port, "DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(resp), 405);
    EXPECT_NE(resp.find("Allow: GET, HEAD"), std::string::npos);
}

TEST_F(HttpServerTest, BodiesAreRefused) {
    int port = start();
    auto resp = http_exchange(
        port, "POST /api/v1/status HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    EXPECT_EQ(status_of(resp), 405);
    auto get_body = http_exchange(
        port, "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    EXPECT_EQ(status_of(get_body), 413);
}

TEST_F(HttpServerTest, OversizedRequestHeadsAre431) {
    HttpServerOptions o;
    o.max_request_bytes = 1024;
    int port = start(o);
    for (size_t size : {size_t{1100}, size_t{4096}, size_t{100000}}) {
        auto resp =
            http_exchange(port, http_get("/metrics", "X-Big: " + std::string(size, 'a') + "\r\n"));
        EXPECT_EQ(status_of(resp), 431) << size << ": " << resp.substr(0, 200);
        EXPECT_EQ(body_of(resp).find("rdmadiag_"), std::string::npos);
    }
    // A long URL counts as much as a long header, and many small headers as one large one.
    auto url = http_exchange(port, http_get("/metrics?" + std::string(2000, 'q')));
    EXPECT_EQ(status_of(url), 431);
    std::string many;
    for (int i = 0; i < 200; ++i) many += "X-" + std::to_string(i) + ": y\r\n";
    EXPECT_EQ(status_of(http_exchange(port, http_get("/metrics", many))), 431);
    // A head just within the bound is served.
    std::string fits = http_get("/healthz", "X-Pad: ");
    fits.insert(fits.size() - 2, std::string(1024 - fits.size() - 2, 'a') + "\r\n");
    ASSERT_EQ(fits.size(), 1024u);
    EXPECT_EQ(status_of(http_exchange(port, fits)), 200);
    EXPECT_EQ(server->stats().oversized, 5u);
}

TEST_F(HttpServerTest, AHeadNotCompleteWithinTheTimeoutIs408) {
    HttpServerOptions o;
    o.request_timeout = 300ms;
    int port = start(o);
    // Whether the last piece is half a line or whole lines (which the parser has taken).
    RawConnection partial(port), lines(port), silent(port);
    ASSERT_TRUE(partial.send("GET /metrics HTTP/1.1\r\nHo"));
    ASSERT_TRUE(lines.send("GET /metrics HTTP/1.1\r\nHost: x\r\n"));
    for (auto* c : {&partial, &lines}) {
        bool closed = false;
        auto resp = c->read_all(5s, &closed);
        EXPECT_TRUE(closed);
        EXPECT_EQ(status_of(resp), 408) << resp;
        EXPECT_NE(body_of(resp).find("\"status\":408"), std::string::npos);
    }
    // A client that sent nothing is closed without an answer.
    bool closed = false;
    EXPECT_EQ(silent.read_all(5s, &closed), "");
    EXPECT_TRUE(closed);
    EXPECT_EQ(server->stats().timed_out, 3u);
}

TEST_F(HttpServerTest, GarbageIsABadRequestNotACrash) {
    HttpServerOptions o;
    o.request_timeout = 60s;  // the answers must come at once, not at the deadline
    int port = start(o);
    for (std::string junk : {"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "GET\r\n\r\n",
                             "\r\n\r\n", "GET /metrics HTTP/1.1\r\nbad header line\r\n\r\n",
                             "GET /metrics HTTP/1.1\r\nContent-Length: x\r\n\r\n"}) {
        RawConnection c(port);
        ASSERT_TRUE(c.send(junk));
        bool closed = false;
        auto resp = c.read_all(5s, &closed);
        EXPECT_TRUE(closed);
        EXPECT_EQ(status_of(resp), 400) << resp.substr(0, 100);
    }
    EXPECT_EQ(status_of(http_exchange(port, "GET /metrics HTTP/9.9\r\n\r\n")), 505);
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
}

TEST_F(HttpServerTest, SlowClientsAreDroppedAndDoNotStarveOthers) {
    HttpServerOptions o;
    o.max_connections = 2;
    o.request_timeout = 300ms;
    int port = start(o);
    // Two clients hold both workers with half a request each.
    RawConnection slow1(port), slow2(port);
    ASSERT_TRUE(slow1.send("GET /metrics HTTP/1.1\r\nHost"));
    ASSERT_TRUE(slow2.send("GET /metrics HTTP/1.1\r\nHost"));
    // A third, well-behaved client is served once the timeout frees a worker.
    auto resp = http_exchange(port, http_get("/healthz"));
    EXPECT_EQ(status_of(resp), 200);
    bool closed = false;
    slow1.read_all(10s, &closed);
    EXPECT_TRUE(closed) << "slow client was not dropped";
}

TEST_F(HttpServerTest, SlowAndSilentClientsHoldNoWorker) {
    HttpServerOptions o;
    o.max_connections = 2;
    o.request_timeout = 60s;  // they would hold a worker for a minute, were it theirs to hold
    int port = start(o);
    std::vector<std::unique_ptr<RawConnection>> slow;
    for (int i = 0; i < 40; ++i) {
        slow.push_back(std::make_unique<RawConnection>(port));
        ASSERT_TRUE(slow.back()->connected());
        if (i % 2 == 0) {
            ASSERT_TRUE(slow.back()->send("GET /metrics HTTP/1.1\r\nHo"));
        }
    }
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
    }
    // They were all still waiting while the others were served.
    for (auto& c : slow) {
        bool closed = true;
        c->read_all(1ms, &closed);
        EXPECT_FALSE(closed);
    }
    EXPECT_EQ(server->stats().evicted, 0u);
}

TEST_F(HttpServerTest, OldestPendingClientMakesRoomForANewOne) {
    HttpServerOptions o;
    o.max_pending = 4;
    o.request_timeout = 60s;
    int port = start(o);
    std::vector<std::unique_ptr<RawConnection>> silent;
    for (int i = 0; i < 8; ++i) {
        silent.push_back(std::make_unique<RawConnection>(port));
        ASSERT_TRUE(silent.back()->connected());
    }
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
    bool closed = false;
    silent.front()->read_all(10s, &closed);
    EXPECT_TRUE(closed) << "the oldest pending client was not dropped";
    EXPECT_GE(server->stats().evicted, 4u);
    EXPECT_GE(server->stats().answered, 1u);
}

TEST_F(HttpServerTest, ManyConcurrentClientsAllGetAnswers) {
    HttpServerOptions o;
    o.max_connections = 4;
    int port = start(o);
    std::atomic<int> ok{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 16; ++i) {
        clients.emplace_back([&] {
            if (status_of(http_exchange(port, http_get("/metrics"))) == 200) ++ok;
        });
    }
    for (auto& t : clients) t.join();
    EXPECT_EQ(ok.load(), 16);
}

TEST_F(HttpServerTest, AnAddressInUseIsAStartError) {
    int port = start();
    HttpServerOptions o;
    o.listen_address = "127.0.0.1:" + std::to_string(port);
    HttpServer second(o, [](const HttpRequest&) { return HttpResponse{}; });
    auto r = second.start();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cannot listen on 127.0.0.1:"), std::string::npos);
}

std::string bcrypt(const std::string& password, unsigned long cost = 4) {
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    crypt_gensalt_rn("$2y$", cost, nullptr, 0, salt, sizeof salt);
    crypt_data data{};
    return crypt_r(password.c_str(), salt, &data);
}

TEST_F(HttpServerTest, BasicAuthGuardsEveryRoute) {
    HttpServerOptions o;
    o.web.basic_auth_users = {{"prometheus", bcrypt("secret")}};
    int port = start(o);
    auto none = http_exchange(port, http_get("/metrics"));
    EXPECT_EQ(status_of(none), 401);
    EXPECT_NE(none.find("WWW-Authenticate: Basic realm=\"rdmadiag\""), std::string::npos);
    EXPECT_EQ(body_of(none).find("rdmadiag_"), std::string::npos);
    auto wrong = http_exchange(
        port,
        http_get("/metrics", "Authorization: Basic " + base64_encode("prometheus:nope") + "\r\n"));
    EXPECT_EQ(status_of(wrong), 401);
    auto right =
        http_exchange(port, http_get("/metrics", "Authorization: Basic " +
                                                     base64_encode("prometheus:secret") + "\r\n"));
    EXPECT_EQ(status_of(right), 200);
    auto unknown = http_exchange(
        port,
        http_get("/nope", "Authorization: Basic " + base64_encode("prometheus:secret") + "\r\n"));
    EXPECT_EQ(status_of(unknown), 404);
}

// TLS needs the openssl and curl programs to make a certificate and to speak TLS to the server.
bool have_program(const char* name) {
    std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
    return std::system(cmd.c_str()) == 0;
}

TEST_F(HttpServerTest, TlsWithACertificateAndKeyFromTheWebConfig) {
    if (!have_program("openssl") || !have_program("curl"))
        GTEST_SKIP() << "openssl or curl is not installed (scripts/deps/test.txt)";
    const test::TempDir tmp("tls");
    const std::string dir = tmp.string();
    auto tls = tls_options(dir);
    ASSERT_TRUE(tls.ok()) << tls.error().message;
    HttpServerOptions o = *tls;
    int port = start(o);
    EXPECT_TRUE(server->tls());
    std::string out = dir + "/out.txt";
    // curl checks the certificate against the one made above, and the clean TLS close.
    std::string curl = "curl -sS --max-time 10 --cacert " + dir + "/cert.pem -o " + out +
                       " https://127.0.0.1:" + std::to_string(port) + "/healthz";
    EXPECT_EQ(std::system(curl.c_str()), 0);
    std::string body = common::read_text_file(out).value_or("");
    EXPECT_NE(body.find("\"status\":\"ok\""), std::string::npos) << body;
    auto scrape = tls_exchange(port, http_get("/metrics"));
    EXPECT_EQ(status_of(scrape), 200);
    EXPECT_NE(body_of(scrape).find("rdmadiag_snapshot_sequence 17"), std::string::npos);
    // Plain HTTP to the TLS port gets no data.
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), -1);
}

TEST_F(HttpServerTest, TlsHandshakeDrippedAByteAtATimeIsCutAtTheTimeout) {
    if (!have_program("openssl"))
        GTEST_SKIP() << "openssl is not installed (scripts/deps/test.txt)";
    const test::TempDir tmp("tls-drip");
    const std::string dir = tmp.string();
    auto tls = tls_options(dir);
    ASSERT_TRUE(tls.ok()) << tls.error().message;
    HttpServerOptions o = *tls;
    o.request_timeout = 500ms;
    int port = start(o);
    // A handshake record announcing 16 KiB, then a byte every 50 ms: each read comes well within
    // a per-read timeout, so only a deadline on the whole handshake ends it.
    RawConnection c(port);
    ASSERT_TRUE(c.send(std::string("\x16\x03\x01\x40\x00", 5)));
    bool closed = false;
    for (int i = 0; i < 400 && !closed; ++i) {
        if (!c.send("A")) break;  // reset: the server has given up on it
        c.read_all(50ms, &closed);
    }
    EXPECT_TRUE(closed || !c.send("A")) << "a dripping handshake held its connection";
}

TEST_F(HttpServerTest, UnreadableTlsFilesAreAStartError) {
    auto web = parse_web_config(
        "tls_server_config:\n  cert_file: /nonexistent/c.pem\n  key_file: /nonexistent/k.pem\n");
    ASSERT_TRUE(web.ok());
    HttpServerOptions o;
    o.web = *web;
    o.listen_address = "127.0.0.1:0";
    HttpServer s(o, [](const HttpRequest&) { return HttpResponse{}; });
    auto r = s.start();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("/nonexistent/c.pem"), std::string::npos) << r.error().message;
}

// --- gzip ---

TEST_F(HttpServerTest, MetricsAreGzippedOnlyForClientsThatAskForIt) {
    int port = start();
    auto plain = http_exchange(port, http_get("/metrics"));
    ASSERT_EQ(status_of(plain), 200);
    EXPECT_EQ(header_of(plain, "Content-Encoding"), "");
    EXPECT_EQ(header_of(plain, "Vary"), "Accept-Encoding");
    // As Prometheus asks.
    auto zipped = http_exchange(port, http_get("/metrics", "Accept-Encoding: gzip\r\n"));
    ASSERT_EQ(status_of(zipped), 200);
    EXPECT_EQ(header_of(zipped, "Content-Encoding"), "gzip");
    EXPECT_EQ(header_of(zipped, "Vary"), "Accept-Encoding");
    EXPECT_EQ(header_of(zipped, "Content-Type"), header_of(plain, "Content-Type"));
    EXPECT_EQ(header_of(zipped, "Content-Length"), std::to_string(body_of(zipped).size()));
    EXPECT_LT(body_of(zipped).size(), body_of(plain).size() / 3);
    auto unzipped = testing::gunzip(body_of(zipped));
    ASSERT_TRUE(unzipped);
    EXPECT_EQ(*unzipped, body_of(plain));
    // Refused by q=0, or only other codings offered: the plain text.
    for (std::string refusal : {"gzip;q=0", "deflate, br", "identity"}) {
        auto r = http_exchange(port, http_get("/metrics", "Accept-Encoding: " + refusal + "\r\n"));
        EXPECT_EQ(header_of(r, "Content-Encoding"), "") << refusal;
        EXPECT_EQ(body_of(r), body_of(plain)) << refusal;
    }
}

TEST_F(HttpServerTest, HeadWithGzipHasTheCompressedLengthAndNoBody) {
    int port = start();
    auto get = http_exchange(port, http_get("/metrics", "Accept-Encoding: gzip\r\n"));
    auto head =
        http_exchange(port, "HEAD /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
    EXPECT_EQ(status_of(head), 200);
    EXPECT_EQ(body_of(head), "");
    EXPECT_EQ(header_of(head, "Content-Encoding"), "gzip");
    EXPECT_EQ(header_of(head, "Content-Length"), std::to_string(body_of(get).size()));
}

TEST_F(HttpServerTest, ApiAnswersAreGzippedTooButNotTinyOnes) {
    int port = start();
    auto plain = http_exchange(port, http_get("/api/v1/snapshot"));
    auto zipped =
        http_exchange(port, http_get("/api/v1/snapshot", "Accept-Encoding: gzip, deflate\r\n"));
    ASSERT_EQ(status_of(zipped), 200);
    ASSERT_GE(body_of(plain).size(), kMinGzipBytes);
    EXPECT_EQ(header_of(zipped, "Content-Encoding"), "gzip");
    EXPECT_EQ(testing::gunzip(body_of(zipped)).value_or("not gzip"), body_of(plain));
    auto healthz = http_exchange(port, http_get("/healthz", "Accept-Encoding: gzip\r\n"));
    ASSERT_LT(body_of(healthz).size(), kMinGzipBytes);
    EXPECT_EQ(header_of(healthz, "Content-Encoding"), "");
    EXPECT_NE(body_of(healthz).find("\"status\":\"ok\""), std::string::npos);
}

// --- listeners ---

// True when this host can listen and connect on the IPv6 loopback (containers often cannot).
bool have_ipv6_loopback() {
    int fd = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

TEST_F(HttpServerTest, ListensOnTheIPv6Loopback) {
    if (!have_ipv6_loopback()) GTEST_SKIP() << "this host has no IPv6 loopback (::1)";
    HttpServerOptions o;
    o.listen_address = "[::1]:0";
    int port = start(o);
    auto resp = http_exchange(port, http_get("/healthz"), "::1");
    EXPECT_EQ(status_of(resp), 200) << resp;
    // IPv6 only: nothing listens on the IPv4 loopback.
    EXPECT_EQ(http_exchange(port, http_get("/healthz"), "127.0.0.1"), "");
}

TEST_F(HttpServerTest, APortAloneListensOnIPv4AndIPv6) {
    HttpServerOptions o;
    o.listen_address = ":0";
    int port = start(o);
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"), "127.0.0.1")), 200);
    if (!have_ipv6_loopback()) GTEST_SKIP() << "this host has no IPv6 loopback (::1)";
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"), "::1")), 200);
}

TEST_F(HttpServerTest, ABadListenAddressIsAStartError) {
    HttpServerOptions o;
    o.listen_address = "localhost:9857";
    HttpServer s(o, [](const HttpRequest&) { return HttpResponse{}; });
    auto r = s.start();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("'localhost:9857'"), std::string::npos) << r.error().message;
}

TEST_F(HttpServerTest, StopsWithClientsConnectedAndStartsAgain) {
    HttpServerOptions o;
    o.request_timeout = 3600s;
    int port = start(o);
    std::vector<std::unique_ptr<RawConnection>> idle;
    for (int i = 0; i < 20; ++i) idle.push_back(std::make_unique<RawConnection>(port));
    ASSERT_TRUE(idle.back()->send("GET /metr"));
    server->stop();  // a stop that waited for these clients would wait out their hour
    for (auto& c : idle) {
        bool closed = false;
        c->read_all(5s, &closed);
        EXPECT_TRUE(closed);
    }
    ASSERT_TRUE(server->start().ok());
    int again = server->ports().at(0);
    EXPECT_EQ(status_of(http_exchange(again, http_get("/healthz"))), 200);
}

// --- turns to be answered ---

TEST_F(HttpServerTest, RequestsBeyondMaxConnectionsWaitTheirTurn) {
    HttpServerOptions o;
    o.max_connections = 1;
    std::atomic<int> running{0}, most{0};
    int port = start(o, [&](const HttpRequest& r) {
        int now = ++running;
        most = std::max(most.load(), now);
        std::this_thread::sleep_for(50ms);
        --running;
        return router.handle(r);
    });
    std::atomic<int> ok{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 6; ++i) {
        clients.emplace_back([&] {
            if (status_of(http_exchange(port, http_get("/healthz"))) == 200) ++ok;
        });
    }
    for (auto& t : clients) t.join();
    EXPECT_EQ(ok.load(), 6);
    EXPECT_EQ(most.load(), 1);
}

TEST_F(HttpServerTest, NoTurnWithinTheTimeoutIs503) {
    HttpServerOptions o;
    o.max_connections = 1;
    o.request_timeout = 300ms;
    int port = start(o, [&](const HttpRequest& r) {
        if (r.path == "/slow") std::this_thread::sleep_for(1500ms);
        return router.handle(r);
    });
    std::thread slow([&] { http_exchange(port, http_get("/slow")); });
    std::this_thread::sleep_for(100ms);  // the slow request holds the one turn
    auto resp = http_exchange(port, http_get("/healthz"));
    slow.join();
    EXPECT_EQ(status_of(resp), 503) << resp;
    EXPECT_EQ(server->stats().busy, 1u);
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
}

// --- slow clients in numbers ---

constexpr int kSlowClients = 300;

TEST_F(HttpServerTest, ThreeHundredSlowPlainClientsDoNotDelayAScrape) {
    HttpServerOptions o;
    o.request_timeout = 60s;
    int port = start(o);
    std::vector<std::unique_ptr<RawConnection>> slow;
    for (int i = 0; i < kSlowClients; ++i) {
        slow.push_back(std::make_unique<RawConnection>(port));
        ASSERT_TRUE(slow.back()->connected());
    }
    // Half send nothing, half dribble a head a byte at a time.
    const std::string head =
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Pad: " + std::string(200, 'a');
    std::atomic<bool> stop{false};
    std::thread dribble([&] {
        for (size_t i = 0; i < head.size() && !stop; ++i) {
            for (size_t c = 0; c < slow.size(); c += 2) slow[c]->send(head.substr(i, 1));
            std::this_thread::sleep_for(20ms);
        }
    });
    std::this_thread::sleep_for(300ms);
    // A server that let a slow client hold a worker would answer only when that client's 60 s
    // request timeout expired; the exchange gives up long before that, so an answer at all
    // (while every slow client is still connected, checked below) is the property.
    for (int i = 0; i < 5; ++i) {
        auto resp = http_exchange(port, http_get("/metrics"));
        EXPECT_EQ(status_of(resp), 200);
    }
    stop = true;
    dribble.join();
    for (auto& c : slow) {
        bool closed = true;
        c->read_all(1ms, &closed);
        EXPECT_FALSE(closed);
    }
    EXPECT_EQ(server->stats().evicted, 0u);
}

TEST_F(HttpServerTest, ThreeHundredStalledTlsHandshakesDoNotDelayATlsScrape) {
    if (!have_program("openssl"))
        GTEST_SKIP() << "openssl is not installed (scripts/deps/test.txt)";
    const test::TempDir tmp("tls-slow");
    const std::string dir = tmp.string();
    auto tls = tls_options(dir);
    ASSERT_TRUE(tls.ok()) << tls.error().message;
    HttpServerOptions o = *tls;
    o.request_timeout = 60s;
    int port = start(o);
    // Half connect and say nothing; half send the start of a ClientHello (a record announcing
    // 512 bytes, of which only the first few come).
    std::vector<std::unique_ptr<RawConnection>> stalled;
    for (int i = 0; i < kSlowClients; ++i) {
        stalled.push_back(std::make_unique<RawConnection>(port));
        ASSERT_TRUE(stalled.back()->connected());
        if (i % 2 == 1) {
            ASSERT_TRUE(stalled.back()->send(
                std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11)));
        }
    }
    std::this_thread::sleep_for(200ms);
    // As with plain clients: a stalled handshake holding a worker would delay the scrape to the
    // 60 s request timeout, past the exchange's own limit.
    for (int i = 0; i < 5; ++i) {
        auto resp = tls_exchange(port, http_get("/metrics"));
        EXPECT_EQ(status_of(resp), 200);
        EXPECT_NE(body_of(resp).find("rdmadiag_snapshot_sequence 17"), std::string::npos);
    }
    for (auto& c : stalled) {
        bool closed = true;
        c->read_all(1ms, &closed);
        EXPECT_FALSE(closed);
    }
    EXPECT_EQ(server->stats().evicted, 0u);
}

TEST_F(HttpServerTest, AWrongPasswordDoesNotHoldUpOthers) {
    // Cost 13: one verification takes about half a second, so a wrong password is still being
    // checked while remembered credentials are answered, unless checking blocks the I/O threads.
    HttpServerOptions o;
    o.web.basic_auth_users = {{"prometheus", bcrypt("secret", 13)}};
    int port = start(o);
    const std::string right = "Authorization: Basic " + base64_encode("prometheus:secret") + "\r\n";
    ASSERT_EQ(status_of(http_exchange(port, http_get("/healthz", right))), 200);  // remembered
    RawConnection guess(port);
    ASSERT_TRUE(guess.send(http_get(
        "/metrics", "Authorization: Basic " + base64_encode("prometheus:guess") + "\r\n")));
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz", right))), 200);
    bool closed = true;
    EXPECT_EQ(guess.read_all(1ms, &closed), "") << "the wrong password was judged first";
    EXPECT_FALSE(closed);
    EXPECT_EQ(status_of(guess.read_all(30s)), 401);
}

// --- the request head as the server parses it ---

TEST(RequestHead, ACompleteHeadBecomesARequest) {
    auto h = parse_request_head(
        "GET /api/v1/p%6Frts?device=mlx5_0&port=1 HTTP/1.1\r\nHost: x\r\nX-Thing: A b\r\n"
        "Content-Length: 0\r\n\r\n",
        8192);
    ASSERT_EQ(h.outcome, RequestHead::Outcome::complete);
    EXPECT_EQ(h.request.method, "GET");
    EXPECT_EQ(h.request.path, "/api/v1/ports");
    EXPECT_EQ(h.request.query, "device=mlx5_0&port=1");
    EXPECT_EQ(h.request.header("x-thing"), "A b");
    EXPECT_EQ(h.request.header("host"), "x");
    EXPECT_EQ(h.request.content_length, 0);
    EXPECT_FALSE(h.request.chunked);
    auto chunked = parse_request_head(
        "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 8192);
    ASSERT_EQ(chunked.outcome, RequestHead::Outcome::complete);
    EXPECT_TRUE(chunked.request.chunked);
    EXPECT_EQ(chunked.request.content_length, -1);
    // In a path '+' is itself.
    EXPECT_EQ(parse_request_head("GET /a+b HTTP/1.0\r\n\r\n", 8192).request.path, "/a+b");
}

TEST(RequestHead, IncompleteMalformedAndOversizedHeads) {
    using O = RequestHead::Outcome;
    EXPECT_EQ(parse_request_head("GET /metrics HTTP/1.1\r\nHost: x\r\n", 8192).outcome,
              O::incomplete);
    EXPECT_EQ(parse_request_head("", 8192).outcome, O::incomplete);
    auto hello = parse_request_head(std::string("\x16\x03\x01\x02\x00", 5), 8192);
    EXPECT_EQ(hello.outcome, O::refused);
    EXPECT_EQ(hello.status, 400);
    EXPECT_EQ(parse_request_head("GET / HTTP/1.1\r\nbad\r\n\r\n", 8192).status, 400);
    EXPECT_EQ(parse_request_head("GET / HTTP/2.0\r\n\r\n", 8192).status, 505);
    auto big = parse_request_head("GET /" + std::string(200, 'a'), 100);
    EXPECT_EQ(big.outcome, O::refused);
    EXPECT_EQ(big.status, 431);
    // The limit is on the whole head: request line and every header together.
    std::string head = "GET /metrics HTTP/1.1\r\n";
    for (int i = 0; i < 20; ++i) head += "X-" + std::to_string(i) + ": y\r\n";
    EXPECT_EQ(parse_request_head(head + "\r\n", head.size() + 2).outcome, O::complete);
    EXPECT_EQ(parse_request_head(head + "\r\n", head.size() + 1).status, 431);
    EXPECT_EQ(parse_request_head(head, head.size() - 1).status, 431);
    EXPECT_EQ(parse_request_head(head, head.size()).outcome, O::incomplete);
}

}  // namespace
}  // namespace rdmadiag::api
