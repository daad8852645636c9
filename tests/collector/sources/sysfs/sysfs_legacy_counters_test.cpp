// mlx4's counters_ext/: the 64-bit data and packet counters are read under the standard names,
// beside the counters/ files of the same quantities, and each quantity is reported once
// (twin_counter.hpp; tests/fixtures/sysfs/mlx4-i40iw and node-exporter-mlx4-i40iw, mlx4_0).

#include "collector/sources/sysfs/legacy_counters.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "collector/sources/counter_tiers.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;

std::map<std::string, CounterSample> pma_of(const std::vector<Observation>& obs,
                                            const PortRef& port) {
    std::map<std::string, CounterSample> out;
    for (const auto& c : all<CounterSample>(obs)) {
        if (c.port != port || c.kind != CounterKind::pma) continue;
        EXPECT_FALSE(out.contains(c.name)) << "read twice: " << c.name;
        out[c.name] = c;
    }
    return out;
}

const PortRef kMlx4{"mlx4_0", 1};

TEST(SysfsLegacyCounters, TheLargerOfTheTwoFilesIsReportedUnderTheStandardName) {
    auto pma = pma_of(sample_all(*source_at(fixture("mlx4-i40iw"))), kMlx4);
    // 17 counters/ files (the PortCounters set), 4 of them extended, plus 4 only in counters_ext.
    EXPECT_EQ(pma.size(), 17u - 4u + 8u);
    struct Want {
        const char* name;
        uint64_t value;
    };
    for (auto [name, value] :
         {Want{"port_xmit_data", 48318382080ULL}, Want{"port_rcv_data", 3145728000ULL},
          Want{"port_xmit_packets", 5000000000ULL}, Want{"port_rcv_packets", 2971215073ULL},
          Want{"unicast_xmit_packets", 4999000000ULL}, Want{"unicast_rcv_packets", 2971000000ULL},
          Want{"multicast_xmit_packets", 1000000ULL}, Want{"multicast_rcv_packets", 215073ULL}}) {
        ASSERT_TRUE(pma.contains(name)) << name;
        EXPECT_EQ(pma.at(name).value, value) << name;
        EXPECT_EQ(pma.at(name).width, 64) << name;
    }
    // The error counters come from counters/ with their PortCounters widths.
    EXPECT_EQ(pma.at("link_downed").value, 1u);
    EXPECT_EQ(pma.at("link_downed").width, 8);
    EXPECT_EQ(pma.at("port_xmit_discards").value, 12u);
    EXPECT_EQ(pma.at("port_rcv_constraint_errors").value, 3u);
    EXPECT_EQ(pma.at("port_xmit_wait").width, 32);
    // No counter under a counters_ext/ file name.
    for (const auto& [name, c] : pma) {
        EXPECT_FALSE(name.ends_with("_64") || name.starts_with("port_unicast") ||
                     name.starts_with("port_multicast"))
            << name;
    }
}

TEST(SysfsLegacyCounters, BothFilesOfAQuantityAreReadAndReportedOnce) {
    auto reader = std::make_unique<FailingReader>();
    auto* seen = reader.get();
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx4-i40iw");
    SysfsSource src(s, std::move(reader));
    auto pma = pma_of(sample_all(src), kMlx4);
    const std::string port = s.sysfs_root + "/class/infiniband/mlx4_0/ports/1/";
    for (const char* name :
         {"port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets"}) {
        EXPECT_EQ(std::count(seen->reads.begin(), seen->reads.end(), port + "counters/" + name), 1)
            << name;
        EXPECT_EQ(std::count(seen->reads.begin(), seen->reads.end(),
                             port + "counters_ext/" + name + "_64"),
                  1)
            << name;
        EXPECT_TRUE(pma.contains(name)) << name;
    }
}

TEST(SysfsLegacyCounters, AFailedExtendedReadIsAnErrorAndTheOtherFileStillCounts) {
    // The pair's value is 64 bits wide whichever file gave it, so the engine's tracker never
    // needs a new baseline when one of the two is missing for a poll.
    auto reader = std::make_unique<FailingReader>();
    reader->fail_read = {{"/counters_ext/port_rcv_data_64", EIO}};
    sources::SourceSettings s;
    s.sysfs_root = fixture("mlx4-i40iw");
    SysfsSource src(s, std::move(reader));
    auto obs = sample_all(src);
    auto pma = pma_of(obs, kMlx4);
    EXPECT_EQ(pma.at("port_rcv_data").value, 3145728000ULL);
    EXPECT_EQ(pma.at("port_rcv_data").width, 64);
    EXPECT_EQ(pma.at("port_xmit_data").width, 64);
    auto errors = errors_by_subject(obs);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors.at("mlx4_0:1 counters_ext/port_rcv_data_64").code, EIO);
}

