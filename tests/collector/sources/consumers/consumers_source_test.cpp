#include "collector/sources/consumers/consumers_source.hpp"

#include <gtest/gtest.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <sys/socket.h>

#include <fstream>

#include "collector/sources/consumers/consumers_options.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::consumers {
namespace {

using namespace std::chrono_literals;

const TimePoint kStart = TimePoint{} + std::chrono::hours(24 * 365 * 50);
constexpr uint64_t kPortGuid = 0x0002c90300001235;

void write(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

netlink::NlSockAddr sockaddr_v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
    netlink::NlSockAddr s;
    s.family = AF_INET;
    s.port = port;
    s.address = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d};
    return s;
}

// mlx5_0, an InfiniBand port with IPoIB (ib0 and its child ib0.8001 at 10.1.0.5), an SRP host
// and an RDMA CM connection from 10.1.0.5; rxe0 on dum0 with rping listening on 192.0.2.1.
struct Bed {
    test::FakeNetKernel kernel;
    test::TempDir sysfs{"consumers-sysfs"};
    test::TempDir procfs{"consumers-procfs"};
    int peer = -1;
    int ours = -1;

    Bed() {
        kernel.links = {test::ether(3, "dum0", {0x52, 0x54, 0, 0x12, 0x34, 0x56}),
                        test::ipoib_link(6, "ib0", 0xffff, kPortGuid),
                        test::ipoib_link(7, "ib0.8001", 0x8001, kPortGuid, 6)};
        kernel.addresses = {test::ipv4(7, 10, 1, 0, 5), test::ipv4(3, 192, 0, 2, 1)};
        test::FakeNetKernel::Device mlx{
            1, "mlx5_0", "ib", {netlink::NlPort{1, "mlx5_0", 1, std::nullopt, ""}}};
        mlx.qps = {{17, 1, 2, 3, std::nullopt, {4242, ""}},
                   {18, 1, 2, 3, std::nullopt, {4242, ""}},
                   {1, 1, 1, 3, std::nullopt, {std::nullopt, "ib_core"}}};
        netlink::NlCmId conn;
        conn.id = 5;
        conn.port = 1;
        conn.port_space = 0x0106;
        conn.state = 5;
        conn.source = sockaddr_v4(10, 1, 0, 5, 40000);
        conn.destination = sockaddr_v4(10, 1, 0, 9, 7471);
        conn.owner.pid = 4242;
        mlx.cm_ids = {conn};
        kernel.devices.push_back(mlx);
        kernel.add_port("rxe0", 4, 1, 3);
        netlink::NlCmId listen;
        listen.id = 0;
        listen.port = 1;
        listen.port_space = 0x0106;
        listen.state = 8;
        listen.source = sockaddr_v4(192, 0, 2, 1, 7471);
        listen.destination = sockaddr_v4(0, 0, 0, 0, 0);
        listen.owner.pid = 145;
        kernel.devices.back().cm_ids = {listen};

        write(sysfs.path() / "class/infiniband/mlx5_0/ports/1/gids/0",
              "fe80:0000:0000:0000:0002:c903:0000:1235\n");
        const auto host = sysfs.path() / "class/scsi_host/host7";
        write(host / "local_ib_device", "mlx5_0\n");
        write(host / "local_ib_port", "1\n");
        write(host / "pkey", "0x8001\n");
        write(host / "sgid", "fe80:0000:0000:0000:0002:c903:0000:1235\n");
        write(host / "dgid", "fe80:0000:0000:0000:0002:c903:0000:5678\n");
        write(sysfs.path() / "class/scsi_host/host0/proc_name", "ahci\n");
        write(procfs.path() / "4242/comm", "ib_send_bw\n");
        write(procfs.path() / "145/comm", "rping\n");

        int sv[2];
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
        ours = sv[0];
        peer = sv[1];
    }
    ~Bed() {
        if (peer >= 0) ::close(peer);
    }
    sources::SourceSettings settings(std::map<std::string, std::string> extra = {}) const {
        sources::SourceSettings s;
        s.sysfs_root = sysfs.string();
        s.procfs_root = procfs.string();
        s.extra = std::move(extra);
        return test::resolved(s, "consumers", consumers_options());
    }
    void announce(const netdev::Link& l) {
        test::NlBuilder b;
        test::add_link(b, l, 0);
        ASSERT_EQ(::send(peer, b.bytes().data(), b.bytes().size(), 0),
                  static_cast<ssize_t>(b.bytes().size()));
    }
};

