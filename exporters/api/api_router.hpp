#pragma once
// The only routes the daemon serves: /metrics, /healthz and /api/v1/... JSON views of the latest
// snapshot. Everything else is 404, methods other than GET and HEAD are 405, and requests with a
// body are refused: the API is read-only.

#include <prometheus/collectable.h>

#include "collector/daemon/snapshot_store.hpp"
#include "exporters/api/http_types.hpp"

namespace rdmadiag {

class ApiRouter {
public:
    ApiRouter(const SnapshotStore& store, const prometheus::Collectable& metrics)
        : store_(store), metrics_(metrics) {}

    HttpResponse handle(const HttpRequest& request) const;

    // The paths handle() answers, for the 404 body and the docs.
    static const std::vector<std::string>& routes();

private:
    const SnapshotStore& store_;
    const prometheus::Collectable& metrics_;
};

HttpResponse json_error(int status, std::string_view message);

}  // namespace rdmadiag
