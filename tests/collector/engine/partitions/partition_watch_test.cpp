#include "collector/engine/partitions/partition_watch.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "collector/engine/partitions/partition_findings.hpp"
#include "collector/engine/pkey/views/pkey_views.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::partitions {
namespace {

using test::obs;

// An engine with the P_Key views and the partition watch, fed as a collector feeds it: device
// identity, port state, P_Key tables, counters every second, and the partitions source's text.
class Watched : public ::testing::Test {
protected:
    Watched() {
        engine_.add_module(std::make_unique<engine::pkey::PKeyViews>());
        auto watch = std::make_unique<PartitionWatch>();
        watch_ = watch.get();
        engine_.add_module(std::move(watch));
    }

    void device(double t, const char* name, uint64_t guid) {
        DeviceInfo d;
        d.device = name;
        d.node_type = "CA";
        d.node_guid = guid;
        engine_.consume(obs(t, d, "sysfs"));
        PortStateSample p;
        p.port = PortRef{name, 1};
        p.state = PortState::active;
        p.link_layer = LinkLayer::infiniband;
        p.port_guid = guid;
        engine_.consume(obs(t, p, "sysfs"));
    }
    void table(double t, const char* name, std::vector<uint16_t> keys) {
        engine_.consume(obs(t, test::pkeys(name, 1, std::move(keys)), "sysfs"));
    }
    void counters(double t) {
        engine_.consume(obs(t, test::counter("ca1", 1, "port_rcv_data", 1000 * t), "sysfs"));
        engine_.consume(obs(t, test::counter("ca2", 1, "port_rcv_data", 2000 * t), "sysfs"));
    }
    void intent(double t, std::string text) {
        engine_.consume(obs(t,
                            PartitionsConfText{"/etc/opensm/partitions.conf", std::move(text), {}},
                            "partitions"));
    }
    const Finding* active(std::string_view rule) {
        for (const auto& f : engine_.snapshot()->findings)
            if (f.rule == rule) return remember(f);
        return nullptr;
    }
    const Finding* remember(const Finding& f) {
        kept_.push_back(f);
        return &kept_.back();
    }

    engine::Engine engine_;
    PartitionWatch* watch_ = nullptr;
    std::deque<Finding> kept_;
};

TEST_F(Watched, TheModelIsBuiltAgainOnlyWhenTablesOrTheIntentChange) {
    device(0, "ca1", 0x10);
    device(0, "ca2", 0x20);
    table(0, "ca1", {0xffff, 0x8011});
    table(0, "ca2", {0xffff});
    auto first = engine_.snapshot();
    ASSERT_TRUE(first->partitions);
    EXPECT_EQ(watch_->builds(), 1u);
    EXPECT_FALSE(first->partitions->intent);

    // A minute of counters every second, and the tables read back unchanged every 10 s.
    for (int t = 1; t <= 60; ++t) {
        counters(t);
        if (t % 10 == 0) {
            table(t, "ca1", {0xffff, 0x8011});
            table(t, "ca2", {0xffff});
        }
        auto snap = engine_.snapshot();
        ASSERT_EQ(snap->partitions, first->partitions) << "at " << t << " s";
    }
    EXPECT_EQ(watch_->builds(), 1u);

    table(61, "ca2", {0xffff, 0x8011});
    auto changed = engine_.snapshot();
    EXPECT_EQ(watch_->builds(), 2u);
    ASSERT_NE(changed->partitions, first->partitions);
    EXPECT_EQ(changed->partitions->find(0x0011)->members.size(), 2u);

    intent(62, "Storage=0x8011 : ALL_CAS=full ;\n");
    auto judged = engine_.snapshot();
    EXPECT_EQ(watch_->builds(), 3u);
    ASSERT_TRUE(judged->partitions->intent);
    EXPECT_EQ(judged->partitions->intent->path, "/etc/opensm/partitions.conf");

    // The source hands the same file over again after a reload: nothing to build.
    intent(70, "Storage=0x8011 : ALL_CAS=full ;\n");
    counters(70);
    EXPECT_EQ(engine_.snapshot()->partitions, judged->partitions);
    EXPECT_EQ(watch_->builds(), 3u);
}

TEST_F(Watched, FindingsFollowTheIntentAndTheTables) {
    device(0, "ca1", 0x10);
    device(0, "ca2", 0x20);
    table(0, "ca1", {0xffff, 0x8011});
    table(0, "ca2", {0xffff});
    EXPECT_EQ(active(kRuleMemberMissing), nullptr) << "no intent, nothing judged";

    intent(1, "Default=0x7fff : ALL=full ;\nStorage=0x8011 : 0x10=full, 0x20=full ;\n");
    const Finding* missing = active(kRuleMemberMissing);
    ASSERT_NE(missing, nullptr);
    EXPECT_EQ(missing->subject.pkey, 0x0011);
    EXPECT_EQ(missing->since, test::at(1));
    EXPECT_NE(missing->evidence.find("/etc/opensm/partitions.conf"), std::string::npos);

    // The SM programs the port: the finding clears with the next table read.
    table(10, "ca2", {0xffff, 0x8011});
    EXPECT_EQ(active(kRuleMemberMissing), nullptr);

    // The file is edited: ca1 should be a limited member now.
    intent(20, "Default=0x7fff : ALL=full ;\nStorage=0x8011 : 0x10=limited, 0x20=full ;\n");
    const Finding* mismatch = active(kRuleMembershipMismatch);
    ASSERT_NE(mismatch, nullptr);
    EXPECT_NE(mismatch->evidence.find("(intended limited; device holds full)"), std::string::npos)
        << mismatch->evidence;
}

TEST_F(Watched, AnIntentThatNamesNoPortStillJudgesTheRest) {
    device(0, "ca1", 0x10);
    table(0, "ca1", {0xffff});
    intent(1, "Default=0x7fff : ALL=full ;\nStorage=0x8011 : 0xbeef=full ;\n");
    auto snap = engine_.snapshot();
    ASSERT_TRUE(snap->partitions);
    EXPECT_EQ(snap->partitions->unresolved,
              (std::vector<std::string>{"line 2: no port has GUID 0x000000000000beef"}));
    EXPECT_EQ(active(kRuleMemberMissing), nullptr);
    EXPECT_EQ(active(kRuleUnexpectedMember), nullptr);
    const Partition* storage = snap->partitions->find(0x0011);
    ASSERT_NE(storage, nullptr);
    EXPECT_TRUE(storage->intended);
    EXPECT_TRUE(storage->members.empty());
}

}  // namespace
}  // namespace rdmadiag::partitions
