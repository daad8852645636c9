#pragma once
// The collector half of `rdmadiag serve`: builds the configured sources from the registry, keeps
// one engine for the life of the process, and runs them on the runtime (collector/runtime/). A
// reload (SIGHUP) rebuilds the sources from the new settings while the engine, and so every port's
// history and every active finding, carries on.

#include <memory>
#include <vector>

#include "collector/common/log.hpp"
#include "collector/daemon/daemon_config.hpp"
#include "collector/engine/engine.hpp"
#include "collector/publish/snapshot_store.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::daemon {

class CollectorDaemon {
public:
    CollectorDaemon(const sources::SourceRegistry& registry, std::unique_ptr<engine::Engine> engine,
                    publish::SnapshotStore& store, common::Logger& log, const Clock& clock,
                    runtime::RuntimeOptions options = {});
    ~CollectorDaemon();

    // Builds and starts the sources. Errors: an unknown source name, a source option its source
    // refuses, --simulate without the simulated fabric. A source whose factory fails still runs,
    // as down with the reason.
    Result<void> start(const DaemonConfig& config);
    // Replaces the sources with those `config` asks for. On error the old ones keep running.
    Result<void> reload(const DaemonConfig& config);
    void stop();

    const std::vector<std::string>& source_names() const { return names_; }

private:
    void run(runtime::OpenedSources opened);

    const sources::SourceRegistry& registry_;
    std::unique_ptr<engine::Engine> engine_;
    publish::SnapshotStore& store_;
    common::Logger& log_;
    const Clock& clock_;
    runtime::RuntimeOptions options_;
    std::unique_ptr<runtime::CollectorRuntime> runtime_;
    std::vector<std::string> names_;
    uint64_t reloads_ = 0;
};

}  // namespace rdmadiag::daemon