std::vector<ConsumerInventory> inventories(const sources::VectorSink& sink) {
    std::vector<ConsumerInventory> out;
    for (const auto& o : sink.observations)
        if (const auto* i = std::get_if<ConsumerInventory>(&o.body)) out.push_back(*i);
    return out;
}

const Consumer* find_consumer(const ConsumerInventory& inv, ConsumerKind kind,
                              const std::string& name) {
    for (const auto& c : inv.consumers)
        if (c.kind == kind && c.name == name) return &c;
    return nullptr;
}

TEST(ConsumersSource, ListsEveryKindOfConsumerPerDevice) {
    Bed bed;
    ConsumersSource src(bed.settings(), bed.kernel.io(bed.ours));
    ASSERT_TRUE(src.availability().available) << src.availability().reason;
    EXPECT_EQ(src.poll_interval(), 30s);
    sources::VectorSink sink;
    src.poll(kStart, sink);
    const auto invs = inventories(sink);
    ASSERT_EQ(invs.size(), 2u);
    const auto& mlx = invs[0];
    EXPECT_EQ(mlx.device, "mlx5_0");
    EXPECT_TRUE(mlx.complete);
    EXPECT_TRUE(mlx.notes.empty());

    const auto* parent = find_consumer(mlx, ConsumerKind::ipoib, "ib0");
    ASSERT_NE(parent, nullptr);
    EXPECT_EQ(parent->port, 1u);
    EXPECT_EQ(parent->pkey, 0xffff);
    const auto* child = find_consumer(mlx, ConsumerKind::ipoib, "ib0.8001");
    ASSERT_NE(child, nullptr);
    EXPECT_EQ(child->parent, "ib0");

    const auto* srp = find_consumer(mlx, ConsumerKind::srp, "host7");
    ASSERT_NE(srp, nullptr);
    EXPECT_EQ(srp->pkey, 0x8001);

    const auto* rc = find_consumer(mlx, ConsumerKind::qp, "RC");
    ASSERT_NE(rc, nullptr);
    EXPECT_EQ(rc->count, 2u);
    EXPECT_EQ(rc->owner, (ConsumerOwner{4242u, "ib_send_bw"}));

    // The connection's source address is ib0.8001's: its P_Key and GID.
    const auto* conn = find_consumer(mlx, ConsumerKind::cm_id, "cm_id 5");
    ASSERT_NE(conn, nullptr);
    EXPECT_EQ(conn->pkey, 0x8001);
    EXPECT_EQ(conn->parent, "ib0.8001");
    EXPECT_EQ(conn->gid->interface_id(), kPortGuid);

    const auto& rxe = invs[1];
    EXPECT_EQ(rxe.device, "rxe0");
    const auto* listener = find_consumer(rxe, ConsumerKind::cm_id, "cm_id 0");
    ASSERT_NE(listener, nullptr);
    EXPECT_EQ(listener->owner.name, "rping");
    EXPECT_EQ(*listener->gid, gid_from_address("192.0.2.1").value());
    // No IPoIB or SRP consumer is placed on the RoCE device.
    for (const auto& c : rxe.consumers) EXPECT_TRUE(c.kind == ConsumerKind::cm_id);
}

TEST(ConsumersSource, UnchangedInventoriesWaitForTheConfirmInterval) {
    Bed bed;
    ConsumersSource src(bed.settings(), bed.kernel.io(bed.ours));
    sources::VectorSink sink;
    src.poll(kStart, sink);
    src.poll(kStart + 30s, sink);
    EXPECT_EQ(inventories(sink).size(), 2u);
    bed.kernel.devices[0].qps.pop_back();
    src.poll(kStart + 60s, sink);
    ASSERT_EQ(inventories(sink).size(), 3u);
    EXPECT_EQ(inventories(sink).back().device, "mlx5_0");
    src.poll(kStart + 60s + kConsumersConfirm, sink);
    EXPECT_EQ(inventories(sink).size(), 5u);
}

