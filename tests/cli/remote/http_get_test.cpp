#include "cli/remote/http_get.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace rdmadiag::cli::remote {
namespace {

TEST(HttpUrl, ParsesHostPortPath) {
    auto u = parse_http_url("http://127.0.0.1:9977/base");
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u->host, "127.0.0.1");
    EXPECT_EQ(u->port, "9977");
    EXPECT_EQ(u->path, "/base");
    auto v6 = parse_http_url("http://[::1]:80");
    ASSERT_TRUE(v6.ok());
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->path, "/");
    EXPECT_FALSE(parse_http_url("https://x").ok());
    EXPECT_FALSE(parse_http_url("ftp://x").ok());
    EXPECT_FALSE(parse_http_url("http://:80").ok());
    EXPECT_FALSE(parse_http_url("http://h:port").ok());
    EXPECT_FALSE(parse_http_url("http://[::1").ok());
}

TEST(HttpResponse, LengthChunkedAndCloseDelimited) {
    auto a = parse_http_response("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", 100);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->body, "{}");
    auto b = parse_http_response(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
        100);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->body, "abcde");
    auto c =
        parse_http_response("HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\n\r\nnope", 100);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->status, 404);
    EXPECT_EQ(c->content_type, "text/plain");
}

TEST(HttpResponse, GarbageIsAnError) {
    EXPECT_FALSE(parse_http_response("", 100).ok());
    EXPECT_FALSE(parse_http_response("SSH-2.0-OpenSSH\r\n\r\n", 100).ok());
    EXPECT_FALSE(parse_http_response("HTTP/1.1 2x0 OK\r\n\r\n", 100).ok());
    EXPECT_FALSE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab", 100).ok());
    EXPECT_FALSE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 100).ok());
    EXPECT_FALSE(
        parse_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 100)
            .ok());
    EXPECT_FALSE(parse_http_response(
                     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\nab", 100)
                     .ok());
    EXPECT_FALSE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n", 100).ok());
}

// A one-shot server on a loopback port chosen by the kernel.
class OneShotServer {
public:
    explicit OneShotServer(std::string reply, bool hang = false) {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(fd_, 1);
        socklen_t len = sizeof addr;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this, reply = std::move(reply), hang] {
            int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) return;
            char buf[4096];
            (void)::recv(c, buf, sizeof buf, 0);
            if (hang) {
                char b;
                (void)::recv(c, &b, 1, 0);  // waits until the client gives up and closes
            } else {
                (void)::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            }
            ::close(c);
        });
    }
    ~OneShotServer() {
        thread_.join();
        ::close(fd_);
    }
    std::string port() const { return std::to_string(port_); }

private:
    int fd_ = -1;
    uint16_t port_ = 0;
    std::thread thread_;
};

TEST(HttpGet, FetchesFromALoopbackServer) {
    OneShotServer server(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"version\":1}");
    auto r = http_get(HttpUrl{"127.0.0.1", server.port(), "/api/v1/snapshot"});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "{\"version\":1}");
}

TEST(HttpGet, ASilentServerTimesOut) {
    OneShotServer server("", /*hang=*/true);
    auto r = http_get(HttpUrl{"127.0.0.1", server.port(), "/"},
                      HttpLimits{std::chrono::milliseconds(200), 1024});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("timed out"), std::string::npos);
}

TEST(HttpGet, OversizedBodyIsRefused) {
    OneShotServer server("HTTP/1.1 200 OK\r\n\r\n" + std::string(5000, 'x'));
    auto r = http_get(HttpUrl{"127.0.0.1", server.port(), "/"},
                      HttpLimits{std::chrono::milliseconds(2000), 1000});
    ASSERT_FALSE(r.ok());
}

}  // namespace
}  // namespace rdmadiag::cli::remote
