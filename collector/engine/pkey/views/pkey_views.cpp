#include "collector/engine/pkey/views/pkey_views.hpp"

#include <algorithm>

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey {

namespace {

std::optional<size_t> violation_counter_index(const CounterSample& sample) {
    for (size_t i = 0; i < std::size(engine::pkey::rules::kViolationCounters); ++i) {
        if (engine::pkey::rules::kViolationCounters[i].name == sample.name) return i;
    }
    return std::nullopt;
}

// What port_state() shows of a port, but the times its views were last confirmed, folded into one
// number: a re-read that finds the same table leaves it as it was.
uint64_t shown_digest(const PortPKeyTrack& t) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint64_t v) {
        h ^= v;
        h *= 1099511628211ull;
    };
    auto mix_time = [&mix](TimePoint p) {
        mix(static_cast<uint64_t>(p.time_since_epoch().count()));
    };
    mix(static_cast<uint64_t>(t.cache));
    mix(t.reload_pending);
    mix(t.stale_since.has_value());
    if (t.stale_since) mix_time(*t.stale_since);
    for (auto v : kAllPKeyViews) {
        const TrackedView& view = t.view(v);
        mix(view.present());
        if (!view.present()) continue;
        mix(view.generation);
        mix_time(view.changed);
        mix(view.loaded_generation);
        mix(view.source);
    }
    return h;
}

}  // namespace

PKeyViewState PKeyViews::materialize(PKeyView v, const TrackedView& t) const {
    PKeyViewState s;
    s.view = v;
    s.table = t.table->unpack();
    s.generation = t.generation;
    s.changed = t.changed;
    s.confirmed = t.confirmed;
    s.source = source_names_.name(t.source);
    s.loaded_generation = t.loaded_generation;
    return s;
}

PortPKeyTrack& PKeyViews::track(const PortRef& port) {
    auto it = ports_.find(port);
    if (it == ports_.end()) {
        it = ports_.emplace(port, PortPKeyTrack{}).first;
        it->second.watched = coverage_.watched(port);
    }
    it->second.unshown = true;
    return it->second;
}

void PKeyViews::observe(const Observation& obs, EngineContext& ctx) {
    if (const auto* table = std::get_if<PKeyTableSample>(&obs.body)) {
        on_table(obs, *table, ctx);
    } else if (const auto* counter = std::get_if<CounterSample>(&obs.body)) {
        on_counter(*counter, ctx);
    } else if (const auto* event = std::get_if<AsyncEvent>(&obs.body)) {
        on_event(*event, ctx);
    } else if (const auto* status = std::get_if<SourceStatus>(&obs.body)) {
        on_status(obs, *status, ctx);
    }
}

void PKeyViews::on_table(const Observation& obs, const PKeyTableSample& sample,
                         EngineContext& ctx) {
    auto& t = track(sample.port);
    rules::PKeyRuleContext rc{sample.port, t, settings_, ctx};
    const TimePoint now = ctx.now();
    auto& v = t.view(sample.view);
    v.source = source_names_.index(obs.source);
    if (!v.present()) {
        v.table = share_pkey_table(sample.table);
        v.generation = 1;
        v.changed = now;
        v.confirmed = now;
        auto& cache = t.view(PKeyView::cache);
        if (sample.view == PKeyView::device && !cache.present()) {
            // An event-driven consumer reads the table once when it starts.
            cache.table = v.table;
            cache.generation = 1;
            cache.changed = now;
            cache.confirmed = now;
            cache.source = v.source;
            cache.loaded_generation = 1;
        }
    } else {
        const TimePoint old_confirmed = v.confirmed;
        v.confirmed = now;
        if (!v.table->holds(sample.table)) {
            const PKeyTable before = v.table->unpack();
            v.table = share_pkey_table(sample.table);
            // A slot that became unreadable is not a change of the table.
            const bool real = before.keys.size() != sample.table.keys.size() ||
                              !pkey_tables_agree(before, sample.table);
            if (real && sample.view != PKeyView::cache) {
                const uint64_t old_generation = v.generation++;
                v.changed = now;
                record_change(rc, sample.view, before, sample.table, old_generation, old_confirmed);
            } else if (real) {
                ++v.generation;
                v.changed = now;
            }
        }
    }
    if (sample.view == PKeyView::device && t.reload_pending) reload_cache(rc, true);
    evaluate(rc);
}

