#pragma once
// A small HTTP/1.1 GET client for `--remote`: plain http:// on a TCP socket, with a connect and
// read deadline and a cap on the body size, so a daemon that hangs or answers garbage costs a
// clear error, never a hung CLI. Handles Content-Length, chunked and close-delimited bodies.

#include <chrono>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"

namespace rdmadiag::cli::remote {

struct HttpUrl {
    std::string host;
    std::string port = "80";
    std::string path = "/";
};

// Parses "http://host[:port][/path]"; IPv6 literals in brackets. https:// is refused with a
// message saying why.
Result<HttpUrl> parse_http_url(std::string_view url);

struct HttpResponse {
    int status = 0;
    std::string content_type;
    std::string body;
};

struct HttpLimits {
    std::chrono::milliseconds timeout{5000};
    size_t max_body = 64u << 20;
};

Result<HttpResponse> http_get(const HttpUrl& url, const HttpLimits& limits = {});

// Parses a complete raw response (status line, headers, body). Exposed for tests.
Result<HttpResponse> parse_http_response(std::string_view raw, size_t max_body);

}  // namespace rdmadiag::cli::remote
