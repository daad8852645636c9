// A tables pass reads the head of each P_Key table and GID table (its entries in use and
// kTableGuard more) and carries the rest from the last whole read; the whole table is read when
// the head changed, after a state change (and for P_Keys rising violations), on refresh, and every
// sysfs.pkey_full_interval.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::HasSubstr;

struct TablePass {
    std::vector<uint16_t> keys;
    size_t entries_read = 0;  // pkeys/ files read
    size_t listings = 0;      // pkeys/ listed (a whole read lists the folder)
};

class PKeyHead : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(tmp.ok());
        tmp.add_fixture("mlx5-ib");
        port = tmp.path() + "/class/infiniband/mlx5_0/ports/1";
        // The default partition and one more, at the start of the table as an SM puts them.
        for (int i = 0; i < 128; ++i) set_key(i, i == 0 ? "0xffff" : i == 1 ? "0x8001" : "0x0000");
        set_counter("port_rcv_constraint_errors", 0);
        set_counter("port_xmit_constraint_errors", 0);
        settings.counter_interval = seconds(1);
        settings.slow_counter_interval = seconds(15);
        settings.pkey_interval = seconds(10);
    }
    void set_key(int index, const std::string& key) {
        ASSERT_TRUE(
            test::write_text_file(port + "/pkeys/" + std::to_string(index), key + "\n").ok());
    }
    void set_counter(const std::string& name, uint64_t v) {
        ASSERT_TRUE(
            test::write_text_file(port + "/counters/" + name, std::to_string(v) + "\n").ok());
    }
    void start() {
        auto r = std::make_unique<FailingReader>();
        reader = r.get();
        auto made = make_sysfs_source(with_sysfs_options(settings), std::move(r));
        ASSERT_TRUE(made.ok()) << made.error().message;
        src = std::move(made).value();
    }
    // A poll at `t` seconds; the table of mlx5_0:1 if the pass read tables.
    std::optional<TablePass> poll(int t) {
        sources::VectorSink sink;
        reader->reads.clear();
        reader->listings.clear();
        src->poll(at(seconds(t)), sink);
        EXPECT_TRUE(all<SampleError>(sink.observations).empty()) << "poll at " << t;
        return table_of(sink.observations);
    }
    std::optional<TablePass> table_of(const std::vector<Observation>& obs) {
        for (const auto& t : all<PKeyTableSample>(obs)) {
            if (t.port != PortRef{"mlx5_0", 1}) continue;
            TablePass p;
            p.keys = t.table.keys;
            p.entries_read = std::count_if(
                reader->reads.begin(), reader->reads.end(),
                [&](const std::string& r) { return r.starts_with(port + "/pkeys/"); });
            p.listings =
                std::count(reader->listings.begin(), reader->listings.end(), port + "/pkeys");
            return p;
        }
        return std::nullopt;
    }

    test::TempTree tmp;
    std::string port;
    sources::SourceSettings settings;
    FailingReader* reader = nullptr;
    std::unique_ptr<sources::Source> src;
};

TEST_F(PKeyHead, TheFirstPassReadsTheWholeTableThenOnlyItsHead) {
    settings.sysfs_root = tmp.path();
    start();
    auto first = poll(0);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->entries_read, 128u);
    EXPECT_EQ(first->listings, 1u);
    EXPECT_EQ(first->keys.size(), 128u);
    EXPECT_EQ(first->keys[0], 0xffff);
    EXPECT_EQ(first->keys[1], 0x8001);

    EXPECT_FALSE(poll(5)) << "not a tables pass";
    auto head = poll(10);
    ASSERT_TRUE(head);
    EXPECT_EQ(head->entries_read, 2u + kTableGuard);
    EXPECT_EQ(head->listings, 0u);
    EXPECT_EQ(head->keys, first->keys) << "the rest of the table is carried";
}

TEST_F(PKeyHead, ANewKeyWhereTheSmPutsItIsSeenAtTheNextTablesPassWithTheWholeTable) {
    settings.sysfs_root = tmp.path();
    start();
    ASSERT_TRUE(poll(0));
    set_key(2, "0x8011");  // the first free entry
    set_key(1, "0x0000");  // and one removed
    auto changed = poll(10);
    ASSERT_TRUE(changed);
    // The head up to its first difference (entry 1), then the whole table.
    EXPECT_EQ(changed->entries_read, 2u + 128u);
    EXPECT_EQ(changed->keys[1], 0);
    EXPECT_EQ(changed->keys[2], 0x8011);
    // The head now runs to entry 2.
    EXPECT_EQ(poll(20)->entries_read, 3u + kTableGuard);
}

