// The two counter tiers of the sysfs source: the fast tier every counter_interval, the slow tier
// only when slow_counter_interval is due. An Active port's state comes with the slow tier (and the
// tables), any other port's with every pass. Narrow counters read from their files are on the
// fast cadence only while they move or after a change of state.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "collector/sources/counter_tiers.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::milliseconds;
using std::chrono::seconds;

// The 12 counters/ files of the mlx5-ib fixture that are of the fast tier.
const std::set<std::string> kFastPma{"symbol_error",
                                     "link_error_recovery",
                                     "link_downed",
                                     "port_rcv_errors",
                                     "port_rcv_remote_physical_errors",
                                     "port_rcv_switch_relay_errors",
                                     "port_xmit_discards",
                                     "port_xmit_constraint_errors",
                                     "port_rcv_constraint_errors",
                                     "local_link_integrity_errors",
                                     "excessive_buffer_overrun_errors",
                                     "VL15_dropped"};
// Those a finding is built on: every fast pass reads them.
const std::set<std::string> kFindingPma{"port_xmit_constraint_errors",
                                        "port_rcv_constraint_errors"};

struct Poll {
    std::set<std::string> pma, hw;            // counters reported
    std::set<std::string> read_pma, read_hw;  // counters/ and hw_counters/ files read
    size_t states = 0;
    size_t reads = 0;  // files read
    size_t device_listings = 0;
    std::optional<std::vector<std::string>> device_list;  // as reported
};

class TieredSource {
public:
    // `root`: a tree to read instead of the fixture (one a test writes to).
    TieredSource(const std::string& fixture_name, sources::SourceSettings s,
                 const std::string& root = "") {
        auto reader = std::make_unique<FailingReader>();
        reader_ = reader.get();
        s.sysfs_root = root.empty() ? fixture(fixture_name) : root;
        src_ = std::make_unique<SysfsSource>(s, std::move(reader));
    }
    Poll poll(Duration t) {
        sources::VectorSink sink;
        reader_->reads.clear();
        reader_->listings.clear();
        src_->poll(at(t), sink);
        Poll p;
        for (const auto& c : all<CounterSample>(sink.observations)) {
            (c.kind == CounterKind::hw ? p.hw : p.pma).insert(c.name);
        }
        p.states = all<PortStateSample>(sink.observations).size();
        p.device_listings = static_cast<size_t>(
            std::count(reader_->listings.begin(), reader_->listings.end(), src_->class_dir()));
        if (auto lists = all<DeviceList>(sink.observations); !lists.empty()) {
            p.device_list = lists.back().devices;
        }
        p.reads = reader_->reads.size();
        for (const auto& path : reader_->reads) {
            for (auto [folder, set] :
                 {std::pair{"/counters/", &p.read_pma}, std::pair{"/hw_counters/", &p.read_hw}}) {
                if (auto at = path.find(folder); at != std::string::npos) {
                    set->insert(path.substr(at + std::string_view(folder).size()));
                }
            }
        }
        last_reads_ = reader_->reads;
        EXPECT_TRUE(all<SampleError>(sink.observations).empty());
        return p;
    }
    const std::vector<std::string>& last_reads() const { return last_reads_; }
    SysfsSource& source() { return *src_; }

private:
    FailingReader* reader_ = nullptr;
    std::unique_ptr<SysfsSource> src_;
    std::vector<std::string> last_reads_;
};

TEST(SysfsCounterTiers, FastCountersEveryPollSlowOnlyWhenDue) {
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(5);
    s.pkey_interval = seconds(60);
    TieredSource src("mlx5-ib", s);
    EXPECT_EQ(src.source().poll_interval(), seconds(1));
    for (int i = 0; i <= 10; ++i) {
        auto p = src.poll(seconds(100 + i));
        const bool slow = i % 5 == 0;
        // The port is Active: its state comes with the slow tier.
        EXPECT_EQ(p.states, slow ? 1u : 0u) << "poll " << i;
        if (slow) {
            EXPECT_EQ(p.pma.size(), 21u) << "poll " << i;
            EXPECT_EQ(p.hw.size(), 18u) << "poll " << i;
            EXPECT_TRUE(p.pma.contains("port_xmit_data"));
            EXPECT_TRUE(p.pma.contains("port_xmit_wait"));
        } else {
            // The narrow counters have not moved: the fast tier is the counters findings read,
            // and as their values have not moved either, none is reported.
            EXPECT_EQ(p.read_pma, kFindingPma) << "poll " << i;
            EXPECT_TRUE(p.pma.empty()) << "poll " << i;
            EXPECT_TRUE(p.hw.empty()) << "poll " << i;
            // Not read, not merely not reported.
            for (const auto& path : src.last_reads()) {
                EXPECT_EQ(path.find("/hw_counters/"), std::string::npos) << path;
                EXPECT_EQ(path.find("/counters/port_xmit_data"), std::string::npos) << path;
            }
        }
    }
}

