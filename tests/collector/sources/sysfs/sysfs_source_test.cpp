#include "collector/sources/sysfs/sysfs_source.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <string>

#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---- (a) mlx5 InfiniBand port ----------------------------------------------------------------

TEST(SysfsSourceMlx5, ReportsTheDeviceExactly) {
    auto src = source_at(fixture("mlx5-ib"));
    EXPECT_TRUE(src->availability().available);
    auto obs = sample_all(*src);
    for (const auto& o : obs) {
        EXPECT_EQ(o.source, "sysfs");
        EXPECT_EQ(o.time, at(seconds(1)));
    }
    EXPECT_TRUE(all<SampleError>(obs).empty());
    EXPECT_EQ(only<SourceStatus>(obs), (SourceStatus{true, ""}));
    EXPECT_EQ(only<DeviceList>(obs).devices, std::vector<std::string>{"mlx5_0"});

    DeviceInfo want;
    want.device = "mlx5_0";
    want.node_type = "CA";
    want.node_guid = 0x248a070300b41e2aULL;
    want.sys_image_guid = 0x248a070300b41e2aULL;
    want.fw_ver = "16.35.2000";
    want.board_id = "MT_0000000008";
    want.hca_type = "MT4119";
    want.node_desc = "node01 mlx5_0";
    want.transport = Transport::ib;
    EXPECT_EQ(only<DeviceInfo>(obs), want);
}

TEST(SysfsSourceMlx5, ReportsThePortStateExactly) {
    auto src = source_at(fixture("mlx5-ib"));
    auto obs = sample_all(*src);
    PortStateSample want;
    want.port = PortRef{"mlx5_0", 1};
    want.state = PortState::active;
    want.phys_state = 5;
    want.phys_state_text = "LinkUp";
    want.lid = 0x1a;
    want.sm_lid = 0x1;
    want.lmc = 0;
    want.link_layer = LinkLayer::infiniband;
    want.rate = "100 Gb/sec (4X EDR)";
    want.cap_mask = 0x2651e848;
    want.port_guid = 0x248a070300b41e2aULL;
    want.gids = {"fe80:0000:0000:0000:248a:0703:00b4:1e2a"};
    EXPECT_EQ(only<PortStateSample>(obs), want);
}

TEST(SysfsSourceMlx5, ReadsTheWhole128EntryTableWithHolesAndMembership) {
    auto src = source_at(fixture("mlx5-ib"));
    auto t = only<PKeyTableSample>(sample_all(*src));
    EXPECT_EQ(t.port, (PortRef{"mlx5_0", 1}));
    EXPECT_EQ(t.view, PKeyView::device);
    ASSERT_EQ(t.table.keys.size(), 128u);
    EXPECT_TRUE(t.table.complete());
    std::vector<uint16_t> want(128, 0);
    want[0] = 0xffff;
    want[1] = 0x8001;
    want[3] = 0x0002;  // limited member of partition 2
    want[4] = 0x8005;
    want[40] = 0x8010;
    want[127] = 0x7fff;
    EXPECT_EQ(t.table.keys, want);
    EXPECT_EQ(t.table.used(), 6u);
    EXPECT_FALSE(pkey_is_full(t.table.keys[3]));
}

TEST(SysfsSourceMlx5, ReadsEveryCounterWithItsWidth) {
    auto src = source_at(fixture("mlx5-ib"));
    auto obs = sample_all(*src);
    auto pma = counters_by_name(obs, CounterKind::pma);
    EXPECT_EQ(pma.size(), 21u);
    EXPECT_EQ(pma.at("symbol_error").value, 3u);
    EXPECT_EQ(pma.at("symbol_error").width, 16);
    EXPECT_EQ(pma.at("link_downed").value, 1u);
    EXPECT_EQ(pma.at("link_downed").width, 8);
    EXPECT_EQ(pma.at("port_rcv_constraint_errors").value, 255u);
    EXPECT_EQ(pma.at("port_rcv_constraint_errors").width, 8);
    EXPECT_EQ(pma.at("port_xmit_constraint_errors").value, 2u);
    EXPECT_EQ(pma.at("local_link_integrity_errors").width, 4);
    EXPECT_EQ(pma.at("VL15_dropped").width, 16);
    EXPECT_EQ(pma.at("port_xmit_wait").value, 1048576u);
    EXPECT_EQ(pma.at("port_xmit_wait").width, 32);
    EXPECT_EQ(pma.at("port_xmit_data").value, 18446744073709551615ULL);
    EXPECT_EQ(pma.at("port_xmit_data").width, 64);
    EXPECT_EQ(pma.at("port_rcv_data").value, 9876543210ULL);
    EXPECT_EQ(pma.at("multicast_rcv_packets").value, 16000u);
    for (const auto& [name, c] : pma) EXPECT_EQ(c.port, (PortRef{"mlx5_0", 1})) << name;

    auto hw = counters_by_name(obs, CounterKind::hw);
    EXPECT_EQ(hw.size(), 18u);  // lifespan is a setting, not a counter
    EXPECT_FALSE(hw.contains("lifespan"));
    EXPECT_EQ(hw.at("out_of_buffer").value, 17u);
    EXPECT_EQ(hw.at("out_of_buffer").width, 64);
    EXPECT_EQ(hw.at("rx_write_requests").value, 4242u);
    EXPECT_EQ(hw.at("duplicate_request").value, 0u);
}