TEST_F(PKeyHead, AKeyBeyondTheHeadWaitsForTheWholeReadOfTheFullInterval) {
    settings.sysfs_root = tmp.path();
    settings.extra["sysfs.pkey_full_interval"] = "1m";
    start();
    ASSERT_TRUE(poll(0));
    set_key(100, "0x8022");  // set behind the SM's back, far from the keys in use
    for (int t = 10; t < 60; t += 10) {
        auto p = poll(t);
        ASSERT_TRUE(p);
        EXPECT_EQ(p->keys[100], 0) << "at " << t << " s";
    }
    auto whole = poll(60);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->entries_read, 128u);
    EXPECT_EQ(whole->keys[100], 0x8022);
    // In use now: the head covers it.
    EXPECT_EQ(poll(70)->entries_read, 101u + kTableGuard);
}

TEST_F(PKeyHead, RisingViolationsMakeTheNextTablesPassReadTheWholeTable) {
    settings.sysfs_root = tmp.path();
    start();
    ASSERT_TRUE(poll(0));
    set_key(100, "0x8022");
    set_counter("port_rcv_constraint_errors", 3);
    EXPECT_FALSE(poll(1));  // the fast tier sees the rise
    auto whole = poll(10);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->entries_read, 128u);
    EXPECT_EQ(whole->keys[100], 0x8022);
    // Violations that stay where they are do not: only the head again (now to entry 100).
    EXPECT_EQ(poll(20)->entries_read, 101u + kTableGuard);
    // Outbound ones count too.
    set_key(110, "0x8033");
    set_counter("port_xmit_constraint_errors", 1);
    EXPECT_FALSE(poll(21));
    EXPECT_EQ(poll(30)->keys[110], 0x8033);
}

TEST_F(PKeyHead, AStateChangeMakesTheNextTablesPassReadTheWholeTable) {
    settings.sysfs_root = tmp.path();
    start();
    ASSERT_TRUE(poll(0));
    set_key(100, "0x8022");
    ASSERT_TRUE(test::write_text_file(port + "/state", "1: DOWN\n").ok());
    EXPECT_FALSE(poll(1));
    auto whole = poll(10);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->keys[100], 0x8022);
}

TEST_F(PKeyHead, ARefreshReadsTheWholeTable) {
    settings.sysfs_root = tmp.path();
    start();
    ASSERT_TRUE(poll(0));
    set_key(100, "0x8022");
    sources::VectorSink sink;
    reader->reads.clear();
    reader->listings.clear();
    src->refresh(PortRef{"mlx5_0", 1}, at(seconds(3)), sink);
    auto refreshed = table_of(sink.observations);
    ASSERT_TRUE(refreshed);
    EXPECT_EQ(refreshed->keys[100], 0x8022);
}

TEST_F(PKeyHead, ATableWithAnUnreadableEntryIsReadWholeEachTime) {
    settings.sysfs_root = tmp.path();
    start();
    // Garbage in entry 50: reported, and the table is never carried.
    set_key(50, "garbage");
    sources::VectorSink sink;
    src->poll(at(seconds(0)), sink);
    EXPECT_FALSE(errors_by_subject(sink.observations).empty());
    reader->reads.clear();
    sources::VectorSink again;
    src->poll(at(seconds(10)), again);
    auto t = table_of(again.observations);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->entries_read, 128u);
}

// GIDs keep their table order past entry 9, where names sort otherwise.
TEST_F(PKeyHead, GidsComeInIndexOrder) {
    for (int i = 0; i < 12; ++i) {
        char gid[64];
        std::snprintf(gid, sizeof gid, "fe80:0000:0000:0000:0000:0000:0000:%04x\n", i + 1);
        ASSERT_TRUE(test::write_text_file(port + "/gids/" + std::to_string(i), gid).ok());
    }
    settings.sysfs_root = tmp.path();
    start();
    sources::VectorSink sink;
    src->poll(at(seconds(0)), sink);
    for (const auto& s : all<PortStateSample>(sink.observations)) {
        if (s.port != PortRef{"mlx5_0", 1}) continue;
        ASSERT_GE(s.gids.size(), 12u);
        EXPECT_EQ(s.gids[2], "fe80:0000:0000:0000:0000:0000:0000:0003");
        EXPECT_EQ(s.gids[10], "fe80:0000:0000:0000:0000:0000:0000:000b");
        EXPECT_EQ(s.gids[11], "fe80:0000:0000:0000:0000:0000:0000:000c");
        return;
    }
    FAIL() << "no state of mlx5_0:1";
}

