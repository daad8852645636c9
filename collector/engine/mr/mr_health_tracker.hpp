#pragma once
// The MR state machine, one per MR (device + MR id), fed by MrEvent and MrInventory observations
// from the tracefs, probe and netlink sources:
//
//   valid --LOCAL_INV ok--> invalid --FASTREG ok--> valid
//   valid|invalid --flushed or failed FASTREG/LOCAL_INV--> unknown
//   any live state --MW_BIND_ERR--> stuck (until deregistration)
//   any --dereg, or absent from a complete listing--> deregistered (retained, then dropped)
//   unknown --successful LOCAL_INV/FASTREG--> invalid/valid (known again)
//
// Where the kernel destroys flushed xprtrdma MRs with their connection (MrKernelBehaviour), an
// xprtrdma MR that would be unknown is awaiting_teardown instead, and only one that outlives
// teardown_timeout is a finding (mr.teardown_overdue).
//
// Completions older than the MR's current state (sources merged out of order) cannot undo a
// later error, and completions for an MR already deregistered are counted as late, never applied.
// Findings: mr.unknown_state (warning, unknown longer than a threshold) and mr.needs_dereg
// (critical, stuck); both clear when the MR recovers, and the recovery time is recorded.

#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/mr/mr_health_settings.hpp"
#include "collector/model/mr_state.hpp"

namespace rdmadiag::engine::mr {

inline constexpr const char* kRuleMrUnknown = "mr.unknown_state";
inline constexpr const char* kRuleMrNeedsDereg = "mr.needs_dereg";
inline constexpr const char* kRuleMrTeardownOverdue = "mr.teardown_overdue";

class MrHealthTracker final : public EngineModule {
public:
    explicit MrHealthTracker(MrHealthSettings settings = {});

    void observe(const Observation& obs, EngineContext& ctx) override;
    void tick(EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;
    // Observations of MRs change the snapshot anyway; this counts what ticks change.
    uint64_t revision() const override { return revision_; }

    const MrRecord* find(const std::string& device, uint64_t mr) const;
    size_t tracked() const { return mrs_.size(); }

private:
    using Key = std::pair<std::string, uint64_t>;
    // Sorted, for binary search: a busy host lists hundreds of thousands of MRs every poll, and
    // a vector holds each in 8 bytes where a set node takes 40.
    struct Listing {
        std::vector<uint64_t> ids;
        std::vector<uint32_t> keys;
        bool complete = false;
    };

    void on_event(const MrEvent& ev, const Observation& obs, EngineContext& ctx);
    // The steps of on_event, by the event's kind; `rec` is the MR's record, if it has one.
    void on_registration(const MrEvent& ev, const Observation& obs, MrDeviceHealth& dev,
                         MrRecord* rec, EngineContext& ctx);
    void on_deregistration(const MrEvent& ev, const Observation& obs, MrDeviceHealth& dev,
                           MrRecord* rec, EngineContext& ctx);
    void on_completion(const MrEvent& ev, const Observation& obs, MrDeviceHealth& dev,
                       MrRecord* rec, EngineContext& ctx);
    // A completion for an MR the tracker has not seen: the state it implies.
    void first_completion(const MrEvent& ev, const Observation& obs, EngineContext& ctx);
    void on_inventory(const MrInventory& inv, const Observation& obs, EngineContext& ctx);
    void on_kernel(const MrKernelBehaviour& k, EngineContext& ctx);
    // The state a flushed MR enters: unknown, or awaiting_teardown where the kernel destroys it.
    MrState flushed_state(const MrRecord& rec) const;
    void count_completion(MrDeviceHealth& dev, const MrEvent& ev);
    MrRecord* create(const MrEvent& ev, const Observation& obs, MrState state);
    void enter(MrRecord& rec, MrState state, TimePoint when, EngineContext& ctx);
    void deregister(MrRecord& rec, TimePoint when, MrRecoveryKind kind, EngineContext& ctx);
    void recovered(MrRecord& rec, MrRecoveryKind kind, TimePoint when, EngineContext& ctx);
    void judge(MrRecord& rec, EngineContext& ctx);
    bool listed(const MrRecord& rec) const;
    void prune(TimePoint now);
    MrDeviceHealth& stats(const std::string& device);

    MrHealthSettings settings_;
    MrKernelBehaviour kernel_;
    std::map<Key, MrRecord> mrs_;
    // Unknown or stuck MRs, the only ones tick() looks at; true once their finding is raised.
    std::map<Key, bool> flagged_;
    // The earliest time an unknown MR's finding becomes due (max: none waiting).
    TimePoint next_due_ = TimePoint::max();
    // Per device with flagged MRs, the transport their advice was written for.
    std::map<std::string, Transport> transports_;
    std::multimap<TimePoint, Key> deregistered_;  // by deregistration time
    std::map<std::string, MrDeviceHealth> devices_;
    std::map<std::string, Listing> listings_;  // last netlink listing per device
    std::deque<MrRecovery> recoveries_;
    uint64_t dropped_ = 0;
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine::mr
