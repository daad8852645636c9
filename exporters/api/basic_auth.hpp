#pragma once
// HTTP basic authentication against bcrypt hashes (as in the exporter-toolkit web config).
// Verifying a bcrypt hash is deliberately slow (tens of ms), so the password that last verified
// for each user is remembered in memory and a scrape every few seconds costs a comparison.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace rdmadiag::api {

struct BasicCredentials {
    std::string user;
    std::string password;
};

// Parses an "Authorization: Basic base64(user:password)" header value.
std::optional<BasicCredentials> parse_basic_authorization(std::string_view header);
std::optional<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view data);

// Checks `password` against a crypt(3) hash ($2b$/$2y$/$2a$ bcrypt on glibc's libxcrypt).
bool verify_password_hash(std::string_view password, const std::string& hash);

class BasicAuth {
public:
    explicit BasicAuth(std::map<std::string, std::string> users) : users_(std::move(users)) {}

    bool enabled() const { return !users_.empty(); }
    // True when the header names a known user with the right password.
    bool allows(std::string_view authorization_header) const;
    // True when the header carries the password that last verified for its user: allows()
    // without the bcrypt, so a caller that must not wait for one can tell when it needs one.
    bool allows_remembered(std::string_view authorization_header) const;

private:
    std::map<std::string, std::string> users_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::string> verified_;  // user -> password that verified
};

}  // namespace rdmadiag::api