TEST(ConsumersSource, ALinkChangeIsReadAtOnce) {
    Bed bed;
    ConsumersSource src(bed.settings(), bed.kernel.io(bed.ours));
    sources::VectorSink sink;
    src.poll(kStart, sink);
    ASSERT_EQ(src.event_fds(), std::vector<int>{bed.ours});
    // The child loses its carrier: its P_Key left the port.
    bed.kernel.links[2].carrier = false;
    bed.announce(bed.kernel.links[2]);
    src.on_readable(bed.ours, kStart + 1s, sink);
    const auto invs = inventories(sink);
    ASSERT_EQ(invs.size(), 3u);
    const auto* child = find_consumer(invs.back(), ConsumerKind::ipoib, "ib0.8001");
    ASSERT_NE(child, nullptr);
    EXPECT_EQ(child->carrier, false);
}

TEST(ConsumersSource, ARefusedDumpMakesTheInventoryIncompleteAndSaysWhy) {
    Bed bed;
    bed.kernel.devices[0].resource_error = EPERM;
    ConsumersSource src(bed.settings(), bed.kernel.io(bed.ours));
    sources::VectorSink sink;
    src.poll(kStart, sink);
    const auto invs = inventories(sink);
    ASSERT_EQ(invs.size(), 2u);
    EXPECT_FALSE(invs[0].complete);
    ASSERT_EQ(invs[0].notes.size(), 2u);
    EXPECT_NE(invs[0].notes[0].find("QP dump"), std::string::npos) << invs[0].notes[0];
    EXPECT_NE(invs[0].notes[1].find("CM ID dump"), std::string::npos) << invs[0].notes[1];
    // What could be read still is.
    EXPECT_NE(find_consumer(invs[0], ConsumerKind::ipoib, "ib0"), nullptr);
    EXPECT_TRUE(invs[1].complete);
}

TEST(ConsumersSource, AnInterfaceOnNoKnownPortIsSaidOnce) {
    Bed bed;
    auto stray = test::ipoib_link(9, "ib1", 0xffff, kPortGuid);
    stray.ib_address->back() = 0x99;
    bed.kernel.links.push_back(stray);
    ConsumersSource src(bed.settings(), bed.kernel.io(bed.ours));
    sources::VectorSink sink;
    src.poll(kStart, sink);
    src.poll(kStart + 30s, sink);
    size_t said = 0;
    for (const auto& o : sink.observations) {
        if (const auto* e = std::get_if<SampleError>(&o.body)) {
            EXPECT_NE(e->message.find("ib1: sends from GUID"), std::string::npos) << e->message;
            ++said;
        }
    }
    EXPECT_EQ(said, 1u);
}

TEST(ConsumersSource, SaysWhyItHasNothing) {
    Bed bed;
    bed.kernel.devices.clear();
    ConsumersSource none(bed.settings(), bed.kernel.io());
    EXPECT_FALSE(none.availability().available);
    EXPECT_EQ(none.availability().reason, "no RDMA devices (RDMA netlink lists none)");
    netdev::NetdevIo no_netlink;
    no_netlink.rdma = []() -> Result<netlink::NlTransport> {
        return make_error("RDMA netlink: Protocol not supported");
    };
    ConsumersSource closed(bed.settings(), no_netlink);
    EXPECT_EQ(closed.availability().reason, "RDMA netlink: Protocol not supported");
}

TEST(ConsumersSource, Options) {
    Bed bed;
    ConsumersSource src(bed.settings({{"consumers.interval", "2m"}, {"consumers.top_owners", "1"}}),
                        bed.kernel.io());
    EXPECT_EQ(src.poll_interval(), 2min);
    sources::VectorSink sink;
    src.poll(kStart, sink);
    // One owner named: ib_send_bw holds two QPs, ib_core one, counted as "other".
    const auto invs = inventories(sink);
    ASSERT_FALSE(invs.empty());
    EXPECT_NE(find_consumer(invs[0], ConsumerKind::qp, "GSI"), nullptr);
    EXPECT_EQ(find_consumer(invs[0], ConsumerKind::qp, "GSI")->owner.name, "other");
}

}  // namespace
}  // namespace rdmadiag::consumers
