#include "collector/sources/verbs/device_lifecycle.hpp"

#include <algorithm>

#include "collector/sources/verbs/async_event_mapping.hpp"

namespace rdmadiag::verbs {

namespace {

// SourceStatus::event_coverage (the ports whose events a source delivers, which the engine needs
// to judge event-driven caches) is being added to the model alongside this source. Where the
// model has it, it is filled in; the reason text states the same coverage either way.
template <class Status>
void declare_coverage(Status& status, const std::vector<PortRef>& ports) {
    if constexpr (requires { status.event_coverage; }) {
        using Coverage = typename decltype(status.event_coverage)::value_type;
        for (const auto& ref : ports) {
            if (status.event_coverage.empty() ||
                status.event_coverage.back().device != ref.device) {
                Coverage c;
                c.device = ref.device;
                status.event_coverage.push_back(std::move(c));
            }
            status.event_coverage.back().ports.push_back(ref.port);
        }
    }
}

}  // namespace

VerbsDeviceSet::VerbsDeviceSet(VerbsBackend& backend, Selector selected, std::string source_name)
    : backend_(backend), selected_(std::move(selected)), source_name_(std::move(source_name)) {}

void VerbsDeviceSet::emit(TimePoint now, sources::ObservationSink& sink,
                          ObservationBody body) const {
    sink.emit(Observation{now, source_name_, std::move(body)});
}

void VerbsDeviceSet::scan(TimePoint now, sources::ObservationSink& sink) {
    auto listed = backend_.list_devices();
    if (!listed) {
        // A failed listing proves nothing about the devices already open: keep them.
        const std::string message = "ibv_get_device_list failed: " + listed.error().message;
        if (list_error_ != message) {
            emit(now, sink, SampleError{"ibv_get_device_list", message, listed.error().code});
            list_error_ = message;
        }
        if (open_.empty()) down_reason_ = message;
        publish(now, sink);
        return;
    }
    list_error_.clear();

    std::vector<VerbsDeviceId> wanted;
    std::vector<std::string> skipped;
    for (auto& id : listed.value()) {
        if (selected_(id.name)) {
            wanted.push_back(std::move(id));
        } else {
            skipped.push_back(id.name);
        }
    }

    for (auto it = open_.begin(); it != open_.end();) {
        const bool still_there =
            std::find(wanted.begin(), wanted.end(), it->second.id) != wanted.end();
        it = still_there ? std::next(it) : open_.erase(it);
    }
    for (const auto& id : wanted) {
        if (open_.find(id.name) == open_.end()) open_device(id, now, sink);
    }
    for (auto it = open_errors_.begin(); it != open_errors_.end();) {
        const bool listed_now = std::any_of(wanted.begin(), wanted.end(),
                                            [&](const auto& id) { return id.name == it->first; });
        it = listed_now ? std::next(it) : open_errors_.erase(it);
    }

    if (open_.empty()) {
        if (wanted.empty() && skipped.empty()) {
            down_reason_ = "no RDMA devices (ibv_get_device_list returned none)";
        } else if (wanted.empty()) {
            std::string names;
            for (const auto& n : skipped) names += (names.empty() ? "" : ", ") + n;
            down_reason_ = "no selected RDMA devices (present: " + names + ")";
        } else {
            std::string why;
            for (const auto& [name, err] : open_errors_) {
                why += (why.empty() ? "" : "; ") + name + ": " + err;
            }
            down_reason_ = "cannot open any RDMA device (" + why + ")";
        }
    } else {
        down_reason_.clear();
    }
    publish(now, sink);
}

void VerbsDeviceSet::open_device(const VerbsDeviceId& id, TimePoint now,
                                 sources::ObservationSink& sink) {
    auto opened = backend_.open(id);
    if (!opened) {
        const std::string& message = opened.error().message;
        auto [it, fresh] = open_errors_.try_emplace(id.name, message);
        if (fresh || it->second != message) {
            it->second = message;
            emit(now, sink, SampleError{id.name, "cannot open: " + message, opened.error().code});
        }
        return;
    }
    open_errors_.erase(id.name);
    Entry entry;
    entry.id = id;
    entry.device = std::move(opened.value());
    entry.ports = entry.device->port_count();
    auto& e = open_.insert_or_assign(id.name, std::move(entry)).first->second;
    if (auto max_mr = e.device->max_mr()) emit(now, sink, DeviceLimits{id.name, max_mr});
    for (uint32_t p = 1; p <= e.ports; ++p) read_port(e, p, true, now, sink);
}

void VerbsDeviceSet::read_port(Entry& e, uint32_t port, bool with_pkeys, TimePoint now,
                               sources::ObservationSink& sink) {
    const PortRef ref{e.id.name, port};
    auto attr = e.device->query_port(port);
    if (!attr) {
        emit(now, sink,
             SampleError{ref.to_string() + " ibv_query_port", attr.error().message,
                         attr.error().code});
        return;
    }
    emit(now, sink, port_state_sample(ref, attr.value()));
    if (!with_pkeys) return;

    PKeyTable table;
    table.keys.reserve(attr->pkey_tbl_len);
    std::optional<Error> first_error;
    for (uint16_t i = 0; i < attr->pkey_tbl_len; ++i) {
        auto key = e.device->query_pkey(port, i);
        if (key) {
            table.keys.push_back(key.value());
        } else {
            table.keys.push_back(0);
            table.unreadable.push_back(i);
            if (!first_error) first_error = key.error();
        }
    }
    if (first_error) {
        emit(now, sink,
             SampleError{ref.to_string() + " ibv_query_pkey",
                         std::to_string(table.unreadable.size()) + " of " +
                             std::to_string(table.keys.size()) +
                             " entries unreadable: " + first_error->message,
                         first_error->code});
    }
    emit(now, sink, PKeyTableSample{ref, PKeyView::device, std::move(table)});
}

void VerbsDeviceSet::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    auto it = std::find_if(open_.begin(), open_.end(),
                           [&](const auto& kv) { return kv.second.device->async_fd() == fd; });
    if (it == open_.end()) return;
    Entry& e = it->second;

