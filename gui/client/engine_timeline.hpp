#pragma once
// Plays a finite source (the simulated fabric, a recording) through the default engine on an
// injected clock, the way the daemon would run it live: poll on the source's interval, route the
// rules' refresh requests back to the source. Deterministic: the same offset gives the same
// snapshot.

#include <functional>
#include <memory>

#include "collector/common/result.hpp"
#include "collector/engine/engine.hpp"
#include "collector/sources/source.hpp"
#include "gui/client/timeline.hpp"

namespace rdmadiag::gui {

using SourceMaker = std::function<Result<std::unique_ptr<sources::Source>>()>;

class EngineTimeline final : public Timeline {
public:
    // Fails when the source cannot be made or has no finite length.
    static Result<std::unique_ptr<EngineTimeline>> create(SourceMaker make, TimePoint start,
                                                          std::string description);

    Duration length() const override { return length_; }
    SnapshotPtr seek(Duration offset) override;
    std::string description() const override { return description_; }

private:
    EngineTimeline(SourceMaker make, TimePoint start, std::string description);
    Result<void> restart();
    void step_to(TimePoint t);

    SourceMaker make_;
    TimePoint start_;
    std::string description_;
    Duration length_{};
    Duration step_{};
    std::unique_ptr<sources::Source> source_;
    std::unique_ptr<engine::Engine> engine_;
    TimePoint at_{};  // the engine has been driven up to here
    bool started_ = false;
};

// The simulated fabric playing `scenario` (a shipped name or a .scn file).
Result<std::unique_ptr<EngineTimeline>> make_scenario_timeline(const std::string& scenario,
                                                               TimePoint start);

}  // namespace rdmadiag::gui
