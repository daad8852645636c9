#include "collector/sources/consumers/consumers_source.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <iterator>

#include "collector/common/text_file.hpp"
#include "collector/sources/consumers/consumers_options.hpp"
#include "collector/sources/consumers/ipoib_consumers.hpp"
#include "collector/sources/consumers/resource_consumers.hpp"
#include "collector/sources/consumers/srp_hosts.hpp"
#include "collector/sources/netlink/res_dump_parser.hpp"
#include "collector/sources/process_names.hpp"

namespace rdmadiag::consumers {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> file_text(const fs::path& path) {
    auto text = common::read_text_file(path.string(), 4096);
    if (!text) return std::nullopt;
    return std::move(text).value();
}

// The GUID each port without a netdev (InfiniBand, OPA) sends IPoIB from: its GID 0's interface
// ID, as sysfs gives it.
void add_port_guids(const std::string& sysfs, const std::string& device,
                    const std::vector<netlink::NlPort>& ports, std::map<uint64_t, PortRef>& out) {
    for (const auto& p : ports) {
        if (p.ndev_index) continue;
        const auto text = file_text(fs::path(sysfs) / "class/infiniband" / device / "ports" /
                                    std::to_string(p.port) / "gids/0");
        if (!text) continue;
        std::string_view v = *text;
        while (!v.empty() && v.back() == '\n') v.remove_suffix(1);
        auto gid = parse_gid(v);
        if (gid && !gid->is_zero()) out[gid->interface_id()] = PortRef{device, p.port};
    }
}

std::vector<Consumer> srp_consumers(const std::string& sysfs, std::vector<std::string>& unplaced) {
    std::vector<Consumer> out;
    std::error_code ec;
    const fs::path root = fs::path(sysfs) / "class/scsi_host";
    for (const auto& entry : fs::directory_iterator(root, ec)) {
        SrpHostFiles files;
        files.host = entry.path().filename().string();
        files.local_ib_device = file_text(entry.path() / "local_ib_device");
        if (!is_srp_host(files)) continue;
        files.local_ib_port = file_text(entry.path() / "local_ib_port");
        files.pkey = file_text(entry.path() / "pkey");
        files.sgid = file_text(entry.path() / "sgid");
        files.dgid = file_text(entry.path() / "dgid");
        auto c = srp_consumer(files);
        if (c) {
            out.push_back(std::move(c).value());
        } else {
            unplaced.push_back(c.error().message);
        }
    }
    return out;
}

// IP address (IPv4 as ::ffff:a.b.c.d) -> the IPoIB interface it belongs to.
std::map<std::array<uint8_t, 16>, IpoibAddress> ipoib_addresses(
    const netdev::RtnlTables& tables, const std::vector<Consumer>& ipoib) {
    std::map<int32_t, const Consumer*> by_index;
    for (const auto& l : tables.links) {
        auto c = std::find_if(ipoib.begin(), ipoib.end(),
                              [&](const Consumer& x) { return x.name == l.name; });
        if (c != ipoib.end()) by_index[l.index] = &*c;
    }
    std::map<std::array<uint8_t, 16>, IpoibAddress> out;
    for (const auto& a : tables.addresses) {
        auto link = by_index.find(a.index);
        if (link == by_index.end()) continue;
        // IPv4's own address is IFA_LOCAL (IFA_ADDRESS is the peer on a point-to-point link).
        const auto& raw = a.family == AF_INET && a.local ? a.local : a.address;
        if (!raw) continue;
        std::array<uint8_t, 16> key{};
        if (a.family == AF_INET) {
            key[10] = key[11] = 0xff;
            std::copy_n(raw->begin(), 4, key.begin() + 12);
        } else {
            key = *raw;
        }
        out[key] =
            IpoibAddress{link->second->name, link->second->pkey.value_or(0), link->second->gid};
    }
    return out;
}

std::string dump_note(const char* what, const Error& e) {
    return std::string(what) + " dump: " + e.message;
}

}  // namespace

