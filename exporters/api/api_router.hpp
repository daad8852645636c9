#pragma once
// The only routes the daemon serves: /metrics, /healthz and /api/v1/... JSON views of the latest
// snapshot. Everything else is 404, methods other than GET and HEAD are 405, and requests with a
// body are refused: the API is read-only. Answers are gzip-compressed for clients that accept it
// (Prometheus does), except small ones.

#include <prometheus/collectable.h>

#include <memory>
#include <mutex>

#include "collector/publish/snapshot_store.hpp"
#include "exporters/api/http_types.hpp"

namespace rdmadiag::api {

class ApiRouter {
public:
    // `metrics` must build its families from `store` (the /metrics cache is keyed on it).
    ApiRouter(const publish::SnapshotStore& store, const prometheus::Collectable& metrics)
        : store_(store), metrics_(metrics) {}

    HttpResponse handle(const HttpRequest& request) const;

    // The paths handle() answers, for the 404 body and the docs.
    static const std::vector<std::string>& routes();

private:
    HttpResponse route(const HttpRequest& request, bool gzip) const;
    struct MetricsText {
        std::shared_ptr<const std::string> body;
        bool gzip = false;  // false also when compression failed
    };
    // The /metrics text of the latest snapshot, gzip-compressed when `gzip`.
    MetricsText metrics_text(bool gzip) const;

    const publish::SnapshotStore& store_;
    const prometheus::Collectable& metrics_;
    // /metrics text of the last published snapshot and stats, and its gzip form once a client
    // asked for it: scrapes between two collector rounds serialize and compress nothing.
    mutable std::mutex cache_mutex_;
    mutable SnapshotPtr cached_snapshot_;
    mutable std::shared_ptr<const publish::CollectorStats> cached_stats_;
    mutable std::shared_ptr<const std::string> cached_text_;
    mutable std::shared_ptr<const std::string> cached_gzip_;
};

HttpResponse json_error(int status, std::string_view message);

}  // namespace rdmadiag::api
