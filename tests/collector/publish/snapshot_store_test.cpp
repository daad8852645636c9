#include "collector/publish/snapshot_store.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace rdmadiag::publish {
namespace {

TEST(SnapshotStore, ServesAnEmptySnapshotBeforeTheFirstPublish) {
    SnapshotStore store;
    ASSERT_NE(store.latest(), nullptr);
    EXPECT_EQ(store.latest()->sequence, 0u);
    EXPECT_EQ(store.publications(), 0u);
    ASSERT_NE(store.stats(), nullptr);
}

TEST(SnapshotStore, ReadersKeepTheSnapshotTheyTookWhileANewOneIsPublished) {
    SnapshotStore store;
    auto first = std::make_shared<Snapshot>();
    first->sequence = 1;
    store.publish(first);
    auto held = store.latest();
    auto second = std::make_shared<Snapshot>();
    second->sequence = 2;
    store.publish(second);
    EXPECT_EQ(held->sequence, 1u);
    EXPECT_EQ(store.latest()->sequence, 2u);
    EXPECT_EQ(store.publications(), 2u);
}

TEST(SnapshotStore, RepublishingTheSameSnapshotAndNullAreNoOps) {
    SnapshotStore store;
    auto s = std::make_shared<const Snapshot>();
    store.publish(s);
    store.publish(s);
    store.publish(nullptr);
    EXPECT_EQ(store.publications(), 1u);
    EXPECT_EQ(store.latest(), s);
}

TEST(SnapshotStore, ConcurrentReadersAndAWriterSeeOnlyWholeSnapshots) {
    SnapshotStore store;
    std::atomic<bool> done{false};
    std::atomic<uint64_t> bad{0};
    std::thread reader([&] {
        while (!done) {
            auto s = store.latest();
            if (s->sequence != s->devices.size()) ++bad;
        }
    });
    for (uint64_t i = 1; i <= 2000; ++i) {
        auto s = std::make_shared<Snapshot>();
        s->sequence = i % 5;
        s->devices.resize(i % 5);
        store.publish(s);
    }
    done = true;
    reader.join();
    EXPECT_EQ(bad, 0u);
}

TEST(SnapshotStore, PublishesCollectorStats) {
    SnapshotStore store;
    CollectorStats stats;
    stats.loop_iterations = 7;
    store.publish_stats(stats);
    EXPECT_EQ(store.stats()->loop_iterations, 7u);
}

}  // namespace
}  // namespace rdmadiag::publish
