#include "gui/models/dashboard_models.hpp"

namespace rdmadiag::gui::models {

DashboardModels::DashboardModels() = default;

void DashboardModels::apply(SnapshotPtr snapshot) {
    if (!snapshot) return;
    if (snapshot_ && snapshot->time < snapshot_->time) reset();
    snapshot_ = std::move(snapshot);
    const Snapshot& s = *snapshot_;
    names.set(s);
    history.add(s);
    pkey_changes.update(s);
    findings.set_findings(s.findings, s.time);
    ports.set_snapshot(s);
    ports.set_findings(s.findings);
    events.set_events(s.events);
    mrs.set_snapshot(s);
    mr_processes.set_snapshot(s);
    if (s.consumers) host_consumers_ = s.consumers;
    if (!port_ || !s.find_port(*port_)) port_ = default_port(s);
    refresh_port_views();
    partitions.set_findings(s.findings);
    if (s.partitions && s.partitions != partition_model_) {
        partition_model_ = s.partitions;
        show_partition_model();
    }
    refresh_partition_findings();
}

Snapshot& DashboardModels::own_snapshot() {
    // Two owners are own_ and snapshot_ themselves.
    if (!own_ || own_.get() != snapshot_.get() || own_.use_count() > 2) {
        own_ = snapshot_ ? std::make_shared<Snapshot>(*snapshot_) : std::make_shared<Snapshot>();
        snapshot_ = own_;
    }
    return *own_;
}

DeltaEffect DashboardModels::apply_delta(SnapshotDelta delta) {
    if (!snapshot_ && !delta.full) return {};
    const bool full = delta.full;
    Snapshot& s = own_snapshot();
    const DeltaEffect effect = models::apply_delta(s, std::move(delta));
    if (full) {
        names.set(s);
        pkey_changes.update(s);
    } else {
        for (const auto& d : effect.removed_devices) names.remove(d);
        for (const auto& name : effect.changed_devices) {
            if (const DeviceSnapshot* d = s.find_device(name)) {
                names.update(*d);
                pkey_changes.update(*d);
            }
        }
    }
    if (full || effect.reshaped) {
        ports.set_snapshot(s);
    } else if (!effect.changed_devices.empty()) {
        ports.update_devices(s, effect.changed_devices);
    }
    if (full || effect.reshaped || effect.findings_changed) ports.set_findings(s.findings);
    // Every delta moves the clock, and the findings' ages with it; there are few findings.
    findings.set_findings(s.findings, s.time);
    if (full || effect.events_changed) events.set_events(s.events);
    if (full || effect.mrs_changed || effect.findings_changed) {
        mrs.set_snapshot(s);
        mr_processes.set_snapshot(s);
    }
    if (full || effect.findings_changed) partitions.set_findings(s.findings);
    refresh_partition_findings();  // their ages move too
    if (!port_ || !s.find_port(*port_)) {
        port_ = default_port(s);
        refresh_port_views();
    } else if (full || effect.touches(port_->device) || effect.findings_changed) {
        refresh_port_views();
    }
    return effect;
}

void DashboardModels::set_port_counters(const PortRef& port, std::vector<CounterState> readings,
                                        TimePoint time) {
    if (!snapshot_) return;
    history.add_port(port, readings, time);
    for (auto& d : own_snapshot().devices) {
        if (d.info.device != port.device) continue;
        for (auto& p : d.ports) {
            if (p.ref != port) continue;
            p.counters = std::move(readings);
            if (port_ == port) refresh_port_views();
            return;
        }
    }
}

void DashboardModels::reset() {
    history.clear();
    pkey_changes.clear();
    snapshot_.reset();
    own_.reset();
    // Another run, or the start of a playback: its partitions are read again.
    partition_model_.reset();
    partitions_info_ = {};
    host_consumers_.reset();
    consumers_problem_.clear();
    partitions.clear();
    partition_members.clear();
}

void DashboardModels::select_port(std::optional<PortRef> port) {
    port_ = std::move(port);
    refresh_port_views();
}

void DashboardModels::refresh_port_views() {
    const PortSnapshot* p = (snapshot_ && port_) ? snapshot_->find_port(*port_) : nullptr;
    const TimePoint now = snapshot_ ? snapshot_->time : TimePoint{};
    pkeys.set_port(p, now);
    gids.set_port(p, now);
    counters.set_port(p, now);
    static const std::vector<Finding> kNone;
    consumers.set_port(host_consumers_.get(), p, snapshot_ ? snapshot_->findings : kNone);
}

void DashboardModels::set_consumers(std::shared_ptr<const HostConsumers> listing) {
    host_consumers_ = std::move(listing);
    consumers_problem_.clear();
    refresh_port_views();
}

void DashboardModels::take_partitions_header(const PartitionListing& listing) {
    partitions_info_.have = true;
    partitions_info_.intent = listing.intent;
    partitions_info_.intent_file = listing.intent_file;
    partitions_info_.unresolved = listing.unresolved;
    partitions_info_.problem.clear();
}

void DashboardModels::show_partition_model() {
    const PartitionListing all = listing_of(*partition_model_);
    take_partitions_header(all);
    partitions.set_listing(all);
    choose_partition();
    if (partition_) {
        PartitionListing one = listing_of(*partition_model_, partition_);
        partition_members.set_members(*partition_, std::move(one.members));
    } else {
        partition_members.clear();
    }
}

void DashboardModels::set_partitions(const PartitionListing& listing) {
    if (!listing.members_of) {
        take_partitions_header(listing);
        partitions.set_listing(listing);
        const auto before = partition_;
        choose_partition();
        if (partition_ != before || !partition_) {
            partition_members.clear();
            refresh_partition_findings();
        }
        return;
    }
    if (listing.members_of != partition_) return;  // an answer for an earlier choice
    take_partitions_header(listing);
    if (listing.partitions.empty()) {
        partition_members.clear();  // gone; the next list answer chooses another
        return;
    }
    partitions.update_row(listing.partitions.front());
    partition_members.set_members(*partition_, listing.members);
}

void DashboardModels::set_partitions_problem(const QString& why) {
    partitions_info_.problem = why;
}

void DashboardModels::select_partition(std::optional<uint16_t> pkey) {
    if (pkey) pkey = pkey_base(*pkey);
    if (pkey == partition_) return;
    partition_ = pkey;
    if (partition_ && partition_model_) {
        PartitionListing one = listing_of(*partition_model_, partition_);
        partition_members.set_members(*partition_, std::move(one.members));
    } else {
        partition_members.clear();
    }
    refresh_partition_findings();
}

void DashboardModels::choose_partition() {
    if (partition_ && partitions.row_of(*partition_) >= 0) return;
    partition_ = default_partition(partitions);
}

void DashboardModels::refresh_partition_findings() {
    std::vector<Finding> mine;
    if (snapshot_ && partition_) {
        for (const auto& f : snapshot_->findings) {
            if (f.subject.device.empty() && f.subject.pkey &&
                pkey_base(*f.subject.pkey) == *partition_) {
                mine.push_back(f);
            }
        }
    }
    partition_findings.set_findings(std::move(mine), snapshot_ ? snapshot_->time : TimePoint{});
}

std::optional<uint16_t> default_partition(const PartitionListModel& partitions) {
    for (int r = 0; r < partitions.rowCount(); ++r) {
        const PartitionRow* row = partitions.row_at(r);
        if (row->differences && *row->differences > 0) return row->pkey;
    }
    for (int r = 0; r < partitions.rowCount(); ++r) {
        if (partitions.index(r, 0).data(PartitionListModel::FindingsRole).toInt() > 0)
            return partitions.row_at(r)->pkey;
    }
    if (partitions.rowCount() > 0) return partitions.row_at(0)->pkey;
    return std::nullopt;
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
