#include "collector/daemon/collector_daemon.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"
#include "tests/collector/runtime/test_sources.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::daemon {
namespace {

using std::chrono::milliseconds;
using testing::ScriptedSource;

// Waits (bounded) until the store holds a snapshot satisfying `pred`: the daemon runs on its own
// thread on the system clock, so the test observes its publications rather than sleeping.
template <class Pred>
SnapshotPtr wait_for(const publish::SnapshotStore& store, Pred pred) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        auto s = store.latest();
        if (pred(*s)) return s;
        std::this_thread::yield();
    }
    return store.latest();
}

sources::SourceRegistry registry(std::atomic<int>& built) {
    sources::SourceRegistry r;
    r.add({"alpha", "device alpha", true,
           [&built](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
               ++built;
               std::string root = s.sysfs_root;
               return std::unique_ptr<sources::Source>(
                   std::make_unique<ScriptedSource>("alpha", milliseconds(5), [root](TimePoint) {
                       return std::vector<ObservationBody>{DeviceInfo{"alpha_" + root.substr(1)}};
                   }));
           }});
    r.add({"broken", "fails to build", false,
           [](const sources::SourceSettings&) -> Result<std::unique_ptr<sources::Source>> {
               return make_error("no permission to open /dev/infiniband/umad0");
           }});
    r.add({"throws", "throws while building", false,
           [](const sources::SourceSettings&) -> Result<std::unique_ptr<sources::Source>> {
               throw std::runtime_error("bad option");
           }});
    return r;
}

struct Fixture {
    std::atomic<int> built{0};
    sources::SourceRegistry reg = registry(built);
    publish::SnapshotStore store;
    common::Logger log{common::LogLevel::error, common::LogFormat::logfmt, [](std::string_view) {}};
    SystemClock clock;
};

bool has_device(const Snapshot& s, const std::string& name) {
    return s.find_device(name) != nullptr;
}

TEST(CollectorDaemon, StartsTheSelectedSourcesAndPublishes) {
    Fixture f;
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig c;
    c.collector.sources.sysfs_root = "/one";
    ASSERT_TRUE(d.start(c).ok());
    EXPECT_EQ(d.source_names(), std::vector<std::string>{"alpha"});
    auto s = wait_for(f.store, [](const Snapshot& x) { return has_device(x, "alpha_one"); });
    EXPECT_TRUE(has_device(*s, "alpha_one"));
    EXPECT_FALSE(d.start(c).ok());  // already running
    d.stop();
}

TEST(CollectorDaemon, ASourceThatCannotBeBuiltRunsAsDownWithTheReason) {
    Fixture f;
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig c;
    c.collector.source_switches = {{"broken", true}, {"throws", true}};
    ASSERT_TRUE(d.start(c).ok());
    auto s = wait_for(f.store, [](const Snapshot& x) { return x.sources.size() == 3; });
    ASSERT_EQ(s->sources.size(), 3u);
    for (const auto& src : s->sources) {
        if (src.name == "broken") {
            EXPECT_FALSE(src.up);
            EXPECT_EQ(src.reason, "no permission to open /dev/infiniband/umad0");
        } else if (src.name == "throws") {
            EXPECT_FALSE(src.up);
            EXPECT_EQ(src.reason, "bad option");
        } else {
            EXPECT_TRUE(src.up);
        }
    }
}

TEST(CollectorDaemon, ReloadRebuildsSourcesAndKeepsTheEngine) {
    Fixture f;
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig c;
    c.collector.sources.sysfs_root = "/one";
    ASSERT_TRUE(d.start(c).ok());
    wait_for(f.store, [](const Snapshot& x) { return has_device(x, "alpha_one"); });
    c.collector.sources.sysfs_root = "/two";
    ASSERT_TRUE(d.reload(c).ok());
    EXPECT_EQ(f.built.load(), 2);
    auto s = wait_for(f.store, [](const Snapshot& x) { return has_device(x, "alpha_two"); });
    EXPECT_TRUE(has_device(*s, "alpha_two"));
    EXPECT_TRUE(has_device(*s, "alpha_one"));  // the engine's state carried over
}