TEST(SysfsSourceMlx5, EmitsInAStableOrder) {
    auto src = source_at(fixture("mlx5-ib"));
    auto a = sample_all(*src);
    auto b = sample_all(*src);
    EXPECT_EQ(a, b);
    ASSERT_GE(a.size(), 5u);
    EXPECT_TRUE(std::holds_alternative<DeviceList>(a[0].body));
    EXPECT_TRUE(std::holds_alternative<DeviceInfo>(a[1].body));
    EXPECT_TRUE(std::holds_alternative<PortStateSample>(a[2].body));
    EXPECT_TRUE(std::holds_alternative<GidTableSample>(a[3].body));
    EXPECT_TRUE(std::holds_alternative<PKeyTableSample>(a[4].body));
    // The status comes last: it says how this pass read the counters.
    EXPECT_EQ(observation_kind(a.back().body), observation_kind(ObservationBody{SourceStatus{}}));
}

// ---- (b) RoCE -------------------------------------------------------------------------------

TEST(SysfsSourceRoce, ReportsAnRxePortWithoutCountersFolder) {
    auto src = source_at(fixture("rxe-roce"));
    auto obs = sample_all(*src);
    EXPECT_TRUE(all<SampleError>(obs).empty()) << all<SampleError>(obs).front().message;

    auto info = only<DeviceInfo>(obs);
    EXPECT_EQ(info.device, "rxe0");
    EXPECT_EQ(info.node_type, "CA");
    EXPECT_EQ(info.transport, Transport::roce);
    EXPECT_EQ(info.node_desc, "rxe");
    EXPECT_EQ(info.fw_ver, std::nullopt);  // the driver names no firmware: an empty line
    EXPECT_EQ(info.board_id, std::nullopt);
    EXPECT_EQ(info.hca_type, std::nullopt);

    auto port = only<PortStateSample>(obs);
    EXPECT_EQ(port.link_layer, LinkLayer::ethernet);
    EXPECT_EQ(port.rate, "2.5 Gb/sec (1X)");
    EXPECT_EQ(port.lid, 0u);
    EXPECT_EQ(port.cap_mask, 0x00010000u);
    EXPECT_EQ(port.port_guid, std::nullopt);
    EXPECT_THAT(port.gids, ElementsAre("fe80:0000:0000:0000:5054:00ff:fe12:3456",
                                       "fe80:0000:0000:0000:5054:00ff:fe12:3456",
                                       "0000:0000:0000:0000:0000:ffff:c0a8:0a05",
                                       "0000:0000:0000:0000:0000:ffff:c0a8:0a05"));

    auto table = only<PKeyTableSample>(obs);
    EXPECT_EQ(table.table.keys, std::vector<uint16_t>{0xffff});

    EXPECT_TRUE(counters_by_name(obs, CounterKind::pma).empty());
    auto hw = counters_by_name(obs, CounterKind::hw);
    EXPECT_EQ(hw.size(), 15u);
    EXPECT_EQ(hw.at("sent_pkts").value, 1200u);
    EXPECT_EQ(hw.at("link_downed").value, 2u);
    EXPECT_EQ(hw.at("link_downed").kind, CounterKind::hw);
}

TEST(SysfsSourceRoce, ReportsTheGidCacheWithTypesAndNetdevs) {
    auto src = source_at(fixture("rxe-roce"));
    auto obs = sample_all(*src);
    const auto cache = only<GidTableSample>(obs);
    EXPECT_EQ(cache.port, (PortRef{"rxe0", 1}));
    EXPECT_EQ(cache.view, GidView::cache);
    ASSERT_EQ(cache.table.entries.size(), 4u);
    EXPECT_TRUE(cache.table.complete());
    // The kernel prints "IB/RoCE v1" for the type IB and RoCE v1 share: on Ethernet, RoCE v1.
    EXPECT_EQ(cache.table.entries[0], (GidEntry{0, *rdmadiag::parse_gid("fe80::5054:ff:fe12:3456"),
                                                GidType::roce_v1, "dum0"}));
    EXPECT_EQ(cache.table.entries[1].type, GidType::roce_v2);
    EXPECT_EQ(cache.table.entries[3],
              (GidEntry{3, *rdmadiag::parse_gid("::ffff:192.168.10.5"), GidType::roce_v2, "dum0"}));
}

TEST(SysfsSourceMlx5, ReportsTheGidCacheOfAnInfinibandPortWithoutAttributes) {
    auto src = source_at(fixture("mlx5-ib"));
    auto obs = sample_all(*src);
    const auto cache = only<GidTableSample>(obs);
    ASSERT_FALSE(cache.table.entries.empty());
    EXPECT_EQ(cache.table.entries[0].index, 0);
    EXPECT_EQ(cache.table.entries[0].type, GidType::ib);
    EXPECT_TRUE(cache.table.entries[0].ndev.empty());
    EXPECT_EQ(cache.table.entries[0].gid.interface_id(), *only<PortStateSample>(obs).port_guid);
    // A whole read sends the view again: that is what keeps it fresh for the engine.
    auto again = sample_all(*src, at(std::chrono::seconds(2)));
    EXPECT_EQ(only<GidTableSample>(again), cache);
}