// node_exporter's public fixture (tests/fixtures/sysfs/node-exporter-mlx4-i40iw): on port 1 the
// counters_ext/ packet files read 0 beside counters/, on port 2 the counters/ data files read 0
// beside counters_ext/. Each port reports the file that counts.
TEST(SysfsLegacyCounters, TheFileThatCountsWinsOnEitherSide) {
    auto obs = sample_all(*source_at(fixture("node-exporter-mlx4-i40iw")));
    auto one = pma_of(obs, kMlx4);
    EXPECT_EQ(one.at("port_rcv_packets").value, 6825908347ULL);
    EXPECT_EQ(one.at("port_xmit_packets").value, 6235865ULL);
    EXPECT_EQ(one.at("port_rcv_data").value, 4631917ULL);
    auto two = pma_of(obs, PortRef{"mlx4_0", 2});
    EXPECT_EQ(two.at("port_rcv_data").value, 4631917ULL);
    EXPECT_EQ(two.at("port_xmit_data").value, 3733440ULL);
    EXPECT_EQ(two.at("unicast_rcv_packets").value, 61148ULL);
    // Only counters_ext/ has these on port 2.
    EXPECT_EQ(two.at("port_rcv_packets").value, 0u);
}

// The live file changes over time: the total follows the one that counts and never goes back.
TEST(SysfsLegacyCounters, TheTotalNeverGoesBackWhenTheLiveFileChanges) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    const std::string port = tmp.path() + "/class/infiniband/mlx4_0/ports/1/";
    auto write = [&](uint64_t base, uint64_t ext) {
        std::ofstream(port + "counters/port_rcv_packets") << base << "\n";
        std::ofstream(port + "counters_ext/port_rcv_packets_64") << ext << "\n";
    };
    auto src = source_at(tmp.path());
    auto read = [&](int at_s) {
        auto obs = sample_all(*src, at(std::chrono::seconds(at_s)));
        return pma_of(obs, kMlx4).at("port_rcv_packets").value;
    };
    write(6825908347ULL, 0);
    EXPECT_EQ(read(0), 6825908347ULL);
    write(6825909347ULL, 0);
    EXPECT_EQ(read(1), 6825909347ULL);
    // counters_ext/ starts counting and catches up: taken as it is, not added on top.
    write(6825910347ULL, 6825910347ULL);
    EXPECT_EQ(read(2), 6825910347ULL);
    // The port's counters are reset: both files start again from 0; the total goes on.
    write(500, 500);
    EXPECT_EQ(read(3), 6825910847ULL);
    // counters/ stops at a value of its own, counters_ext/ goes on.
    write(500, 1500);
    EXPECT_EQ(read(4), 6825911847ULL);
}

TEST(SysfsLegacyCounters, AnUnknownExtendedFileIsKeptUnderItsOwnName) {
    test::TempTree tmp;
    ASSERT_TRUE(tmp.ok());
    tmp.add_fixture("mlx4-i40iw");
    std::ofstream(tmp.path() + "/class/infiniband/mlx4_0/ports/1/counters_ext/port_rcv_vl15_64")
        << "7\n";
    auto pma = pma_of(sample_all(*source_at(tmp.path())), kMlx4);
    ASSERT_TRUE(pma.contains("port_rcv_vl15_64"));
    EXPECT_EQ(pma.at("port_rcv_vl15_64").value, 7u);
    EXPECT_EQ(pma.at("port_rcv_vl15_64").width, 64);
}

TEST(SysfsLegacyCounters, APortWithoutCountersExtReadsCountersAsBefore) {
    auto pma = counters_by_name(sample_all(*source_at(fixture("mlx5-ib"))), CounterKind::pma);
    EXPECT_EQ(pma.size(), 21u);
    EXPECT_EQ(pma.at("port_xmit_data").value, 18446744073709551615ULL);
}

TEST(SysfsLegacyCounters, EveryLegacyCounterIsOfTheSlowTier) {
    // A pass over the fast tier does not list counters_ext/ at all; that is only right while
    // every counter in it is slow.
    for (const auto& c : legacy_counters()) {
        EXPECT_EQ(sources::counter_tier(CounterKind::pma, c.counter), sources::CounterTier::slow)
            << c.file;
        EXPECT_EQ(legacy_counter_name(c.file), c.counter);
    }
    EXPECT_EQ(legacy_counter_name("symbol_error"), "symbol_error");
}

}  // namespace
}  // namespace rdmadiag::sysfs
