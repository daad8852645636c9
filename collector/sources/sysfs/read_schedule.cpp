// What the sysfs source reads when: the cadences a poll finds due (SysfsSource's comment), the
// devices and ports a pass walks, and a refresh of one port after an event.

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>

#include "collector/sources/sysfs/sysfs_pass.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"

namespace rdmadiag::sysfs {

Duration SysfsSource::slow_counter_interval() const {
    return std::max(settings_.counter_interval, settings_.slow_counter_interval);
}

Duration SysfsSource::poll_interval() const {
    return std::min({settings_.counter_interval, slow_counter_interval(), settings_.pkey_interval});
}

void SysfsSource::poll(TimePoint now, sources::ObservationSink& sink) {
    // A cadence is due when its time has come; the next one is counted from the slot it was due
    // in, so a late poll does not shift every later one.
    auto due = [now](std::optional<TimePoint>& next, Duration interval) {
        if (next && now < *next) return false;
        if (!next || now - *next >= interval) {
            next = now + interval;
        } else {
            *next += interval;
        }
        return true;
    };
    Parts parts;
    parts.counters.fast = due(next_counters_, settings_.counter_interval);
    parts.counters.slow = due(next_slow_counters_, slow_counter_interval());
    parts.tables = due(next_tables_, settings_.pkey_interval);
    parts.whole_tables = parts.tables && due(next_whole_tables_, full_table_interval_);
    if (parts.counters.any() || parts.tables) sample(now, sink, parts);
}

void SysfsSource::sample_all(TimePoint now, sources::ObservationSink& sink) {
    sample(now, sink, Parts{sources::CounterTiers::all(), true, true});
}

void SysfsSource::sample(TimePoint now, sources::ObservationSink& sink, Parts parts) {
    Pass pass(*this, now, sink);
    // The device list is taken with the tables, not on every pass: nearly every listing finds
    // the devices of the last one. A device that goes away between listings fails its next read
    // (ENODEV from a held file, ENOENT from a path): the pass leaves it there, says nothing of
    // it, and lists the devices again at its end (device_vanished). A new one is seen by the
    // next tables pass.
    if ((parts.tables || !listed_) && !take_device_list(pass, parts.whole_tables)) return;
    // The listings of ports and counter folders, and the devices' identity, are taken afresh
    // with the whole tables: they change only when a device registers again, which the device
    // list shows (and then everything about the device is read afresh).
    if (parts.whole_tables) forget_listings();

    methods_.begin_pass(parts.tables, parts.counters);
    // Only take_device_list changes the list, and not before the loop is done.
    for (const auto& dev : last_devices_) {
        if (!vanished_.contains(dev)) sample_device(pass, dev, parts);
    }
    methods_.end_pass();
    // A device went away during the pass: the engine hears of it now.
    if (!vanished_.empty() && !take_device_list(pass, false)) return;
    if (parts.counters.any()) {
        narrow_fast_ports_ = static_cast<size_t>(
            std::count_if(known_ports_.begin(), known_ports_.end(), [&](const auto& kv) {
                const auto& until = kv.second.narrow_fast_until;
                return until && now < *until;
            }));
    }
    // Last, so that it says how this pass read the counters, and where they are not available.
    if (parts.counters.any()) unavailable_ = unavailable_summary();
    std::string reason = methods_.status();
    if (!unavailable_.empty()) reason += (reason.empty() ? "" : "; ") + unavailable_;
    pass.emit(SourceStatus{true, std::move(reason)});
}

void SysfsSource::sample_device(Pass& pass, const std::string& dev, Parts parts) {
    auto ports = pass.ports_of(dev);
    const bool new_device = !described_.contains(dev);
    if (parts.whole_tables || new_device) {
        std::optional<uint32_t> first;
        if (ports && !ports->empty()) first = ports->front();
        pass.device_info(dev, first);
        described_.insert(dev);
    }
    if (!ports) return;
    for (uint32_t p : *ports) {
        if (vanished_.contains(dev)) break;
        PortRef port{dev, p};
        KnownPort& known = known_port(port);
        // An Active port's state is read with the slow tier and the tables, and at once after
        // a port event (refresh): a port going down raises PORT_ERR where an event source
        // watches it. A port in any other state is read on every pass: it is coming up.
        const bool read_state = parts.tables || parts.counters.slow || !known.read ||
                                known.last.state != PortState::active;
        const auto facts =
            pass.state_and_gids(port, known, read_state, parts.tables, parts.whole_tables);
        if (parts.tables) pass.pkey_table(port, known, parts.whole_tables);
        if (parts.counters.any()) pass.port_counters(port, known, facts, parts.counters);
    }
}

void SysfsSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    Pass pass(*this, now, sink);
    auto devices = list_devices();
    const bool known = devices && std::binary_search(devices->begin(), devices->end(), port.device);
    if (!known) {
        pass.emit(SampleError{
            port.to_string(),
            "cannot refresh: no selected RDMA device '" + port.device + "' under " + class_dir_,
            ENODEV});
        return;
    }
    // An event may mean the device's layout changed: list it again.
    forget_listings_of(port.device);
    auto ports = pass.ports_of(port.device);
    if (!ports) return;
    bool found = false;
    for (uint32_t p : *ports) {
        if (port.port != 0 && p != port.port) continue;
        found = true;
        PortRef one{port.device, p};
        KnownPort& record = known_port(one);
        pass.state_and_gids(one, record, true, true, true);
        pass.pkey_table(one, record, true);
    }
    if (!found) {
        pass.emit(SampleError{port.to_string(), "cannot refresh: no such port", ENOENT});
    }
}

}  // namespace rdmadiag::sysfs