// ---- (c) N/A (no PMA) -----------------------------------------------------------------------

TEST(SysfsSourceNoPma, EveryCounterIsNotAvailableNoErrorAndTheRestStays) {
    auto src = source_at(fixture("no-pma"));
    auto obs = sample_all(*src);
    EXPECT_TRUE(counters_by_name(obs, CounterKind::pma).empty());
    EXPECT_THAT(all<SampleError>(obs), ::testing::IsEmpty());
    EXPECT_EQ(only<SourceStatus>(obs).reason,
              "counters not available on 1 port (mlx5_1:1 counters/: N/A (no PMA))");
    auto figures = src->figures();
    auto unavailable = std::find_if(figures.begin(), figures.end(), [](const auto& f) {
        return f.name == "sysfs_counters_unavailable_ports";
    });
    ASSERT_NE(unavailable, figures.end());
    EXPECT_EQ(unavailable->value, 1.0);

    EXPECT_EQ(only<SourceStatus>(obs).up, true);
    EXPECT_EQ(only<DeviceInfo>(obs).hca_type, "MT4120");
    EXPECT_EQ(only<PortStateSample>(obs).state, PortState::active);
    EXPECT_EQ(only<PKeyTableSample>(obs).table.used(), 2u);
    auto hw = counters_by_name(obs, CounterKind::hw);
    EXPECT_EQ(hw.size(), 18u);
    EXPECT_EQ(hw.at("out_of_sequence").value, 5u);
}

// ---- (d) files that fail ----------------------------------------------------------------------

class SysfsSourceBroken : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(tmp.ok());
        tmp.add_fixture("broken");
        // Files git cannot hold: read() fails (EISDIR) whoever runs the test.
        tmp.make_unreadable("class/infiniband/mlx5_2/ports/1/counters/port_xmit_discards");
        tmp.make_unreadable("class/infiniband/mlx5_2/ports/1/pkeys/4");
        tmp.make_unreadable("class/infiniband/mlx5_2/ports/1/sm_lid");
        tmp.make_unreadable("class/infiniband/mlx5_2/hca_type");
    }
    test::TempTree tmp;
};

TEST_F(SysfsSourceBroken, EachBadFileCostsOnlyItsValueAndIsReported) {
    auto src = source_at(tmp.path());
    auto obs = sample_all(*src);
    auto errors = errors_by_subject(obs);

    std::map<std::string, int> want{
        {"mlx5_2 node_guid", EINVAL},                      // garbage
        {"mlx5_2 node_desc", ENODATA},                     // empty file
        {"mlx5_2 hca_type", EISDIR},                       // read() fails
        {"mlx5_2:1 lid", EINVAL},                          // truncated "0x"
        {"mlx5_2:1 sm_lid", EISDIR},                       // read() fails
        {"mlx5_2:1 lid_mask_count", EINVAL},               // negative
        {"mlx5_2:1 rate", EINVAL},                         // garbage
        {"mlx5_2:1 cap_mask", EINVAL},                     // trailing junk
        {"mlx5_2:1 gids/1", EINVAL},                       // compressed IPv6 form
        {"mlx5_2:1 pkeys/1", EINVAL},                      // three hex digits
        {"mlx5_2:1 pkeys/2", ENODATA},                     // empty file
        {"mlx5_2:1 pkeys/3", EINVAL},                      // two lines
        {"mlx5_2:1 pkeys/4", EISDIR},                      // read() fails
        {"mlx5_2:1 counters/symbol_error", EINVAL},        // negative
        {"mlx5_2:1 counters/link_downed", ERANGE},         // beyond 64 bits
        {"mlx5_2:1 counters/port_rcv_errors", EINVAL},     // trailing junk
        {"mlx5_2:1 counters/VL15_dropped", EOVERFLOW},     // overlong
        {"mlx5_2:1 counters/port_xmit_discards", EISDIR},  // read() fails
        {"mlx5_2:1 hw_counters/out_of_buffer", ENODATA},   // empty file
    };
    for (const auto& [subject, code] : want) {
        ASSERT_TRUE(errors.contains(subject)) << "not reported: " << subject;
        EXPECT_EQ(errors.at(subject).code, code) << subject << ": " << errors.at(subject).message;
        EXPECT_FALSE(errors.at(subject).message.empty());
    }
    EXPECT_EQ(errors.size(), want.size());

    // The source and the device stay; every other value is there.
    EXPECT_EQ(only<SourceStatus>(obs).up, true);
    auto info = only<DeviceInfo>(obs);
    EXPECT_EQ(info.node_guid, std::nullopt);
    EXPECT_EQ(info.node_desc, std::nullopt);
    EXPECT_EQ(info.hca_type, std::nullopt);
    EXPECT_EQ(info.sys_image_guid, 0x248a070300b41e50ULL);
    EXPECT_EQ(info.fw_ver, "16.35.2000");
    EXPECT_EQ(info.transport, Transport::ib);

    auto port = only<PortStateSample>(obs);
    EXPECT_EQ(port.state, PortState::active);
    EXPECT_EQ(port.phys_state, 5);
    EXPECT_EQ(port.lid, std::nullopt);
    EXPECT_EQ(port.sm_lid, std::nullopt);
    EXPECT_EQ(port.lmc, std::nullopt);
    EXPECT_EQ(port.rate, std::nullopt);
    EXPECT_EQ(port.cap_mask, std::nullopt);
    EXPECT_EQ(port.link_layer, LinkLayer::infiniband);
    EXPECT_EQ(port.gids, std::vector<std::string>{"fe80:0000:0000:0000:248a:0703:00b4:1e50"});

    auto table = only<PKeyTableSample>(obs).table;
    EXPECT_EQ(table.keys.size(), 8u);
    EXPECT_EQ(table.keys[0], 0xffff);
    EXPECT_EQ(table.unreadable, (std::vector<uint16_t>{1, 2, 3, 4}));
    EXPECT_EQ(table.used(), 1u);

    auto pma = counters_by_name(obs, CounterKind::pma);
    EXPECT_EQ(pma.size(), 21u - 5u);
    for (const char* gone :
         {"symbol_error", "link_downed", "port_rcv_errors", "VL15_dropped", "port_xmit_discards"}) {
        EXPECT_FALSE(pma.contains(gone)) << gone << " must be absent, not 0";
    }
    EXPECT_EQ(pma.at("port_rcv_constraint_errors").value, 7u);
    auto hw = counters_by_name(obs, CounterKind::hw);
    EXPECT_FALSE(hw.contains("out_of_buffer"));
    EXPECT_EQ(hw.at("out_of_sequence").value, 4u);
}

