#pragma once
// A request and a response as the routes see them: plain values, so every route is tested
// without a socket.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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
    // The value of a header (`name` in lower case), empty when the request has none.
    std::string_view header(const std::string& name) const;
};

struct HttpResponse {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    // Set instead of `body` when the text is shared between answers (the /metrics text cached
    // for the current snapshot): it goes out without a copy per request.
    std::shared_ptr<const std::string> shared_body;

    std::string_view payload() const { return shared_body ? *shared_body : body; }
};

std::string_view http_reason(int status);

std::string ascii_lower(std::string_view s);

// %XX decoding; in a query string '+' also stands for a space, in a path it is itself.
std::string percent_decode(std::string_view s, bool plus_is_space);

}  // namespace rdmadiag::api
