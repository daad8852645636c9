#include "exporters/api/web_config.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::api {
namespace {

TEST(WebConfig, ParsesTlsAndUsers) {
    auto c = parse_web_config(R"(
tls_server_config:
  cert_file: server.crt
  key_file: /abs/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
  min_version: TLS13
basic_auth_users:
  prometheus: $2y$10$4bB3gXcaO9xTDQnJ1jQ3bOy3xlYbnNqvW3Fo8pqz/6VbpD8gLWmqm
http_server_config:
  http2: false
)",
                              "/etc/rdmadiag");
    ASSERT_TRUE(c.ok()) << c.error().message;
    ASSERT_TRUE(c->tls);
    EXPECT_EQ(c->tls->cert_file, "/etc/rdmadiag/server.crt");
    EXPECT_EQ(c->tls->key_file, "/abs/server.key");
    EXPECT_EQ(c->tls->client_ca_file, "/etc/rdmadiag/ca.crt");
    EXPECT_EQ(c->tls->client_auth, ClientAuth::require_and_verify);
    EXPECT_EQ(c->tls->min_version, TlsVersion::tls13);
    ASSERT_EQ(c->basic_auth_users.size(), 1u);
    EXPECT_EQ(c->basic_auth_users.at("prometheus").substr(0, 7), "$2y$10$");
}

TEST(WebConfig, EmptyFileMeansPlainHttpWithoutAuth) {
    auto c = parse_web_config("");
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(c->tls);
    EXPECT_TRUE(c->basic_auth_users.empty());
}

struct Bad {
    const char* text;
    const char* message;
};
class WebConfigErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(WebConfigErrors, AreRefusedNotIgnored) {
    auto c = parse_web_config(GetParam().text);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find(GetParam().message), std::string::npos) << c.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WebConfigErrors,
    ::testing::Values(
        Bad{"tls_server_config:\n  cert_file: a\n", "needs both cert_file and key_file"},
        Bad{"tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: [X]\n",
            "cipher_suites is not supported"},
        Bad{"tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: SSL3\n",
            "min_version must be"},
        Bad{"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: Sometimes\n",
            "unknown client_auth_type"},
        Bad{"tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: "
            "RequireAndVerifyClientCert\n",
            "needs client_ca_file"},
        Bad{"basic_auth_users:\n  alice: plaintext\n", "must be a bcrypt hash"},
        Bad{"basic_auth_users: [alice]\n", "must map user names"},
        Bad{"http_server_config:\n  headers:\n    X-Frame-Options: deny\n",
            "headers is not supported"},
        Bad{"http_server_config:\n  http2: true\n", "http2 is not supported"},
        Bad{"tls_config:\n  cert_file: a\n", "unknown web config setting tls_config"}));

TEST(WebConfig, LoadNamesTheFile) {
    auto c = load_web_config("/nonexistent/web.yml");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("/nonexistent/web.yml"), std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::api
