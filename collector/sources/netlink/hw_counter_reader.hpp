#pragma once
// Reads a port's hw_counters/ through RDMA netlink: one RDMA_NLDEV_CMD_STAT_GET per port (what
// `rdma statistic show link DEV/PORT` asks) instead of one open/read/close per file, each of
// which may make the driver query its statistics again. Devices are found by name in a device
// dump, kept until the slow cadence or until a name is missing. The socket is opened once, on
// first use; a kernel without RDMA netlink, a device it does not know and a port it has no
// statistics for are errors the sysfs source answers by reading the files, until retry().

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "collector/sources/netlink/netlink_source.hpp"
#include "collector/sources/port_counter_reader.hpp"

namespace rdmadiag::netlink {

class NetlinkHwCounterReader final : public sources::PortCounterReader {
public:
    using Opener = std::function<Result<NlTransport>()>;
    // `open` defaults to open_rdma_netlink(); tests hand a transport of captured or built replies.
    explicit NetlinkHwCounterReader(Opener open = {});

    std::string_view method() const override { return "netlink"; }
    // Every counter of the port, whatever is due: one message carries them all.
    Result<std::vector<sources::CounterValue>> read(const PortRef& port,
                                                    const sources::PortFacts& facts,
                                                    sources::CounterTiers due) override;
    void retry() override;

private:
    Result<NlTransport*> transport();
    Result<uint32_t> device_index(const std::string& device);

    Opener open_;
    std::optional<Result<NlTransport>> transport_;  // opened once; a failure kept until retry()
    std::map<std::string, uint32_t> indexes_;
    bool dumped_ = false;              // the device dump since the last retry()
    std::map<PortRef, Error> failed_;  // ports the kernel gave no statistics for
    uint32_t seq_ = 1;
};

}  // namespace rdmadiag::netlink
