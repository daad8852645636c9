#include "collector/engine/mr/mr_health_tracker.hpp"

#include <algorithm>

#include "collector/engine/mr/mr_advice.hpp"

namespace rdmadiag::engine::mr {

namespace {

bool is_lifecycle(MrOp op) {
    return op == MrOp::alloc || op == MrOp::reg || op == MrOp::dereg;
}
bool is_flagged(MrState s) {
    return s == MrState::unknown || s == MrState::awaiting_teardown || s == MrState::stuck;
}
bool is_unknown(MrState s) {
    return s == MrState::unknown || s == MrState::awaiting_teardown;
}

// The state a first sighting implies, for an MR the tracker has not seen before.
MrState state_after(const MrEvent& ev) {
    if (ev.status == WcStatus::mw_bind_err) return MrState::stuck;
    if (ev.status != WcStatus::success) {
        return ev.op == MrOp::bind_mw ? MrState::valid : MrState::unknown;
    }
    switch (ev.op) {
        case MrOp::local_inv:
        case MrOp::send_with_inv:
        case MrOp::alloc:
            return MrState::invalid;
        default:
            return MrState::valid;
    }
}

std::string owner_text(const MrOwner& o) {
    std::string s = o.name.empty() ? std::string("unknown owner") : o.name;
    if (o.pid) s += " (pid " + std::to_string(*o.pid) + ")";
    return s;
}

FindingSubject subject_of(const MrRecord& rec) {
    FindingSubject s;
    s.device = rec.device;
    s.mr = rec.mr;
    return s;
}

void absorb_identity(MrRecord& rec, const MrEvent& ev) {
    if (ev.key) rec.key = ev.key;
    // A specific owner (a process, a named ULP) replaces a generic one, never the reverse.
    if (ev.owner.pid || (!ev.owner.name.empty() && !rec.owner.pid &&
                         (rec.owner.name.empty() || rec.owner.name == "kernel"))) {
        rec.owner = ev.owner;
    }
}

}  // namespace

MrHealthTracker::MrHealthTracker(MrHealthSettings settings) : settings_(settings) {}

MrDeviceHealth& MrHealthTracker::stats(const std::string& device) {
    auto it = devices_.find(device);
    if (it == devices_.end()) {
        it = devices_.emplace(device, MrDeviceHealth{}).first;
        it->second.device = device;
    }
    return it->second;
}

const MrRecord* MrHealthTracker::find(const std::string& device, uint64_t mr) const {
    auto it = mrs_.find(Key{device, mr});
    return it == mrs_.end() ? nullptr : &it->second;
}

void MrHealthTracker::observe(const Observation& obs, EngineContext& ctx) {
    if (const auto* ev = std::get_if<MrEvent>(&obs.body)) {
        on_event(*ev, obs, ctx);
    } else if (const auto* inv = std::get_if<MrInventory>(&obs.body)) {
        on_inventory(*inv, obs, ctx);
    } else if (const auto* k = std::get_if<MrKernelBehaviour>(&obs.body)) {
        on_kernel(*k, ctx);
    }
}

MrState MrHealthTracker::flushed_state(const MrRecord& rec) const {
    // Only xprtrdma changed its ways; other FRWR users keep the old hazard.
    const bool xprtrdma = !rec.owner.pid && rec.owner.name == "xprtrdma";
    return xprtrdma && kernel_.flushed_mrs == FlushedMrHandling::destroyed
               ? MrState::awaiting_teardown
               : MrState::unknown;
}

void MrHealthTracker::on_kernel(const MrKernelBehaviour& k, EngineContext& ctx) {
    if (k == kernel_) return;
    // What a source learned outranks not knowing; a second source that knows nothing does not
    // undo it.
    if (k.flushed_mrs == FlushedMrHandling::not_known &&
        kernel_.flushed_mrs != FlushedMrHandling::not_known)
        return;
    kernel_ = k;
    ++revision_;
    // MRs flushed before the kernel was known are judged again by what it does.
    std::vector<Key> again;
    for (const auto& [key, raised] : flagged_) {
        const MrRecord& rec = mrs_.at(key);
        if (is_unknown(rec.state) && flushed_state(rec) != rec.state) again.push_back(key);
    }
    for (const auto& key : again) {
        MrRecord& rec = mrs_.at(key);
        const TimePoint since = rec.state_since;
        enter(rec, flushed_state(rec), since, ctx);
    }
}

void MrHealthTracker::count_completion(MrDeviceHealth& dev, const MrEvent& ev) {
    if (ev.status == WcStatus::mw_bind_err) ++dev.bind_errors;
    auto it = std::find_if(dev.completions.begin(), dev.completions.end(),
                           [&](const auto& c) { return c.op == ev.op && c.status == ev.status; });
    if (it != dev.completions.end()) {
        ++it->count;
        return;
    }
    auto pos = std::find_if(dev.completions.begin(), dev.completions.end(), [&](const auto& c) {
        return c.op > ev.op || (c.op == ev.op && c.status > ev.status);
    });
    dev.completions.insert(pos, MrCompletionCount{ev.op, ev.status, 1});
}

MrRecord* MrHealthTracker::create(const MrEvent& ev, const Observation& obs, MrState state) {
    if (mrs_.size() >= settings_.max_records) {
        // Room is made from the deregistered first; live MRs are never forgotten for a new one.
        while (mrs_.size() >= settings_.max_records && !deregistered_.empty()) {
            auto first = deregistered_.begin();
            mrs_.erase(first->second);
            deregistered_.erase(first);
        }
        if (mrs_.size() >= settings_.max_records) {
            ++dropped_;
            return nullptr;
        }
    }
    MrRecord rec;
    rec.device = ev.device;
    rec.mr = ev.mr;
    rec.key = ev.key;
    rec.owner = ev.owner;
    rec.state = state;
    rec.state_since = obs.time;
    rec.first_seen = obs.time;
    rec.last_seen = obs.time;
    rec.source = obs.source;
    if (!is_lifecycle(ev.op)) {
        rec.last_op = ev.op;
        rec.last_status = ev.status;
        rec.completions = 1;
    }
    auto [it, inserted] = mrs_.insert_or_assign(Key{ev.device, ev.mr}, std::move(rec));
    (void)inserted;
    return &it->second;
}

void MrHealthTracker::on_event(const MrEvent& ev, const Observation& obs, EngineContext& ctx) {
    MrDeviceHealth& dev = stats(ev.device);
    auto it = mrs_.find(Key{ev.device, ev.mr});
    MrRecord* rec = it == mrs_.end() ? nullptr : &it->second;

    if (ev.posted) {
        ++dev.posted[ev.op];
        if (rec && rec->state != MrState::deregistered)
            rec->last_seen = std::max(rec->last_seen, obs.time);
        return;
    }
    switch (ev.op) {
        case MrOp::alloc:
        case MrOp::reg:
            on_registration(ev, obs, dev, rec, ctx);
            return;
        case MrOp::dereg:
            on_deregistration(ev, obs, dev, rec, ctx);
            return;
        default:
            on_completion(ev, obs, dev, rec, ctx);
            return;
    }
}

void MrHealthTracker::on_registration(const MrEvent& ev, const Observation& obs,
                                      MrDeviceHealth& dev, MrRecord* rec, EngineContext& ctx) {
    const TimePoint t = obs.time;
    if (ev.rc && *ev.rc != 0) {
        ++dev.failed_ops;
        return;
    }
    if (rec && rec->state != MrState::deregistered) {
        ++dev.duplicate_events;
        absorb_identity(*rec, ev);
        return;
    }
    if (rec && t < rec->state_since) {
        ++dev.late_events;  // an allocation older than the deregistration we saw
        return;
    }
    if (rec) {  // the id was reused: a new MR replaces the retained one
        const Key key{ev.device, ev.mr};
        auto range = deregistered_.equal_range(rec->state_since);
        for (auto d = range.first; d != range.second; ++d) {
            if (d->second == key) {
                deregistered_.erase(d);
                break;
            }
        }
    }
    MrRecord* fresh = create(ev, obs, state_after(ev));
    if (fresh) fresh->transport = ctx.inventory().transport(ev.device);
}

void MrHealthTracker::on_deregistration(const MrEvent& ev, const Observation& obs,
                                        MrDeviceHealth& dev, MrRecord* rec, EngineContext& ctx) {
    const TimePoint t = obs.time;
    if (ev.rc && *ev.rc != 0) {
        ++dev.failed_ops;  // the MR is still there, in whatever state it was
        return;
    }
    if (!rec) return;  // never tracked: nothing to close
    if (rec->state == MrState::deregistered) {
        ++(t < rec->state_since ? dev.late_events : dev.duplicate_events);
        return;
    }
    absorb_identity(*rec, ev);
    rec->last_seen = std::max(rec->last_seen, t);
    rec->source = obs.source;
    deregister(*rec, std::max(t, rec->state_since), MrRecoveryKind::dereg, ctx);
}

void MrHealthTracker::on_completion(const MrEvent& ev, const Observation& obs, MrDeviceHealth& dev,
                                    MrRecord* rec, EngineContext& ctx) {
    const TimePoint t = obs.time;
    count_completion(dev, ev);
    if (!rec) {
        first_completion(ev, obs, ctx);
        return;
    }
    if (rec->state == MrState::deregistered) {
        ++dev.late_events;  // a completion for an MR that no longer exists
        return;
    }
    absorb_identity(*rec, ev);
    rec->last_seen = std::max(rec->last_seen, t);
    rec->last_op = ev.op;
    rec->last_status = ev.status;
    ++rec->completions;
    rec->transport = ctx.inventory().transport(ev.device);
    const bool stale = t < rec->state_since;

    if (ev.status == WcStatus::mw_bind_err) {
        // MW_BIND_ERR sticks for the MR's life, whatever order the reports came in.
        if (rec->state == MrState::stuck) {
            ++dev.duplicate_events;
            return;
        }
        rec->source = obs.source;
        enter(*rec, MrState::stuck, t, ctx);
        return;
    }
    if (rec->state == MrState::stuck) {
        ++(ev.status == WcStatus::success ? dev.ignored_while_stuck : dev.duplicate_events);
        return;
    }
    if (ev.op == MrOp::bind_mw) return;  // binding a window leaves the MR as it was
    if (stale) {
        ++dev.late_events;  // a later report already decided this MR's state
        return;
    }
    const MrState next = ev.status != WcStatus::success ? flushed_state(*rec)
                         : ev.op == MrOp::fastreg       ? MrState::valid
                                                        : MrState::invalid;
    if (rec->state == next) {
        ++dev.duplicate_events;
        return;
    }
    rec->source = obs.source;
    if (is_unknown(rec->state)) recovered(*rec, MrRecoveryKind::known_again, t, ctx);
    enter(*rec, next, t, ctx);
}

void MrHealthTracker::first_completion(const MrEvent& ev, const Observation& obs,
                                       EngineContext& ctx) {
    MrState first = state_after(ev);
    MrRecord* fresh = create(ev, obs, MrState::valid);
    if (!fresh) return;
    fresh->transport = ctx.inventory().transport(ev.device);
    if (first == MrState::unknown) first = flushed_state(*fresh);
    if (first != MrState::valid) enter(*fresh, first, obs.time, ctx);
}

void MrHealthTracker::enter(MrRecord& rec, MrState state, TimePoint when, EngineContext& ctx) {
    MrDeviceHealth& dev = stats(rec.device);
    const MrState old = rec.state;
    const Key key{rec.device, rec.mr};
    if (old == MrState::unknown && state != MrState::unknown && when > rec.state_since) {
        dev.unknown_time_total += when - rec.state_since;
    }
    if (is_unknown(state) && !is_unknown(old)) ++dev.entered_unknown;
    if (state == MrState::stuck) ++dev.entered_stuck;
    if (is_flagged(state)) {
        if (!rec.flagged_since) rec.flagged_since = when;
    } else {
        rec.flagged_since.reset();
    }
    rec.state = state;
    rec.state_since = when;
    rec.advice = mr_advice(state, rec.transport, rec.owner);
    if (is_flagged(state)) {
        flagged_[key] = false;
        transports_.try_emplace(rec.device, rec.transport);
    } else {
        flagged_.erase(key);
    }
    if (is_flagged(old) && !is_flagged(state)) {
        ctx.findings().clear(kRuleMrUnknown, subject_of(rec), ctx.now());
        ctx.findings().clear(kRuleMrTeardownOverdue, subject_of(rec), ctx.now());
        ctx.findings().clear(kRuleMrNeedsDereg, subject_of(rec), ctx.now());
    }
    if (is_flagged(old) && is_flagged(state) && old != state) {
        // Another flagged state (unknown -> stuck, ...): the old state's finding ends.
        if (old == MrState::unknown)
            ctx.findings().clear(kRuleMrUnknown, subject_of(rec), ctx.now());
        if (old == MrState::awaiting_teardown)
            ctx.findings().clear(kRuleMrTeardownOverdue, subject_of(rec), ctx.now());
    }
    if (is_flagged(state)) judge(rec, ctx);
}

void MrHealthTracker::judge(MrRecord& rec, EngineContext& ctx) {
    auto flag = flagged_.find(Key{rec.device, rec.mr});
    if (flag == flagged_.end() || flag->second) return;
    if (rec.state != MrState::stuck) {
        const Duration wait = rec.state == MrState::awaiting_teardown ? settings_.teardown_timeout
                                                                      : settings_.unknown_threshold;
        const TimePoint due = rec.state_since + wait;
        if (ctx.now() < due) {
            next_due_ = std::min(next_due_, due);
            return;
        }
    }
    const std::string what = rec.last_op && rec.last_status
                                 ? std::string(to_string(*rec.last_op)) + " completed with " +
                                       std::string(to_string(*rec.last_status))
                                 : std::string("last completion not known");
    Finding f;
    f.subject = subject_of(rec);
    f.since = rec.state_since;
    f.advice = rec.advice;
    if (rec.state == MrState::stuck) {
        f.rule = kRuleMrNeedsDereg;
        f.severity = Severity::critical;
        f.evidence = what + " at " + format_time(rec.state_since) + " (" + rec.source +
                     "); owner " + owner_text(rec.owner) + "; transport " +
                     std::string(to_string(rec.transport));
    } else if (rec.state == MrState::awaiting_teardown) {
        f.rule = kRuleMrTeardownOverdue;
        f.severity = Severity::warning;
        f.evidence =
            what + " at " + format_time(rec.state_since) + " (" + rec.source +
            "); still not destroyed " + format_duration(ctx.now() - rec.state_since) +
            " later, though this kernel destroys flushed xprtrdma MRs when their "
            "connection is torn down (" +
            (kernel_.basis.empty() ? std::string("kernel behaviour given") : kernel_.basis) +
            "); owner " + owner_text(rec.owner);
    } else {
        f.rule = kRuleMrUnknown;
        f.severity = Severity::warning;
        f.evidence = what + " at " + format_time(rec.state_since) + " (" + rec.source +
                     "); state unknown for " + format_duration(ctx.now() - rec.state_since) +
                     "; owner " + owner_text(rec.owner) + "; transport " +
                     std::string(to_string(rec.transport));
    }
    ctx.findings().raise(std::move(f));
    flag->second = true;
}

void MrHealthTracker::recovered(MrRecord& rec, MrRecoveryKind kind, TimePoint when,
                                EngineContext& ctx) {
    (void)ctx;
    if (!rec.flagged_since) return;
    MrDeviceHealth& dev = stats(rec.device);
    MrRecovery r;
    r.device = rec.device;
    r.mr = rec.mr;
    r.owner = rec.owner;
    r.from = rec.state;
    r.kind = kind;
    r.flagged_since = *rec.flagged_since;
    r.recovered = std::max(when, *rec.flagged_since);
    ++dev.recoveries;
    dev.recovery_time_total += r.recovered - r.flagged_since;
    recoveries_.push_front(std::move(r));
    while (recoveries_.size() > settings_.max_recoveries) recoveries_.pop_back();
}

void MrHealthTracker::deregister(MrRecord& rec, TimePoint when, MrRecoveryKind kind,
                                 EngineContext& ctx) {
    recovered(rec, kind, when, ctx);
    enter(rec, MrState::deregistered, when, ctx);
    deregistered_.emplace(when, Key{rec.device, rec.mr});
}

bool MrHealthTracker::listed(const MrRecord& rec) const {
    // An id that is really the key (the probe names MRs by lkey) can only be matched by key.
    const bool id_is_key = rec.key && *rec.key == rec.mr;
    auto in = [&](const Listing& l) {
        if (!id_is_key && std::binary_search(l.ids.begin(), l.ids.end(), rec.mr)) return true;
        return rec.key && std::binary_search(l.keys.begin(), l.keys.end(), *rec.key);
    };
    // Trace events do not name the device: those MRs are judged by the host-wide listing
    // (device ""), which the netlink source sends along with the per-device ones.
    auto it = listings_.find(rec.device);
    if (it == listings_.end() || !it->second.complete) return true;
    if (id_is_key && it->second.keys.empty()) return true;  // keys withheld: cannot tell
    return in(it->second);
}

void MrHealthTracker::on_inventory(const MrInventory& inv, const Observation& obs,
                                   EngineContext& ctx) {
    Listing& l = listings_[inv.device];
    l.ids.clear();
    l.keys.clear();
    l.complete = inv.complete;
    l.ids.reserve(inv.mrs.size());
    for (const auto& e : inv.mrs) {
        l.ids.push_back(e.mr);
        if (e.lkey) l.keys.push_back(*e.lkey);
        if (e.rkey) l.keys.push_back(*e.rkey);
    }
    std::sort(l.ids.begin(), l.ids.end());
    std::sort(l.keys.begin(), l.keys.end());
    if (!inv.complete) return;
    std::vector<Key> gone;
    for (const auto& [key, flag] : flagged_) {
        (void)flag;
        const MrRecord& rec = mrs_.at(key);
        if (rec.device != inv.device) continue;
        if (rec.first_seen > obs.time) continue;  // appeared after the listing was taken
        if (!listed(rec)) gone.push_back(key);
    }
    for (const auto& key : gone) {
        MrRecord& rec = mrs_.at(key);
        rec.source = obs.source;
        deregister(rec, std::max(obs.time, rec.state_since), MrRecoveryKind::absent_from_listing,
                   ctx);
    }
}

void MrHealthTracker::tick(EngineContext& ctx) {
    // Engines tick after every observation: only the few devices are looked at each time, the
    // flagged MRs only when a device's transport changed or an unknown MR's threshold is due.
    for (auto& [device, known] : transports_) {
        const Transport now_transport = ctx.inventory().transport(device);
        if (now_transport == known) continue;
        known = now_transport;
        for (auto& [key, raised] : flagged_) {
            MrRecord& rec = mrs_.at(key);
            if (rec.device != device || rec.transport == now_transport) continue;
            // Learned the transport late: the advice changes, and the finding says so.
            rec.transport = now_transport;
            rec.advice = mr_advice(rec.state, rec.transport, rec.owner);
            ++revision_;
            raised = false;
            judge(rec, ctx);
        }
    }
    if (ctx.now() >= next_due_) {
        next_due_ = TimePoint::max();
        for (auto& [key, raised] : flagged_) {
            if (!raised) judge(mrs_.at(key), ctx);
        }
    }
    prune(ctx.now());
}

void MrHealthTracker::prune(TimePoint now) {
    while (!deregistered_.empty()) {
        auto first = deregistered_.begin();
        const bool expired = first->first + settings_.retention <= now;
        if (!expired && deregistered_.size() <= settings_.max_deregistered) break;
        mrs_.erase(first->second);
        deregistered_.erase(first);
        ++revision_;
    }
}

void MrHealthTracker::contribute(Snapshot& snapshot) const {
    MrHealth& out = snapshot.mrs;
    out.mrs.clear();
    out.mrs.reserve(mrs_.size());
    std::map<std::string, MrDeviceHealth> devices = devices_;
    for (auto& [name, d] : devices) d.by_state.clear();
    for (const auto& [key, rec] : mrs_) {
        out.mrs.push_back(rec);
        auto& d = devices[rec.device];
        d.device = rec.device;
        ++d.by_state[rec.state];
    }
    out.devices.clear();
    for (auto& [name, d] : devices) out.devices.push_back(std::move(d));
    out.recoveries.assign(recoveries_.begin(), recoveries_.end());
    out.dropped_records = dropped_;
    out.kernel = kernel_;
}

}  // namespace rdmadiag::engine::mr
