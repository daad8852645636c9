#include "exporters/api/basic_auth.hpp"

#include <crypt.h>

#include <memory>

namespace rdmadiag::api {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int b64_value(char c) {
    auto pos = kAlphabet.find(c);
    return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

// Compares without an early exit, so timing does not tell how much of a secret matched.
bool equal_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::string out;
    for (size_t i = 0; i < text.size(); i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; ++k) {
            char c = text[i + static_cast<size_t>(k)];
            if (c == '=' && i + 4 == text.size() && k >= 2) {
                v[k] = 0;
                ++pad;
            } else {
                if (pad > 0) return std::nullopt;
                v[k] = b64_value(c);
                if (v[k] < 0) return std::nullopt;
            }
        }
        unsigned triple = (static_cast<unsigned>(v[0]) << 18) |
                          (static_cast<unsigned>(v[1]) << 12) | (static_cast<unsigned>(v[2]) << 6) |
                          static_cast<unsigned>(v[3]);
        out += static_cast<char>((triple >> 16) & 0xff);
        if (pad < 2) out += static_cast<char>((triple >> 8) & 0xff);
        if (pad < 1) out += static_cast<char>(triple & 0xff);
    }
    return out;
}

std::string base64_encode(std::string_view data) {
    std::string out;
    for (size_t i = 0; i < data.size(); i += 3) {
        unsigned n = static_cast<unsigned char>(data[i]) << 16;
        if (i + 1 < data.size()) n |= static_cast<unsigned char>(data[i + 1]) << 8;
        if (i + 2 < data.size()) n |= static_cast<unsigned char>(data[i + 2]);
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < data.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += i + 2 < data.size() ? kAlphabet[n & 63] : '=';
    }
    return out;
}

std::optional<BasicCredentials> parse_basic_authorization(std::string_view header) {
    constexpr std::string_view kScheme = "Basic ";
    if (header.size() <= kScheme.size()) return std::nullopt;
    for (size_t i = 0; i < kScheme.size() - 1; ++i) {
        char c = header[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        char k = kScheme[i];
        if (k >= 'A' && k <= 'Z') k = static_cast<char>(k - 'A' + 'a');
        if (c != k) return std::nullopt;
    }
    if (header[kScheme.size() - 1] != ' ') return std::nullopt;
    auto decoded = base64_decode(header.substr(kScheme.size()));
    if (!decoded) return std::nullopt;
    auto colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    return BasicCredentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

bool verify_password_hash(std::string_view password, const std::string& hash) {
    auto data = std::make_unique<crypt_data>();  // ~32 KiB: not on a server thread's stack
    std::string pw(password);
    const char* out = crypt_r(pw.c_str(), hash.c_str(), data.get());
    if (!out || out[0] == '*') return false;
    return equal_constant_time(out, hash);
}

bool BasicAuth::allows_remembered(std::string_view header) const {
    auto creds = parse_basic_authorization(header);
    if (!creds || users_.find(creds->user) == users_.end()) return false;
    std::lock_guard lock(mutex_);
    auto it = verified_.find(creds->user);
    return it != verified_.end() && equal_constant_time(it->second, creds->password);
}

bool BasicAuth::allows(std::string_view header) const {
    auto creds = parse_basic_authorization(header);
    if (!creds) return false;
    auto user = users_.find(creds->user);
    if (user == users_.end()) {
        verify_password_hash(creds->password, "$2b$10$abcdefghijklmnopqrstuu");  // same cost
        return false;
    }
    {
        std::lock_guard lock(mutex_);
        auto it = verified_.find(creds->user);
        if (it != verified_.end() && equal_constant_time(it->second, creds->password)) return true;
    }
    if (!verify_password_hash(creds->password, user->second)) return false;
    std::lock_guard lock(mutex_);
    verified_[creds->user] = creds->password;
    return true;
}

}  // namespace rdmadiag::api
