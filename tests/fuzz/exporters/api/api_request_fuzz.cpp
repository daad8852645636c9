// An HTTP request head as a client sends it to the API listener, through what the server does
// with it: the head parser (Beast's, with the server's limits and its own early refusal of
// bytes that cannot be HTTP), the request the routes see (decoded path, query, lower-case
// headers), the route and its filters, the basic-auth header and the gzip answer.

#include <cstdint>
#include <string>

#include "collector/json/checked_json.hpp"
#include "exporters/api/api_router.hpp"
#include "exporters/api/basic_auth.hpp"
#include "exporters/api/gzip_encoding.hpp"
#include "exporters/api/http_server.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"
#include "tests/exporters/api/gunzip.hpp"
#include "tests/exporters/sample_snapshot.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using namespace rdmadiag::api;

namespace {

// Smaller than the daemon's default, so that inputs of the fuzzer's length reach the limit.
constexpr size_t kMaxHead = 1024;

void check_head(std::string_view bytes, const RequestHead& head) {
    using Outcome = RequestHead::Outcome;
    if (head.outcome == Outcome::refused) {
        FUZZ_CHECK(head.status == 400 || head.status == 431 || head.status == 505);
        if (head.status == 431) FUZZ_CHECK(bytes.size() > kMaxHead);
        // Whatever follows cannot make a refused head acceptable.
        FUZZ_CHECK(parse_request_head(std::string(bytes) + "\r\n\r\n", kMaxHead).outcome ==
                   Outcome::refused);
        return;
    }
    if (head.outcome == Outcome::incomplete) {
        FUZZ_CHECK(bytes.size() <= kMaxHead);
        return;
    }
    const HttpRequest& r = head.request;
    FUZZ_CHECK(!r.method.empty());
    FUZZ_CHECK(r.content_length >= -1);
    for (const auto& [name, value] : r.headers) FUZZ_CHECK(ascii_lower(name) == name);
    // Bytes after the head (a body, the next request) do not change the head.
    auto longer = parse_request_head(std::string(bytes) + "GET / HTTP/1.1\r\n\r\n", kMaxHead);
    FUZZ_CHECK(longer.outcome == Outcome::complete);
    FUZZ_CHECK(longer.request.method == r.method && longer.request.path == r.path &&
               longer.request.query == r.query && longer.request.headers == r.headers &&
               longer.request.content_length == r.content_length &&
               longer.request.chunked == r.chunked);
}

void check_auth(std::string_view value) {
    auto creds = parse_basic_authorization(value);
    if (!creds) return;
    FUZZ_CHECK(creds->user.find(':') == std::string::npos);
    auto again =
        parse_basic_authorization("Basic " + base64_encode(creds->user + ":" + creds->password));
    FUZZ_CHECK(again && again->user == creds->user && again->password == creds->password);
}

void check_base64(std::string_view text) {
    FUZZ_CHECK(base64_decode(base64_encode(text)) == std::string(text));
    if (auto decoded = base64_decode(text)) {
        FUZZ_CHECK(decoded->size() <= text.size() / 4 * 3);
        FUZZ_CHECK(base64_decode(base64_encode(*decoded)) == *decoded);
    }
}

std::string url_encode(std::string_view s) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        out += '%';
        out += kHex[u >> 4];
        out += kHex[u & 15];
    }
    return out;
}

void check_query(const HttpRequest& req) {
    // A value the client percent-encodes comes back exactly, whatever follows it (the first
    // parameter of a name wins, and the query may hold "fuzz=" itself).
    HttpRequest encoded;
    encoded.query = "fuzz=" + url_encode(req.query) + "&" + req.query;
    auto v = encoded.query_param("fuzz");
    FUZZ_CHECK(v && *v == req.query);
}

bool has_header(const HttpResponse& r, const std::string& name, const std::string& value) {
    for (const auto& [k, v] : r.headers) {
        if (k == name && v == value) return true;
    }
    return false;
}

void check_route(const ApiRouter& router, const HttpRequest& req) {
    HttpResponse r = router.handle(req);
    FUZZ_CHECK(http_reason(r.status) != "Status");
    const auto& routes = ApiRouter::routes();
    bool known = std::find(routes.begin(), routes.end(), req.path) != routes.end();
    if (!known) {
        FUZZ_CHECK(r.status == 404);
    } else if (req.method != "GET" && req.method != "HEAD") {
        FUZZ_CHECK(r.status == 405);
    } else if (req.content_length > 0 || req.chunked) {
        FUZZ_CHECK(r.status == 413);
    } else {
        FUZZ_CHECK(r.status == 200 || r.status == 400 || r.status == 503);
    }
    const bool gzipped = has_header(r, "Content-Encoding", "gzip");
    if (gzipped) FUZZ_CHECK(accepts_gzip(req.header("accept-encoding")));
    std::string body(r.payload());
    if (gzipped) {
        // The compressed answer is the plain answer, compressed.
        auto plain = testing::gunzip(body);
        FUZZ_CHECK(plain.has_value());
        HttpRequest without = req;
        without.headers.erase("accept-encoding");
        HttpResponse p = router.handle(without);
        FUZZ_CHECK(!has_header(p, "Content-Encoding", "gzip"));
        if (req.path != "/metrics" && req.path != "/healthz") FUZZ_CHECK(p.payload() == *plain);
        body = *plain;
    }
    if (r.content_type == "application/json") {
        FUZZ_CHECK(codec::Json::accept(body));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static publish::SnapshotStore store;
    static const bool published = [] {
        store.publish(std::make_shared<Snapshot>(testing::sample_snapshot()));
        return true;
    }();
    FUZZ_CHECK(published);
    static ApiRouter router{store};

    std::string_view bytes = fuzz::as_text(data, size);
    RequestHead head = parse_request_head(bytes, kMaxHead);
    check_head(bytes, head);
    if (head.outcome != RequestHead::Outcome::complete) return 0;
    const HttpRequest& req = head.request;
    check_route(router, req);
    check_query(req);
    if (auto auth = req.headers.find("authorization"); auth != req.headers.end()) {
        check_auth(auth->second);
        check_base64(auth->second);
    }
    check_base64(req.query);
    return 0;
}
