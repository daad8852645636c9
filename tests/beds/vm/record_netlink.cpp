// Records what a real kernel answers on RDMA netlink, for the golden and fuzz cases of the
// netlink parsers (tests/fixtures/netlink): run inside the soft-RoCE VM (record-netlink, beside
// this file, boots each kernel and runs it), with every verbs device holding a few MRs and QPs so
// the resource dumps have entries. Writes into OUTDIR, per request, the exact bytes of the reply
// as hex (REQUEST.hex), and beside them what iproute2's `rdma -j` printed for the same objects
// while the same resources were held (*.json), which the golden test compares against.
//
//   record_netlink OUTDIR

#include <infiniband/verbs.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/sources/netlink/nl_transport.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"

namespace {

using rdmadiag::netlink::NlTransport;

struct Verbs {
    ibv_context* ctx = nullptr;
    ibv_pd* pd = nullptr;
    ibv_cq* cq = nullptr;
    std::vector<ibv_mr*> mrs;
    std::vector<ibv_qp*> qps;
    std::vector<std::unique_ptr<char[]>> buffers;
    Verbs() = default;
    Verbs(const Verbs&) = delete;
    Verbs& operator=(const Verbs&) = delete;
    ~Verbs() {
        for (auto* q : qps) ibv_destroy_qp(q);
        for (auto* m : mrs) ibv_dereg_mr(m);
        if (cq != nullptr) ibv_destroy_cq(cq);
        if (pd != nullptr) ibv_dealloc_pd(pd);
        if (ctx != nullptr) ibv_close_device(ctx);
    }
};

// Three MRs of different sizes and rights (an rkey only where remote access is asked), one RC
// and one UD QP: the shapes a resource dump carries.
std::unique_ptr<Verbs> hold_resources(ibv_device* dev) {
    auto v = std::make_unique<Verbs>();
    v->ctx = ibv_open_device(dev);
    if (v->ctx == nullptr) return v;
    v->pd = ibv_alloc_pd(v->ctx);
    if (v->pd == nullptr) return v;
    const struct {
        size_t len;
        int access;
    } shapes[] = {
        {4096, IBV_ACCESS_LOCAL_WRITE},
        {65536, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE},
        {1 << 20, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ}};
    for (const auto& s : shapes) {
        v->buffers.emplace_back(new char[s.len]());
        if (auto* mr = ibv_reg_mr(v->pd, v->buffers.back().get(), s.len, s.access)) {
            v->mrs.push_back(mr);
        } else {
            std::fprintf(stderr, "record_netlink: %s: ibv_reg_mr(%zu): %s\n",
                         ibv_get_device_name(dev), s.len, std::strerror(errno));
        }
    }
    v->cq = ibv_create_cq(v->ctx, 16, nullptr, nullptr, 0);
    if (v->cq == nullptr) return v;
    for (ibv_qp_type type : {IBV_QPT_RC, IBV_QPT_UD}) {
        ibv_qp_init_attr init{};
        init.send_cq = v->cq;
        init.recv_cq = v->cq;
        init.qp_type = type;
        init.cap.max_send_wr = 4;
        init.cap.max_recv_wr = 4;
        init.cap.max_send_sge = 1;
        init.cap.max_recv_sge = 1;
        if (auto* qp = ibv_create_qp(v->pd, &init)) v->qps.push_back(qp);
        // An iWARP device has no UD QPs: the dump then lists the RC one alone.
    }
    return v;
}

// A dump request of nldev command `op`, for one device when `device` is set.
std::vector<uint8_t> dump_request(uint32_t seq, uint16_t op, const uint32_t* device) {
    std::vector<uint8_t> out(sizeof(nlmsghdr));
    if (device != nullptr) rdmadiag::netlink::put_attr_u32(out, RDMA_NLDEV_ATTR_DEV_INDEX, *device);
    nlmsghdr h{};
    h.nlmsg_len = static_cast<uint32_t>(out.size());
    h.nlmsg_type = static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op));
    h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    h.nlmsg_seq = seq;
    std::memcpy(out.data(), &h, sizeof h);
    return out;
}

