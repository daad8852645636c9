#include "collector/daemon/collector_daemon.hpp"

namespace rdmadiag::daemon {

namespace {

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
    return out;
}

}  // namespace

CollectorDaemon::CollectorDaemon(const sources::SourceRegistry& registry,
                                 std::unique_ptr<engine::Engine> engine,
                                 publish::SnapshotStore& store, common::Logger& log,
                                 const Clock& clock, runtime::RuntimeOptions options)
    : registry_(registry),
      engine_(std::move(engine)),
      store_(store),
      log_(log),
      clock_(clock),
      options_(std::move(options)) {}

CollectorDaemon::~CollectorDaemon() {
    stop();
}

void CollectorDaemon::run(runtime::OpenedSources opened) {
    for (const auto& d : opened.down) {
        log_.error("source could not be built", {{"source", d.name}, {"error", d.reason}});
    }
    names_ = opened.names;
    runtime_ = std::make_unique<runtime::CollectorRuntime>(std::move(opened), *engine_, store_,
                                                           clock_, log_, options_);
    runtime_->start();
}

Result<void> CollectorDaemon::start(const DaemonConfig& config) {
    if (runtime_) return make_error("collector already running");
    auto opened = RDMADIAG_TRY(runtime::open_sources(registry_, config.collector));
    log_.info("starting collector", {{"sources", join(opened.names)}});
    run(std::move(opened));
    return {};
}

Result<void> CollectorDaemon::reload(const DaemonConfig& config) {
    auto opened = RDMADIAG_TRY(runtime::open_sources(registry_, config.collector));
    if (runtime_) runtime_->stop();
    runtime_.reset();  // old sources close their descriptors before the new ones open theirs
    ++reloads_;
    log_.info("reloaded collector",
              {{"sources", join(opened.names)}, {"reloads", std::to_string(reloads_)}});
    run(std::move(opened));
    return {};
}

void CollectorDaemon::stop() {
    if (!runtime_) return;
    runtime_->stop();
    runtime_.reset();
    log_.info("collector stopped");
}

}  // namespace rdmadiag::daemon
