#pragma once
// The SM's traps, as a subnet-scope MAD source hears them: subscriptions at the SA (InformInfo
// for traps 64, 65, 128 and 144), the Reports the SA forwards (each answered with ReportResp at
// once), and what each asks of the source. Traps only make the source react sooner: a
// subscription the SA refuses or never answers is reported (figures, an error) and retried
// later, and the schedules go on as before.
//
// What a trap asks for:
//   64, 65 (a port came into or left service), 128 (a switch port's link changed): discovery
//     at the next poll, as a changed link found by a pass would;
//   144 (a port's local changes), and any other trap naming a port by LID: that node's PortInfo
//     and P_Key tables read again now. Notice 144's ChangeFlags have no P_Key bit (opensm's and
//     libibmad's layouts: NodeDescription, LinkWidth/SpeedEnabled, SMPriority, HierarchyInfo,
//     CapabilityMask2), and the SM sets P_Key tables without a trap, so no flag is waited for.

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/common/figure.hpp"
#include "collector/common/time.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/sa_report.hpp"

namespace rdmadiag::mad {

// The traps subscribed to, in the order they are asked for.
constexpr std::array<uint16_t, 4> kSubscribedTraps = {
    trap::gid_in_service, trap::gid_out_of_service, trap::link_state_change, trap::local_changes};

// What the Reports taken since the last take_actions() ask for.
struct TrapActions {
    bool rediscover = false;
    std::set<uint16_t> refresh_lids;  // nodes (any of their LIDs) whose tables to read again
    bool empty() const { return !rediscover && refresh_lids.empty(); }
};

// What one Notice asks for.
TrapActions actions_for(const Notice& notice);

class TrapListener {
public:
    // A failed subscription is tried again after this long (or when the SM moves).
    static constexpr Duration kRetryAfter = std::chrono::minutes(1);

    // Whether to (re)subscribe now: never subscribed, the SM moved, the last attempt failed a
    // while ago, or a discovery runs (an SM restarted at the same LID has forgotten every
    // subscription; renewing is idempotent at the SA).
    bool should_subscribe(uint16_t sm_lid, TimePoint now, bool discovering) const;
    // Subscribes to kSubscribedTraps at the SA at `sm_lid`, all at once. The error, when any
    // trap's subscription was refused or not answered, says which and why.
    Result<void> subscribe(MadEngine& engine, uint16_t sm_lid, uint64_t sm_key, TimePoint now);
    // Cancels the subscriptions (a clean stop), one attempt each; the SA drops them anyway
    // when this port leaves the subnet.
    void unsubscribe(MadEngine& engine, uint64_t sm_key);
    // Never subscribes: this port cannot receive Reports (the reason is reported as the error).
    void disable(std::string reason);

    // Takes one MAD that arrived unasked. An SA Report is answered with ReportResp through
    // `transport` and its Notice's actions are added to the pending ones (a Report the SA sent
    // again, same TID, is answered and not counted twice); a malformed one is counted and
    // its error kept. Anything else is not a Report and is left alone.
    void take(const ReceivedMad& mad, MadTransport& transport);
    // The actions the Reports taken so far ask for, and forgets them.
    TrapActions take_actions();

    bool subscribed() const { return up_; }
    // Why the last subscription failed, or why the last Report could not be read; empty when
    // neither happened.
    const std::string& last_error() const { return last_error_; }
    std::vector<common::Figure> figures() const;

private:
    void count(const Notice& notice);

    std::optional<uint16_t> sm_lid_;  // where the last subscription went
    bool up_ = false;
    std::optional<std::string> disabled_;
    TimePoint retry_at_{};
    std::string last_error_;
    TrapActions pending_;
    std::array<uint64_t, 16> recent_tids_{};  // Reports already answered, to spot a resend
    size_t next_tid_slot_ = 0;
    uint64_t received_ = 0;
    std::array<uint64_t, kSubscribedTraps.size()> by_trap_{};
    uint64_t malformed_ = 0;
    uint64_t answer_failures_ = 0;
};

}  // namespace rdmadiag::mad