TEST_F(SysfsSourceBroken, ABrokenDeviceDoesNotChangeWhatAHealthyOneReports) {
    auto alone = sample_all(*source_at(fixture("mlx5-ib")));
    tmp.add_fixture("mlx5-ib");
    auto together = sample_all(*source_at(tmp.path()));

    EXPECT_EQ(only<DeviceList>(together).devices, (std::vector<std::string>{"mlx5_0", "mlx5_2"}));
    auto about_mlx5_0 = [](const std::vector<Observation>& obs) {
        std::vector<Observation> out;
        for (const auto& o : obs) {
            if (std::holds_alternative<SourceStatus>(o.body) ||
                std::holds_alternative<DeviceList>(o.body)) {
                continue;
            }
            auto text = std::visit(
                [](const auto& b) -> std::string {
                    using B = std::decay_t<decltype(b)>;
                    if constexpr (std::is_same_v<B, DeviceInfo>) return b.device;
                    if constexpr (std::is_same_v<B, SampleError>) return b.subject;
                    if constexpr (requires { b.port.device; }) return b.port.device;
                    return "";
                },
                o.body);
            if (text.rfind("mlx5_0", 0) == 0) out.push_back(o);
        }
        return out;
    };
    EXPECT_EQ(about_mlx5_0(together), about_mlx5_0(alone));
    EXPECT_FALSE(all<SampleError>(together).empty());
}

TEST_F(SysfsSourceBroken, AP_KeyEntryBeyondSixteenBitsIsReportedNotAllocated) {
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/class/infiniband/mlx5_2/ports/1/pkeys/70000",
                                      "0xffff\n")
                    .ok());
    auto obs = sample_all(*source_at(tmp.path()));
    auto errors = errors_by_subject(obs);
    ASSERT_TRUE(errors.contains("mlx5_2:1 pkeys/70000"));
    EXPECT_EQ(errors.at("mlx5_2:1 pkeys/70000").code, ERANGE);
    EXPECT_EQ(only<PKeyTableSample>(obs).table.keys.size(), 8u);
}

TEST(SysfsSourceInjected, DriverErrorsAreReportedWithTheirErrno) {
    auto reader = std::make_unique<FailingReader>();
    reader->fail_read = {{"/ports/1/rate", EINVAL},
                         {"/pkeys/40", EACCES},
                         {"/counters/symbol_error", EAGAIN},
                         {"/mlx5_0/fw_ver", EINVAL},
                         {"/mlx5_0/board_id", ENOENT}};  // optional: absent, not an error
    reader->fail_list = {{"/ports/1/hw_counters", EACCES}};
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx5-ib");
    SysfsSource src(s, std::move(reader));
    auto obs = sample_all(src);
    auto errors = errors_by_subject(obs);
    EXPECT_EQ(errors.size(), 5u);
    EXPECT_EQ(errors.at("mlx5_0:1 rate").code, EINVAL);
    EXPECT_EQ(errors.at("mlx5_0:1 pkeys/40").code, EACCES);
    EXPECT_EQ(errors.at("mlx5_0:1 counters/symbol_error").code, EAGAIN);
    EXPECT_EQ(errors.at("mlx5_0 fw_ver").code, EINVAL);
    EXPECT_EQ(errors.at("mlx5_0:1 hw_counters").code, EACCES);

    EXPECT_EQ(only<PortStateSample>(obs).rate, std::nullopt);
    EXPECT_EQ(only<PortStateSample>(obs).lid, 0x1au);
    auto table = only<PKeyTableSample>(obs).table;
    EXPECT_EQ(table.unreadable, std::vector<uint16_t>{40});
    EXPECT_EQ(table.used(), 5u);
    EXPECT_FALSE(counters_by_name(obs, CounterKind::pma).contains("symbol_error"));
    EXPECT_EQ(counters_by_name(obs, CounterKind::pma).size(), 20u);
    EXPECT_TRUE(counters_by_name(obs, CounterKind::hw).empty());
    EXPECT_EQ(only<DeviceInfo>(obs).board_id, std::nullopt);
    EXPECT_EQ(only<DeviceInfo>(obs).hca_type, "MT4119");
}

