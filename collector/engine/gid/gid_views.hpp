#pragma once
// GID coherence: keeps the cache, sma, sm and netdev views of every port's GIDs, each with a
// generation that rises on every real change, counts the port's GID_CHANGE and CLIENT_REREGISTER
// events, and runs the gid.* and roce.* rules. Unlike the P_Key cache, the GID cache is read
// directly (sysfs serves it), so what it is judged against is what the port holds: the SMA's
// prefix and GUIDs on InfiniBand, the netdev's addresses on RoCE.

#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/gid/gid_settings.hpp"
#include "collector/engine/gid/port_gid_track.hpp"
#include "collector/engine/pkey/event_coverage.hpp"
#include "collector/engine/source_names.hpp"

namespace rdmadiag::engine::gid {

class GidViews final : public EngineModule {
public:
    explicit GidViews(GidSettings settings = {}) : settings_(settings) {}

    void observe(const Observation& obs, EngineContext& ctx) override;
    void tick(EngineContext& ctx) override;
    void review(const Snapshot& snapshot, EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override { (void)snapshot; }
    void take_changed_devices(std::set<std::string, std::less<>>& devices) override;
    void contribute_port(PortSnapshot& port) const override;
    uint64_t revision() const override { return revision_; }

    PortGidState port_state(const PortRef& port) const;
    const GidSettings& settings() const { return settings_; }

private:
    void on_table(const Observation& obs, const GidTableSample& sample, EngineContext& ctx);
    void on_event(const AsyncEvent& event, EngineContext& ctx);
    void on_status(const Observation& obs, const SourceStatus& status, EngineContext& ctx);
    void evaluate(const PortRef& port, PortGidTrack& t, EngineContext& ctx);
    PortGidTrack& track(const PortRef& port);
    bool fresh(const TrackedGidView* v, TimePoint now) const;

    // Fabric rules, run in review() when a view changed or a grace period ends.
    void judge_prefixes(EngineContext& ctx);
    // gid.prefix_mismatch's steps: the prefix most ports of each sweep hold, the ports of each
    // sweep (by source) that hold another past the grace, and the finding of one sweep.
    struct PrefixGroup {
        size_t ports = 0;
        std::vector<std::pair<PortRef, uint64_t>> off;  // past the grace: the port, its prefix
        std::optional<TimePoint> since;
        bool from_sm = false;
        uint64_t reference = 0;
    };
    std::unordered_map<uint16_t, uint64_t> majority_prefixes(TimePoint now) const;
    std::unordered_map<uint16_t, PrefixGroup> group_prefixes(
        std::unordered_map<uint16_t, uint64_t> majority, TimePoint now);
    void raise_prefix_mismatch(uint16_t source, const PrefixGroup& g, FindingSubject subject,
                               EngineContext& ctx);
    void judge_duplicate_guids(EngineContext& ctx);

    GidSettings settings_;
    std::map<PortRef, PortGidTrack> ports_;
    engine::pkey::EventCoverageMap coverage_;
    SourceNames source_names_;
    TimePoint next_check_ = TimePoint::max();
    TimePoint next_review_ = TimePoint::max();
    bool fabric_dirty_ = false;
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine::gid
