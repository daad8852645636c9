#pragma once
// The only routes the daemon serves: /metrics, /healthz and /api/v1/... JSON views of the latest
// snapshot. Everything else is 404, methods other than GET and HEAD are 405, and requests with a
// body are refused: the API is read-only. Answers are gzip-compressed for clients that accept it
// (Prometheus does), except small ones.

#include <atomic>
#include <memory>
#include <mutex>

#include "collector/publish/snapshot_store.hpp"
#include "exporters/api/http_types.hpp"
#include "exporters/prometheus/metrics_detail.hpp"

namespace rdmadiag::api {

class ApiRouter {
public:
    explicit ApiRouter(const publish::SnapshotStore& store,
                       prom::MetricsDetail detail = prom::MetricsDetail::standard);

    // A reload may change it; the next scrape follows.
    void set_metrics_detail(prom::MetricsDetail detail);

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
    std::atomic<prom::MetricsDetail> detail_;
    const std::string instance_;  // this run, for /api/v1/changes
    // The gzip form of the last published snapshot's /metrics, made by the first scrape that
    // wants it: Prometheus' later scrapes of the same snapshot compress nothing. It is a tenth of
    // the text or less, so it is what is kept; plain-text scrapes write their own text each time.
    // The mutex is held while the text is written, so two scrapes of a new snapshot make it once.
    mutable std::mutex cache_mutex_;
    // Which snapshot the cached text is of, without keeping that snapshot alive once the
    // collector has replaced it (it is the size of the engine's state).
    mutable std::weak_ptr<const Snapshot> cached_snapshot_;
    mutable std::shared_ptr<const publish::CollectorStats> cached_stats_;
    mutable std::shared_ptr<const std::string> cached_gzip_;
    mutable prom::MetricsDetail cached_detail_ = prom::MetricsDetail::standard;
};

HttpResponse json_error(int status, std::string_view message);

}  // namespace rdmadiag::api
