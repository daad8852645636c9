#include "collector/engine/snapshot_revisions.hpp"

#include <algorithm>
#include <utility>

namespace rdmadiag::engine {

namespace {

bool same_view_state(const PKeyViewState& a, const PKeyViewState& b) {
    // `confirmed` moves on every read that finds the table unchanged.
    return a.view == b.view && a.table == b.table && a.generation == b.generation &&
           a.changed == b.changed && a.source == b.source &&
           a.loaded_generation == b.loaded_generation;
}

bool same_pkey_state(const PortPKeyState& a, const PortPKeyState& b) {
    return a.cache == b.cache && a.cache_note == b.cache_note && a.stale_since == b.stale_since &&
           a.last_diff == b.last_diff &&
           std::equal(a.views.begin(), a.views.end(), b.views.begin(), b.views.end(),
                      same_view_state);
}

bool same_port_state(const PortSnapshot& a, const PortSnapshot& b) {
    return a.ref == b.ref && a.present == b.present && a.info == b.info &&
           same_pkey_state(a.pkeys, b.pkeys);
}

template <class T>
void section(uint64_t& revision, uint64_t previous_revision, const T& now, const T& before,
             uint64_t sequence) {
    revision = now == before ? previous_revision : sequence;
}

}  // namespace

bool same_device_state(const DeviceSnapshot& a, const DeviceSnapshot& b) {
    return a.info == b.info && a.present == b.present && a.source == b.source &&
           std::equal(a.ports.begin(), a.ports.end(), b.ports.begin(), b.ports.end(),
                      same_port_state);
}

void assign_device_revisions(Snapshot& next, const Snapshot* previous) {
    const uint64_t seq = next.sequence;
    if (!previous) {
        for (size_t i = 0; i < next.devices.size(); ++i) next.devices[i].revision = seq;
        next.revisions.devices = seq;
        return;
    }
    // Both device lists are in name order: one merge walk pairs each device with its old copy. A
    // device shared with the last snapshot is its old copy and keeps its revision untouched.
    bool same_names = next.devices.size() == previous->devices.size();
    size_t old = 0;
    const size_t old_end = previous->devices.size();
    for (size_t i = 0; i < next.devices.size(); ++i) {
        const DeviceSnapshot& d = std::as_const(next.devices)[i];
        while (old < old_end && previous->devices[old].info.device < d.info.device) {
            ++old;
            same_names = false;
        }
        if (old < old_end && previous->devices[old].info.device == d.info.device) {
            if (next.devices.shared(i) != previous->devices.shared(old)) {
                const DeviceSnapshot& was = previous->devices[old];
                const uint64_t revision = same_device_state(d, was) ? was.revision : seq;
                next.devices[i].revision = revision;
            }
            ++old;
        } else {
            next.devices[i].revision = seq;
            same_names = false;
        }
    }
    next.revisions.devices = same_names ? previous->revisions.devices : seq;
}

void assign_section_revisions(Snapshot& next, const Snapshot* previous) {
    const uint64_t seq = next.sequence;
    auto& now = next.revisions;
    if (!previous) {
        now = SectionRevisions{now.devices, seq, seq, seq, seq, seq, seq, seq};
        return;
    }
    const auto& was = previous->revisions;
    section(now.sources, was.sources, next.sources, previous->sources, seq);
    section(now.findings, was.findings, next.findings, previous->findings, seq);
    section(now.finding_history, was.finding_history, next.finding_history,
            previous->finding_history, seq);
    section(now.events, was.events, next.events, previous->events, seq);
    section(now.errors, was.errors, next.errors, previous->errors, seq);
    section(now.mrs, was.mrs, next.mrs, previous->mrs, seq);
    section(now.pkey_changes, was.pkey_changes, next.pkey_changes, previous->pkey_changes, seq);
}

void assign_revisions(Snapshot& next, const Snapshot* previous) {
    assign_device_revisions(next, previous);
    assign_section_revisions(next, previous);
}

}  // namespace rdmadiag::engine