void PKeyViews::record_change(rules::PKeyRuleContext& rc, PKeyView view, const PKeyTable& before,
                              const PKeyTable& after, uint64_t old_generation,
                              TimePoint old_confirmed) {
    auto& t = rc.track;
    const auto& v = t.view(view);
    PKeyDiff diff;
    diff.port = rc.port;
    diff.view = view;
    diff.old_generation = old_generation;
    diff.new_generation = v.generation;
    diff.time = rc.now();
    diff.changes = diff_pkey_tables(before, after);
    vacated_[{rc.port, view}].apply(diff.changes, after);
    history_.push_back(diff);
    while (history_.size() > settings_.change_history) history_.pop_front();
    if (view != t.primary()) return;
    engine::pkey::rules::report_index_moves(rc, diff);
    engine::pkey::rules::report_removals(rc, diff);
    engine::pkey::rules::report_membership_changes(rc, diff);
    engine::pkey::rules::report_index_reuses(rc, diff);
    t.recent_changes.push_back(rc.now());
    engine::pkey::rules::look_back_for_violations(rc, diff, old_confirmed);
    t.last_diff = std::make_unique<PKeyDiff>(std::move(diff));
}

void PKeyViews::reload_cache(rules::PKeyRuleContext& rc, bool after_event) {
    auto& t = rc.track;
    const auto& dev = t.view(PKeyView::device);
    auto& cache = t.view(PKeyView::cache);
    if (!dev.present()) {
        t.reload_pending = false;
        return;
    }
    const bool same = cache.present() && (cache.table == dev.table || *cache.table == *dev.table);
    if (after_event && same) engine::pkey::rules::report_spurious_event(rc, t.reload_requested);
    if (!same) {
        cache.generation = cache.present() ? cache.generation + 1 : 1;
        cache.changed = rc.now();
    }
    cache.table = dev.table;
    cache.confirmed = rc.now();
    cache.source = dev.source;
    cache.loaded_generation = dev.generation;
    if (after_event) engine::pkey::rules::note_cache_healed(rc);
    t.stale_since.reset();
    t.reload_pending = false;
}

void PKeyViews::on_event(const AsyncEvent& event, EngineContext& ctx) {
    if (event.type != AsyncEventType::pkey_change) return;
    std::vector<PortRef> targets;
    if (event.port) {
        targets.push_back(PortRef{event.device, *event.port});
    } else {
        for (const auto& [ref, t] : ports_) {
            if (ref.device == event.device) targets.push_back(ref);
        }
    }
    for (const auto& port : targets) {
        auto& t = track(port);
        rules::PKeyRuleContext rc{port, t, settings_, ctx};
        // The consumer re-queries the table now: ask for a fresh read and reload from it.
        t.reload_pending = true;
        t.reload_requested = ctx.now();
        ctx.request_refresh(port);
        evaluate(rc);
    }
}

void PKeyViews::on_counter(const CounterSample& sample, EngineContext& ctx) {
    const auto which = violation_counter_index(sample);
    if (!which) return;
    const CounterTrack* c = ctx.inventory().counter(sample.port, sample.kind, sample.name);
    if (!c) return;
    auto& t = track(sample.port);
    rules::PKeyRuleContext rc{sample.port, t, settings_, ctx};
    const uint64_t previous = t.violation_totals[*which];
    const bool seen = t.violation_seen[*which];
    t.violation_totals[*which] = c->total;
    t.violation_seen[*which] = true;
    if (seen && c->total > previous)
        engine::pkey::rules::note_violation_rise(rc, *c, c->total - previous);
    if (c->saturated || rc.port_finding_active(engine::pkey::rules::kRuleCounterSaturated))
        engine::pkey::rules::judge_counter_saturation(rc);
    evaluate(rc);
}

