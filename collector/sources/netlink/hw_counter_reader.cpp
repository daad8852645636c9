#include "collector/sources/netlink/hw_counter_reader.hpp"

#include <cerrno>

#include "collector/sources/netlink/rdma_nl_parser.hpp"

namespace rdmadiag::netlink {

NetlinkHwCounterReader::NetlinkHwCounterReader(Opener open)
    : open_(open ? std::move(open) : Opener(open_rdma_netlink)) {}

void NetlinkHwCounterReader::retry() {
    if (transport_ && !*transport_) transport_.reset();
    dumped_ = false;
    failed_.clear();
}

Result<NlTransport*> NetlinkHwCounterReader::transport() {
    if (!transport_) transport_ = open_();
    if (!*transport_) return transport_->error();
    return &transport_->value();
}

Result<uint32_t> NetlinkHwCounterReader::device_index(const std::string& device) {
    if (auto it = indexes_.find(device); it != indexes_.end()) return it->second;
    // A device this reader has not met: one dump per slow cadence finds every new one.
    if (dumped_) return make_error("RDMA netlink does not list " + device, ENODEV);
    dumped_ = true;
    NlTransport* t = RDMADIAG_TRY(transport());
    auto bytes = (*t)(nl_device_dump_request(seq_++));
    if (!bytes)
        return make_error("RDMA netlink device dump: " + bytes.error().message, bytes.error().code);
    auto devices = parse_nl_device_dump(*bytes);
    if (!devices) {
        return make_error("RDMA netlink device dump: " + devices.error().message,
                          devices.error().code);
    }
    indexes_.clear();
    for (const auto& d : *devices) indexes_[d.name] = d.index;
    if (auto it = indexes_.find(device); it != indexes_.end()) return it->second;
    return make_error("RDMA netlink does not list " + device, ENODEV);
}

Result<std::vector<sources::CounterValue>> NetlinkHwCounterReader::read(
    const PortRef& port, const sources::PortFacts& facts, sources::CounterTiers due) {
    (void)facts;
    (void)due;
    if (auto it = failed_.find(port); it != failed_.end()) return it->second;
    auto fail = [&](Error e) -> Result<std::vector<sources::CounterValue>> {
        failed_[port] = e;
        return e;
    };
    NlTransport* t = RDMADIAG_TRY(transport());
    auto index = device_index(port.device);
    if (!index) return fail(index.error());
    auto bytes = (*t)(nl_port_stats_request(seq_++, *index, port.port));
    Result<NlPortStats> stats =
        bytes ? parse_nl_port_stats(*bytes) : Result<NlPortStats>(bytes.error());
    // A device that went and came back has a new index: ask for the dump again next time.
    if (!stats || stats->device_index != *index || stats->port != port.port ||
        (!stats->device.empty() && stats->device != port.device)) {
        indexes_.erase(port.device);
        if (!stats) {
            return fail(make_error("RDMA netlink statistics: " + stats.error().message,
                                   stats.error().code));
        }
        return fail(make_error("RDMA netlink answered for " + stats->device + ":" +
                                   std::to_string(stats->port) + ", not " + port.to_string(),
                               EPROTO));
    }
    std::vector<sources::CounterValue> out;
    out.reserve(stats->counters.size());
    for (auto& c : stats->counters) out.push_back({std::move(c.name), c.value});
    return out;
}

}  // namespace rdmadiag::netlink
