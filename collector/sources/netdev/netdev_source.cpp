#include "collector/sources/netdev/netdev_source.hpp"

#include <linux/if_arp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "collector/sources/netdev/kernel_gids.hpp"
#include "collector/sources/netdev/netdev_options.hpp"

namespace rdmadiag::netdev {

namespace {

// The kernel's RoCE GID management runs for these; "ib", "iw" and "opa" ports have none.
bool may_be_roce(const netlink::NlDevice& d) {
    return d.protocol.empty() || d.protocol == "roce";
}

std::string join(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

}  // namespace

Result<common::UniqueFd> open_rtnl_events() {
    common::UniqueFd fd(
        ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE));
    if (!fd) return make_error(std::string("rtnetlink: ") + std::strerror(errno), errno);
    sockaddr_nl local{};
    local.nl_family = AF_NETLINK;
    local.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR;
    if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&local), sizeof local) < 0) {
        return make_error(std::string("rtnetlink groups: ") + std::strerror(errno), errno);
    }
    return fd;
}

Result<RtnlTables> read_rtnl_tables(netlink::NlTransport& route, uint32_t& seq) {
    // Links and addresses are two dumps; a change between them, or one the kernel flags in
    // either, is read again once.
    for (int attempt = 0;; ++attempt) {
        auto link_bytes = RDMADIAG_TRY(route(link_dump_request(seq++)));
        auto links = parse_link_dump(link_bytes);
        auto addr_bytes = RDMADIAG_TRY(route(address_dump_request(seq++)));
        auto addresses = parse_address_dump(addr_bytes);
        if (links && addresses)
            return RtnlTables{std::move(links).value(), std::move(addresses).value()};
        const Error& e = links ? addresses.error() : links.error();
        if (e.code != EAGAIN || attempt > 0)
            return make_error(std::string(links ? "address" : "link") + " dump: " + e.message,
                              e.code);
    }
}

Result<void> drain_events(int fd) {
    // What the messages say is not needed: the dumps tell the whole state. Everything waiting is
    // read, so a burst of changes (an address and its routes, a tentative address and then the
    // same address after DAD) costs one pass.
    std::array<uint8_t, 8192> buf{};
    for (;;) {
        ssize_t n = ::recv(fd, buf.data(), buf.size(), MSG_DONTWAIT);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        // ENOBUFS: messages were lost to a full buffer; the dumps that follow read what they said.
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)) return {};
        if (n == 0) return make_error("the event socket was closed; polling only");
        const int err = errno;
        return make_error(std::string("event socket: ") + std::strerror(err) + "; polling only",
                          err);
    }
}

NetdevIo kernel_io() {
    NetdevIo io;
    io.rdma = netlink::open_rdma_netlink;
    io.route = [] { return netlink::open_netlink(NETLINK_ROUTE, "rtnetlink"); };
    io.events = open_rtnl_events;
    return io;
}

Duration confirm_interval(const sources::SourceSettings& settings) {
    return settings.options.get<Duration>("netdev.confirm").value_or(kDefaultConfirm);
}

NetdevSource::NetdevSource(const sources::SourceSettings& settings, NetdevIo io, Duration confirm)
    : settings_(settings), interval_(settings.pkey_interval), confirm_(confirm) {
    auto rdma = io.rdma ? io.rdma() : Result<netlink::NlTransport>(make_error("no RDMA netlink"));
    if (!rdma) {
        availability_ = {false, rdma.error().message};
        return;
    }
    rdma_ = std::move(rdma).value();
    auto route = io.route ? io.route() : Result<netlink::NlTransport>(make_error("no rtnetlink"));
    if (!route) {
        availability_ = {false, route.error().message};
        return;
    }
    route_ = std::move(route).value();
    auto reading = read();
    if (!reading) {
        availability_ = {false, reading.error().message};
        return;
    }
    if (reading->ports.empty()) {
        auto ports = read_ports();
        std::vector<std::string> devices;
        if (ports) {
            for (const auto& p : *ports) {
                if (std::find(devices.begin(), devices.end(), p.device) == devices.end())
                    devices.push_back(p.device);
            }
        }
        availability_ = {
            false, devices.empty()
                       ? "no RDMA devices with RoCE ports (RDMA netlink lists none)"
                       : "no RoCE ports: no port of " + join(devices) + " has an Ethernet netdev"};
        return;
    }
    availability_ = {true, ""};
    if (io.events) {
        auto events = io.events();
        if (events) {
            events_ = std::move(events).value();
        } else {
            events_error_ =
                "address changes are seen at the next poll only: " + events.error().message;
        }
    }
}

