#include "exporters/api/api_router.hpp"

#include <cstdio>
#include <random>

#include "collector/common/malloc_tuning.hpp"
#include "collector/common/parse_number.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "exporters/api/change_feed.hpp"
#include "exporters/api/gzip_encoding.hpp"
#include "exporters/api/json_text.hpp"
#include "exporters/api/snapshot_views.hpp"
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::api {

using json = codec::Json;

namespace {

constexpr size_t kTrimAfterBytes = 1 << 20;

// A large answer was built through documents and text several times its size, now free: given
// back, so serving a big fabric's snapshot once does not leave the daemon that large.
void release_large(size_t built_bytes) {
    if (built_bytes >= kTrimAfterBytes) common::release_free_heap();
}

constexpr const char* kMetricsType = "text/plain; version=0.0.4; charset=utf-8";

HttpResponse json_ok(const json& body) {
    HttpResponse r;
    JsonText::dump(body, r.body);
    r.body += '\n';
    return r;
}

HttpResponse json_ok(std::string text) {
    HttpResponse r;
    r.body = std::move(text);
    return r;
}

// A whole number query parameter; absent is nullopt, anything else but digits an error.
template <class T>
bool number_param(const HttpRequest& req, const char* name, std::optional<T>& out,
                  std::string& error) {
    auto p = req.query_param(name);
    if (!p) return true;
    const auto v = common::parse_number<T>(*p);
    if (!v) {
        error = std::string(name) + " must be a whole number";
        return false;
    }
    out = v;
    return true;
}

std::optional<PortFilter> port_filter(const HttpRequest& req, std::string& error) {
    PortFilter f;
    f.device = req.query_param("device");
    f.search = req.query_param("q");
    if (!number_param(req, "port", f.port, error)) return std::nullopt;
    return f;
}

std::optional<Page> page_of(const HttpRequest& req, std::string& error) {
    Page page;
    std::optional<size_t> offset;
    if (!number_param(req, "offset", offset, error)) return std::nullopt;
    if (!number_param(req, "limit", page.limit, error)) return std::nullopt;
    page.offset = offset.value_or(0);
    return page;
}

// Distinguishes this daemon run from the next one (whose sequences start again), for the change
// feed's clients.
std::string new_instance_id() {
    std::random_device rd;
    const uint64_t id = (static_cast<uint64_t>(rd()) << 32) ^ rd();
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(id));
    return buf;
}

}  // namespace

ApiRouter::MetricsText ApiRouter::metrics_text(bool gzip) const {
    auto snap = store_.latest();
    auto stats = store_.stats();
    const prom::MetricsDetail detail = detail_.load();
    if (gzip) {
        std::lock_guard lock(cache_mutex_);
        if (!cached_gzip_ || snap != cached_snapshot_.lock() || stats != cached_stats_ ||
            detail != cached_detail_) {
            GzipSink sink;
            prom::write_snapshot_metrics(*snap, stats.get(), detail, sink);
            auto z = sink.finish();
            release_large(z ? z->size() : 0);
            if (z) {
                cached_gzip_ = std::make_shared<const std::string>(std::move(*z));
                cached_snapshot_ = snap;
                cached_stats_ = stats;
                cached_detail_ = detail;
            } else {
                cached_gzip_.reset();  // out of memory in zlib: the plain text still answers
            }
        }
        if (cached_gzip_) return {cached_gzip_, true};
    }
    auto text = std::make_shared<const std::string>(
        prom::snapshot_metrics_text(*snap, stats.get(), detail));
    release_large(text->size());
    return {text, false};
}

ApiRouter::ApiRouter(const publish::SnapshotStore& store, prom::MetricsDetail detail)
    : store_(store), detail_(detail), instance_(new_instance_id()) {}

void ApiRouter::set_metrics_detail(prom::MetricsDetail detail) {
    detail_.store(detail);
}

HttpResponse json_error(int status, std::string_view message) {
    HttpResponse r;
    r.status = status;
    // The message can quote a request path, whose bytes (percent-decoded) need not be UTF-8.
    r.body = json{{"error", message}, {"status", status}}.dump(-1, ' ', false,
                                                               json::error_handler_t::replace) +
             "\n";
    return r;
}

