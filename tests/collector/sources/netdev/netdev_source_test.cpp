#include "collector/sources/netdev/netdev_source.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>

#include "collector/sources/netdev/netdev_options.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::netdev {
namespace {

using namespace std::chrono_literals;

constexpr std::array<uint8_t, 6> kMac = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
const TimePoint kStart = TimePoint{} + std::chrono::hours(24 * 365 * 50);

std::vector<GidTableSample> views(const sources::VectorSink& sink) {
    std::vector<GidTableSample> out;
    for (const auto& o : sink.observations) {
        if (const auto* g = std::get_if<GidTableSample>(&o.body)) out.push_back(*g);
    }
    return out;
}

std::vector<std::string> gids(const GidTableSample& s) {
    std::vector<std::string> out;
    for (const auto& e : s.table.entries) out.push_back(e.gid.to_string() + " " + e.ndev);
    return out;
}

// rxe0 on dum0 (ifindex 3), and mlx5_0, an InfiniBand port without a netdev.
struct Bed {
    test::FakeNetKernel kernel;
    int peer = -1;  // the kernel's end of the event socket
    int ours = -1;

    Bed() {
        kernel.links = {test::ether(3, "dum0", kMac)};
        kernel.add_port("rxe0", 4, 1, 3);
        kernel.devices.push_back(test::FakeNetKernel::Device{
            1, "mlx5_0", "ib", {netlink::NlPort{1, "mlx5_0", 1, std::nullopt, ""}}});
        int sv[2];
        EXPECT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
        ours = sv[0];
        peer = sv[1];
    }
    ~Bed() {
        if (peer >= 0) ::close(peer);
    }
    // The kernel announces a change: the bytes of an RTM_NEWADDR message.
    void announce(const Address& a) {
        test::NlBuilder b;
        test::add_address(b, a, 0);
        ASSERT_EQ(::send(peer, b.bytes().data(), b.bytes().size(), 0),
                  static_cast<ssize_t>(b.bytes().size()));
    }
    sources::SourceSettings settings() const {
        sources::SourceSettings s;
        s.pkey_interval = 10s;
        return s;
    }
};

TEST(NetdevSource, EmitsTheNetdevViewOfEveryRocePort) {
    Bed bed;
    bed.kernel.addresses = {test::ipv4(3, 192, 0, 2, 1)};
    NetdevSource src(bed.settings(), bed.kernel.io(bed.ours));
    ASSERT_TRUE(src.availability().available) << src.availability().reason;
    EXPECT_EQ(src.poll_interval(), 10s);
    ASSERT_EQ(src.event_fds().size(), 1u);
    sources::VectorSink sink;
    src.poll(kStart, sink);
    auto v = views(sink);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].port, (PortRef{"rxe0", 1}));
    EXPECT_EQ(v[0].view, GidView::netdev);
    EXPECT_EQ(gids(v[0]),
              (std::vector<std::string>{"fe80:0000:0000:0000:5054:00ff:fe12:3456 dum0",
                                        "0000:0000:0000:0000:0000:ffff:c000:0201 dum0"}));
    // The status says up once.
    ASSERT_FALSE(sink.observations.empty());
    EXPECT_EQ(std::get<SourceStatus>(sink.observations.back().body).up, true);
}

TEST(NetdevSource, ARefreshBeforeAnyPollReadsThePort) {
    Bed bed;
    NetdevSource src(bed.settings(), bed.kernel.io());
    sources::VectorSink sink;
    src.refresh(PortRef{"rxe0", 1}, kStart, sink);
    EXPECT_EQ(views(sink).size(), 1u);
}

TEST(NetdevSource, UnchangedViewsWaitForTheConfirmInterval) {
    Bed bed;
    NetdevSource src(bed.settings(), bed.kernel.io(), 2min);
    sources::VectorSink first;
    src.poll(kStart, first);
    EXPECT_EQ(views(first).size(), 1u);
    sources::VectorSink quiet;
    src.poll(kStart + 10s, quiet);
    src.poll(kStart + 110s, quiet);
    EXPECT_TRUE(views(quiet).empty());
    EXPECT_TRUE(quiet.observations.empty()) << "nothing new, not even the status";
    sources::VectorSink confirm;
    src.poll(kStart + 120s, confirm);
    EXPECT_EQ(views(confirm).size(), 1u);
    // And the engine asks for the port: read back at once.
    sources::VectorSink asked;
    src.refresh(PortRef{"rxe0", 1}, kStart + 125s, asked);
    EXPECT_EQ(views(asked).size(), 1u);
    // Not one of its ports: nothing read.
    const unsigned dumps = bed.kernel.link_dumps;
    sources::VectorSink other;
    src.refresh(PortRef{"mlx5_0", 1}, kStart + 126s, other);
    EXPECT_TRUE(other.observations.empty());
    EXPECT_EQ(bed.kernel.link_dumps, dumps);
}

