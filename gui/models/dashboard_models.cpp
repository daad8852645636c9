#include "gui/models/dashboard_models.hpp"

namespace rdmadiag::gui::models {

DashboardModels::DashboardModels() = default;

void DashboardModels::apply(SnapshotPtr snapshot) {
    if (!snapshot) return;
    if (snapshot_ && snapshot->time < snapshot_->time) reset();
    snapshot_ = std::move(snapshot);
    const Snapshot& s = *snapshot_;
    history.add(s);
    pkey_changes.update(s);
    findings.set_findings(s.findings, s.time);
    ports.set_snapshot(s);
    events.set_events(s.events);
    mrs.set_snapshot(s);
    if (!port_ || !s.find_port(*port_)) port_ = default_port(s);
    refresh_port_views();
}

void DashboardModels::reset() {
    history.clear();
    pkey_changes.clear();
    snapshot_.reset();
}

void DashboardModels::select_port(std::optional<PortRef> port) {
    port_ = std::move(port);
    refresh_port_views();
}

void DashboardModels::refresh_port_views() {
    const PortSnapshot* p = (snapshot_ && port_) ? snapshot_->find_port(*port_) : nullptr;
    const TimePoint now = snapshot_ ? snapshot_->time : TimePoint{};
    pkeys.set_port(p, now);
    counters.set_port(p, now);
}

std::optional<PortRef> default_port(const Snapshot& snapshot) {
    for (const auto& f : snapshot.findings) {
        if (f.rule == "pkey.cache_stale" && f.subject.port) {
            return PortRef{f.subject.device, *f.subject.port};
        }
    }
    for (const auto& f : snapshot.findings) {
        if (f.subject.port) return PortRef{f.subject.device, *f.subject.port};
    }
    const PortSnapshot* first = nullptr;
    for (const auto& d : snapshot.devices) {
        for (const auto& p : d.ports) {
            if (!first) first = &p;
            if (!p.pkeys.views.empty()) return p.ref;
        }
    }
    return first ? std::optional<PortRef>(first->ref) : std::nullopt;
}

}  // namespace rdmadiag::gui::models