    for (int n = 0; n < kMaxEventsPerWakeup; ++n) {
        auto read = e.device->read_event();
        if (!read) {
            emit(now, sink,
                 SampleError{e.id.name, "ibv_get_async_event: " + read.error().message,
                             read.error().code});
            e.lost = true;
            lost_reason_ = e.id.name + " (" + read.error().message + ")";
            break;
        }
        if (!read.value()) break;
        const RawAsyncEvent raw = *read.value();
        e.device->ack();

        AsyncEvent ev = map_async_event(e.id.name, raw);
        const AsyncEventType type = ev.type;
        const std::optional<uint32_t> port = ev.port;
        emit(now, sink, std::move(ev));

        if (event_loses_device(type)) {
            e.lost = true;
            lost_reason_ = e.id.name + " (DEVICE_FATAL)";
            break;
        }
        if (port && event_rereads_port(type) && *port >= 1 && *port <= e.ports) {
            read_port(e, *port, event_rereads_pkeys(type), now, sink);
        }
    }
    close_lost();
    publish(now, sink);
}

void VerbsDeviceSet::close_lost() {
    for (auto it = open_.begin(); it != open_.end();) {
        it = it->second.lost ? open_.erase(it) : std::next(it);
    }
    if (open_.empty() && !lost_reason_.empty()) {
        down_reason_ = "device context lost: " + lost_reason_ + "; reopening at the next scan";
    }
    lost_reason_.clear();
}

void VerbsDeviceSet::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    auto it = open_.find(port.device);
    if (it == open_.end()) return;
    Entry& e = it->second;
    if (port.port == 0) {
        for (uint32_t p = 1; p <= e.ports; ++p) read_port(e, p, true, now, sink);
    } else if (port.port <= e.ports) {
        read_port(e, port.port, true, now, sink);
    }
}

void VerbsDeviceSet::publish(TimePoint now, sources::ObservationSink& sink) {
    DeviceList list{open_devices()};
    if (!last_list_ || *last_list_ != list) {
        emit(now, sink, list);
        last_list_ = std::move(list);
    }
    SourceStatus status;
    status.up = !open_.empty();
    const std::vector<PortRef> watched = watched_ports();
    status.reason =
        status.up ? "watching async events on " + describe_ports(watched) : down_reason_;
    declare_coverage(status, watched);
    if (!last_status_ || *last_status_ != status) {
        emit(now, sink, status);
        last_status_ = std::move(status);
    }
}

std::vector<int> VerbsDeviceSet::fds() const {
    std::vector<int> out;
    for (const auto& [name, e] : open_) out.push_back(e.device->async_fd());
    return out;
}

std::vector<std::string> VerbsDeviceSet::open_devices() const {
    std::vector<std::string> out;
    for (const auto& [name, e] : open_) out.push_back(name);
    return out;
}

std::vector<PortRef> VerbsDeviceSet::watched_ports() const {
    std::vector<PortRef> out;
    for (const auto& [name, e] : open_) {
        for (uint32_t p = 1; p <= e.ports; ++p) out.push_back(PortRef{name, p});
    }
    return out;
}

std::string describe_ports(const std::vector<PortRef>& ports) {
    std::vector<PortRef> sorted = ports;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    size_t i = 0;
    while (i < sorted.size()) {
        const std::string& dev = sorted[i].device;
        std::string ranges;
        while (i < sorted.size() && sorted[i].device == dev) {
            const uint32_t first = sorted[i].port;
            uint32_t last = first;
            while (i + 1 < sorted.size() && sorted[i + 1].device == dev &&
                   sorted[i + 1].port == last + 1) {
                ++i;
                last = sorted[i].port;
            }
            ++i;
            if (!ranges.empty()) ranges += ",";
            ranges += std::to_string(first);
            if (last != first) ranges += "-" + std::to_string(last);
        }
        if (!out.empty()) out += ", ";
        out += dev + ":" + ranges;
    }
    return out;
}

}  // namespace rdmadiag::verbs