const std::vector<std::string>& ApiRouter::routes() {
    static const std::vector<std::string> kRoutes = {
        "/metrics",        "/healthz",           "/api/v1/snapshot", "/api/v1/status",
        "/api/v1/changes", "/api/v1/devices",    "/api/v1/ports",    "/api/v1/pkeys",
        "/api/v1/gids",    "/api/v1/counters",   "/api/v1/findings", "/api/v1/events",
        "/api/v1/mrs",     "/api/v1/partitions", "/api/v1/consumers"};
    return kRoutes;
}

HttpResponse ApiRouter::handle(const HttpRequest& req) const {
    const auto& known = routes();
    bool is_route = std::find(known.begin(), known.end(), req.path) != known.end();
    if (!is_route) return json_error(404, "no such route: " + req.path);
    if (req.method != "GET" && req.method != "HEAD") {
        auto r = json_error(405, "only GET and HEAD are served");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
    }
    if (req.content_length > 0 || req.chunked) return json_error(413, "request bodies are refused");

    const bool gzip = accepts_gzip(req.header("accept-encoding"));
    HttpResponse r = route(req, gzip);
    // Shared bodies are /metrics: its writer gives the heap back itself, and only when it wrote.
    const size_t built = r.shared_body ? 0 : r.body.size();
    if (gzip && !r.shared_body && r.body.size() >= kMinGzipBytes) {
        if (auto z = gzip_compress(r.body)) {
            r.body = std::move(*z);
            r.headers.emplace_back("Content-Encoding", "gzip");
        }
    }
    release_large(built);
    // Every route's answer may come in either form, so caches must keep them apart.
    r.headers.emplace_back("Vary", "Accept-Encoding");
    return r;
}

HttpResponse ApiRouter::route(const HttpRequest& req, bool gzip) const {
    if (req.path == "/metrics") {
        HttpResponse r;
        r.content_type = kMetricsType;
        auto text = metrics_text(gzip);
        r.shared_body = std::move(text.body);
        if (text.gzip) r.headers.emplace_back("Content-Encoding", "gzip");
        return r;
    }
    auto snap = store_.latest();
    if (req.path == "/healthz") {
        bool ready = snap->sequence > 0;
        auto r = json_ok(json{{"status", ready ? "ok" : "starting"}, {"sequence", snap->sequence}});
        if (!ready) r.status = 503;
        return r;
    }
    if (req.path == "/api/v1/snapshot") return json_ok(snapshot_text(*snap));
    if (req.path == "/api/v1/status") return json_ok(status_view(*snap, store_.stats().get()));
    if (req.path == "/api/v1/findings") return json_ok(findings_view(*snap));
    if (req.path == "/api/v1/mrs") return json_ok(mrs_view(*snap, req.query_param("state")));
    if (req.path == "/api/v1/partitions") {
        std::optional<uint16_t> pkey;
        if (auto text = req.query_param("pkey")) {
            auto v = parse_pkey(*text);
            if (!v) return json_error(400, "pkey: " + v.error().message);
            const uint16_t base = pkey_base(*v);
            if (!snap->partitions || !snap->partitions->find(base))
                return json_error(404, "no partition " + format_pkey(base));
            pkey = *v;
        }
        return json_ok(partitions_view(*snap, pkey));
    }

    std::string error;
    if (req.path == "/api/v1/changes") {
        std::optional<uint64_t> since;
        if (!number_param(req, "since", since, error)) return json_error(400, error);
        return json_ok(change_feed_view(*snap, since.value_or(0), instance_));
    }
    auto filter = port_filter(req, error);
    if (!filter) return json_error(400, error);
    auto page = page_of(req, error);
    if (!page) return json_error(400, error);
    if (req.path == "/api/v1/devices")
        return json_ok(devices_view(*snap, *filter, req.query_param("node_type"), *page));
    if (req.path == "/api/v1/ports") return json_ok(ports_view(*snap, *filter, *page));
    if (req.path == "/api/v1/pkeys") return json_ok(pkeys_view(*snap, *filter, *page));
    if (req.path == "/api/v1/gids") return json_ok(gids_view(*snap, *filter, *page));
    if (req.path == "/api/v1/counters") return json_ok(counters_view(*snap, *filter, *page));
    if (req.path == "/api/v1/consumers") return json_ok(consumers_view(*snap, *filter));
    return json_ok(events_view(*snap, *filter));  // the last route left: /api/v1/events
}

}  // namespace rdmadiag::api
