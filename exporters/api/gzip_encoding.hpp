#pragma once
// gzip content coding for answers: whether a request's Accept-Encoding takes it, and the
// compression itself (zlib with the gzip wrapper), so Prometheus' scrapes ("Accept-Encoding:
// gzip") carry a fraction of the exposition text.

#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag::api {

// Bodies smaller than this go out as they are: the gzip wrapper alone is 18 bytes and the
// compressor's tables cost a few hundred KiB per call, for nothing saved.
constexpr size_t kMinGzipBytes = 1024;

// True when the Accept-Encoding value accepts gzip: "gzip" (or "x-gzip", or "*") listed with
// no q or a q above 0, and gzip not explicitly refused with q=0. An absent header is false.
bool accepts_gzip(std::string_view accept_encoding);

// `data` in the gzip format (RFC 1952).
Result<std::string> gzip_compress(std::string_view data);

}  // namespace rdmadiag::api
