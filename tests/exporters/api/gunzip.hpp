#pragma once
// Decompression for tests of gzip answers, with zlib (not with the code under test).

#include <zlib.h>

#include <optional>
#include <string>
#include <string_view>

namespace rdmadiag::testing {

// The content of one gzip member, or nullopt when `data` is not one.
inline std::optional<std::string> gunzip(std::string_view data) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return std::nullopt;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    std::string out;
    int rc = Z_OK;
    char buf[16384];
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, sizeof buf - z.avail_out);
        if (rc == Z_BUF_ERROR && z.avail_in == 0) break;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END || z.avail_in != 0) return std::nullopt;
    return out;
}

}  // namespace rdmadiag::testing
