#pragma once
// Netlink bytes written as hex text, as the captured replies in these tests and the recorded
// dumps under tests/fixtures/netlink (record_netlink) keep them: pairs of lowercase hex digits,
// with line breaks and spaces between pairs ignored.

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace rdmadiag::test {

inline std::vector<uint8_t> from_hex(std::string_view hex) {
    std::vector<uint8_t> out;
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    int high = -1;
    for (char c : hex) {
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        if (high < 0) {
            high = nibble(c);
        } else {
            out.push_back(static_cast<uint8_t>(high * 16 + nibble(c)));
            high = -1;
        }
    }
    return out;
}

inline std::vector<uint8_t> read_hex_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    return from_hex(std::string(std::istreambuf_iterator<char>(in), {}));
}

}  // namespace rdmadiag::test
