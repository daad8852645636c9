#include "collector/sources/netlink/netlink_source.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "collector/sources/netlink/rdma_nl_parser.hpp"

namespace rdmadiag::netlink {

namespace {

// RDMA netlink gives a user MR's pid, not its comm (rdma(8) reads /proc/<pid>/comm too). A pid
// with no process under the procfs root has exited since the kernel listed it, or lives in a
// pid namespace this one cannot see: either way its owner is gone from here.
void name_owners(MrInventory& inv, const std::string& procfs,
                 std::map<uint32_t, std::optional<std::string>>& comms) {
    std::error_code ec;
    if (!std::filesystem::is_directory(procfs, ec)) return;
    for (auto& e : inv.mrs) {
        if (!e.pid) continue;
        auto [it, fresh] = comms.try_emplace(*e.pid);
        if (fresh) {
            std::ifstream in(procfs + "/" + std::to_string(*e.pid) + "/comm");
            std::string comm;
            if (in && std::getline(in, comm)) it->second = comm;
        }
        if (it->second) {
            e.comm = *it->second;
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
    std::map<uint32_t, std::optional<std::string>> comms;
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
        name_owners(*inv, settings_.procfs_root, comms);
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
