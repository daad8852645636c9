#include "exporters/api/http_server.hpp"
#include "collector/common/text_file.hpp"

#include <crypt.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "collector/common/simple_yaml.hpp"
#include "exporters/api/api_router.hpp"
#include "exporters/prometheus/snapshot_collectable.hpp"
#include "tests/exporters/api/raw_http_client.hpp"
#include "tests/exporters/sample_snapshot.hpp"

namespace rdmadiag::api {
namespace {

TEST(HttpServer, ListenAddressesInCivetWebForm) {
    EXPECT_EQ(*civetweb_listen_spec(":9857"), "9857");
    EXPECT_EQ(*civetweb_listen_spec("9857"), "9857");
    EXPECT_EQ(*civetweb_listen_spec("0.0.0.0:9857"), "9857");
    EXPECT_EQ(*civetweb_listen_spec("127.0.0.1:0"), "127.0.0.1:0");
    EXPECT_EQ(*civetweb_listen_spec("[::1]:9857"), "[::1]:9857");
    EXPECT_FALSE(civetweb_listen_spec("127.0.0.1:http").ok());
    EXPECT_FALSE(civetweb_listen_spec("127.0.0.1:70000").ok());
    EXPECT_FALSE(civetweb_listen_spec("::1:9857").ok());
    EXPECT_FALSE(civetweb_listen_spec("[::1]9857").ok());
    EXPECT_FALSE(civetweb_listen_spec("").ok());
}

using namespace std::chrono_literals;
using testing::body_of;
using testing::http_exchange;
using testing::RawConnection;
using testing::status_of;

std::string http_get(const std::string& path, const std::string& extra = "") {
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extra + "\r\n";
}

class HttpServerTest : public ::testing::Test {
protected:
    void SetUp() override { store.publish(std::make_shared<Snapshot>(testing::sample_snapshot())); }

    int start(HttpServerOptions options = {}) {
        options.listen_address = "127.0.0.1:0";
        server = std::make_unique<HttpServer>(
            options, [this](const HttpRequest& r) { return router.handle(r); });
        auto r = server->start();
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        auto ports = server->ports();
        EXPECT_EQ(ports.size(), 1u);
        return ports.empty() ? 0 : ports[0];
    }

    publish::SnapshotStore store;
    prom::SnapshotCollectable metrics{store};
    ApiRouter router{store, metrics};
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

TEST_F(HttpServerTest, HeadHasNoBody) {
    int port = start();
    auto resp = http_exchange(port, "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(resp), 200);
    EXPECT_EQ(body_of(resp), "");
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

TEST_F(HttpServerTest, OversizedRequestHeadsAreRefused) {
    HttpServerOptions o;
    o.max_request_bytes = 1024;
    int port = start(o);
    auto resp =
        http_exchange(port, http_get("/metrics", "X-Big: " + std::string(4096, 'a') + "\r\n"));
    int status = status_of(resp);
    // CivetWeb answers 400 (or 413, or just closes); either way the route never ran.
    EXPECT_TRUE(status == 400 || status == 413 || status == 431 || status == -1)
        << resp.substr(0, 200);
    EXPECT_EQ(body_of(resp).find("rdmadiag_"), std::string::npos);
    // And the server still serves normal requests.
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
}

TEST_F(HttpServerTest, GarbageIsABadRequestNotACrash) {
    int port = start();
    for (std::string junk :
         {"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", "GET\r\n\r\n",
          "GET /metrics HTTP/9.9\r\n\r\n", "GET /metrics HTTP/1.1\r\nbad header line\r\n\r\n"}) {
        auto resp = http_exchange(port, junk);
        EXPECT_NE(status_of(resp), 200) << resp.substr(0, 100);
    }
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), 200);
}

TEST_F(HttpServerTest, SlowClientsAreDroppedAndDoNotStarveOthers) {
    HttpServerOptions o;
    o.max_connections = 2;
    o.queue = 4;
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
    EXPECT_EQ(server->gate_stats().evicted, 0u);
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
    EXPECT_GE(server->gate_stats().evicted, 4u);
    EXPECT_GE(server->gate_stats().relayed, 1u);
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

std::string bcrypt(const std::string& password) {
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    crypt_gensalt_rn("$2y$", 4, nullptr, 0, salt, sizeof salt);
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
    std::string dir = ::testing::TempDir() + "/rdmadiag-tls-" + std::to_string(::getpid());
    ASSERT_TRUE(make_self_signed_cert(dir));
    auto web =
        parse_web_config("tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n", dir);
    ASSERT_TRUE(web.ok()) << web.error().message;
    HttpServerOptions o;
    o.web = *web;
    int port = start(o);
    EXPECT_TRUE(server->tls());
    std::string out = dir + "/out.txt";
    std::string curl = "curl -sS --max-time 10 --cacert " + dir + "/cert.pem -o " + out +
                       " https://127.0.0.1:" + std::to_string(port) + "/healthz";
    EXPECT_EQ(std::system(curl.c_str()), 0);
    std::string body = common::read_text_file(out).value_or("");
    EXPECT_NE(body.find("\"status\":\"ok\""), std::string::npos) << body;
    // Plain HTTP to the TLS port gets no data.
    EXPECT_EQ(status_of(http_exchange(port, http_get("/healthz"))), -1);
    // The plain listener behind the frontend refuses what did not come through TLS, even with
    // a made-up frontend header.
    int backend = server->backend_port();
    ASSERT_NE(backend, port);
    EXPECT_EQ(status_of(http_exchange(backend, http_get("/metrics"))), 403);
    EXPECT_EQ(
        status_of(http_exchange(backend, http_get("/metrics", "X-Rdmadiag-Frontend: guess\r\n"))),
        403);
    // Client-supplied copies of the header are replaced by the frontend's own.
    std::string spoof = "curl -sS --max-time 10 -H 'X-Rdmadiag-Frontend: guess' --cacert " + dir +
                        "/cert.pem -o " + out +
                        " -w '%{http_code}' https://127.0.0.1:" + std::to_string(port) +
                        "/healthz > " + dir + "/code.txt";
    EXPECT_EQ(std::system(spoof.c_str()), 0);
    EXPECT_EQ(common::read_text_file(dir + "/code.txt").value_or(""), "200");
    std::system(("rm -rf " + dir).c_str());
}

TEST_F(HttpServerTest, TlsHandshakeDrippedAByteAtATimeIsCutAtTheTimeout) {
    if (!have_program("openssl"))
        GTEST_SKIP() << "openssl is not installed (scripts/deps/test.txt)";
    std::string dir = ::testing::TempDir() + "/rdmadiag-tls-drip-" + std::to_string(::getpid());
    ASSERT_TRUE(make_self_signed_cert(dir));
    auto web =
        parse_web_config("tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n", dir);
    ASSERT_TRUE(web.ok()) << web.error().message;
    HttpServerOptions o;
    o.web = *web;
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
    std::string cleanup = "rm -rf " + dir;
    EXPECT_EQ(std::system(cleanup.c_str()), 0);
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

}  // namespace
}  // namespace rdmadiag::api