TEST(SysfsSourceInjected, AnUnlistablePortsFolderCostsOnlyThatDevice) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    tmp.add_fixture("rxe-roce");
    auto reader = std::make_unique<FailingReader>();
    reader->fail_list = {{"/rxe0/ports", EACCES}};
    sources::SourceSettings s;
    s.sysfs_root = tmp.path();
    SysfsSource src(s, std::move(reader));
    auto obs = sample_all(src);
    auto errors = errors_by_subject(obs);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors.at("rxe0 ports").code, EACCES);
    EXPECT_EQ(all<DeviceInfo>(obs).size(), 2u);
    EXPECT_EQ(only<PortStateSample>(obs).port, (PortRef{"mlx5_0", 1}));
}

// ---- no devices -------------------------------------------------------------------------------

TEST(SysfsSourceAvailability, MissingClassFolderMeansDownWithAReason) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    auto src = source_at(tmp.path());
    auto a = src->availability();
    EXPECT_FALSE(a.available);
    EXPECT_EQ(a.reason, "no RDMA devices under " + tmp.path() + "/class/infiniband");
    sources::VectorSink sink;
    src->poll(at(seconds(0)), sink);
    ASSERT_EQ(sink.observations.size(), 2u);
    EXPECT_EQ(std::get<SourceStatus>(sink.observations[0].body), (SourceStatus{false, a.reason}));
    EXPECT_EQ(std::get<DeviceList>(sink.observations[1].body), DeviceList{});
}

TEST(SysfsSourceAvailability, EmptyClassFolderMeansDown) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    std::filesystem::create_directories(tmp.path() + "/class/infiniband");
    auto src = source_at(tmp.path());
    EXPECT_FALSE(src->availability().available);
    EXPECT_EQ(src->availability().reason,
              "no RDMA devices under " + tmp.path() + "/class/infiniband");
}

TEST(SysfsSourceAvailability, TheRealSysDefaultNamesSysClassInfiniband) {
    // Whatever this machine has, the reason (if any) names the real path.
    auto src = make_sysfs_source(sources::SourceSettings{});
    ASSERT_TRUE(src.ok());
    auto a = (*src)->availability();
    if (!a.available) {
        EXPECT_EQ(a.reason, "no RDMA devices under /sys/class/infiniband");
    }
}

TEST(SysfsSourceAvailability, ADeviceThatAppearsLaterIsPickedUp) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    auto src = source_at(tmp.path(), s);
    sources::VectorSink first;
    src->poll(at(seconds(0)), first);
    EXPECT_FALSE(only<SourceStatus>(first.observations).up);

    tmp.add_fixture("rxe-roce");
    sources::VectorSink second;
    src->poll(at(seconds(1)), second);
    EXPECT_TRUE(only<SourceStatus>(second.observations).up);
    // New devices are described on the fast cadence without waiting for the slow one.
    EXPECT_EQ(only<DeviceInfo>(second.observations).device, "rxe0");
    EXPECT_EQ(only<PortStateSample>(second.observations).gids.size(), 4u);
    EXPECT_TRUE(all<PKeyTableSample>(second.observations).empty());
}

// ---- settings ---------------------------------------------------------------------------------

TEST(SysfsSourceSettings, ExcludedDevicesAreNeverRead) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    tmp.add_fixture("broken");
    sources::SourceSettings s;
    s.exclude_devices = {"mlx5_2"};
    auto reader = std::make_unique<FailingReader>();
    // Any read under the excluded device would be reported as an error.
    reader->fail_read = {{"mlx5_2/node_type", EIO}};
    reader->fail_list = {{"mlx5_2/ports", EIO}};
    s.sysfs_root = tmp.path();
    SysfsSource src(s, std::move(reader));
    auto obs = sample_all(src);
    EXPECT_TRUE(all<SampleError>(obs).empty());
    EXPECT_EQ(only<DeviceList>(obs).devices, std::vector<std::string>{"mlx5_0"});
    EXPECT_EQ(only<DeviceInfo>(obs).device, "mlx5_0");
}

TEST(SysfsSourceSettings, IncludePatternsSelectDevices) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    tmp.add_fixture("rxe-roce");
    sources::SourceSettings s;
    s.include_devices = {"rxe*"};
    auto obs = sample_all(*source_at(tmp.path(), s));
    EXPECT_EQ(only<DeviceList>(obs).devices, std::vector<std::string>{"rxe0"});

    s.include_devices = {"nothing*"};
    auto none = source_at(tmp.path(), s);
    EXPECT_FALSE(none->availability().available);
    EXPECT_THAT(none->availability().reason, HasSubstr("device filter excludes all 2"));
}