// A RoCE-sized GID table: two addresses in use out of 32 entries.
class GidHead : public PKeyHead {
protected:
    void SetUp() override {
        PKeyHead::SetUp();
        for (int i = 0; i < 32; ++i) set_gid(i, i < 2 ? i + 1 : 0);
        settings.sysfs_root = tmp.path();
        settings.extra["sysfs.pkey_full_interval"] = "1m";
        start();
    }
    void set_gid(int index, int last) {
        char gid[64];
        std::snprintf(gid, sizeof gid, "%s:0000:0000:0000:0000:0000:0000:%04x\n",
                      last ? "fe80" : "0000", last);
        ASSERT_TRUE(test::write_text_file(port + "/gids/" + std::to_string(index), gid).ok());
    }
    struct GidPass {
        std::vector<std::string> gids;
        size_t entries_read = 0;
        std::vector<GidTableSample> views;  // the cache views sent
    };
    GidPass gid_poll(int t) {
        sources::VectorSink sink;
        reader->reads.clear();
        src->poll(at(seconds(t)), sink);
        GidPass p;
        for (const auto& s : all<PortStateSample>(sink.observations)) {
            if (s.port == PortRef{"mlx5_0", 1}) p.gids = s.gids;
        }
        p.views = all<GidTableSample>(sink.observations);
        p.entries_read =
            std::count_if(reader->reads.begin(), reader->reads.end(),
                          [&](const std::string& r) { return r.starts_with(port + "/gids/"); });
        return p;
    }
};

TEST_F(GidHead, ATablesPassReadsTheEntriesInUseAndTheGuard) {
    auto first = gid_poll(0);
    EXPECT_EQ(first.entries_read, 32u);
    EXPECT_EQ(first.gids.size(), 2u);
    EXPECT_EQ(gid_poll(1).entries_read, 0u) << "not a tables pass";
    auto head = gid_poll(10);
    EXPECT_EQ(head.entries_read, 2u + kTableGuard);
    EXPECT_EQ(head.gids, first.gids);
}

TEST_F(GidHead, AnAddressAddedInTheFirstFreeEntryIsSeenWithTheWholeTable) {
    ASSERT_EQ(gid_poll(0).gids.size(), 2u);
    set_gid(2, 3);
    auto added = gid_poll(10);
    EXPECT_EQ(added.entries_read, 3u + 32u) << "the head to its first difference, then all";
    ASSERT_EQ(added.gids.size(), 3u);
    EXPECT_EQ(added.gids[2], "fe80:0000:0000:0000:0000:0000:0000:0003");
}

TEST_F(GidHead, TheCacheViewIsSentWhenTheTableIsReadWhole) {
    auto first = gid_poll(0);
    ASSERT_EQ(first.views.size(), 1u);
    EXPECT_EQ(first.views[0].view, GidView::cache);
    ASSERT_EQ(first.views[0].table.entries.size(), 2u);
    EXPECT_EQ(first.views[0].table.entries[1].index, 1);
    EXPECT_TRUE(gid_poll(10).views.empty()) << "the head reads as it was";
    set_gid(2, 3);
    auto added = gid_poll(20);
    ASSERT_EQ(added.views.size(), 1u);
    EXPECT_EQ(added.views[0].table.entries.size(), 3u);
    EXPECT_EQ(gid_poll(60).views.size(), 1u) << "the whole tables confirm it";
}

TEST_F(GidHead, AnEntryBeyondTheHeadWaitsForTheWholeTablesOrAStateChange) {
    ASSERT_EQ(gid_poll(0).gids.size(), 2u);
    set_gid(30, 31);
    EXPECT_EQ(gid_poll(10).gids.size(), 2u);
    EXPECT_EQ(gid_poll(60).gids.size(), 3u) << "the whole tables";
    set_gid(29, 30);
    ASSERT_TRUE(test::write_text_file(port + "/state", "1: DOWN\n").ok());
    // A fast pass reads no Active port's state; the tables pass at 70 finds it changed, and
    // reads the GID table whole before it reports the port.
    EXPECT_EQ(gid_poll(61).entries_read, 0u);
    EXPECT_EQ(gid_poll(70).gids.size(), 4u) << "read whole after the state changed";
}

TEST(PKeyFullInterval, IsAtLeastThePKeyIntervalAndRefusesGarbage) {
    sources::SourceSettings s;
    s.pkey_interval = seconds(10);
    EXPECT_EQ(full_table_interval(with_sysfs_options(s)), kDefaultFullTableInterval);
    s.pkey_interval = minutes(10);
    EXPECT_EQ(full_table_interval(with_sysfs_options(s)), minutes(10))
        << "never shorter than the P_Key interval";
    s.extra["sysfs.pkey_full_interval"] = "1h";
    EXPECT_EQ(full_table_interval(with_sysfs_options(s)), minutes(60));
    for (const char* bad : {"5m", "soon", "", "-1s"}) {
        s.extra["sysfs.pkey_full_interval"] = bad;
        auto r = sources::resolve_source_options("sysfs", sysfs_options(), s);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_THAT(r.error().message, HasSubstr("sysfs source: sysfs.pkey_full_interval"));
    }
    s.extra["sysfs.pkey_full_interval"] = "5m";
    EXPECT_EQ(sources::resolve_source_options("sysfs", sysfs_options(), s).error().message,
              "sysfs source: sysfs.pkey_full_interval must be a duration no shorter than the "
              "P_Key interval (10m00s)");
}

}  // namespace
}  // namespace rdmadiag::sysfs