ConsumersSource::ConsumersSource(const sources::SourceSettings& settings, netdev::NetdevIo io)
    : settings_(settings),
      interval_(
          settings.options.get<Duration>("consumers.interval").value_or(std::chrono::seconds(30))),
      top_owners_(
          settings.options.get<uint64_t>("consumers.top_owners").value_or(kDefaultTopOwners)) {
    auto rdma = io.rdma ? io.rdma() : Result<netlink::NlTransport>(make_error("no RDMA netlink"));
    if (!rdma) {
        availability_ = {false, rdma.error().message};
        return;
    }
    rdma_ = std::move(rdma).value();
    auto devices = read_devices();
    if (!devices) {
        availability_ = {false, devices.error().message};
        return;
    }
    if (devices->empty()) {
        availability_ = {false, "no RDMA devices (RDMA netlink lists none)"};
        return;
    }
    availability_ = {true, ""};
    // Without rtnetlink the IPoIB interfaces are not seen; QPs, CM IDs and SRP hosts still are.
    auto route = io.route ? io.route() : Result<netlink::NlTransport>(make_error("no rtnetlink"));
    if (route) {
        route_ = std::move(route).value();
    } else {
        events_error_ = "IPoIB interfaces are not listed: " + route.error().message;
    }
    if (route_ && io.events) {
        auto events = io.events();
        if (events) {
            events_ = std::move(events).value();
        } else {
            events_error_ =
                "link changes are seen at the next poll only: " + events.error().message;
        }
    }
}

Result<std::vector<netlink::NlDevice>> ConsumersSource::read_devices() {
    auto bytes = RDMADIAG_TRY((*rdma_)(netlink::nl_device_dump_request(seq_++)));
    auto devices = netlink::parse_nl_device_dump(bytes);
    if (!devices) return make_error("RDMA device dump: " + devices.error().message);
    std::vector<netlink::NlDevice> out;
    for (auto& d : *devices)
        if (settings_.device_selected(d.name)) out.push_back(std::move(d));
    return out;
}

Result<std::vector<ConsumerInventory>> ConsumersSource::read(std::vector<std::string>& unplaced) {
    const auto devices = RDMADIAG_TRY(read_devices());
    std::vector<ConsumerInventory> out;
    std::map<uint64_t, PortRef> ports_by_guid;
    for (const auto& d : devices) {
        ConsumerInventory inv;
        inv.device = d.name;
        auto bytes = (*rdma_)(netlink::nl_port_dump_request(seq_++, d.index));
        auto ports = bytes ? netlink::parse_nl_port_dump(*bytes)
                           : Result<std::vector<netlink::NlPort>>(bytes.error());
        if (ports) {
            add_port_guids(settings_.sysfs_root, d.name, *ports, ports_by_guid);
        } else if (ports.error().code != ENODEV) {
            inv.complete = false;
            inv.notes.push_back(dump_note("port", ports.error()));
        }
        out.push_back(std::move(inv));
    }
    auto inventory_of = [&](const std::string& device) -> ConsumerInventory* {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const ConsumerInventory& i) { return i.device == device; });
        return it == out.end() ? nullptr : &*it;
    };

    std::map<std::array<uint8_t, 16>, IpoibAddress> on_ipoib;
    if (route_) {
        auto tables = netdev::read_rtnl_tables(*route_, seq_);
        if (tables) {
            auto listing = ipoib_consumers(tables->links, ports_by_guid);
            on_ipoib = ipoib_addresses(*tables, listing.consumers);
            for (auto& c : listing.consumers)
                if (auto* inv = inventory_of(c.device)) inv->consumers.push_back(std::move(c));
            unplaced.insert(unplaced.end(), listing.unplaced.begin(), listing.unplaced.end());
        } else {
            for (auto& inv : out) {
                inv.complete = false;
                inv.notes.push_back("IPoIB interfaces: " + tables.error().message);
            }
        }
    }
    for (auto& c : srp_consumers(settings_.sysfs_root, unplaced))
        if (auto* inv = inventory_of(c.device)) inv->consumers.push_back(std::move(c));

    sources::ProcessNames names(settings_.procfs_root);
    const CommOf comm = [&](uint32_t pid) { return names.comm(pid); };
    const IpoibAddressOf ipoib_address =
        [&](const std::array<uint8_t, 16>& a) -> std::optional<IpoibAddress> {
        auto it = on_ipoib.find(a);
        if (it == on_ipoib.end()) return std::nullopt;
        return it->second;
    };
    for (const auto& d : devices) {
        auto* inv = inventory_of(d.name);
        auto qp_bytes = (*rdma_)(netlink::nl_qp_dump_request(seq_++, d.index));
        auto qps = qp_bytes ? netlink::parse_nl_qp_dump(*qp_bytes)
                            : Result<netlink::NlResDump<netlink::NlQp>>(qp_bytes.error());
        if (qps) {
            inv->complete = inv->complete && qps->complete;
            auto listed = qp_consumers(d.name, qps->entries, comm, top_owners_);
            inv->consumers.insert(inv->consumers.end(), std::make_move_iterator(listed.begin()),
                                  std::make_move_iterator(listed.end()));
        } else {
            inv->complete = false;
            inv->notes.push_back(dump_note("QP", qps.error()));
        }
        auto id_bytes = (*rdma_)(netlink::nl_cm_id_dump_request(seq_++, d.index));
        auto ids = id_bytes ? netlink::parse_nl_cm_id_dump(*id_bytes)
                            : Result<netlink::NlResDump<netlink::NlCmId>>(id_bytes.error());
        if (ids) {
            inv->complete = inv->complete && ids->complete;
            auto listed = cm_id_consumers(d.name, d.protocol, ids->entries, comm, ipoib_address);
            inv->consumers.insert(inv->consumers.end(), std::make_move_iterator(listed.begin()),
                                  std::make_move_iterator(listed.end()));
        } else {
            inv->complete = false;
            inv->notes.push_back(dump_note("CM ID", ids.error()));
        }
    }
    return out;
}

