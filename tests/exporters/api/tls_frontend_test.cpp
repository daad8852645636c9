#include "exporters/api/tls_frontend.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::api {
namespace {

TEST(TlsFrontend, StampsTheRequestHeadAfterTheRequestLine) {
    auto s = TlsFrontend::stamp_request_head("GET /metrics HTTP/1.1\r\nHost: x\r\n", "t0k");
    ASSERT_TRUE(s);
    EXPECT_EQ(*s, "GET /metrics HTTP/1.1\r\nX-Rdmadiag-Frontend: t0k\r\nHost: x\r\n");
}

TEST(TlsFrontend, DropsEveryClientCopyOfTheHeaderWhateverItsCase) {
    auto s = TlsFrontend::stamp_request_head(
        "GET / HTTP/1.1\r\nx-rdmadiag-frontend: guess\r\nHost: x\r\nX-RDMADIAG-FRONTEND:again\r\n",
        "t0k");
    ASSERT_TRUE(s);
    EXPECT_EQ(*s, "GET / HTTP/1.1\r\nX-Rdmadiag-Frontend: t0k\r\nHost: x\r\n");
}

TEST(TlsFrontend, RefusesWhatIsNotARequestHead) {
    EXPECT_FALSE(TlsFrontend::stamp_request_head("garbage", "t"));
    EXPECT_FALSE(TlsFrontend::stamp_request_head("GARBAGE\r\n", "t"));
    EXPECT_FALSE(TlsFrontend::stamp_request_head("", "t"));
}

TEST(TlsFrontend, TokensAreRandomHex) {
    auto a = make_frontend_token();
    auto b = make_frontend_token();
    EXPECT_EQ(a.size(), 32u);
    EXPECT_NE(a, b);
    EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::api
