#include "collector/sources/netlink/rdma_nl_parser.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <limits>
#include <random>

#include "tests/collector/sources/netlink/nl_builder.hpp"

namespace rdmadiag::netlink {
namespace {

using test::NlBuilder;

std::vector<uint8_t> two_devices() {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
        .end();
    b.begin(RDMA_NLDEV_CMD_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .end();
    return b.done().bytes();
}

std::vector<uint8_t> mr_dump() {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_MR_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
    b.nest(RDMA_NLDEV_ATTR_RES_MR);
    b.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY)
        .u32(RDMA_NLDEV_ATTR_RES_MRN, 17)
        .u32(RDMA_NLDEV_ATTR_RES_RKEY, 0x1204)
        .u32(RDMA_NLDEV_ATTR_RES_LKEY, 0x1204)
        .u64(RDMA_NLDEV_ATTR_RES_MRLEN, 4096)
        .str(RDMA_NLDEV_ATTR_RES_KERN_NAME, "rpcrdma")
        .u32(RDMA_NLDEV_ATTR_RES_PDN, 3)
        .unnest();
    b.mr_entry(18, 2211, 1 << 20);
    b.unnest().end();
    // The kernel splits long dumps over several messages.
    b.begin(RDMA_NLDEV_CMD_RES_MR_GET).u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1);
    b.nest(RDMA_NLDEV_ATTR_RES_MR).mr_entry(19, 2211, 8192).unnest().end();
    return b.done().bytes();
}

TEST(RdmaNlParser, DeviceDump) {
    auto d = parse_nl_device_dump(two_devices());
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_EQ(d->size(), 2u);
    EXPECT_EQ((*d)[0], (NlDevice{1, "mlx5_0", ""}));
    EXPECT_EQ((*d)[1], (NlDevice{4, "rxe0", ""}));
}

TEST(RdmaNlParser, MrDumpAcrossMessages) {
    auto inv = parse_nl_mr_dump(mr_dump(), "mlx5_0");
    ASSERT_TRUE(inv.ok()) << inv.error().message;
    EXPECT_TRUE(inv->complete);
    EXPECT_EQ(inv->device, "mlx5_0");
    ASSERT_EQ(inv->mrs.size(), 3u);
    EXPECT_EQ(inv->mrs[0].mr, 17u);
    EXPECT_EQ(inv->mrs[0].comm, "rpcrdma");
    EXPECT_FALSE(inv->mrs[0].pid.has_value());
    EXPECT_EQ(inv->mrs[0].lkey, 0x1204u);
    EXPECT_EQ(inv->mrs[0].rkey, 0x1204u);
    EXPECT_EQ(inv->mrs[0].length, 4096u);
    EXPECT_EQ(inv->mrs[1].pid, 2211u);
    EXPECT_FALSE(inv->mrs[1].lkey.has_value());  // keys withheld from the unprivileged
    EXPECT_EQ(inv->mrs[2].mr, 19u);
}

TEST(RdmaNlParser, AnMrWithNeitherPidNorKernelNameHasLostItsOwner) {
    // The kernel prints no pid for a task it finds dead while the MR lives on.
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
    b.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY)
        .u32(RDMA_NLDEV_ATTR_RES_MRN, 7)
        .u64(RDMA_NLDEV_ATTR_RES_MRLEN, 8192)
        .unnest();
    b.mr_entry(8, 4242, 4096);
    b.unnest().end();
    auto inv = parse_nl_mr_dump(b.done().bytes(), "rxe0");
    ASSERT_TRUE(inv.ok()) << inv.error().message;
    EXPECT_TRUE(inv->complete) << "an ownerless MR is still named";
    ASSERT_EQ(inv->mrs.size(), 2u);
    EXPECT_TRUE(inv->mrs[0].owner_gone);
    EXPECT_EQ(inv->mrs[0].length, 8192u);
    EXPECT_FALSE(inv->mrs[1].owner_gone);
    auto kernel = parse_nl_mr_dump(mr_dump(), "mlx5_0");
    ASSERT_TRUE(kernel.ok());
    EXPECT_FALSE(kernel->mrs[0].owner_gone) << "a kernel MR names its ULP";
}