TEST(SysfsSourceSettings, FactoryRejectsNonPositiveIntervals) {
    sources::SourceSettings s;
    s.counter_interval = Duration::zero();
    EXPECT_FALSE(make_sysfs_source(s).ok());
    s.counter_interval = seconds(1);
    s.pkey_interval = -seconds(1);
    EXPECT_FALSE(make_sysfs_source(s).ok());
    s.pkey_interval = seconds(10);
    s.slow_counter_interval = Duration::zero();
    EXPECT_FALSE(make_sysfs_source(s).ok());
    s.slow_counter_interval = seconds(15);
    auto ok = make_sysfs_source(s);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ((*ok)->name(), "sysfs");
}

// ---- cadences ---------------------------------------------------------------------------------

struct PollCounts {
    size_t tables = 0;
    size_t states = 0;
    size_t counters = 0;
    size_t infos = 0;
};
PollCounts count(const std::vector<Observation>& obs) {
    return PollCounts{all<PKeyTableSample>(obs).size(), all<PortStateSample>(obs).size(),
                      all<CounterSample>(obs).size(), all<DeviceInfo>(obs).size()};
}

TEST(SysfsSourceCadence, TablesArePolledMoreSlowlyThanCounters) {
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(1);  // every counter at the fast cadence
    s.pkey_interval = seconds(10);
    s.extra["sysfs.pkey_full_interval"] = "20s";
    auto src = source_at(fixture("mlx5-ib"), s);
    EXPECT_EQ(src->poll_interval(), seconds(1));

    const TimePoint t0 = at(seconds(100));
    std::vector<PollCounts> polls;
    for (int i = 0; i <= 20; ++i) {
        sources::VectorSink sink;
        src->poll(t0 + seconds(i), sink);
        polls.push_back(count(sink.observations));
    }
    for (int i = 0; i <= 20; ++i) {
        const bool slow = i % 10 == 0;
        EXPECT_EQ(polls[i].tables, slow ? 1u : 0u) << "poll " << i;
        // The device's identity with the whole tables.
        EXPECT_EQ(polls[i].infos, i % 20 == 0 ? 1u : 0u) << "poll " << i;
        EXPECT_EQ(polls[i].states, 1u) << "poll " << i;
        EXPECT_EQ(polls[i].counters, 21u + 18u) << "poll " << i;
    }
}

TEST(SysfsSourceCadence, NothingIsDueBetweenTicksAndLatePollsDoNotDrift) {
    sources::SourceSettings s;
    s.counter_interval = seconds(2);
    s.slow_counter_interval = seconds(2);
    s.pkey_interval = seconds(5);
    auto src = source_at(fixture("mlx5-ib"), s);
    EXPECT_EQ(src->poll_interval(), seconds(2));
    auto poll = [&](Duration t) {
        sources::VectorSink sink;
        src->poll(at(t), sink);
        return count(sink.observations);
    };
    EXPECT_EQ(poll(seconds(0)).tables, 1u);
    auto between = poll(milliseconds(1500));
    EXPECT_EQ(between.states + between.tables + between.counters, 0u);
    // Slightly late: still counted from the slot, so the next one is due at 4 s, not 4.3 s.
    EXPECT_EQ(poll(milliseconds(2300)).counters, 39u);
    EXPECT_EQ(poll(seconds(4)).counters, 39u);
    EXPECT_EQ(poll(seconds(5)).tables, 1u);
    EXPECT_EQ(poll(seconds(5)).tables + poll(seconds(5)).counters, 0u);
    // Far behind (a suspended host): one catch-up poll, not a burst.
    EXPECT_EQ(poll(seconds(60)).tables, 1u);
    EXPECT_EQ(poll(seconds(61)).counters, 0u);
    EXPECT_EQ(poll(seconds(62)).counters, 39u);
}

TEST(SysfsSourceCadence, PKeyIntervalShorterThanCountersSetsThePollInterval) {
    sources::SourceSettings s;
    s.counter_interval = seconds(30);
    s.slow_counter_interval = seconds(60);
    s.pkey_interval = seconds(5);
    EXPECT_EQ(source_at(fixture("mlx5-ib"), s)->poll_interval(), seconds(5));
}

