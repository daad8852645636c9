// The two counter tiers of the sysfs source: the fast tier and the port state every
// counter_interval, the slow tier only when slow_counter_interval is due.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "collector/sources/counter_tiers.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"

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

struct Poll {
    std::set<std::string> pma, hw;
    size_t states = 0;
    size_t reads = 0;  // files read
};

class TieredSource {
public:
    TieredSource(const std::string& fixture_name, sources::SourceSettings s) {
        auto reader = std::make_unique<FailingReader>();
        reader_ = reader.get();
        s.sysfs_root = fixture(fixture_name);
        src_ = std::make_unique<SysfsSource>(s, std::move(reader));
    }
    Poll poll(Duration t) {
        sources::VectorSink sink;
        reader_->reads.clear();
        src_->poll(at(t), sink);
        Poll p;
        for (const auto& c : all<CounterSample>(sink.observations)) {
            (c.kind == CounterKind::hw ? p.hw : p.pma).insert(c.name);
        }
        p.states = all<PortStateSample>(sink.observations).size();
        p.reads = reader_->reads.size();
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
        EXPECT_EQ(p.states, 1u) << "poll " << i;  // the port state keeps the fast cadence
        if (slow) {
            EXPECT_EQ(p.pma.size(), 21u) << "poll " << i;
            EXPECT_EQ(p.hw.size(), 18u) << "poll " << i;
            EXPECT_TRUE(p.pma.contains("port_xmit_data"));
            EXPECT_TRUE(p.pma.contains("port_xmit_wait"));
        } else {
            EXPECT_EQ(p.pma, kFastPma) << "poll " << i;
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
    // The port's state each time (the physical state of an Active port and its other
    // attributes come with the tables); 12 fast counters against 21 + 18.
    EXPECT_EQ(fast.reads, 1u + 12u);
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
    EXPECT_TRUE(fast.pma.contains("link_downed"));
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
        seen.emplace_back(p.pma.contains("symbol_error"), p.pma.contains("port_rcv_data"));
    }
    const std::vector<std::pair<bool, bool>> want{{true, true},  {false, false}, {true, false},
                                                  {false, true}, {true, false},  {false, false},
                                                  {true, true}};
    EXPECT_EQ(seen, want);
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
