// A file the kernel does not create for a device is absent by design, not a failed read: a
// healthy host with an mlx4 InfiniBand HCA and an i40iw iWARP RNIC (tests/fixtures/sysfs/
// mlx4-i40iw) reads without a single SampleError, while real failures stay errors.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::seconds;

std::vector<PKeyTableSample> tables_of(const std::vector<Observation>& obs, const PortRef& port) {
    std::vector<PKeyTableSample> out;
    for (const auto& t : all<PKeyTableSample>(obs)) {
        if (t.port == port) out.push_back(t);
    }
    return out;
}

TEST(SysfsAbsentFiles, AHealthyIbAndIwarpHostReadsWithoutErrors) {
    auto src = source_at(fixture("mlx4-i40iw"));
    auto obs = sample_all(*src);
    EXPECT_THAT(all<SampleError>(obs), ::testing::IsEmpty());
    EXPECT_EQ(only<DeviceList>(obs).devices, (std::vector<std::string>{"i40iw0", "mlx4_0"}));

    // The iWARP port: no P_Key table (the kernel makes pkeys/ only where there is one), no PMA
    // (no counters/), the driver's statistics in hw_counters/.
    const PortRef iwarp{"i40iw0", 1};
    EXPECT_TRUE(tables_of(obs, iwarp).empty());
    for (const auto& info : all<DeviceInfo>(obs)) {
        if (info.device == "i40iw0") {
            EXPECT_EQ(info.transport, Transport::iwarp);
            EXPECT_EQ(info.node_type, "RNIC");
            EXPECT_EQ(info.hca_type, "I40IW");
        }
    }
    for (const auto& p : all<PortStateSample>(obs)) {
        if (p.port != iwarp) continue;
        EXPECT_EQ(p.state, PortState::active);
        EXPECT_EQ(p.link_layer, LinkLayer::ethernet);
        EXPECT_EQ(p.lid, 1u);
        EXPECT_EQ(p.gids, std::vector<std::string>{"3cfd:fe9f:3a08:0000:0000:0000:0000:0000"});
        EXPECT_EQ(p.port_guid, std::nullopt);
    }
    size_t iwarp_pma = 0, iwarp_hw = 0;
    for (const auto& c : all<CounterSample>(obs)) {
        if (c.port != iwarp) continue;
        (c.kind == CounterKind::pma ? iwarp_pma : iwarp_hw)++;
    }
    EXPECT_EQ(iwarp_pma, 0u);
    EXPECT_EQ(iwarp_hw, 35u);  // lifespan is a setting, not a counter

    // The InfiniBand port has its table.
    auto ib = tables_of(obs, PortRef{"mlx4_0", 1});
    ASSERT_EQ(ib.size(), 1u);
    EXPECT_EQ(ib[0].table.used(), 2u);
}

TEST(SysfsAbsentFiles, PollsAndRefreshesOfTheIwarpPortStayQuiet) {
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.pkey_interval = seconds(2);
    auto src = source_at(fixture("mlx4-i40iw"), s);
    for (int i = 0; i < 5; ++i) {
        sources::VectorSink sink;
        src->poll(at(seconds(i)), sink);
        EXPECT_THAT(all<SampleError>(sink.observations), ::testing::IsEmpty()) << "poll " << i;
    }
    sources::VectorSink refreshed;
    src->refresh(PortRef{"i40iw0", 1}, at(seconds(6)), refreshed);
    EXPECT_THAT(all<SampleError>(refreshed.observations), ::testing::IsEmpty());
    EXPECT_TRUE(all<PKeyTableSample>(refreshed.observations).empty());
    EXPECT_EQ(only<PortStateSample>(refreshed.observations).port, (PortRef{"i40iw0", 1}));
}

// Kernels that made counters/ for every port (4.x) give a device without a PMA the 17
// PortCounters files, each reading "N/A (no PMA)".
void write_no_pma_counters(const std::string& port_dir) {
    for (const char* f :
         {"symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
          "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
          "port_xmit_constraint_errors", "port_rcv_constraint_errors",
          "local_link_integrity_errors", "excessive_buffer_overrun_errors", "VL15_dropped",
          "port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets",
          "port_xmit_wait"}) {
        std::filesystem::create_directories(port_dir + "/counters");
        std::ofstream(port_dir + "/counters/" + f) << "N/A (no PMA)\n";
    }
}

TEST(SysfsAbsentFiles, AnIwarpDeviceOnAnOlderKernelSaysNoPmaAndThatIsNoError) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    write_no_pma_counters(tmp.path() + "/class/infiniband/i40iw0/ports/1");
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(1);
    auto src = source_at(tmp.path(), s);
    for (int i = 0; i < 3; ++i) {
        sources::VectorSink sink;
        src->poll(at(seconds(i)), sink);
        EXPECT_THAT(all<SampleError>(sink.observations), ::testing::IsEmpty()) << "poll " << i;
        for (const auto& c : all<CounterSample>(sink.observations)) {
            EXPECT_FALSE(c.port.device == "i40iw0" && c.kind == CounterKind::pma) << c.name;
        }
    }
}