void ConsumersSource::status(TimePoint now, sources::ObservationSink& sink, bool up,
                             const std::string& reason) {
    if (!last_up_ || *last_up_ != up || !up)
        sink.emit(Observation{now, "consumers", SourceStatus{up, reason, {}}});
    last_up_ = up;
}

void ConsumersSource::pass(TimePoint now, sources::ObservationSink& sink) {
    if (!rdma_) return;
    if (events_error_) {
        sink.emit(Observation{now, "consumers", SampleError{"rtnetlink", *events_error_, 0}});
        events_error_.reset();
    }
    std::vector<std::string> unplaced;
    auto inventories = read(unplaced);
    if (!inventories) return status(now, sink, false, inventories.error().message);
    // Said once each, while they last.
    for (const auto& u : unplaced) {
        if (std::find(last_unplaced_.begin(), last_unplaced_.end(), u) == last_unplaced_.end())
            sink.emit(Observation{now, "consumers", SampleError{"consumers", u, 0}});
    }
    last_unplaced_ = std::move(unplaced);
    std::map<std::string, Emitted> kept;
    for (auto& inv : *inventories) {
        auto last = emitted_.find(inv.device);
        const bool due = last == emitted_.end() || last->second.inventory != inv ||
                         now - last->second.at >= kConsumersConfirm;
        if (!due) {
            kept.emplace(inv.device, std::move(last->second));
            continue;
        }
        kept.emplace(inv.device, Emitted{inv, now});
        sink.emit(Observation{now, "consumers", std::move(inv)});
    }
    emitted_ = std::move(kept);
    status(now, sink, true, "");
}

void ConsumersSource::poll(TimePoint now, sources::ObservationSink& sink) {
    pass(now, sink);
}

std::vector<int> ConsumersSource::event_fds() const {
    if (!events_) return {};
    return {events_.get()};
}

void ConsumersSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    if (!events_ || fd != events_.get()) return;
    if (auto drained = netdev::drain_events(fd); !drained) {
        sink.emit(Observation{
            now, "consumers",
            SampleError{"rtnetlink events", drained.error().message, drained.error().code}});
        events_.reset();
    }
    pass(now, sink);
}

sources::SourceEntry consumers_source_entry() {
    sources::SourceEntry e;
    e.name = "consumers";
    e.description =
        "who uses each port's P_Keys and GIDs: IPoIB interfaces (rtnetlink), SRP hosts (sysfs), "
        "QPs and RDMA CM IDs (RDMA netlink)";
    e.enabled_by_default = true;
    e.options = consumers_options();
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(
            std::make_unique<ConsumersSource>(s, netdev::kernel_io()));
    };
    return e;
}

}  // namespace rdmadiag::consumers
