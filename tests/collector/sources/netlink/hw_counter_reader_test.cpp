// The hw_counters/ reader over RDMA netlink, on a fake kernel: one message per port, one device
// dump until retry(), and every way it gives a port up to the files.

#include "collector/sources/netlink/hw_counter_reader.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "tests/collector/sources/netlink/fake_rdma_netlink.hpp"

namespace rdmadiag::netlink {
namespace {

using sources::CounterValue;

struct Bed {
    test::FakeRdmaNetlink kernel;
    unsigned opens = 0;
    bool open_fails = false;
    NetlinkHwCounterReader reader{[this]() -> Result<NlTransport> {
        ++opens;
        if (open_fails) return make_error("RDMA netlink unavailable", EPROTONOSUPPORT);
        return kernel.transport();
    }};

    Bed() {
        kernel.devices["mlx5_0"] = {3,
                                    {{1, {{"out_of_buffer", 7}, {"rx_write_requests", 1u << 20}}},
                                     {2, {{"out_of_buffer", 9}}}}};
        kernel.devices["rxe0"] = {5, {{1, {{"sent_pkts", 11}}}}};
    }
};

TEST(NetlinkHwCounterReader, OneMessagePerPortAndOneDump) {
    Bed bed;
    auto a = bed.reader.read({"mlx5_0", 1}, {}, sources::CounterTiers::all());
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(*a,
              (std::vector<CounterValue>{{"out_of_buffer", 7}, {"rx_write_requests", 1u << 20}}));
    auto b = bed.reader.read({"mlx5_0", 2}, {}, sources::CounterTiers::all());
    auto c = bed.reader.read({"rxe0", 1}, {}, sources::CounterTiers::all());
    ASSERT_TRUE(b.ok() && c.ok());
    EXPECT_EQ(*c, (std::vector<CounterValue>{{"sent_pkts", 11}}));
    EXPECT_EQ(bed.kernel.dumps, 1u);
    EXPECT_EQ(bed.kernel.stat_requests, 3u);
    EXPECT_EQ(bed.opens, 1u);
    // The next poll: one message per port again, nothing else.
    ASSERT_TRUE(bed.reader.read({"mlx5_0", 1}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.kernel.dumps, 1u);
    EXPECT_EQ(bed.kernel.stat_requests, 4u);
}

TEST(NetlinkHwCounterReader, PortWithoutStatisticsIsLeftToTheFilesUntilRetry) {
    Bed bed;
    auto r = bed.reader.read({"mlx5_0", 3}, {}, sources::CounterTiers::all());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EINVAL);
    EXPECT_NE(r.error().message.find("RDMA netlink statistics"), std::string::npos);
    const unsigned asked = bed.kernel.stat_requests;
    EXPECT_FALSE(bed.reader.read({"mlx5_0", 3}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.kernel.stat_requests, asked) << "not asked again before retry()";
    bed.kernel.devices["mlx5_0"].ports[3] = {{"out_of_buffer", 1}};
    bed.reader.retry();
    auto again = bed.reader.read({"mlx5_0", 3}, {}, sources::CounterTiers::all());
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->front().value, 1u);
}

TEST(NetlinkHwCounterReader, DeviceNetlinkDoesNotListIsAnErrorWithOneDumpPerRetry) {
    Bed bed;
    auto r = bed.reader.read({"siw0", 1}, {}, sources::CounterTiers::all());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ENODEV);
    EXPECT_FALSE(bed.reader.read({"siw0", 2}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.kernel.dumps, 1u);
    bed.kernel.devices["siw0"] = {9, {{1, {{"x", 2}}}}};
    bed.reader.retry();
    EXPECT_TRUE(bed.reader.read({"siw0", 1}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.kernel.dumps, 2u);
}

TEST(NetlinkHwCounterReader, NoRdmaNetlinkIsAnErrorUntilRetry) {
    Bed bed;
    bed.open_fails = true;
    auto r = bed.reader.read({"mlx5_0", 1}, {}, sources::CounterTiers::all());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EPROTONOSUPPORT);
    EXPECT_FALSE(bed.reader.read({"mlx5_0", 2}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.opens, 1u);
    bed.open_fails = false;
    bed.reader.retry();
    EXPECT_TRUE(bed.reader.read({"mlx5_0", 1}, {}, sources::CounterTiers::all()).ok());
    EXPECT_EQ(bed.opens, 2u);
}

// rdma link delete / add (or a driver reload) gives the device a new index: the old one now
// names nothing (EINVAL) or another device, and the next retry() finds the new one.
TEST(NetlinkHwCounterReader, DeviceWithANewIndexIsFoundAgain) {
    Bed bed;
    ASSERT_TRUE(bed.reader.read({"rxe0", 1}, {}, sources::CounterTiers::all()).ok());
    bed.kernel.devices["rxe0"].index = 6;
    bed.kernel.devices["mlx5_0"].index = 5;  // the old index now answers for another device
    auto r = bed.reader.read({"rxe0", 1}, {}, sources::CounterTiers::all());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EPROTO);
    bed.reader.retry();
    auto again = bed.reader.read({"rxe0", 1}, {}, sources::CounterTiers::all());
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, (std::vector<CounterValue>{{"sent_pkts", 11}}));
}

}  // namespace
}  // namespace rdmadiag::netlink