TEST(SysfsCounterTiers, AFastPassReadsFarFewerFiles) {
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(15);
    s.pkey_interval = seconds(60);
    TieredSource src("mlx5-ib", s);
    src.poll(seconds(0));  // everything: identity, GIDs, tables, both tiers
    const auto slow = src.poll(seconds(15));
    const auto fast = src.poll(seconds(16));
    // 2 counters (the narrow ones are quiet) against the Active port's state, 21 and 18.
    EXPECT_EQ(fast.reads, 2u);
    EXPECT_EQ(slow.reads, 1u + 21u + 18u);
}

TEST(SysfsCounterTiers, Mlx4CountersExtIsLeftAloneOnFastPasses) {
    sources::SourceSettings s;
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(3);
    TieredSource src("mlx4-i40iw", s);
    auto first = src.poll(seconds(0));
    EXPECT_TRUE(first.pma.contains("port_xmit_data"));
    EXPECT_TRUE(first.pma.contains("unicast_rcv_packets"));
    auto fast = src.poll(seconds(1));
    EXPECT_FALSE(fast.pma.contains("port_xmit_data"));
    EXPECT_TRUE(fast.read_pma.contains("port_rcv_constraint_errors"));
    for (const auto& path : src.last_reads()) {
        EXPECT_EQ(path.find("/counters_ext/"), std::string::npos) << path;
    }
    EXPECT_TRUE(src.poll(seconds(3)).pma.contains("port_xmit_data"));
}

TEST(SysfsCounterTiers, ASlowIntervalShorterThanTheFastOneMeansEveryCounterAtTheFastOne) {
    sources::SourceSettings s;
    s.counter_interval = seconds(2);
    s.slow_counter_interval = milliseconds(500);
    s.pkey_interval = seconds(60);
    TieredSource src("mlx5-ib", s);
    EXPECT_EQ(src.source().poll_interval(), seconds(2));
    for (int i = 0; i < 4; ++i) {
        auto p = src.poll(seconds(2 * i));
        EXPECT_EQ(p.pma.size(), 21u) << "poll " << i;
        EXPECT_EQ(p.hw.size(), 18u) << "poll " << i;
    }
}

TEST(SysfsCounterTiers, SlowAndFastCadencesKeepTheirOwnSlots) {
    // Intervals that are not multiples of each other: each tier is due on its own schedule.
    sources::SourceSettings s;
    s.counter_interval = seconds(2);
    s.slow_counter_interval = seconds(3);
    s.pkey_interval = seconds(60);
    TieredSource src("mlx5-ib", s);
    std::vector<std::pair<bool, bool>> seen;  // (fast read, slow read)
    for (int t = 0; t <= 6; ++t) {
        auto p = src.poll(seconds(t));
        seen.emplace_back(p.read_pma.contains("port_rcv_constraint_errors"),
                          p.read_pma.contains("port_rcv_data"));
    }
    const std::vector<std::pair<bool, bool>> want{{true, true},  {false, false}, {true, false},
                                                  {false, true}, {true, false},  {false, false},
                                                  {true, true}};
    EXPECT_EQ(seen, want);
}