TEST(NetdevSource, AnAnnouncedChangeIsReadAtOnceInOnePass) {
    Bed bed;
    NetdevSource src(bed.settings(), bed.kernel.io(bed.ours));
    sources::VectorSink sink;
    src.poll(kStart, sink);
    const unsigned dumps = bed.kernel.link_dumps;

    const auto added = test::ipv6(3, "2001:db8::7", IFA_F_PERMANENT | IFA_F_TENTATIVE);
    bed.kernel.addresses.push_back(added);
    bed.announce(added);
    bed.announce(added);  // and after DAD, again
    sources::VectorSink after;
    src.on_readable(bed.ours, kStart + 1s, after);
    EXPECT_EQ(bed.kernel.link_dumps, dumps + 1);
    auto v = views(after);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].table.entries.size(), 2u);
    EXPECT_EQ(v[0].table.entries[1].gid, parse_gid("2001:db8::7").value());

    // Removed: the view follows.
    bed.kernel.addresses.clear();
    bed.announce(added);
    sources::VectorSink removed;
    src.on_readable(bed.ours, kStart + 2s, removed);
    v = views(removed);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].table.entries.size(), 1u);

    // A change elsewhere (another netdev) re-reads but emits nothing new.
    bed.announce(test::ipv4(9, 198, 51, 100, 1));
    sources::VectorSink elsewhere;
    src.on_readable(bed.ours, kStart + 3s, elsewhere);
    EXPECT_TRUE(views(elsewhere).empty());
}

TEST(NetdevSource, ClosedEventSocketFallsBackToPolling) {
    Bed bed;
    NetdevSource src(bed.settings(), bed.kernel.io(bed.ours));
    ::close(bed.peer);
    bed.peer = -1;
    sources::VectorSink sink;
    src.on_readable(bed.ours, kStart, sink);
    EXPECT_TRUE(src.event_fds().empty());
    bool said = false;
    for (const auto& o : sink.observations) {
        if (const auto* e = std::get_if<SampleError>(&o.body))
            said = e->subject == "rtnetlink events";
    }
    EXPECT_TRUE(said);
    EXPECT_EQ(views(sink).size(), 1u);
}

TEST(NetdevSource, SaysWhyItHasNothing) {
    {
        test::FakeNetKernel none;
        NetdevSource src({}, none.io());
        EXPECT_FALSE(src.availability().available);
        EXPECT_EQ(src.availability().reason,
                  "no RDMA devices with RoCE ports (RDMA netlink lists none)");
    }
    {
        test::FakeNetKernel ib;
        ib.devices.push_back(test::FakeNetKernel::Device{
            1, "mlx5_0", "", {netlink::NlPort{1, "mlx5_0", 1, std::nullopt, ""}}});
        NetdevSource src({}, ib.io());
        EXPECT_FALSE(src.availability().available);
        EXPECT_EQ(src.availability().reason,
                  "no RoCE ports: no port of mlx5_0 has an Ethernet netdev");
    }
    {
        NetdevIo io;
        io.rdma = []() -> Result<netlink::NlTransport> {
            return make_error(
                "RDMA netlink unavailable: Protocol not supported (ib_core not loaded)");
        };
        NetdevSource src({}, io);
        EXPECT_FALSE(src.availability().available);
        EXPECT_NE(src.availability().reason.find("ib_core not loaded"), std::string::npos);
    }
}

TEST(NetdevSource, IwarpDevicesAndFilteredDevicesAreLeftOut) {
    Bed bed;
    bed.kernel.devices[0].protocol = "iw";
    NetdevSource iw(bed.settings(), bed.kernel.io());
    EXPECT_FALSE(iw.availability().available);

    Bed filtered;
    auto s = filtered.settings();
    s.exclude_devices = {"rxe0"};
    NetdevSource src(s, filtered.kernel.io());
    EXPECT_FALSE(src.availability().available);
}

TEST(NetdevSource, AFailedDumpTakesTheSourceDownUntilItWorksAgain) {
    Bed bed;
    bool fail = false;
    NetdevIo io = bed.kernel.io();
    io.route = [&]() -> Result<netlink::NlTransport> {
        return netlink::NlTransport(
            [&](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                if (fail) return make_error("netlink receive: Resource temporarily unavailable");
                return bed.kernel.answer_route(r);
            });
    };
    NetdevSource src(bed.settings(), io);
    sources::VectorSink sink;
    fail = true;
    src.poll(kStart, sink);
    ASSERT_EQ(sink.observations.size(), 1u);
    const auto& down = std::get<SourceStatus>(sink.observations[0].body);
    EXPECT_FALSE(down.up);
    fail = false;
    sources::VectorSink again;
    src.poll(kStart + 10s, again);
    EXPECT_EQ(views(again).size(), 1u);
    EXPECT_TRUE(std::get<SourceStatus>(again.observations.back().body).up);
}

TEST(NetdevSource, ConfirmOption) {
    sources::SourceSettings s;
    EXPECT_EQ(confirm_interval(s), kDefaultConfirm);
    EXPECT_EQ(confirm_interval(::rdmadiag::test::resolved(s, "netdev", netdev_options())),
              kDefaultConfirm)
        << "the declared default is the source's";
    s.extra["netdev.confirm"] = "5m";
    EXPECT_EQ(confirm_interval(::rdmadiag::test::resolved(s, "netdev", netdev_options())),
              std::chrono::minutes(5));
    for (const char* bad : {"soon", "0s"}) {
        s.extra["netdev.confirm"] = bad;
        auto r = sources::resolve_source_options("netdev", netdev_options(), s);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().message,
                  "netdev source: netdev.confirm must be a positive duration, not '" +
                      std::string(bad) + "'");
    }
}

}  // namespace
}  // namespace rdmadiag::netdev
