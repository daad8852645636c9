#pragma once
// Lists live MRs through RDMA netlink: the device dump, then one RES_MR_GET dump per device,
// each emitted as an MrInventory (plus a host-wide one, device "", for MRs that trace events
// name without a device). A flagged MR missing from a complete listing has been deregistered.
// Processes are named from <procfs>/<pid>/comm; an MR whose process is gone is marked so.
// Keys appear only where the kernel shows them (CAP_NET_ADMIN). Without RDMA netlink or without
// devices it says so and stays down.

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "collector/sources/netlink/nl_transport.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::netlink {

class NetlinkSource final : public sources::Source {
public:
    explicit NetlinkSource(const sources::SourceSettings& settings, NlTransport transport = {});

    std::string_view name() const override { return "netlink"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;

private:
    sources::SourceSettings settings_;
    NlTransport injected_;
    sources::Availability availability_;
    Duration interval_;
    uint32_t seq_ = 1;
    std::optional<bool> last_up_;
};

sources::SourceEntry netlink_source_entry();

}  // namespace rdmadiag::netlink