bool intends(const Snapshot& s, uint16_t pkey) {
    const Partition* p = s.partitions ? s.partitions->find(pkey) : nullptr;
    return p && p->intended;
}

TEST(CollectorDaemon, AReloadReadsPartitionsConfAgain) {
    Fixture f;
    f.reg.add(partitions_conf::partitions_source_entry());
    const test::TempDir dir("daemon-partitions");
    const std::string path = dir.file("partitions.conf");
    std::ofstream(path) << "Storage=0x8011 : ALL ;\n";
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig c;
    c.collector.sources.extra["partitions.conf"] = path;
    c.collector.source_switches["partitions"] = true;
    // No poll looks at the file again during the test: only the reload can bring the edit in.
    c.collector.sources.pkey_interval = std::chrono::hours(1);
    ASSERT_TRUE(d.start(c).ok());
    auto first = wait_for(f.store, [](const Snapshot& x) { return intends(x, 0x0011); });
    ASSERT_TRUE(intends(*first, 0x0011));
    std::ofstream(path, std::ios::trunc) << "Jobs=0x8022 : ALL ;\n";
    ASSERT_TRUE(d.reload(c).ok());
    auto after = wait_for(f.store, [](const Snapshot& x) { return intends(x, 0x0022); });
    EXPECT_TRUE(intends(*after, 0x0022));
    EXPECT_FALSE(intends(*after, 0x0011)) << "the new text replaces the old one";
    d.stop();
}

TEST(CollectorDaemon, AWrongSourceOptionStopsAStartAndAReloadKeepsWhatRuns) {
    Fixture f;
    f.reg.add(partitions_conf::partitions_source_entry());
    const test::TempDir dir("daemon-options");
    const std::string path = dir.file("partitions.conf");
    std::ofstream(path) << "Storage=0x8011 : ALL ;\n";
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig bad;
    bad.collector.sources.extra = {{"partitions.conf", path}, {"partitions.sm_port_guid", "0"}};
    auto refused = d.start(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message,
              "partitions source: partitions.sm_port_guid must be a GUID other than 0, not '0'");
    EXPECT_EQ(f.built.load(), 0) << "no source was built";

    DaemonConfig good;
    good.collector.sources.extra = {{"partitions.conf", path}};
    ASSERT_TRUE(d.start(good).ok());
    EXPECT_EQ(d.source_names(), (std::vector<std::string>{"alpha", "partitions"}));
    auto r = d.reload(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "partitions source: partitions.sm_port_guid must be a GUID other than 0, not '0'");
    EXPECT_EQ(d.source_names(), (std::vector<std::string>{"alpha", "partitions"}));
    auto s = wait_for(f.store, [](const Snapshot& x) { return intends(x, 0x0011); });
    EXPECT_TRUE(intends(*s, 0x0011)) << "the running partitions source still reads its file";
    d.stop();
}

TEST(CollectorDaemon, AFailedReloadKeepsTheRunningSources) {
    Fixture f;
    CollectorDaemon d(f.reg, engine::make_default_engine(), f.store, f.log, f.clock);
    DaemonConfig c;
    ASSERT_TRUE(d.start(c).ok());
    DaemonConfig bad;
    bad.collector.source_switches = {{"nonexistent", true}};
    auto r = d.reload(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "unknown source 'nonexistent'");
    EXPECT_EQ(d.source_names(), std::vector<std::string>{"alpha"});
    // Still running: its rounds go on (a round that reads what the last one read publishes the
    // same snapshot, so the rounds are counted, not the snapshots).
    auto rounds = [&] { return f.store.stats() ? f.store.stats()->loop_iterations : 0; };
    const uint64_t before = rounds();
    wait_for(f.store, [&](const Snapshot&) { return rounds() > before + 2; });
    EXPECT_GT(rounds(), before + 2);
}

}  // namespace
}  // namespace rdmadiag::daemon