class NarrowCounters : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(tmp_.ok());
        tmp_.add_fixture("mlx5-ib");
        sources::SourceSettings s;
        s.counter_interval = seconds(1);
        s.slow_counter_interval = seconds(5);
        s.pkey_interval = seconds(600);
        src_ = std::make_unique<TieredSource>("mlx5-ib", s, tmp_.path());
    }
    void write(const std::string& file, const std::string& text) {
        ASSERT_TRUE(test::write_text_file(port_ + file, text + "\n").ok());
    }
    // Whether poll t read the narrow counters, and whether it read them all.
    bool narrow_read(int t) {
        auto p = src_->poll(seconds(t));
        states_ += p.states;
        const auto& read = p.read_pma;
        EXPECT_TRUE(std::includes(read.begin(), read.end(), kFindingPma.begin(), kFindingPma.end()))
            << "poll " << t;
        const bool any = read.contains("symbol_error");
        if (any) {
            EXPECT_TRUE(std::includes(read.begin(), read.end(), kFastPma.begin(), kFastPma.end()))
                << "poll " << t;
        }
        last_ = std::move(p);
        return any;
    }
    double fast_ports() {
        for (const auto& f : src_->source().figures()) {
            if (f.name == "sysfs_narrow_fast_ports") return f.value;
        }
        ADD_FAILURE() << "no sysfs_narrow_fast_ports figure";
        return -1;
    }

    test::TempTree tmp_;
    std::unique_ptr<TieredSource> src_;
    size_t states_ = 0;  // port states the polls reported
    Poll last_;          // what the last narrow_read saw
    std::string port_ = tmp_.path() + "/class/infiniband/mlx5_0/ports/1/";
};

TEST_F(NarrowCounters, ThatMovedAreReadEveryFastPassForASlowInterval) {
    std::vector<bool> seen;
    for (int t = 0; t <= 4; ++t) seen.push_back(narrow_read(t));
    EXPECT_EQ(fast_ports(), 0);
    // A bad cable: symbol errors start counting. The slow pass at 5 sees it...
    write("counters/symbol_error", "40");
    seen.push_back(narrow_read(5));
    EXPECT_EQ(fast_ports(), 1);
    // ... and fast passes read every narrow counter until a slow interval passes quietly.
    for (int t = 6; t <= 12; ++t) seen.push_back(narrow_read(t));
    EXPECT_EQ(fast_ports(), 0);
    const std::vector<bool> want{true, false, false, false, false, true, true,
                                 true, true,  true,  true,  false, false};
    EXPECT_EQ(seen, want);
}

TEST_F(NarrowCounters, KeepMovingKeepsThemFast) {
    narrow_read(0);
    write("counters/link_error_recovery", "1");
    EXPECT_TRUE(narrow_read(5));
    for (int t = 6; t <= 20; ++t) {
        write("counters/link_error_recovery", std::to_string(t));
        EXPECT_TRUE(narrow_read(t)) << "poll " << t;
    }
    // Quiet from 20 on: read with the slow tier at 25 and 30 only.
    std::vector<bool> seen;
    for (int t = 21; t <= 30; ++t) seen.push_back(narrow_read(t));
    const std::vector<bool> want{true, true, true, true, true, false, false, false, false, true};
    EXPECT_EQ(seen, want);
}

TEST_F(NarrowCounters, AChangeOfStateReadsThemFast) {
    narrow_read(0);
    EXPECT_FALSE(narrow_read(1));
    // The link went down. The Active port's state is read again by the slow pass at 5 (or at
    // once after the PORT_ERR event, through refresh); from there link_downed and the error
    // counters are read on every pass, and so is the state of the port that is not Active.
    write("state", "1: DOWN");
    write("phys_state", "3: Disabled");
    EXPECT_FALSE(narrow_read(2));
    EXPECT_EQ(states_, 1u);
    for (int t = 3; t <= 4; ++t) narrow_read(t);
    EXPECT_TRUE(narrow_read(5));
    EXPECT_EQ(states_, 2u);
    EXPECT_TRUE(narrow_read(6));
    EXPECT_TRUE(narrow_read(7));
    EXPECT_EQ(states_, 4u);
    EXPECT_EQ(fast_ports(), 1);
}

TEST_F(NarrowCounters, AFastPassReportsOnlyTheCountersThatMoved) {
    narrow_read(0);
    EXPECT_EQ(last_.pma.size(), 21u) << "a slow pass reports every counter";
    narrow_read(1);
    EXPECT_TRUE(last_.pma.empty());
    write("counters/port_rcv_constraint_errors", "3");
    narrow_read(2);
    EXPECT_EQ(last_.pma, std::set<std::string>{"port_rcv_constraint_errors"});
    narrow_read(3);
    EXPECT_TRUE(last_.pma.empty()) << "3 again";
    // A bad cable: symbol_error moves and the narrow counters are read on every pass; only the
    // one that moved is reported.
    write("counters/symbol_error", "7");
    EXPECT_TRUE(narrow_read(5));
    EXPECT_EQ(last_.pma.size(), 21u);
    write("counters/symbol_error", "9");
    EXPECT_TRUE(narrow_read(6));
    EXPECT_EQ(last_.pma, std::set<std::string>{"symbol_error"});
    narrow_read(10);
    EXPECT_EQ(last_.pma.size(), 21u) << "and every counter with each slow pass";
}

