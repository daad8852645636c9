#include "collector/daemon/collector_daemon.hpp"

#include <exception>

namespace rdmadiag::daemon {

namespace {

// Stands in the runtime for a source whose factory failed, so the failure shows as that source
// being down (up=0 with the reason) instead of the source silently missing.
class FailedSource final : public sources::Source {
public:
    FailedSource(std::string name, std::string reason)
        : name_(std::move(name)), reason_(std::move(reason)) {}
    std::string_view name() const override { return name_; }
    sources::Availability availability() const override { return {false, reason_}; }

private:
    std::string name_;
    std::string reason_;
};

std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
    return out;
}

}  // namespace

CollectorDaemon::CollectorDaemon(const sources::SourceRegistry& registry,
                                 std::unique_ptr<engine::Engine> engine,
                                 publish::SnapshotStore& store, common::Logger& log,
                                 const Clock& clock, RuntimeOptions options)
    : registry_(registry),
      engine_(std::move(engine)),
      store_(store),
      log_(log),
      clock_(clock),
      options_(options) {}

CollectorDaemon::~CollectorDaemon() {
    stop();
}

Result<std::vector<std::unique_ptr<sources::Source>>> CollectorDaemon::build_sources(
    const DaemonConfig& config, std::vector<std::string>& names) {
    auto selected = select_sources(registry_, config);
    if (!selected) return selected.error();
    sources::SourceSettings settings = config.sources;
    if (config.simulate) settings.scenario = *config.simulate;
    std::vector<std::unique_ptr<sources::Source>> sources;
    for (const auto& name : *selected) {
        const sources::SourceEntry* entry = registry_.find(name);
        Result<std::unique_ptr<sources::Source>> made = make_error("no factory");
        try {
            made = entry->factory(settings);
        } catch (const std::exception& e) {
            made = make_error(e.what());
        }
        if (made && *made) {
            sources.push_back(std::move(*made));
        } else {
            std::string reason = made ? "source could not be built" : made.error().message;
            log_.error("source could not be built", {{"source", name}, {"error", reason}});
            sources.push_back(std::make_unique<FailedSource>(name, reason));
        }
    }
    names = *selected;
    return sources;
}

Result<void> CollectorDaemon::start(const DaemonConfig& config) {
    if (runtime_) return make_error("collector already running");
    std::vector<std::string> names;
    auto sources = build_sources(config, names);
    if (!sources) return sources.error();
    names_ = std::move(names);
    log_.info("starting collector", {{"sources", join(names_)}});
    runtime_ = std::make_unique<CollectorRuntime>(std::move(*sources), *engine_, store_, clock_,
                                                  log_, options_);
    runtime_->start();
    return {};
}

Result<void> CollectorDaemon::reload(const DaemonConfig& config) {
    std::vector<std::string> names;
    auto sources = build_sources(config, names);
    if (!sources) return sources.error();
    if (runtime_) runtime_->stop();
    runtime_.reset();  // old sources close their descriptors before the new ones open theirs
    names_ = std::move(names);
    ++reloads_;
    log_.info("reloaded collector",
              {{"sources", join(names_)}, {"reloads", std::to_string(reloads_)}});
    runtime_ = std::make_unique<CollectorRuntime>(std::move(*sources), *engine_, store_, clock_,
                                                  log_, options_);
    runtime_->start();
    return {};
}

void CollectorDaemon::stop() {
    if (!runtime_) return;
    runtime_->stop();
    runtime_.reset();
    log_.info("collector stopped");
}

}  // namespace rdmadiag::daemon