void PKeyViews::on_status(const Observation& obs, const SourceStatus& status, EngineContext& ctx) {
    if (!coverage_.apply(obs.source, status)) return;
    for (auto& [port, t] : ports_) {
        const bool watched = coverage_.watched(port);
        if (watched == t.watched) continue;
        t.watched = watched;
        rules::PKeyRuleContext rc{port, t, settings_, ctx};
        // Events before the watch began were not seen: start from the table as it is now, as a
        // consumer starting now would.
        if (watched) reload_cache(rc, false);
        t.stale_since.reset();
        evaluate(rc);
    }
}

void PKeyViews::evaluate(rules::PKeyRuleContext& rc) {
    auto& t = rc.track;
    t.unshown = true;
    if (t.reload_pending && rc.now() >= t.reload_requested + settings_.reload_wait) {
        // No fresh read came: the consumer got whatever the table was at the last read.
        reload_cache(rc, true);
    }
    TimePoint next = engine::pkey::rules::judge_cache_staleness(rc);
    next = std::min(next, engine::pkey::rules::judge_view_divergence(rc));
    if (!t.held.empty()) next = std::min(next, engine::pkey::rules::expire_held_findings(rc));
    if (!t.recent_changes.empty() || rc.port_finding_active(engine::pkey::rules::kRuleFlapping)) {
        next = std::min(next, engine::pkey::rules::judge_flapping(rc));
    }
    next = std::min(next, engine::pkey::rules::judge_violations_quiet(rc));
    t.next_check = next;
    next_check_ = std::min(next_check_, next);
    const uint64_t shown = shown_digest(t);
    if (shown != t.shown) {
        t.shown = shown;
        ++revision_;
    }
}

void PKeyViews::tick(EngineContext& ctx) {
    if (ctx.now() < next_check_) return;
    next_check_ = TimePoint::max();
    for (auto& [port, t] : ports_) {
        if (t.next_check <= ctx.now()) {
            rules::PKeyRuleContext rc{port, t, settings_, ctx};
            evaluate(rc);
        } else {
            next_check_ = std::min(next_check_, t.next_check);
        }
    }
}

std::optional<PKeyViewState> PKeyViews::view(const PortRef& port, PKeyView v) const {
    auto it = ports_.find(port);
    if (it == ports_.end() || !it->second.view(v).present()) return std::nullopt;
    return materialize(v, it->second.view(v));
}

PortPKeyState PKeyViews::port_state(const PortRef& port) const {
    PortPKeyState s;
    auto it = ports_.find(port);
    if (it == ports_.end()) return s;
    const auto& t = it->second;
    for (auto v : kAllPKeyViews) {
        if (t.view(v).present()) s.views.push_back(materialize(v, t.view(v)));
    }
    s.cache = t.cache;
    switch (t.cache) {
        case CacheJudgement::unknown:
            s.cache_note = "no device table read yet";
            break;
        case CacheJudgement::coherent:
            s.cache_note = "cache matches device generation " +
                           std::to_string(t.view(PKeyView::device).generation);
            break;
        case CacheJudgement::pending:
            s.cache_note = t.reload_pending ? "PKEY_CHANGE delivered, reload under way"
                                            : "differs from device, within the grace period";
            break;
        case CacheJudgement::stale:
            s.cache_note = "differs from device with no PKEY_CHANGE delivered";
            break;
        case CacheJudgement::not_watched:
            s.cache_note = "no source watches async events of " + port.to_string() +
                           ": the cache cannot be judged here";
            break;
    }
    s.stale_since = t.stale_since;
    if (t.last_diff) s.last_diff = *t.last_diff;
    return s;
}

void PKeyViews::take_changed_devices(std::set<std::string, std::less<>>& devices) {
    for (auto& [port, t] : ports_) {
        if (!t.unshown) continue;
        devices.insert(port.device);
        t.unshown = false;
    }
}

void PKeyViews::contribute_port(PortSnapshot& port) const {
    if (ports_.contains(port.ref)) port.pkeys = port_state(port.ref);
}

void PKeyViews::contribute(Snapshot& snapshot) const {
    snapshot.pkey_changes.assign(history_.begin(), history_.end());
}

}  // namespace rdmadiag::engine::pkey
