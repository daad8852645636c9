#pragma once
// Who holds the host's MRs, from the RDMA netlink listings (MrInventory, one per device): MRs and
// registered bytes per process over time, per device against its max_mr (DeviceLimits), and the
// MRs whose owner has exited. Findings: mr.leak_suspected (a process's MRs grow throughout the
// leak window), mr.exhaustion_near (a device close to max_mr), mr.owner_gone (MRs outliving
// their process). Memory is bounded: at most max_processes histories of about 17 samples each.

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/mr/mr_usage_settings.hpp"

namespace rdmadiag::engine::mr {

inline constexpr const char* kRuleMrLeakSuspected = "mr.leak_suspected";
inline constexpr const char* kRuleMrExhaustionNear = "mr.exhaustion_near";
inline constexpr const char* kRuleMrOwnerGone = "mr.owner_gone";

class MrUsageTracker final : public EngineModule {
public:
    explicit MrUsageTracker(MrUsageSettings settings = {});

    void observe(const Observation& obs, EngineContext& ctx) override;
    void tick(EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;
    uint64_t revision() const override { return revision_; }

    size_t followed_processes() const { return processes_.size(); }

private:
    // A holder: a process (pid >= 0), a kernel user (pid -1, its name), or the MRs of exited
    // processes (pid -2).
    using HolderKey = std::pair<int64_t, std::string>;
    struct Held {
        uint64_t mrs = 0;
        uint64_t bytes = 0;
    };
    struct Device {
        std::map<HolderKey, Held> holders;
        uint64_t mrs = 0;
        uint64_t bytes = 0;
        uint64_t gone_mrs = 0;
        std::optional<TimePoint> gone_since;
        bool gone_raised = false;
        std::optional<uint64_t> max_mr;
        bool exhaustion = false;
    };
    struct Sample {
        TimePoint time;
        uint64_t mrs = 0;
        uint64_t bytes = 0;
    };
    struct Process {
        TimePoint first_seen;
        TimePoint updated;
        uint64_t mrs = 0;
        uint64_t bytes = 0;
        std::vector<std::string> devices;
        std::deque<Sample> history;  // spaced at least leak_window / 16 apart
        bool leak = false;
    };

    void on_inventory(const MrInventory& inv, TimePoint t, EngineContext& ctx);
    void update_processes(TimePoint t, EngineContext& ctx);
    void judge_leak(const HolderKey& key, Process& p, TimePoint t, EngineContext& ctx);
    void judge_device(const std::string& name, Device& d, TimePoint t, EngineContext& ctx);
    std::string top_holders(const Device& d) const;

    MrUsageSettings settings_;
    std::map<std::string, Device> devices_;
    std::map<HolderKey, Process> processes_;
    uint64_t unfollowed_ = 0;  // holders beyond max_processes at the last update
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine::mr