TEST(RdmaNlParser, EmptyDeviceListsNothingButIsComplete) {
    NlBuilder b;
    auto inv = parse_nl_mr_dump(b.done().bytes(), "rxe0");
    ASSERT_TRUE(inv.ok());
    EXPECT_TRUE(inv->complete);
    EXPECT_TRUE(inv->mrs.empty());
}

TEST(RdmaNlParser, InterruptedDumpOrNamelessEntryIsIncomplete) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_RES_MR_GET, NLM_F_MULTI | NLM_F_DUMP_INTR);
    b.nest(RDMA_NLDEV_ATTR_RES_MR).mr_entry(1, 1, 1).unnest().end();
    auto intr = parse_nl_mr_dump(b.done().bytes(), "x");
    ASSERT_TRUE(intr.ok());
    EXPECT_FALSE(intr->complete);

    NlBuilder c;
    c.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
    c.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY).u32(RDMA_NLDEV_ATTR_RES_PID, 5).unnest();
    c.unnest().end();
    auto nameless = parse_nl_mr_dump(c.done().bytes(), "x");
    ASSERT_TRUE(nameless.ok());
    EXPECT_FALSE(nameless->complete);
    EXPECT_TRUE(nameless->mrs.empty());
}

TEST(RdmaNlParser, KernelErrorKeepsItsErrno) {
    NlBuilder b;
    auto r = parse_nl_mr_dump(b.error(-EPERM).bytes(), "x");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EPERM);
}

TEST(RdmaNlParser, MalformedRepliesAreErrors) {
    std::vector<std::vector<uint8_t>> bad;
    {  // no NLMSG_DONE
        auto v = mr_dump();
        v.resize(v.size() - 20);
        bad.push_back(v);
    }
    {  // message length past the end
        auto v = mr_dump();
        uint32_t huge = 1 << 20;
        std::memcpy(v.data(), &huge, 4);
        bad.push_back(v);
    }
    {  // zero-length attribute (would never advance)
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_RES_MR_GET);
        nlattr z{0, RDMA_NLDEV_ATTR_RES_MR};
        b.raw(&z, sizeof z).end().done();
        bad.push_back(b.bytes());
    }
    {  // nested attribute longer than its parent
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
        nlattr inner{200, RDMA_NLDEV_ATTR_RES_MR_ENTRY};
        b.raw(&inner, sizeof inner).unnest().end().done();
        bad.push_back(b.bytes());
    }
    {  // u32 of the wrong size
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
        b.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY).u64(RDMA_NLDEV_ATTR_RES_MRN, 5).unnest();
        b.unnest().end().done();
        bad.push_back(b.bytes());
    }
    {  // string without terminator
        NlBuilder b;
        b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
        b.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY).u32(RDMA_NLDEV_ATTR_RES_MRN, 5);
        nlattr s{8, RDMA_NLDEV_ATTR_RES_KERN_NAME};
        b.raw(&s, sizeof s).raw("abcd", 4).unnest();
        b.unnest().end().done();
        bad.push_back(b.bytes());
    }
    bad.push_back({1, 2, 3});  // shorter than a header
    for (size_t i = 0; i < bad.size(); ++i) {
        EXPECT_FALSE(parse_nl_mr_dump(bad[i], "x").ok()) << "case " << i;
    }
    EXPECT_FALSE(parse_nl_device_dump(bad[0]).ok());
}

TEST(RdmaNlParser, TruncationsAndBitFlipsNeverReadOutOfBounds) {
    const auto good = mr_dump();
    for (size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        (void)parse_nl_mr_dump(cut, "x");
        (void)parse_nl_device_dump(cut);
    }
    std::mt19937 rng(1234);
    for (int i = 0; i < 5000; ++i) {
        auto v = good;
        for (int k = 0; k < 3; ++k) v[rng() % v.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        auto r = parse_nl_mr_dump(v, "x");
        if (r.ok()) {
            EXPECT_LE(r->mrs.size(), 3u);
        }
    }
}

// A last message of unaligned length ends the bytes short of its padding: the walk stops there
// (the dump is not finished) instead of reading a next header from past the end.
TEST(RdmaNlParser, UnalignedLastMessageIsNotReadPast) {
    test::NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_GET).raw("x", 1).end();
    std::vector<uint8_t> bytes = b.bytes();
    ASSERT_EQ(bytes.size(), sizeof(nlmsghdr) + 1);
    EXPECT_FALSE(nl_dump_finished(bytes));
    b.raw("\0\0\0", 3).done();
    EXPECT_TRUE(nl_dump_finished(b.bytes()));
    auto devices = parse_nl_device_dump(b.bytes());
    EXPECT_FALSE(devices.ok());  // the message has neither index nor name
}

