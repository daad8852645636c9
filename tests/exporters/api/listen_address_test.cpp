#include "exporters/api/listen_address.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::api {
namespace {

using Family = ListenAddress::Family;

TEST(ListenAddress, APortAloneIsEveryAddress) {
    for (const char* text : {":9857", "9857"}) {
        auto a = parse_listen_address(text);
        ASSERT_TRUE(a.ok()) << text;
        EXPECT_EQ(a->family, Family::any) << text;
        EXPECT_EQ(a->host, "") << text;
        EXPECT_EQ(a->port, 9857) << text;
    }
}

TEST(ListenAddress, IPv4Addresses) {
    auto a = parse_listen_address("127.0.0.1:0");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->family, Family::ipv4);
    EXPECT_EQ(a->host, "127.0.0.1");
    EXPECT_EQ(a->port, 0);
    auto any4 = parse_listen_address("0.0.0.0:9857");
    ASSERT_TRUE(any4.ok());
    EXPECT_EQ(any4->family, Family::ipv4);
    EXPECT_EQ(any4->host, "0.0.0.0");
}

TEST(ListenAddress, IPv6AddressesInBrackets) {
    auto a = parse_listen_address("[::1]:9857");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->family, Family::ipv6);
    EXPECT_EQ(a->host, "::1");
    EXPECT_EQ(a->port, 9857);
    auto any6 = parse_listen_address("[::]:65535");
    ASSERT_TRUE(any6.ok());
    EXPECT_EQ(any6->family, Family::ipv6);
    EXPECT_EQ(any6->host, "::");
    EXPECT_EQ(any6->port, 65535);
}

TEST(ListenAddress, MalformedAddressesSayWhatWasExpected) {
    for (const char* text :
         {"", ":", "127.0.0.1:http", "127.0.0.1:70000", "127.0.0.1:-1", "::1:9857", "[::1]9857",
          "[::1]", "[127.0.0.1]:9857", "[nonsense]:9857", "localhost:9857", "300.0.0.1:9857",
          "127.0.0.1: 9857", " :9857"}) {
        auto a = parse_listen_address(text);
        ASSERT_FALSE(a.ok()) << text;
        EXPECT_NE(a.error().message.find("expected"), std::string::npos) << a.error().message;
        EXPECT_NE(a.error().message.find(std::string("'") + text + "'"), std::string::npos);
    }
}

}  // namespace
}  // namespace rdmadiag::api
