#include "collector/sources/mad/umad_transport.hpp"

#include <fcntl.h>
#include <infiniband/umad.h>
#include <poll.h>

#include <endian.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "collector/sources/mad/mad_header.hpp"

namespace rdmadiag::mad {

namespace {

constexpr const char* kNoDevice =
    "no umad device (/sys/class/infiniband_mad empty): load ib_umad or run with an RDMA device";

Result<void> init_once() {
    static std::once_flag once;
    static int rc = 0;
    std::call_once(once, [] { rc = umad_init(); });
    if (rc < 0) return make_error("umad_init failed: libibumad cannot be used", -rc);
    return {};
}

struct AgentSpec {
    int mgmt_class;
    int version;
    int rmpp;
};
constexpr AgentSpec kAgents[kAgentCount] = {
    {0x01, 1, 0},  // SMI, LID routed
    {0x81, 1, 0},  // SMI, directed route
    {0x04, 1, 0},  // PMA
    {0x03, 2, 1},  // SA: responses come in RMPP segments the kernel reassembles
};

// Registers the SA agent so that the kernel also delivers the SA's unsolicited Report MADs
// (method 0x06) on this port: umad's method mask lists the request methods an agent takes
// unasked (one bit per method); answers to its own requests come whatever the mask. When
// another agent on the port holds that method already the kernel refuses (EINVAL), and the
// agent is registered without it: everything but forwarded traps still works.
int register_sa_agent(int fd, const AgentSpec& spec, Result<void>& reports) {
    long mask[16 / sizeof(long)] = {};
    constexpr unsigned kBitsPerLong = 8 * sizeof(long);
    const unsigned method = static_cast<unsigned>(Method::report);
    mask[method / kBitsPerLong] |= 1L << (method % kBitsPerLong);
    int id =
        umad_register(fd, spec.mgmt_class, spec.version, static_cast<uint8_t>(spec.rmpp), mask);
    if (id >= 0) return id;
    reports =
        make_error(std::string("the kernel did not let this port take SA Reports (") +
                       std::strerror(-id) + "): another program on this port may be taking them",
                   -id);
    return umad_register(fd, spec.mgmt_class, spec.version, static_cast<uint8_t>(spec.rmpp),
                         nullptr);
}

// umad_port_t keeps its allocations until umad_release_port.
struct PortHolder {
    umad_port_t port{};
    bool held = false;
    ~PortHolder() {
        if (held) umad_release_port(&port);
    }
};

}  // namespace

Result<std::vector<std::string>> local_ca_names() {
    RDMADIAG_TRY(init_once());
    char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
    int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
    if (n < 0) return make_error(kNoDevice, -n);
    if (n == 0) return make_error(kNoDevice, ENODEV);
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.emplace_back(names[i]);
    return out;
}

Result<LocalCa> local_ca(const std::string& name) {
    RDMADIAG_TRY(init_once());
    umad_ca_t ca{};
    int rc = umad_get_ca(name.c_str(), &ca);
    if (rc < 0) return make_error("umad_get_ca(" + name + ") failed: " + std::strerror(-rc), -rc);
    LocalCa out;
    out.name = ca.ca_name;
    out.node_type = static_cast<uint8_t>(ca.node_type);
    out.node_guid = be64toh(ca.node_guid);
    out.sys_image_guid = be64toh(ca.system_guid);
    out.fw_ver = ca.fw_ver;
    out.ca_type = ca.ca_type;
    for (int i = 0; i < UMAD_CA_MAX_PORTS; ++i) {
        const umad_port_t* p = ca.ports[i];
        if (p == nullptr) continue;
        LocalPort lp;
        lp.port = static_cast<uint8_t>(p->portnum);
        lp.lid = static_cast<uint16_t>(p->base_lid);
        lp.sm_lid = static_cast<uint16_t>(p->sm_lid);
        lp.state = static_cast<uint8_t>(p->state);
        lp.phys_state = static_cast<uint8_t>(p->phys_state);
        lp.port_guid = be64toh(p->port_guid);
        lp.link_layer = p->link_layer;
        out.ports.push_back(lp);
    }
    umad_release_ca(&ca);
    return out;
}

Result<std::unique_ptr<UmadTransport>> UmadTransport::open(const std::string& ca, int port) {
    return open_agents(ca, port, std::nullopt);
}

Result<std::unique_ptr<UmadTransport>> UmadTransport::open_one(const std::string& ca, int port,
                                                               Agent agent) {
    return open_agents(ca, port, agent);
}

Result<std::unique_ptr<UmadTransport>> UmadTransport::open_agents(const std::string& ca, int port,
                                                                  std::optional<Agent> only) {
    RDMADIAG_TRY(init_once());
    RDMADIAG_TRY(local_ca_names());
    PortHolder holder;
    int rc = umad_get_port(ca.empty() ? nullptr : ca.c_str(), port, &holder.port);
    if (rc < 0) {
        return make_error("no usable umad port " + (ca.empty() ? std::string("(any CA)") : ca) +
                              ":" + std::to_string(port) + ": " + std::strerror(-rc),
                          -rc);
    }
    holder.held = true;
    std::unique_ptr<UmadTransport> t(new UmadTransport());
    t->ca_ = holder.port.ca_name;
    t->port_ = holder.port.portnum;
    t->fd_ = umad_open_port(t->ca_.c_str(), t->port_);
    if (t->fd_ < 0) {
        int err = -t->fd_;
        t->fd_ = -1;
        return make_error(
            "umad_open_port(" + t->ca_ + ", " + std::to_string(t->port_) +
                ") failed: " + std::strerror(err) +
                (err == EACCES ? " (needs read-write access to /dev/infiniband/umad*)" : ""),
            err);
    }
    for (size_t i = 0; i < kAgentCount; ++i) {
        if (only && static_cast<Agent>(i) != *only) continue;
        int id = static_cast<Agent>(i) == Agent::sa
                     ? register_sa_agent(t->fd_, kAgents[i], t->reports_)
                     : umad_register(t->fd_, kAgents[i].mgmt_class, kAgents[i].version,
                                     static_cast<uint8_t>(kAgents[i].rmpp), nullptr);
        if (id < 0) {
            return make_error("umad_register for class " + std::to_string(kAgents[i].mgmt_class) +
                                  " failed: " + std::strerror(-id),
                              -id);
        }
        t->agents_[i] = id;
    }
    t->send_buf_.resize(umad_size() + 256);
    t->recv_buf_.resize(umad_size() + 64 * 1024);
    return t;
}

UmadTransport::~UmadTransport() {
    if (fd_ < 0) return;
    for (int id : agents_) {
        if (id >= 0) umad_unregister(fd_, id);
    }
    umad_close_port(fd_);
}

Result<void> UmadTransport::send(Agent agent, Bytes mad, const MadAddress& addr,
                                 int kernel_timeout_ms) {
    if (agents_[static_cast<size_t>(agent)] < 0) {
        return make_error("no agent of that class registered on this umad port", EINVAL);
    }
    size_t len = std::min<size_t>(mad.size(), 256);
    std::fill(send_buf_.begin(), send_buf_.end(), 0);
    void* umad = send_buf_.data();
    std::memcpy(umad_get_mad(umad), mad.data(), len);
    umad_set_addr(umad, addr.dlid, static_cast<int>(addr.qpn), addr.sl,
                  static_cast<int>(addr.qkey));
    int rc = umad_send(fd_, agents_[static_cast<size_t>(agent)], umad, static_cast<int>(len),
                       kernel_timeout_ms, 0);
    if (rc < 0) return make_error(std::string("umad_send failed: ") + std::strerror(-rc), -rc);
    return {};
}

int UmadTransport::event_fd() const {
    const int fd = umad_get_fd(fd_);
    return ::fcntl(fd, F_GETFD) == -1 ? -1 : fd;
}

Result<std::optional<ReceivedMad>> UmadTransport::receive(std::chrono::milliseconds timeout) {
    pollfd pfd{umad_get_fd(fd_), POLLIN, 0};
    int n = ::poll(&pfd, 1, static_cast<int>(std::max<int64_t>(0, timeout.count())));
    if (n < 0) {
        if (errno == EINTR) return std::optional<ReceivedMad>{};
        return make_error(std::string("poll on umad fd failed: ") + std::strerror(errno), errno);
    }
    if (n == 0) return std::optional<ReceivedMad>{};
    for (;;) {
        int len = static_cast<int>(recv_buf_.size() - umad_size());
        int id = umad_recv(fd_, recv_buf_.data(), &len, 0);
        if (id == -ENOSPC) {
            recv_buf_.resize(umad_size() + static_cast<size_t>(len));
            continue;
        }
        if (id == -ETIMEDOUT || id == -EAGAIN || id == -EWOULDBLOCK)
            return std::optional<ReceivedMad>{};
        if (id < 0) return make_error(std::string("umad_recv failed: ") + std::strerror(-id), -id);
        ReceivedMad r;
        r.status = umad_status(recv_buf_.data());
        const ib_mad_addr_t* from = umad_get_mad_addr(recv_buf_.data());
        r.from = MadAddress{be16toh(from->lid), be32toh(from->qpn), be32toh(from->qkey), from->sl};
        auto* begin = static_cast<uint8_t*>(umad_get_mad(recv_buf_.data()));
        r.mad.assign(begin, begin + len);
        auto it = std::find(std::begin(agents_), std::end(agents_), id);
        if (it == std::end(agents_)) return std::optional<ReceivedMad>{};  // not one of ours
        r.agent = static_cast<Agent>(it - std::begin(agents_));
        return std::optional<ReceivedMad>{std::move(r)};
    }
}

}  // namespace rdmadiag::mad
