#include "exporters/api/basic_auth.hpp"

#include <crypt.h>
#include <gtest/gtest.h>

namespace rdmadiag::api {
namespace {

// A fresh bcrypt hash of `password` (cost 4 keeps the test fast; verification reads the cost
// from the hash).
std::string bcrypt(const std::string& password, const char* prefix = "$2b$") {
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    EXPECT_NE(crypt_gensalt_rn(prefix, 4, nullptr, 0, salt, sizeof salt), nullptr);
    crypt_data data{};
    const char* h = crypt_r(password.c_str(), salt, &data);
    EXPECT_NE(h, nullptr);
    return h;
}

TEST(BasicAuth, Base64RoundTrips) {
    for (const std::string& s :
         std::vector<std::string>{"", "a", "ab", "abc", "user:pa:ss", std::string("\0\xff", 2)}) {
        auto back = base64_decode(base64_encode(s));
        ASSERT_TRUE(back);
        EXPECT_EQ(*back, s);
    }
    EXPECT_EQ(base64_encode("prometheus:secret"), "cHJvbWV0aGV1czpzZWNyZXQ=");
    EXPECT_FALSE(base64_decode("abc"));
    EXPECT_FALSE(base64_decode("ab=c"));
    EXPECT_FALSE(base64_decode("a!bc"));
}

TEST(BasicAuth, ParsesTheHeader) {
    auto c = parse_basic_authorization("Basic cHJvbWV0aGV1czpzZWNyZXQ=");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->user, "prometheus");
    EXPECT_EQ(c->password, "secret");
    EXPECT_TRUE(parse_basic_authorization("basic cHJvbWV0aGV1czpzZWNyZXQ="));
    EXPECT_FALSE(parse_basic_authorization("Bearer cHJvbWV0aGV1czpzZWNyZXQ="));
    EXPECT_FALSE(parse_basic_authorization("Basic"));
    EXPECT_FALSE(parse_basic_authorization("Basic !!!!"));
    EXPECT_FALSE(parse_basic_authorization("Basic " + base64_encode("nocolon")));
}

TEST(BasicAuth, VerifiesBcryptHashesInEveryPrefix) {
    for (const char* prefix : {"$2b$", "$2y$", "$2a$"}) {
        auto hash = bcrypt("secret", prefix);
        EXPECT_EQ(hash.substr(0, 4), prefix);
        EXPECT_TRUE(verify_password_hash("secret", hash)) << prefix;
        EXPECT_FALSE(verify_password_hash("Secret", hash)) << prefix;
        EXPECT_FALSE(verify_password_hash("", hash)) << prefix;
    }
    EXPECT_FALSE(verify_password_hash("secret", "not a hash"));
}

TEST(BasicAuth, AllowsOnlyKnownUsersWithTheirPassword) {
    BasicAuth auth({{"prometheus", bcrypt("secret")}, {"grafana", bcrypt("other")}});
    ASSERT_TRUE(auth.enabled());
    auto header = [](const std::string& u, const std::string& p) {
        return "Basic " + base64_encode(u + ":" + p);
    };
    EXPECT_TRUE(auth.allows(header("prometheus", "secret")));
    EXPECT_TRUE(auth.allows(header("prometheus", "secret")));  // the remembered path
    EXPECT_FALSE(auth.allows(header("prometheus", "other")));
    EXPECT_FALSE(auth.allows(header("grafana", "secret")));
    EXPECT_TRUE(auth.allows(header("grafana", "other")));
    EXPECT_FALSE(auth.allows(header("nobody", "secret")));
    EXPECT_FALSE(auth.allows("garbage"));
    EXPECT_FALSE(BasicAuth({}).enabled());
}

}  // namespace
}  // namespace rdmadiag::api