Result<std::vector<netlink::NlPort>> NetdevSource::read_ports() {
    auto dev_bytes = RDMADIAG_TRY((*rdma_)(netlink::nl_device_dump_request(seq_++)));
    auto devices = netlink::parse_nl_device_dump(dev_bytes);
    if (!devices) return make_error("RDMA device dump: " + devices.error().message);
    std::vector<netlink::NlPort> out;
    for (const auto& d : *devices) {
        if (!settings_.device_selected(d.name) || !may_be_roce(d)) continue;
        auto bytes = (*rdma_)(netlink::nl_port_dump_request(seq_++, d.index));
        if (!bytes) return make_error("RDMA port dump of " + d.name + ": " + bytes.error().message);
        auto ports = netlink::parse_nl_port_dump(*bytes);
        // A device removed between the two dumps is not there to be asked.
        if (!ports && ports.error().code == ENODEV) continue;
        if (!ports) return make_error("RDMA port dump of " + d.name + ": " + ports.error().message);
        out.insert(out.end(), ports->begin(), ports->end());
    }
    return out;
}

Result<NetdevSource::Reading> NetdevSource::read() {
    Reading r;
    auto ports = RDMADIAG_TRY(read_ports());
    auto tables = RDMADIAG_TRY(read_rtnl_tables(*route_, seq_));
    r.links = std::move(tables.links);
    r.addresses = std::move(tables.addresses);
    roce_ports_.clear();
    for (const auto& p : ports) {
        if (!p.ndev_index) continue;
        auto it = std::find_if(r.links.begin(), r.links.end(), [&](const Link& l) {
            return l.index == static_cast<int32_t>(*p.ndev_index);
        });
        if (it == r.links.end() || it->type != ARPHRD_ETHER) continue;
        r.ports.push_back(RocePort{PortRef{p.device, p.port}, it->index});
        roce_ports_.insert(r.ports.back().port);
    }
    return r;
}

void NetdevSource::status(TimePoint now, sources::ObservationSink& sink, bool up,
                          const std::string& reason) {
    if (!last_up_ || *last_up_ != up || !up)
        sink.emit(Observation{now, "netdev", SourceStatus{up, reason, {}}});
    last_up_ = up;
}

void NetdevSource::pass(TimePoint now, sources::ObservationSink& sink, const PortRef* force) {
    if (!rdma_ || !route_) return;
    if (events_error_) {
        sink.emit(Observation{now, "netdev", SampleError{"rtnetlink events", *events_error_, 0}});
        events_error_.reset();
    }
    auto reading = read();
    if (!reading) return status(now, sink, false, reading.error().message);
    std::map<PortRef, Emitted> kept;
    for (const auto& rp : reading->ports) {
        GidTable table = kernel_roce_gids(rp.netdev, reading->links, reading->addresses);
        auto last = emitted_.find(rp.port);
        const bool due = last == emitted_.end() || last->second.table != table ||
                         now - last->second.at >= confirm_ || (force && *force == rp.port);
        if (!due) {
            kept.emplace(rp.port, std::move(last->second));
            continue;
        }
        kept.emplace(rp.port, Emitted{table, now});
        sink.emit(
            Observation{now, "netdev", GidTableSample{rp.port, GidView::netdev, std::move(table)}});
    }
    // A port that is gone, or whose netdev is, is forgotten: if it comes back, it is new.
    emitted_ = std::move(kept);
    status(now, sink, true, "");
}

void NetdevSource::poll(TimePoint now, sources::ObservationSink& sink) {
    pass(now, sink, nullptr);
}

std::vector<int> NetdevSource::event_fds() const {
    if (!events_) return {};
    return {events_.get()};
}

void NetdevSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    if (!events_ || fd != events_.get()) return;
    if (auto drained = drain_events(fd); !drained) {
        sink.emit(Observation{
            now, "netdev",
            SampleError{"rtnetlink events", drained.error().message, drained.error().code}});
        // A socket that cannot be read again would be readable forever.
        events_.reset();
    }
    pass(now, sink, nullptr);
}

void NetdevSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    // The engine asks every source; other ports (InfiniBand ones) cost no dumps here.
    if (!availability_.available || !roce_ports_.contains(port)) return;
    pass(now, sink, &port);
}

sources::SourceEntry netdev_source_entry() {
    sources::SourceEntry e;
    e.name = "netdev";
    e.description =
        "RoCE: the GIDs the addresses of each port's netdevs imply (rtnetlink), against the "
        "kernel's GID cache";
    e.enabled_by_default = true;
    e.options = netdev_options();
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(
            std::make_unique<NetdevSource>(s, kernel_io(), confirm_interval(s)));
    };
    return e;
}

}  // namespace rdmadiag::netdev
