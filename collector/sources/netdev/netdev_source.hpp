#pragma once
// The netdev view of every RoCE port: the GIDs the kernel would hold for the addresses of the
// port's netdev and of its upper devices (kernel_gids.hpp), as GidTableSample{view=netdev}, for
// the engine to hold the kernel's GID cache (the sysfs source's cache view) against.
//
// Which netdev belongs to which port comes from RDMA netlink (the device dump, then each
// device's RDMA_NLDEV_CMD_PORT_GET dump); the links and addresses from rtnetlink dumps. Both are
// read on the tables' cadence (--interval.pkeys) and at once when the event socket, subscribed
// to RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR and RTNLGRP_IPV6_IFADDR, says something changed: every
// message that is waiting is read, then one pass. A port's view is emitted when it changed, when
// the engine asks for the port (refresh()), and otherwise every `confirm` (netdev.confirm, default
// 2m), well within the engine's ten minutes after which a view no longer counts.
//
// Without RDMA netlink, without RDMA devices, or without a port whose netdev is Ethernet, the
// source says so through availability() and is not run.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/common/unique_fd.hpp"
#include "collector/sources/netdev/rtnl_parser.hpp"
#include "collector/sources/netlink/nl_transport.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::netdev {

// Where the source reads from, each opened once when the source is made. Tests hand transports
// that answer with built bytes and one end of a socketpair as the event socket.
struct NetdevIo {
    std::function<Result<netlink::NlTransport>()> rdma;   // RDMA netlink
    std::function<Result<netlink::NlTransport>()> route;  // rtnetlink requests
    std::function<Result<common::UniqueFd>()> events;     // rtnetlink change notifications
};

// The kernel's sockets.
NetdevIo kernel_io();
// A non-blocking NETLINK_ROUTE socket bound to the link and IPv4/IPv6 address groups.
Result<common::UniqueFd> open_rtnl_events();
struct RtnlTables {
    std::vector<Link> links;
    std::vector<Address> addresses;
};
// The links and addresses of the network namespace, one dump each, taken again once when a
// change came between them.
Result<RtnlTables> read_rtnl_tables(netlink::NlTransport& route, uint32_t& seq);
// Reads every change notification waiting on such a socket. An error: the socket was closed or
// failed and cannot be read again (its owner polls only from then on).
Result<void> drain_events(int fd);

inline constexpr Duration kDefaultConfirm = std::chrono::minutes(2);

class NetdevSource final : public sources::Source {
public:
    NetdevSource(const sources::SourceSettings& settings, NetdevIo io,
                 Duration confirm = kDefaultConfirm);

    std::string_view name() const override { return "netdev"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override;

private:
    // A RoCE port and its netdev's ifindex.
    struct RocePort {
        PortRef port;
        int32_t netdev = 0;
    };
    struct Reading {
        std::vector<RocePort> ports;
        std::vector<Link> links;
        std::vector<Address> addresses;
    };
    struct Emitted {
        GidTable table;
        TimePoint at;
    };

    Result<std::vector<netlink::NlPort>> read_ports();
    Result<Reading> read();
    // One pass: reads, then emits the views that changed or are due, and `force`d one.
    void pass(TimePoint now, sources::ObservationSink& sink, const PortRef* force);
    void status(TimePoint now, sources::ObservationSink& sink, bool up, const std::string& reason);

    sources::SourceSettings settings_;
    Duration interval_;
    Duration confirm_;
    sources::Availability availability_;
    std::optional<netlink::NlTransport> rdma_;
    std::optional<netlink::NlTransport> route_;
    common::UniqueFd events_;
    std::optional<std::string> events_error_;  // said once, at the first pass
    uint32_t seq_ = 1;
    std::optional<bool> last_up_;
    std::map<PortRef, Emitted> emitted_;
    std::set<PortRef> roce_ports_;  // as the last reading found them
};

// The option netdev.confirm (netdev_options.cpp).
Duration confirm_interval(const sources::SourceSettings& settings);

sources::SourceEntry netdev_source_entry();

}  // namespace rdmadiag::netdev
