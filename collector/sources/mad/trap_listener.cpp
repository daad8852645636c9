#include "collector/sources/mad/trap_listener.hpp"

#include <algorithm>
#include <utility>

#include "collector/sources/mad/inform_info.hpp"
#include "collector/sources/mad/mad_batch.hpp"
#include "collector/sources/mad/mad_requests.hpp"

namespace rdmadiag::mad {

TrapActions actions_for(const Notice& notice) {
    TrapActions actions;
    const auto number = notice.trap_number();
    if (number == trap::gid_in_service || number == trap::gid_out_of_service ||
        number == trap::link_state_change) {
        actions.rediscover = true;
        return actions;
    }
    if (auto lid = notice_subject(notice).lid) actions.refresh_lids.insert(*lid);
    return actions;
}

bool TrapListener::should_subscribe(uint16_t sm_lid, TimePoint now, bool discovering) const {
    if (disabled_ || sm_lid == 0) return false;
    if (sm_lid_ != sm_lid) return true;
    if (!up_) return now >= retry_at_;
    return discovering;
}

Result<void> TrapListener::subscribe(MadEngine& engine, uint16_t sm_lid, uint64_t sm_key,
                                     TimePoint now) {
    sm_lid_ = sm_lid;
    std::vector<std::string> refused;
    MadBatch batch;
    for (uint16_t number : kSubscribedTraps) {
        batch.add(inform_info_request(sm_lid, number, true, sm_key),
                  [&refused, number](MadBatch::Answer answer) {
                      const std::string what = "trap " + std::to_string(number);
                      auto checked = checked_answer(std::move(answer), what);
                      if (!checked) return refused.push_back(checked.error().message);
                      // A Set's answer is one record right after the SA header, whatever
                      // AttributeOffset says (only GetTable answers need it).
                      const Bytes answered(*checked);
                      auto info = decode_inform_info(answered.size() >= kSaHeaderEnd
                                                         ? answered.subspan(kSaHeaderEnd)
                                                         : Bytes{});
                      if (!info) return refused.push_back(what + ": " + info.error().message);
                      // o13-13.1.1: an SA that does not forward the trap answers Subscribe=0.
                      if (!info->subscribe)
                          refused.push_back(what + ": the SA answered Subscribe=0");
                  });
    }
    batch.run(engine);
    up_ = refused.empty();
    if (up_) {
        last_error_.clear();
        return {};
    }
    retry_at_ = now + kRetryAfter;
    last_error_ =
        "trap subscription at SA lid " + std::to_string(sm_lid) + " failed: " + refused.front() +
        (refused.size() > 1 ? " (and " + std::to_string(refused.size() - 1) + " more)" : "");
    return make_error(last_error_);
}

void TrapListener::unsubscribe(MadEngine& engine, uint64_t sm_key) {
    if (!up_ || !sm_lid_) return;
    MadBatch batch;
    for (uint16_t number : kSubscribedTraps)
        batch.add(inform_info_request(*sm_lid_, number, false, sm_key), [](MadBatch::Answer) {});
    batch.run(engine);
    up_ = false;
}

void TrapListener::disable(std::string reason) {
    last_error_ = reason;
    disabled_ = std::move(reason);
    up_ = false;
}

void TrapListener::take(const ReceivedMad& mad, MadTransport& transport) {
    if (mad.agent != Agent::sa || !is_sa_report(mad.mad)) return;
    auto report = parse_report(mad.mad);
    if (!report) {
        ++malformed_;
        last_error_ = "SA Report skipped: " + report.error().message;
        return;
    }
    // The SA waits for this answer and sends the Report again without it.
    const auto response = build_report_response(mad.mad);
    const MadAddress to{mad.from.dlid, mad.from.qpn, kGsiQkey, mad.from.sl};
    if (auto sent = transport.send(Agent::sa, response, to, 0); !sent) {
        ++answer_failures_;
        last_error_ = "ReportResp to lid " + std::to_string(to.dlid) + ": " + sent.error().message;
    }
    if (std::find(recent_tids_.begin(), recent_tids_.end(), report->tid) != recent_tids_.end())
        return;  // answered before: the SA had not seen our answer yet
    recent_tids_[next_tid_slot_] = report->tid;
    next_tid_slot_ = (next_tid_slot_ + 1) % recent_tids_.size();
    count(report->notice);
    const TrapActions actions = actions_for(report->notice);
    pending_.rediscover = pending_.rediscover || actions.rediscover;
    pending_.refresh_lids.insert(actions.refresh_lids.begin(), actions.refresh_lids.end());
}

TrapActions TrapListener::take_actions() {
    return std::exchange(pending_, TrapActions{});
}

void TrapListener::count(const Notice& notice) {
    ++received_;
    const auto number = notice.trap_number();
    for (size_t i = 0; i < kSubscribedTraps.size(); ++i) {
        if (number == kSubscribedTraps[i]) ++by_trap_[i];
    }
}

std::vector<common::Figure> TrapListener::figures() const {
    using K = common::Figure::Kind;
    auto n = [](uint64_t v) { return static_cast<double>(v); };
    return {
        {"mad_trap_subscription_up",
         "1 while the SA has accepted the subscription to traps 64, 65, 128 and 144.", K::gauge,
         up_ ? 1.0 : 0.0},
        {"mad_traps_received_total", "SA Reports of traps received (a resent one counts once).",
         K::counter, n(received_)},
        {"mad_traps_gid_in_service_total", "Reports of trap 64: a port came into service.",
         K::counter, n(by_trap_[0])},
        {"mad_traps_gid_out_of_service_total", "Reports of trap 65: a port left service.",
         K::counter, n(by_trap_[1])},
        {"mad_traps_link_state_change_total",
         "Reports of trap 128: a switch port's link went up or down.", K::counter, n(by_trap_[2])},
        {"mad_traps_local_changes_total", "Reports of trap 144: a port's local changes.",
         K::counter, n(by_trap_[3])},
        {"mad_traps_malformed_total", "SA Reports that could not be read, skipped.", K::counter,
         n(malformed_)},
        {"mad_traps_answer_failures_total", "ReportResp answers that could not be sent.",
         K::counter, n(answer_failures_)},
    };
}

}  // namespace rdmadiag::mad
