#pragma once
// A request and a response as the routes see them: plain values, so every route is tested
// without a socket.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdmadiag::api {

struct HttpRequest {
    std::string method;
    std::string path;                            // decoded, without the query string
    std::string query;                           // raw, without '?'
    std::map<std::string, std::string> headers;  // lower-case names
    long long content_length = -1;               // -1: no Content-Length
    bool chunked = false;

    std::optional<std::string> query_param(const std::string& name) const;
};

struct HttpResponse {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

std::string_view http_reason(int status);

}  // namespace rdmadiag::api
