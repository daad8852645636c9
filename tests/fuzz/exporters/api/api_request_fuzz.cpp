// An HTTP request head as a client sends it to the API listener. CivetWeb (not ours) splits the
// request line and headers; what rdmadiag itself parses is fuzzed here: the TLS frontend's
// stamping of the head, the query string, the route and its filters, and the basic-auth header.
// The split below stands in for CivetWeb's, so every route sees arbitrary paths, queries and
// headers.

#include <charconv>
#include <cstdint>
#include <string>

#include "collector/json/checked_json.hpp"
#include "exporters/api/api_router.hpp"
#include "exporters/api/basic_auth.hpp"
#include "exporters/api/tls_frontend.hpp"
#include "exporters/prometheus/snapshot_collectable.hpp"
#include "tests/exporters/sample_snapshot.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

const std::string kToken = "0123456789abcdef0123456789abcdef";

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> crlf_lines(std::string_view head) {
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos <= head.size()) {
        size_t next = head.find("\r\n", pos);
        if (next == std::string_view::npos) next = head.size();
        lines.push_back(head.substr(pos, next - pos));
        pos = next + 2;
    }
    return lines;
}

// Whatever the client sent, the stamped head carries our header once, right after the request
// line, and no copy of the client's.
void check_stamp(std::string_view head) {
    auto stamped = api::TlsFrontend::stamp_request_head(head, kToken);
    size_t eol = head.find("\r\n");
    if (!stamped) {
        FUZZ_CHECK(eol == std::string_view::npos ||
                   head.substr(0, eol).find(' ') == std::string_view::npos);
        return;
    }
    FUZZ_CHECK(eol != std::string_view::npos);
    const std::string ours = std::string(api::kFrontendHeader) + ": " + kToken;
    auto lines = crlf_lines(*stamped);
    FUZZ_CHECK(lines.size() >= 2 && lines[0] == head.substr(0, eol) && lines[1] == ours);
    const std::string name = lower(api::kFrontendHeader);
    for (size_t i = 2; i < lines.size(); ++i) {
        size_t colon = lines[i].find(':');
        if (colon != std::string_view::npos) FUZZ_CHECK(lower(lines[i].substr(0, colon)) != name);
    }
}

void check_auth(std::string_view value) {
    auto creds = api::parse_basic_authorization(value);
    if (!creds) return;
    FUZZ_CHECK(creds->user.find(':') == std::string::npos);
    auto again = api::parse_basic_authorization(
        "Basic " + api::base64_encode(creds->user + ":" + creds->password));
    FUZZ_CHECK(again && again->user == creds->user && again->password == creds->password);
}

void check_base64(std::string_view text) {
    FUZZ_CHECK(api::base64_decode(api::base64_encode(text)) == std::string(text));
    if (auto decoded = api::base64_decode(text)) {
        FUZZ_CHECK(decoded->size() <= text.size() / 4 * 3);
        FUZZ_CHECK(api::base64_decode(api::base64_encode(*decoded)) == *decoded);
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

void check_query(const api::HttpRequest& req) {
    // A value the client percent-encodes comes back exactly, whatever follows it (the first
    // parameter of a name wins, and the query may hold "fuzz=" itself).
    api::HttpRequest encoded;
    encoded.query = "fuzz=" + url_encode(req.query) + "&" + req.query;
    auto v = encoded.query_param("fuzz");
    FUZZ_CHECK(v && *v == req.query);
}

void check_route(const api::ApiRouter& router, const api::HttpRequest& req) {
    api::HttpResponse r = router.handle(req);
    FUZZ_CHECK(api::http_reason(r.status) != "Status");
    const auto& routes = api::ApiRouter::routes();
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
    if (r.content_type == "application/json") {
        FUZZ_CHECK(rdmadiag::Json::accept(r.body));
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
    static prom::SnapshotCollectable metrics{store};
    static api::ApiRouter router{store, metrics};

    std::string_view head = fuzz::as_text(data, size);
    check_stamp(head);

    auto lines = crlf_lines(head);
    std::string_view request_line = lines[0];
    api::HttpRequest req;
    size_t sp = request_line.find(' ');
    req.method = std::string(request_line.substr(0, sp));
    std::string_view target;
    if (sp != std::string_view::npos) {
        target = request_line.substr(sp + 1);
        target = target.substr(0, target.find(' '));
    }
    size_t q = target.find('?');
    req.path = std::string(target.substr(0, q));
    if (q != std::string_view::npos) req.query = std::string(target.substr(q + 1));
    for (size_t i = 1; i < lines.size(); ++i) {
        size_t colon = lines[i].find(':');
        if (colon == std::string_view::npos) continue;
        req.headers[lower(trim(lines[i].substr(0, colon)))] =
            std::string(trim(lines[i].substr(colon + 1)));
    }
    if (auto cl = req.headers.find("content-length"); cl != req.headers.end()) {
        long long n = -1;
        auto [p, ec] = std::from_chars(cl->second.data(), cl->second.data() + cl->second.size(), n);
        if (ec == std::errc() && p == cl->second.data() + cl->second.size()) req.content_length = n;
    }
    if (auto te = req.headers.find("transfer-encoding"); te != req.headers.end())
        req.chunked = lower(te->second).find("chunked") != std::string::npos;

    check_route(router, req);
    check_query(req);
    if (auto auth = req.headers.find("authorization"); auth != req.headers.end()) {
        check_auth(auth->second);
        check_base64(auth->second);
    }
    check_base64(req.query);
    return 0;
}
