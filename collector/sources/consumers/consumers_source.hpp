#pragma once
// The consumers of every port of this host (collector/model/consumer.hpp), one
// ConsumerInventory per RDMA device:
// - IPoIB interfaces from rtnetlink's links (ipoib_consumers.hpp), placed on their port by the
//   GUID of the GID they send from (sysfs ports/N/gids/0 of the ports without a netdev);
// - SRP initiator hosts from sysfs class/scsi_host (srp_hosts.hpp);
// - QPs and RDMA CM IDs from RDMA netlink's resource dumps (resource_consumers.hpp), owners named
//   from procfs.
// Read every consumers.interval (default 30s) and at once when the rtnetlink event socket (links
// and addresses) says something changed. A device's inventory is emitted when it changed, and
// otherwise every five minutes. A dump the kernel refuses (EPERM in a container, EOPNOTSUPP on
// an old kernel) makes the inventory incomplete with a note saying which and why.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/unique_fd.hpp"
#include "collector/model/consumer.hpp"
#include "collector/sources/netdev/netdev_source.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::consumers {

inline constexpr Duration kConsumersConfirm = std::chrono::minutes(5);

class ConsumersSource final : public sources::Source {
public:
    // `io` as the netdev source takes it: RDMA netlink, rtnetlink, the rtnetlink event socket.
    ConsumersSource(const sources::SourceSettings& settings, netdev::NetdevIo io);

    std::string_view name() const override { return "consumers"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;

private:
    struct Emitted {
        ConsumerInventory inventory;
        TimePoint at;
    };

    Result<std::vector<netlink::NlDevice>> read_devices();
    // Every device's inventory, and what could not be placed on any device.
    Result<std::vector<ConsumerInventory>> read(std::vector<std::string>& unplaced);
    void pass(TimePoint now, sources::ObservationSink& sink);
    void status(TimePoint now, sources::ObservationSink& sink, bool up, const std::string& reason);

    sources::SourceSettings settings_;
    Duration interval_;
    size_t top_owners_;
    sources::Availability availability_;
    std::optional<netlink::NlTransport> rdma_;
    std::optional<netlink::NlTransport> route_;
    common::UniqueFd events_;
    std::optional<std::string> events_error_;
    uint32_t seq_ = 1;
    std::optional<bool> last_up_;
    std::map<std::string, Emitted> emitted_;
    std::vector<std::string> last_unplaced_;
};

sources::SourceEntry consumers_source_entry();

}  // namespace rdmadiag::consumers
