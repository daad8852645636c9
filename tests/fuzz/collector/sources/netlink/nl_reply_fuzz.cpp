// RDMA netlink replies (the device list, one device's ports, MRs, QPs and CM IDs, one port's
// hardware counters), as recvmsg hands them over. The kernel is trusted to be well-formed but a
// reply can be cut short or interleaved; the parser checks every length. What it accepts, written
// back the way the kernel lays it out, must parse to the same devices, ports, MRs and counters.
// Seeded with the replies real kernels gave (tests/fixtures/netlink).

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <sys/socket.h>

#include <cstdint>
#include <span>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "collector/sources/netlink/res_dump_parser.hpp"
#include "tests/collector/sources/netlink/fake_rdma_netlink.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"
#include "tests/collector/sources/netlink/rdma_port_dump.hpp"
#include "tests/collector/sources/netlink/res_dump_bytes.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

void check_devices(std::span<const uint8_t> bytes) {
    auto devices = netlink::parse_nl_device_dump(bytes);
    if (!devices) return;
    FUZZ_CHECK(netlink::nl_dump_finished(bytes));
    test::NlBuilder b;
    for (const auto& d : *devices) {
        FUZZ_CHECK(!d.name.empty() && d.name.find('\0') == std::string::npos);
        b.begin(RDMA_NLDEV_CMD_GET)
            .u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index)
            .str(RDMA_NLDEV_ATTR_DEV_NAME, d.name);
        if (!d.protocol.empty()) b.str(RDMA_NLDEV_ATTR_DEV_PROTOCOL, d.protocol);
        b.end();
    }
    b.done();
    auto again = netlink::parse_nl_device_dump(b.bytes());
    FUZZ_CHECK(again && *again == *devices);
}

void check_mrs(std::span<const uint8_t> bytes) {
    auto inv = netlink::parse_nl_mr_dump(bytes, "mlx5_0");
    if (!inv) return;
    FUZZ_CHECK(netlink::nl_dump_finished(bytes));
    FUZZ_CHECK(inv->device == "mlx5_0");
    test::NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
    for (const auto& e : inv->mrs) {
        FUZZ_CHECK(e.mr <= UINT32_MAX);
        b.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY);
        b.u32(RDMA_NLDEV_ATTR_RES_MRN, static_cast<uint32_t>(e.mr));
        if (e.pid) b.u32(RDMA_NLDEV_ATTR_RES_PID, *e.pid);
        if (!e.comm.empty()) b.str(RDMA_NLDEV_ATTR_RES_KERN_NAME, e.comm);
        if (e.length) b.u64(RDMA_NLDEV_ATTR_RES_MRLEN, *e.length);
        if (e.lkey) b.u32(RDMA_NLDEV_ATTR_RES_LKEY, *e.lkey);
        if (e.rkey) b.u32(RDMA_NLDEV_ATTR_RES_RKEY, *e.rkey);
        b.unnest();
    }
    b.unnest().end().done();
    auto again = netlink::parse_nl_mr_dump(b.bytes(), "mlx5_0");
    FUZZ_CHECK(again && again->mrs == inv->mrs && again->complete);
}

void check_qps(std::span<const uint8_t> bytes) {
    auto dump = netlink::parse_nl_qp_dump(bytes);
    if (!dump) return;
    FUZZ_CHECK(netlink::nl_dump_finished(bytes));
    for (const auto& q : dump->entries) {
        FUZZ_CHECK(!netlink::qp_type_name(q.type).empty());
        FUZZ_CHECK(!netlink::qp_state_name(q.state).empty());
    }
    auto again = netlink::parse_nl_qp_dump(test::qp_dump(dump->entries));
    FUZZ_CHECK(again && again->entries == dump->entries && again->complete);
}

void check_cm_ids(std::span<const uint8_t> bytes) {
    auto dump = netlink::parse_nl_cm_id_dump(bytes);
    if (!dump) return;
    FUZZ_CHECK(netlink::nl_dump_finished(bytes));
    for (const auto& c : dump->entries) {
        for (const auto* addr : {&c.source, &c.destination}) {
            if (!*addr) continue;
            FUZZ_CHECK(!netlink::to_string(**addr).empty());
            if ((*addr)->family == AF_INET) {
                FUZZ_CHECK((*addr)->address[10] == 0xff && (*addr)->address[11] == 0xff);
            }
        }
    }
    auto again = netlink::parse_nl_cm_id_dump(test::cm_id_dump(dump->entries));
    FUZZ_CHECK(again && again->entries == dump->entries && again->complete);
}

void check_ports(std::span<const uint8_t> bytes) {
    auto ports = netlink::parse_nl_port_dump(bytes);
    if (!ports) return;
    FUZZ_CHECK(netlink::nl_dump_finished(bytes));
    for (const auto& p : *ports) FUZZ_CHECK(p.ndev_index.has_value() == !p.ndev_name.empty());
    auto again = netlink::parse_nl_port_dump(test::port_dump(*ports));
    FUZZ_CHECK(again && *again == *ports);
}

void check_stats(std::span<const uint8_t> bytes) {
    auto stats = netlink::parse_nl_port_stats(bytes);
    if (!stats) return;
    for (const auto& c : stats->counters) FUZZ_CHECK(!c.name.empty());
    auto again = netlink::parse_nl_port_stats(test::FakeRdmaNetlink::stats_reply(
        stats->device_index, stats->device, stats->port, stats->counters));
    FUZZ_CHECK(again && *again == *stats);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::span<const uint8_t> bytes(data, size);
    (void)netlink::nl_dump_finished(bytes);
    check_devices(bytes);
    check_mrs(bytes);
    check_qps(bytes);
    check_cm_ids(bytes);
    check_ports(bytes);
    check_stats(bytes);
    return 0;
}