TEST(SysfsAbsentFiles, NoPmaOnAnInfiniBandDeviceIsNotAvailableNotAnError) {
    // An HCA whose PMA does not answer (a VF, a firmware problem): the kernel says "not available"
    // and the status says it, at every poll, without an error.
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    const std::string port = tmp.path() + "/class/infiniband/mlx4_0/ports/1";
    std::filesystem::remove_all(port + "/counters");
    std::filesystem::remove_all(port + "/counters_ext");
    write_no_pma_counters(port);
    auto obs = sample_all(*source_at(tmp.path()));
    EXPECT_THAT(all<SampleError>(obs), ::testing::IsEmpty());
    EXPECT_EQ(only<SourceStatus>(obs).reason,
              "counters not available on 1 port (mlx4_0:1 counters/: N/A (no PMA))");
}

// Later kernels no longer print "N/A (no PMA)": the read itself fails with get_perf_mad's error.
TEST(SysfsAbsentFiles, AReadTheKernelRefusesForWantOfAPmaIsNotAvailable) {
    auto reader = std::make_unique<FailingReader>();
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx4-i40iw");
    const std::string counters = s.sysfs_root + "/class/infiniband/mlx4_0/ports/1/counters";
    for (const auto& f : std::filesystem::directory_iterator(counters)) {
        reader->fail_read["/mlx4_0/ports/1/counters/" + f.path().filename().string()] = EINVAL;
    }
    SysfsSource src(s, std::move(reader));
    auto obs = sample_all(src);
    EXPECT_THAT(all<SampleError>(obs), ::testing::IsEmpty());
    EXPECT_THAT(only<SourceStatus>(obs).reason,
                ::testing::StartsWith("counters not available on 1 port (mlx4_0:1 counters/: "));
    // counters_ext/ still gives the data and packet counters.
    bool data = false;
    for (const auto& c : all<CounterSample>(obs)) {
        if (c.port == PortRef{"mlx4_0", 1} && c.name == "port_xmit_data") {
            data = true;
            EXPECT_EQ(c.value, 48318382080ULL);
        }
    }
    EXPECT_TRUE(data);
}

TEST(SysfsAbsentFiles, RealFailuresOnTheSameTreeStayErrors) {
    auto reader = std::make_unique<FailingReader>();
    reader->fail_read = {{"/i40iw0/ports/1/hw_counters/tcpRetransSegs", EIO},
                         {"/mlx4_0/ports/1/rate", EACCES},
                         {"/mlx4_0/ports/1/counters_ext/port_xmit_data_64", EIO}};
    // A pkeys/ folder that is there but cannot be listed is not an absent one.
    reader->fail_list = {{"/mlx4_0/ports/1/pkeys", EACCES}, {"/i40iw0/ports/1/pkeys", EIO}};
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx4-i40iw");
    SysfsSource src(s, std::move(reader));
    auto errors = errors_by_subject(sample_all(src));
    EXPECT_EQ(errors.size(), 5u);
    EXPECT_EQ(errors.at("i40iw0:1 hw_counters/tcpRetransSegs").code, EIO);
    EXPECT_EQ(errors.at("mlx4_0:1 rate").code, EACCES);
    EXPECT_EQ(errors.at("mlx4_0:1 counters_ext/port_xmit_data_64").code, EIO);
    EXPECT_EQ(errors.at("mlx4_0:1 pkeys").code, EACCES);
    EXPECT_EQ(errors.at("i40iw0:1 pkeys").code, EIO);
}

TEST(SysfsAbsentFiles, GarbageInAFileThatIsThereIsAnError) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    const std::string hw = tmp.path() + "/class/infiniband/i40iw0/ports/1/hw_counters/";
    std::ofstream(hw + "ip4InDiscards") << "lots\n";
    auto errors = errors_by_subject(sample_all(*source_at(tmp.path())));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors.at("i40iw0:1 hw_counters/ip4InDiscards").code, EINVAL);
}

TEST(SysfsAbsentFiles, AMissingFileTheKernelAlwaysMakesIsStillReported) {
    // Every port has lid, state, ... and gids/ whatever its link layer: one that is missing is
    // not the kernel's layout (a device going away mid-read, or not a sysfs tree).
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    std::filesystem::remove(tmp.path() + "/class/infiniband/i40iw0/ports/1/lid");
    std::filesystem::remove_all(tmp.path() + "/class/infiniband/mlx4_0/ports/1/gids");
    auto errors = errors_by_subject(sample_all(*source_at(tmp.path())));
    EXPECT_EQ(errors.size(), 2u);
    EXPECT_EQ(errors.at("i40iw0:1 lid").code, ENOENT);
    EXPECT_EQ(errors.at("mlx4_0:1 gids").code, ENOENT);
}

}  // namespace
}  // namespace rdmadiag::sysfs