TEST_F(NarrowCounters, TheDevicesAreListedWithTheTablesOnly) {
    EXPECT_EQ(src_->poll(seconds(0)).device_listings, 1u);
    for (int t = 1; t <= 20; ++t) {
        const auto p = src_->poll(seconds(t));
        EXPECT_EQ(p.device_listings, 0u) << "poll " << t;
        EXPECT_FALSE(p.device_list) << "poll " << t;
    }
}

TEST_F(NarrowCounters, ADeviceThatGoesAwayIsDroppedByTheNextPassWithoutAnError) {
    const std::string here = tmp_.path() + "/class/infiniband/mlx5_0";
    const std::string away = tmp_.path() + "/mlx5_0.away";
    src_->poll(seconds(0));
    src_->poll(seconds(1));
    ASSERT_EQ(std::rename(here.c_str(), away.c_str()), 0);
    // The fast pass fails its first read, finds the device's folder gone, leaves the device
    // and lists the devices again: none left (poll() checks that no error was reported).
    const auto gone = src_->poll(seconds(2));
    ASSERT_TRUE(gone.device_list);
    EXPECT_TRUE(gone.device_list->empty());
    EXPECT_EQ(gone.device_listings, 1u);
    // With nothing listed, every pass lists again: the device is back with the next one.
    ASSERT_EQ(std::rename(away.c_str(), here.c_str()), 0);
    const auto back = src_->poll(seconds(3));
    ASSERT_TRUE(back.device_list);
    EXPECT_EQ(*back.device_list, std::vector<std::string>{"mlx5_0"});
    EXPECT_EQ(back.states, 1u);
}

TEST_F(NarrowCounters, ANewDeviceIsSeenByTheNextTablesPass) {
    src_->poll(seconds(0));
    std::filesystem::copy(tmp_.path() + "/class/infiniband/mlx5_0",
                          tmp_.path() + "/class/infiniband/mlx5_9",
                          std::filesystem::copy_options::recursive);
    for (int t = 1; t <= 5; ++t) EXPECT_FALSE(src_->poll(seconds(t)).device_list) << t;
    const auto tables = src_->poll(seconds(600));
    ASSERT_TRUE(tables.device_list);
    EXPECT_EQ(*tables.device_list, (std::vector<std::string>{"mlx5_0", "mlx5_9"}));
}

TEST_F(NarrowCounters, APortComingUpHasItsStateReadEveryPass) {
    write("state", "2: INIT");
    narrow_read(0);
    for (int t = 1; t <= 3; ++t) narrow_read(t);
    EXPECT_EQ(states_, 4u);
    // Active at 3.5: seen by the pass at 4, and from then on read with the slow tier.
    write("state", "4: ACTIVE");
    for (int t = 4; t <= 9; ++t) narrow_read(t);
    EXPECT_EQ(states_, 4u + 1u + 1u);  // the pass at 4, the slow pass at 5
}

TEST_F(NarrowCounters, ARefreshReadsAnActivePortsStateAtOnce) {
    narrow_read(0);
    narrow_read(1);
    EXPECT_EQ(states_, 1u);
    sources::VectorSink sink;
    src_->source().refresh(PortRef{"mlx5_0", 1}, at(seconds(1) + milliseconds(500)), sink);
    EXPECT_EQ(all<PortStateSample>(sink.observations).size(), 1u);
}

TEST(SysfsCounterTiers, OneShotSamplesReadBothTiers) {
    sources::SourceSettings s;
    s.slow_counter_interval = seconds(3600);
    auto obs = sample_all(*source_at(fixture("mlx5-ib"), s));
    EXPECT_EQ(counters_by_name(obs, CounterKind::pma).size(), 21u);
    EXPECT_EQ(counters_by_name(obs, CounterKind::hw).size(), 18u);
}

}  // namespace
}  // namespace rdmadiag::sysfs