// The port's other attributes are read with the whole tables, on a refresh (the engine asks for
// one on LID_CHANGE, SM_CHANGE, ...) and at once when the port's state changes; the state itself
// on every pass; the folder listings with the whole tables.
TEST(SysfsSourceCadence, PortAttributesFollowTheStateARefreshAndTheWholeTables) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(1);
    s.pkey_interval = seconds(10);
    s.extra["sysfs.pkey_full_interval"] = "40s";
    auto src = source_at(tmp.path(), s);
    auto poll = [&](int t) {
        sources::VectorSink sink;
        src->poll(at(seconds(t)), sink);
        EXPECT_TRUE(all<SampleError>(sink.observations).empty()) << "poll at " << t << " s";
        return sink.observations;
    };
    const auto first = only<PortStateSample>(poll(0));
    ASSERT_TRUE(first.lid.has_value());
    const std::string port = tmp.path() + "/class/infiniband/mlx5_0/ports/1";

    // A new LID alone waits for a refresh or the whole tables, not the tables' pass; the state is
    // read on every pass.
    ASSERT_TRUE(test::write_text_file(port + "/lid", "0x77\n").ok());
    auto carried = only<PortStateSample>(poll(1));
    EXPECT_EQ(carried.lid, first.lid);
    EXPECT_EQ(carried.rate, first.rate);
    EXPECT_EQ(carried.cap_mask, first.cap_mask);
    EXPECT_EQ(only<PortStateSample>(poll(10)).lid, first.lid);
    sources::VectorSink refreshed;
    src->refresh(PortRef{"mlx5_0", 1}, at(seconds(10)), refreshed);
    EXPECT_EQ(only<PortStateSample>(refreshed.observations).lid, 0x77u);

    // A state change brings every attribute with it.
    ASSERT_TRUE(test::write_text_file(port + "/lid", "0x78\n").ok());
    ASSERT_TRUE(test::write_text_file(port + "/state", "1: DOWN\n").ok());
    auto down = only<PortStateSample>(poll(11));
    EXPECT_EQ(down.state, PortState::down);
    EXPECT_EQ(down.lid, 0x78u);

    // A port that is not Active has its physical state read on every pass: a pulled cable
    // (Polling) and a disabled port look alike in the logical state.
    ASSERT_TRUE(test::write_text_file(port + "/phys_state", "3: Disabled\n").ok());
    auto disabled = only<PortStateSample>(poll(12));
    EXPECT_EQ(disabled.state, PortState::down);
    EXPECT_EQ(disabled.phys_state, 3u);
    EXPECT_EQ(disabled.phys_state_text, "Disabled");
    // Active again: LinkUp is read with the change, then carried while the port stays Active.
    ASSERT_TRUE(test::write_text_file(port + "/state", "4: ACTIVE\n").ok());
    ASSERT_TRUE(test::write_text_file(port + "/phys_state", "5: LinkUp\n").ok());
    EXPECT_EQ(only<PortStateSample>(poll(13)).phys_state, 5u);
    ASSERT_TRUE(test::write_text_file(port + "/phys_state", "6: LinkErrorRecovery\n").ok());
    auto carried_up = only<PortStateSample>(poll(14));
    EXPECT_EQ(carried_up.phys_state, 5u);
    EXPECT_EQ(carried_up.phys_state_text, "LinkUp");
    EXPECT_EQ(only<PortStateSample>(poll(20)).phys_state, 5u) << "carried past the tables";

    // A counter file that appears is listed with the next whole tables, which read the
    // attributes again.
    ASSERT_TRUE(test::write_text_file(port + "/hw_counters/new_counter", "5\n").ok());
    EXPECT_FALSE(counters_by_name(poll(21), CounterKind::hw).contains("new_counter"));
    EXPECT_FALSE(counters_by_name(poll(30), CounterKind::hw).contains("new_counter"));
    const auto whole = poll(40);
    EXPECT_TRUE(counters_by_name(whole, CounterKind::hw).contains("new_counter"));
    EXPECT_EQ(only<PortStateSample>(whole).phys_state, 6u);
}

TEST(SysfsSourceSettings, ReadsOptionHoldsFilesOpenOnlyOnAMountedSysfs) {
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx5-ib");
    EXPECT_FALSE(held_reads_wanted(with_sysfs_options(s)))
        << "a fixture tree's files may be replaced under a held descriptor";
    s.extra["sysfs.reads"] = "held";
    EXPECT_TRUE(held_reads_wanted(with_sysfs_options(s)));
    s.extra["sysfs.reads"] = "reopen";
    EXPECT_FALSE(held_reads_wanted(with_sysfs_options(s)));
    s.extra["sysfs.reads"] = "cached";
    auto bad = sources::resolve_source_options("sysfs", sysfs_options(), s);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "sysfs source: sysfs.reads must be auto, held or reopen, not 'cached'");
}

// With the files of every pass held open, a pass reads what a pass reads by opening them.
TEST(SysfsSourceSettings, HeldReadsGiveWhatReopenedReadsGive) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    sources::SourceSettings s;
    s.sysfs_root = tmp.path();
    auto reopened = make_sysfs_source(with_sysfs_options(s));
    s.extra["sysfs.reads"] = "held";
    auto held = make_sysfs_source(with_sysfs_options(s));
    ASSERT_TRUE(reopened.ok() && held.ok());
    const std::string port = tmp.path() + "/class/infiniband/mlx5_0/ports/1";
    for (int t = 0; t < 3; ++t) {
        ASSERT_TRUE(test::write_text_file(port + "/counters/port_rcv_constraint_errors",
                                          std::to_string(t * 7) + "\n")
                        .ok());
        sources::VectorSink a, b;
        (*reopened)->poll(at(seconds(t)), a);
        (*held)->poll(at(seconds(t)), b);
        EXPECT_EQ(a.observations, b.observations) << "poll " << t;
        EXPECT_EQ(
            counters_by_name(b.observations, CounterKind::pma)["port_rcv_constraint_errors"].value,
            t * 7u);
    }
}

