#include "collector/engine/gid/gid_views.hpp"

#include <algorithm>

#include "collector/engine/gid/gid_rules.hpp"
#include "collector/engine/gid/gid_table_diff.hpp"

namespace rdmadiag::engine::gid {

PortGidTrack& GidViews::track(const PortRef& port) {
    auto& t = ports_[port];
    t.unshown = true;
    return t;
}

bool GidViews::fresh(const TrackedGidView* v, TimePoint now) const {
    return v != nullptr && now - v->confirmed <= settings_.view_max_age;
}

void GidViews::observe(const Observation& obs, EngineContext& ctx) {
    if (const auto* table = std::get_if<GidTableSample>(&obs.body)) {
        on_table(obs, *table, ctx);
    } else if (const auto* event = std::get_if<AsyncEvent>(&obs.body)) {
        on_event(*event, ctx);
    } else if (const auto* status = std::get_if<SourceStatus>(&obs.body)) {
        on_status(obs, *status, ctx);
    }
}

void GidViews::on_table(const Observation& obs, const GidTableSample& sample, EngineContext& ctx) {
    auto& t = track(sample.port);
    const TimePoint now = ctx.now();
    const bool seen = t.view(sample.view) != nullptr;
    auto& v = t.make_view(sample.view);
    v.source = source_names_.index(obs.source);
    v.confirmed = now;
    if (!seen) {
        v.table = sample.table;
        v.generation = 1;
        v.changed = now;
        ++revision_;
        fabric_dirty_ = true;
    } else if (!(v.table == sample.table)) {
        auto diff = std::make_unique<GidDiff>();
        diff->port = sample.port;
        diff->view = sample.view;
        diff->old_generation = v.generation;
        diff->new_generation = ++v.generation;
        diff->time = now;
        diff_gid_tables(v.table, sample.table, *diff);
        v.table = sample.table;
        v.changed = now;
        v.last_change = std::move(diff);
        ++revision_;
        fabric_dirty_ = true;
    }
    evaluate(sample.port, t, ctx);
}

void GidViews::on_event(const AsyncEvent& event, EngineContext& ctx) {
    if (event.type != AsyncEventType::gid_change &&
        event.type != AsyncEventType::client_reregister) {
        return;
    }
    auto count = [&](const PortRef& port) {
        auto& t = track(port);
        if (event.type == AsyncEventType::gid_change) {
            ++t.gid_change_events;
            t.last_gid_change = ctx.now();
        } else {
            ++t.client_reregister_events;
            t.last_client_reregister = ctx.now();
        }
        ++revision_;
        evaluate(port, t, ctx);
    };
    if (event.port) {
        count(PortRef{event.device, *event.port});
        return;
    }
    for (auto& [ref, t] : ports_) {
        if (ref.device == event.device) count(ref);
    }
}

void GidViews::on_status(const Observation& obs, const SourceStatus& status, EngineContext& ctx) {
    if (!coverage_.apply(obs.source, status)) return;
    // Whether a port's events are watched changes what the evidence can say.
    for (auto& [port, t] : ports_) {
        if (t.active & kCacheStaleBit) evaluate(port, t, ctx);
    }
}

void GidViews::tick(EngineContext& ctx) {
    const TimePoint now = ctx.now();
    if (now < next_check_) return;
    next_check_ = TimePoint::max();
    for (auto& [port, t] : ports_) {
        if (t.next_check <= now) evaluate(port, t, ctx);
        next_check_ = std::min(next_check_, t.next_check);
    }
}

void GidViews::review(const Snapshot& snapshot, EngineContext& ctx) {
    (void)snapshot;
    if (!fabric_dirty_ && ctx.now() < next_review_) return;
    fabric_dirty_ = false;
    next_review_ = TimePoint::max();
    judge_prefixes(ctx);
    judge_duplicate_guids(ctx);
}

void GidViews::take_changed_devices(std::set<std::string, std::less<>>& devices) {
    for (auto& [port, t] : ports_) {
        if (!t.unshown) continue;
        devices.insert(port.device);
        t.unshown = false;
    }
}

PortGidState GidViews::port_state(const PortRef& port) const {
    PortGidState s;
    auto it = ports_.find(port);
    if (it == ports_.end()) return s;
    const auto& t = it->second;
    for (auto v : kAllGidViews) {
        const TrackedGidView* tv = t.view(v);
        if (tv == nullptr) continue;
        GidViewState vs;
        vs.view = v;
        vs.table = tv->table;
        vs.generation = tv->generation;
        vs.changed = tv->changed;
        vs.confirmed = tv->confirmed;
        vs.source = source_names_.name(tv->source);
        s.views.push_back(std::move(vs));
        if (tv->last_change) s.last_changes.push_back(*tv->last_change);
    }
    s.coherence = t.coherence;
    s.note = t.note;
    s.differs_since = t.differs_since;
    s.gid_change_events = t.gid_change_events;
    s.last_gid_change = t.last_gid_change;
    s.client_reregister_events = t.client_reregister_events;
    s.last_client_reregister = t.last_client_reregister;
    return s;
}

void GidViews::contribute_port(PortSnapshot& port) const {
    if (ports_.find(port.ref) == ports_.end()) return;
    port.gids = port_state(port.ref);
}

}  // namespace rdmadiag::engine::gid
