#pragma once
// Plays a finite source (the simulated fabric, a recording) through the default engine on the
// collector's own loop (collector/runtime/) on a ManualClock, so it runs as the daemon would run
// it live: polls on the source's grid, refresh requests routed back. Deterministic: the same
// offset gives the same snapshot.

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "collector/common/log.hpp"
#include "collector/common/result.hpp"
#include "collector/engine/engine.hpp"
#include "collector/publish/snapshot_store.hpp"
#include "collector/runtime/collector_runtime.hpp"
#include "collector/sources/source.hpp"
#include "gui/client/timeline.hpp"

namespace rdmadiag::gui::client {

using SourceMaker = std::function<Result<std::unique_ptr<sources::Source>>()>;

class EngineTimeline final : public Timeline {
public:
    // Fails when a source cannot be made or the first has no finite length. `beside` are
    // sources that play alongside it without a timeline of their own (the SM's partitions.conf).
    static Result<std::unique_ptr<EngineTimeline>> create(SourceMaker make, TimePoint start,
                                                          std::string description,
                                                          std::vector<SourceMaker> beside = {});

    Duration length() const override { return length_; }
    SnapshotPtr seek(Duration offset) override;
    std::string description() const override { return description_; }

private:
    EngineTimeline(SourceMaker make, TimePoint start, std::string description,
                   std::vector<SourceMaker> beside);
    Result<void> restart();

    SourceMaker make_;
    std::vector<SourceMaker> beside_;
    TimePoint start_;
    std::string description_;
    Duration length_{};
    ManualClock clock_;  // the engine has been driven up to here
    common::Logger quiet_;
    publish::SnapshotStore store_;
    std::unique_ptr<engine::Engine> engine_;
    std::unique_ptr<runtime::CollectorRuntime> runtime_;
};

// The simulated fabric playing `scenario` (a shipped name or a .scn file). `source_options` are the
// partitions source's (KEY -> VALUE, checked as it declares them): with partitions.conf the fabric
// is judged against that intent (opensm's partitions.conf), as
// `rdmadiag serve --simulate --partitions.conf FILE` judges it.
Result<std::unique_ptr<EngineTimeline>> make_scenario_timeline(
    const std::string& scenario, TimePoint start,
    const std::map<std::string, std::string>& source_options = {});

}  // namespace rdmadiag::gui::client