// ---- refresh ----------------------------------------------------------------------------------

TEST(SysfsSourceRefresh, ReReadsThatPortsTableAndStateNow) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx5-ib");
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(1);
    s.pkey_interval = seconds(60);
    auto src = source_at(tmp.path(), s);
    sources::VectorSink first;
    src->poll(at(seconds(0)), first);
    EXPECT_EQ(only<PKeyTableSample>(first.observations).table.keys[1], 0x8001);

    // The SM moves key 0x8001 from index 1 to index 7 and the port goes down.
    const std::string port = tmp.path() + "/class/infiniband/mlx5_0/ports/1";
    ASSERT_TRUE(test::write_text_file(port + "/pkeys/1", "0x0000\n").ok());
    ASSERT_TRUE(test::write_text_file(port + "/pkeys/7", "0x8001\n").ok());
    ASSERT_TRUE(test::write_text_file(port + "/state", "1: DOWN\n").ok());

    sources::VectorSink fast;
    src->poll(at(seconds(1)), fast);
    EXPECT_TRUE(all<PKeyTableSample>(fast.observations).empty());
    EXPECT_EQ(only<PortStateSample>(fast.observations).state, PortState::down);

    sources::VectorSink refreshed;
    src->refresh(PortRef{"mlx5_0", 1}, at(milliseconds(1200)), refreshed);
    auto table = only<PKeyTableSample>(refreshed.observations);
    EXPECT_EQ(table.table.keys[1], 0x0000);
    EXPECT_EQ(table.table.keys[7], 0x8001);
    EXPECT_EQ(only<PortStateSample>(refreshed.observations).state, PortState::down);
    EXPECT_TRUE(all<CounterSample>(refreshed.observations).empty());
    EXPECT_TRUE(all<SampleError>(refreshed.observations).empty());
    for (const auto& o : refreshed.observations) EXPECT_EQ(o.time, at(milliseconds(1200)));

    // The refresh does not move the cadences.
    sources::VectorSink next;
    src->poll(at(seconds(2)), next);
    EXPECT_TRUE(all<PKeyTableSample>(next.observations).empty());
    EXPECT_EQ(all<CounterSample>(next.observations).size(), 39u);
}

TEST(SysfsSourceRefresh, PortZeroMeansEveryPortOfTheDevice) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    test::SysfsTreeSpec spec;
    spec.devices = 2;
    spec.ports = 2;
    spec.pkeys = 16;
    ASSERT_TRUE(test::write_sysfs_tree(tmp.path(), spec).ok());
    auto src = source_at(tmp.path());
    sources::VectorSink sink;
    src->refresh(PortRef{"mlx5_1", 0}, at(seconds(3)), sink);
    auto tables = all<PKeyTableSample>(sink.observations);
    ASSERT_EQ(tables.size(), 2u);
    EXPECT_EQ(tables[0].port, (PortRef{"mlx5_1", 1}));
    EXPECT_EQ(tables[1].port, (PortRef{"mlx5_1", 2}));
}

TEST(SysfsSourceRefresh, UnknownDeviceOrPortIsReported) {
    auto src = source_at(fixture("mlx5-ib"));
    sources::VectorSink sink;
    src->refresh(PortRef{"mlx5_9", 1}, at(seconds(1)), sink);
    src->refresh(PortRef{"mlx5_0", 9}, at(seconds(1)), sink);
    auto errors = errors_by_subject(sink.observations);
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_EQ(errors.at("mlx5_9:1").code, ENODEV);
    EXPECT_EQ(errors.at("mlx5_0:9").code, ENOENT);
    EXPECT_TRUE(all<PKeyTableSample>(sink.observations).empty());
}

// ---- the generated tree -----------------------------------------------------------------------

TEST(SysfsSourceGenerated, ReadsEveryDeviceAndPortOfALargeTree) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    test::SysfsTreeSpec spec;
    spec.devices = 4;
    ASSERT_TRUE(test::write_sysfs_tree(tmp.path(), spec).ok());
    auto obs = sample_all(*source_at(tmp.path()));
    EXPECT_TRUE(all<SampleError>(obs).empty());
    EXPECT_EQ(only<DeviceList>(obs).devices.size(), 4u);
    EXPECT_EQ(all<DeviceInfo>(obs).size(), 4u);
    EXPECT_EQ(all<PortStateSample>(obs).size(), 8u);
    auto tables = all<PKeyTableSample>(obs);
    ASSERT_EQ(tables.size(), 8u);
    for (const auto& t : tables) {
        EXPECT_EQ(t.table.keys.size(), 128u);
        EXPECT_EQ(t.table.keys[0], 0xffff);
        // Packed at the table's start: 13 keys in 128 entries.
        EXPECT_EQ(t.table.keys[3], 0x8011);
        EXPECT_EQ(t.table.keys[5], 0x0023);
        EXPECT_EQ(t.table.used(), 13u);
        EXPECT_EQ(t.table.keys[13], 0);
    }
    EXPECT_EQ(all<CounterSample>(obs).size(), 8u * (21u + 18u));
}

}  // namespace
}  // namespace rdmadiag::sysfs
