#include "collector/sources/netlink/netlink_source.hpp"

#include <memory>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "collector/sources/process_names.hpp"

namespace rdmadiag::netlink {

namespace {

// A user MR's owner is named by its process; an MR whose process is not seen from here (gone, or
// in another pid namespace) outlived its owner as far as this host can tell.
void name_owners(MrInventory& inv, sources::ProcessNames& names) {
    if (!names.available()) return;
    for (auto& e : inv.mrs) {
        if (!e.pid) continue;
        if (auto comm = names.comm(*e.pid)) {
            e.comm = *comm;
        } else {
            e.owner_gone = true;
        }
    }
}

}  // namespace

NetlinkSource::NetlinkSource(const sources::SourceSettings& settings, NlTransport transport)
    : settings_(settings), injected_(std::move(transport)), interval_(settings.pkey_interval) {
    availability_ = {true, ""};
}

void NetlinkSource::poll(TimePoint now, sources::ObservationSink& sink) {
    auto status = [&](bool up, std::string reason) {
        availability_ = {up, reason};
        if (!last_up_ || *last_up_ != up || !up) {
            sink.emit(Observation{now, "netlink", SourceStatus{up, std::move(reason), {}}});
        }
        last_up_ = up;
    };
    NlTransport t = injected_;
    if (!t) {
        auto opened = open_rdma_netlink();
        if (!opened) return status(false, opened.error().message);
        t = std::move(opened).value();
    }
    auto dev_bytes = t(nl_device_dump_request(seq_++));
    if (!dev_bytes) return status(false, "device dump failed: " + dev_bytes.error().message);
    auto devices = parse_nl_device_dump(*dev_bytes);
    if (!devices) return status(false, "device dump unreadable: " + devices.error().message);
    std::vector<NlDevice> selected;
    for (const auto& d : *devices) {
        if (settings_.device_selected(d.name)) selected.push_back(d);
    }
    if (selected.empty()) return status(false, "no RDMA devices (RDMA netlink lists none)");

    MrInventory host;
    host.device = "";
    host.complete = true;
    sources::ProcessNames names(settings_.procfs_root);
    DeviceList list;
    for (const auto& d : selected) {
        list.devices.push_back(d.name);
        auto bytes = t(nl_mr_dump_request(seq_++, d.index));
        Result<MrInventory> inv =
            bytes ? parse_nl_mr_dump(*bytes, d.name) : Result<MrInventory>(bytes.error());
        if (!inv) {
            host.complete = false;
            sink.emit(Observation{
                now, "netlink",
                SampleError{d.name + " MR listing", inv.error().message, inv.error().code}});
            continue;
        }
        name_owners(*inv, names);
        host.complete = host.complete && inv->complete;
        host.mrs.insert(host.mrs.end(), inv->mrs.begin(), inv->mrs.end());
        sink.emit(Observation{now, "netlink", std::move(inv).value()});
    }
    // Only listings of every selected device make a host-wide one; otherwise it proves nothing.
    if (!settings_.include_devices.empty() || !settings_.exclude_devices.empty())
        host.complete = false;
    sink.emit(Observation{now, "netlink", std::move(host)});
    status(true, "");
}

sources::SourceEntry netlink_source_entry() {
    sources::SourceEntry e;
    e.name = "netlink";
    e.description = "live MRs per device from RDMA netlink (RDMA_NLDEV_CMD_RES_MR_GET)";
    // Created by name by `rdmadiag mrs` and the daemon, like tracefs.
    e.enabled_by_default = false;
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(std::make_unique<NetlinkSource>(s));
    };
    return e;
}

}  // namespace rdmadiag::netlink