bool write_hex(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path);
    static const char* digits = "0123456789abcdef";
    for (size_t i = 0; i < bytes.size(); ++i) {
        out << digits[bytes[i] >> 4] << digits[bytes[i] & 15];
        if (i % 32 == 31 || i + 1 == bytes.size()) out << '\n';
    }
    return static_cast<bool>(out);
}

// The reply's bytes, written to `path`; nothing when the exchange itself failed.
std::optional<std::vector<uint8_t>> record(NlTransport& nl, const std::vector<uint8_t>& request,
                                           const std::string& path) {
    auto reply = nl(request);
    if (!reply) {
        std::fprintf(stderr, "record_netlink: %s: %s\n", path.c_str(),
                     reply.error().message.c_str());
        return std::nullopt;
    }
    if (!write_hex(path, *reply)) return std::nullopt;
    return std::move(*reply);
}

// iproute2's view of the same objects, taken while the resources are still held. A command the
// kernel refuses (statistics of a device without counters) leaves its words in NAME.err.
bool record_rdma_views(const std::string& dir) {
    const char* views[][2] = {{"rdma-dev", "dev show"},
                              {"rdma-link", "link show"},
                              {"rdma-res-mr", "res show mr"},
                              {"rdma-res-qp", "res show qp"},
                              {"rdma-res-cm_id", "res show cm_id"},
                              {"rdma-statistic", "statistic show link"}};
    bool ok = true;
    for (const auto& v : views) {
        const std::string cmd = std::string("rdma -j ") + v[1] + " >'" + dir + "/" + v[0] +
                                ".json' 2>'" + dir + "/" + v[0] + ".err'";
        if (std::system(cmd.c_str()) != 0 && std::string(v[0]) != "rdma-statistic") ok = false;
    }
    return ok;
}

int run(const std::string& dir) {
    int n = 0;
    ibv_device** list = ibv_get_device_list(&n);
    std::vector<std::unique_ptr<Verbs>> held;
    for (int i = 0; list != nullptr && i < n; ++i) held.push_back(hold_resources(list[i]));

    auto nl = rdmadiag::netlink::open_rdma_netlink();
    if (!nl) {
        std::fprintf(stderr, "record_netlink: %s\n", nl.error().message.c_str());
        return 1;
    }
    namespace nlp = rdmadiag::netlink;
    uint32_t seq = 1;
    auto dev_bytes = record(*nl, nlp::nl_device_dump_request(seq++), dir + "/dev.hex");
    auto devices =
        dev_bytes ? nlp::parse_nl_device_dump(*dev_bytes) : rdmadiag::make_error("no device dump");
    if (!devices) {
        std::fprintf(stderr, "record_netlink: device dump: %s\n", devices.error().message.c_str());
        return 1;
    }
    bool ok = true;
    for (const auto& d : *devices) {
        const std::string base = dir + "/" + d.name;
        ok &= record(*nl, nlp::nl_mr_dump_request(seq++, d.index), base + ".mrs.hex").has_value();
        ok &=
            record(*nl, dump_request(seq++, RDMA_NLDEV_CMD_RES_QP_GET, &d.index), base + ".qps.hex")
                .has_value();
        ok &= record(*nl, dump_request(seq++, RDMA_NLDEV_CMD_RES_CM_ID_GET, &d.index),
                     base + ".cm_ids.hex")
                  .has_value();
        auto port_bytes =
            record(*nl, nlp::nl_port_dump_request(seq++, d.index), base + ".ports.hex");
        auto ports = port_bytes ? nlp::parse_nl_port_dump(*port_bytes)
                                : rdmadiag::make_error("no port dump");
        if (!ports) {
            std::fprintf(stderr, "record_netlink: %s ports: %s\n", d.name.c_str(),
                         ports.error().message.c_str());
            ok = false;
            continue;
        }
        for (const auto& p : *ports) {
            // An answer the kernel refuses (no counters on this port) is recorded as it came.
            ok &= record(*nl, nlp::nl_port_stats_request(seq++, d.index, p.port),
                         base + "." + std::to_string(p.port) + ".stats.hex")
                      .has_value();
        }
    }
    ok &= record_rdma_views(dir);
    held.clear();
    if (list != nullptr) ibv_free_device_list(list);
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: record_netlink OUTDIR\n");
        return 2;
    }
    return run(argv[1]);
}