// The kernel reports -errno; a code outside that range (INT_MIN would overflow when negated) is
// a malformed reply, not an errno to print.
TEST(RdmaNlParser, ErrorCodeOutsideErrnoRangeIsMalformed) {
    for (int code : {std::numeric_limits<int>::min(), -5000, 7}) {
        test::NlBuilder b;
        b.error(code);
        auto r = parse_nl_mr_dump(b.bytes(), "x");
        ASSERT_FALSE(r.ok()) << code;
        EXPECT_EQ(r.error().code, EPROTO) << code;
        EXPECT_NE(r.error().message.find("invalid code"), std::string::npos) << r.error().message;
    }
    test::NlBuilder b;
    b.error(-EPERM);
    auto r = parse_nl_device_dump(b.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EPERM);
}

TEST(RdmaNlParser, DeviceProtocol) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .str(RDMA_NLDEV_ATTR_DEV_PROTOCOL, "roce")
        .end();
    auto d = parse_nl_device_dump(b.done().bytes());
    ASSERT_TRUE(d.ok()) << d.error().message;
    ASSERT_EQ(d->size(), 1u);
    EXPECT_EQ((*d)[0].protocol, "roce");
}

// What `rdma link` reads: one message per port, the netdev named where the port has one.
TEST(RdmaNlParser, PortDump) {
    NlBuilder b;
    b.begin(RDMA_NLDEV_CMD_PORT_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
        .u32(RDMA_NLDEV_ATTR_NDEV_INDEX, 3)
        .str(RDMA_NLDEV_ATTR_NDEV_NAME, "dum0")
        .end();
    b.begin(RDMA_NLDEV_CMD_PORT_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 1)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
        .end();
    auto p = parse_nl_port_dump(b.done().bytes());
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_EQ(p->size(), 2u);
    EXPECT_EQ((*p)[0], (NlPort{4, "rxe0", 1, 3u, "dum0"}));
    EXPECT_EQ((*p)[1], (NlPort{1, "mlx5_0", 1, std::nullopt, ""}));
}

TEST(RdmaNlParser, PortDumpMalformed) {
    NlBuilder no_port;
    no_port.begin(RDMA_NLDEV_CMD_PORT_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .end()
        .done();
    EXPECT_FALSE(parse_nl_port_dump(no_port.bytes()).ok());
    NlBuilder half_netdev;
    half_netdev.begin(RDMA_NLDEV_CMD_PORT_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 4)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .u32(RDMA_NLDEV_ATTR_PORT_INDEX, 1)
        .u32(RDMA_NLDEV_ATTR_NDEV_INDEX, 3)
        .end()
        .done();
    EXPECT_FALSE(parse_nl_port_dump(half_netdev.bytes()).ok());
    NlBuilder gone;
    gone.error(-ENODEV);
    auto e = parse_nl_port_dump(gone.bytes());
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code, ENODEV);
}

TEST(RdmaNlParser, Requests) {
    auto req = nl_mr_dump_request(7, 4);
    ASSERT_EQ(req.size(), sizeof(nlmsghdr) + 8);
    nlmsghdr h;
    std::memcpy(&h, req.data(), sizeof h);
    EXPECT_EQ(h.nlmsg_len, req.size());
    EXPECT_EQ(h.nlmsg_type, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_MR_GET));
    EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_EQ(h.nlmsg_seq, 7u);
    uint32_t index = 0;
    std::memcpy(&index, req.data() + sizeof h + 4, 4);
    EXPECT_EQ(index, 4u);
    EXPECT_EQ(nl_device_dump_request(1).size(), sizeof(nlmsghdr));

    auto ports = nl_port_dump_request(9, 4);
    ASSERT_EQ(ports.size(), sizeof(nlmsghdr) + 8);
    std::memcpy(&h, ports.data(), sizeof h);
    EXPECT_EQ(h.nlmsg_type, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET));
    EXPECT_EQ(h.nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
    std::memcpy(&index, ports.data() + sizeof h + 4, 4);
    EXPECT_EQ(index, 4u);
}

}  // namespace
}  // namespace rdmadiag::netlink
